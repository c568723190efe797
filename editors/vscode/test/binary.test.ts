import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

import { type BinaryHost, findServerBinary, INSTALL_COMMAND, nodeHost } from '../src/binary';

function host(files: string[], env: Record<string, string> = {}, platform: NodeJS.Platform = 'linux'): BinaryHost {
  const set = new Set(files);
  return { platform, env, homedir: platform === 'win32' ? 'C:\\Users\\me' : '/home/me', isExecutableFile: (f) => set.has(f) };
}

const lookup = { configuredPath: '', extensionPath: '/ext', workspaceFolders: ['/ws'] };
const everywhere = ['/cfg/pallas-ls', '/ext/bin/pallas-ls', '/usr/bin/pallas-ls', '/home/me/go/bin/pallas-ls'];

test('the setting wins over everything', () => {
  const r = findServerBinary({ ...lookup, configuredPath: '/cfg/pallas-ls' }, host(everywhere, { PATH: '/usr/bin' }));
  assert.deepEqual(r, { found: true, path: '/cfg/pallas-ls', source: 'setting' });
});

test('then the bundled bin/, then PATH, then Go bin directories', () => {
  const env = { PATH: '/nope:/usr/bin' };
  assert.deepEqual(findServerBinary(lookup, host(everywhere, env)), { found: true, path: '/ext/bin/pallas-ls', source: 'bundled' });
  assert.deepEqual(findServerBinary(lookup, host(everywhere.slice(2), env)), { found: true, path: '/usr/bin/pallas-ls', source: 'PATH' });
  assert.deepEqual(findServerBinary(lookup, host(everywhere.slice(3), env)), {
    found: true,
    path: '/home/me/go/bin/pallas-ls',
    source: 'Go bin directory',
  });
});

test('GOBIN and GOPATH come before ~/go/bin', () => {
  const files = ['/gobin/pallas-ls', '/gp2/bin/pallas-ls', '/home/me/go/bin/pallas-ls'];
  const env = { PATH: '', GOPATH: '/gp1:/gp2' };
  const r1 = findServerBinary(lookup, host(files, env));
  assert.ok(r1.found && r1.path === '/gp2/bin/pallas-ls');
  const r2 = findServerBinary(lookup, host(files, { ...env, GOBIN: '/gobin' }));
  assert.ok(r2.found && r2.path === '/gobin/pallas-ls');
});

test('a missing binary gives one message with the install command and the setting', () => {
  const r = findServerBinary(lookup, host([], { PATH: '/usr/bin:/bin' }));
  assert.equal(r.found, false);
  if (r.found) return;
  assert.ok(r.message.includes(INSTALL_COMMAND), r.message);
  assert.match(r.message, /pallas-ls\.path/);
  assert.deepEqual(r.tried, ['/ext/bin/pallas-ls', '/usr/bin/pallas-ls', '/bin/pallas-ls', '/home/me/go/bin/pallas-ls']);
});

test('a wrong setting is an error, not a silent fallback to PATH', () => {
  const r = findServerBinary({ ...lookup, configuredPath: '/typo/pallas-ls' }, host(everywhere, { PATH: '/usr/bin' }));
  assert.equal(r.found, false);
  if (r.found) return;
  assert.match(r.message, /"pallas-ls\.path" setting \("\/typo\/pallas-ls"\) is not an executable file/);
  assert.ok(r.message.includes(INSTALL_COMMAND));
});

test('setting: ~, ${workspaceFolder} and relative paths', () => {
  const files = ['/home/me/bin/pallas-ls', '/ws/tools/pallas-ls'];
  const h = host(files);
  const at = (configuredPath: string, folders = ['/ws']) => findServerBinary({ ...lookup, configuredPath, workspaceFolders: folders }, h);
  assert.deepEqual(at('~/bin/pallas-ls'), { found: true, path: '/home/me/bin/pallas-ls', source: 'setting' });
  assert.deepEqual(at('${workspaceFolder}/tools/pallas-ls'), { found: true, path: '/ws/tools/pallas-ls', source: 'setting' });
  assert.deepEqual(at('tools/pallas-ls'), { found: true, path: '/ws/tools/pallas-ls', source: 'setting' });
  const none = at('tools/pallas-ls', []);
  assert.ok(!none.found && /relative and no workspace folder/.test(none.message));
});

test('windows: pallas-ls.exe, ; separated PATH, setting without .exe', () => {
  const files = ['C:\\go\\bin\\pallas-ls.exe', 'D:\\tools\\pallas-ls.exe'];
  const h = host(files, { Path: 'C:\\Windows;"C:\\go\\bin"' }, 'win32');
  const l = { configuredPath: '', extensionPath: 'C:\\ext', workspaceFolders: ['C:\\ws'] };
  assert.deepEqual(findServerBinary(l, h), { found: true, path: 'C:\\go\\bin\\pallas-ls.exe', source: 'PATH' });
  assert.deepEqual(findServerBinary({ ...l, configuredPath: 'D:\\tools\\pallas-ls' }, h), {
    found: true,
    path: 'D:\\tools\\pallas-ls.exe',
    source: 'setting',
  });
});

test('nodeHost only accepts executable regular files', { skip: process.platform === 'win32' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pallas-ls-bin-'));
  try {
    const exe = path.join(dir, 'exe');
    const plain = path.join(dir, 'plain');
    fs.writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(plain, '', { mode: 0o644 });
    const h = nodeHost();
    assert.equal(h.isExecutableFile(exe), true);
    assert.equal(h.isExecutableFile(plain), false);
    assert.equal(h.isExecutableFile(dir), false);
    assert.equal(h.isExecutableFile(path.join(dir, 'absent')), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
