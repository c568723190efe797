// extension.ts against a stub `vscode` and a fake LanguageClient: what is
// registered, what the client is given, restart and the missing-binary path.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, beforeEach, test } from 'node:test';

import * as stub from './stubs/vscode';

stub.install();
// Loaded after install() so its `vscode` imports resolve to the stub.
const ext: typeof import('../src/extension') = require('../src/extension');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pallas-ls-ext-'));
const binDir = path.join(tmp, 'bin');
const binary = path.join(binDir, 'pallas-ls');
const emptyHome = path.join(tmp, 'home');
fs.mkdirSync(binDir);
fs.mkdirSync(emptyHome);
const savedEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], GOPATH: process.env['GOPATH'], GOBIN: process.env['GOBIN'] };

function installBinary(): void {
  fs.writeFileSync(binary, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
}

let lastContext: ReturnType<typeof stub.fakeContext> | undefined;

async function activate() {
  const context = stub.fakeContext(path.join(tmp, 'extension'));
  lastContext = context;
  await ext.activate(context as never);
  const client = stub.recorded.clients[stub.recorded.clients.length - 1];
  return { context, client, status: stub.recorded.statusItems[0]!, output: stub.recorded.outputs[0]! };
}

// What VS Code does when an extension is deactivated.
async function deactivate(): Promise<void> {
  await ext.deactivate();
  for (const d of lastContext?.subscriptions.splice(0) ?? []) d.dispose();
}

beforeEach(async () => {
  await deactivate();
  process.env['PATH'] = binDir;
  process.env['HOME'] = emptyHome;
  delete process.env['GOPATH'];
  delete process.env['GOBIN'];
  fs.rmSync(binary, { force: true });
  for (const k of Object.keys(stub.settings)) delete stub.settings[k];
  stub.setWorkspaceFolders([tmp]);
  stub.FakeLanguageClient.startError = undefined;
  stub.recorded.errorAnswer = undefined;
  stub.recorded.clients.length = 0;
  stub.recorded.statusItems.length = 0;
  stub.recorded.outputs.length = 0;
  stub.recorded.watchers.length = 0;
  stub.recorded.errors.length = 0;
  stub.recorded.executed.length = 0;
  stub.recorded.clipboard.length = 0;
  stub.recorded.commands.clear();
  stub.FakeLanguageClient.answers = {};
  stub.editor.activeTextEditor = undefined;
});

after(async () => {
  await deactivate();
  Object.assign(process.env, savedEnv);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('activate starts `pallas-ls serve` for Python files with the settings as initializationOptions', { skip: process.platform === 'win32' }, async () => {
  installBinary();
  Object.assign(stub.settings, {
    'pallas-ls.jaxVersion': '0.8',
    'pallas-ls.select': ['PAL1*'],
    'pallas-ls.ignore': ['pal103'],
    'pallas-ls.showInfo': false,
    'pallas-ls.platform': 'TPU',
    'pallas-ls.tpuChip': 'v5e',
    'pallas-ls.contextLabels': 'codeLens',
  });
  const { client, status, output } = await activate();
  assert.ok(client, 'a LanguageClient was created');
  assert.equal(client.id, 'pallas-ls'); // so the client reads pallas-ls.trace.server
  assert.deepEqual(client.serverOptions, { command: binary, args: ['serve'] });
  assert.equal('transport' in client.serverOptions, false, 'no transport: it would append --stdio');
  const opts = client.clientOptions;
  assert.deepEqual(opts.documentSelector, [{ scheme: 'file', language: 'python' }]);
  assert.equal(opts.outputChannel, output);
  assert.equal(opts.synchronize.configurationSection, 'pallas-ls');
  assert.equal(opts.synchronize.fileEvents.pattern, ext.WATCHED_FILES);
  assert.deepEqual(opts.initializationOptions(), {
    jaxVersion: '0.8',
    select: ['PAL1*'],
    ignore: ['PAL103'],
    showInfo: false,
    platform: 'tpu',
    tpuChip: 'v5e',
    contextLabels: 'codeLens',
  });
  assert.equal(client.started, true);

  // workspace/configuration answers go through the shaping middleware.
  const params = { items: [{ section: 'pallas-ls' }, { section: 'editor' }] };
  const next = async () => [{ path: '/x', jaxVersion: '0.8', select: [], ignore: [], showInfo: true, trace: { server: 'off' } }, { tabSize: 4 }];
  const answer = await opts.middleware.workspace.configuration(params, undefined, next);
  assert.deepEqual(answer, [
    { jaxVersion: '0.8', select: [], ignore: [], showInfo: true, platform: '', tpuChip: '', contextLabels: 'auto' },
    { tabSize: 4 },
  ]);

  assert.equal(status.visible, true);
  assert.equal(status.text, '$(check) pallas-ls');
  assert.match(String(status.tooltip), /0\.1\.0/);
  assert.equal(status.command, ext.SHOW_OUTPUT_COMMAND);
  assert.ok(stub.recorded.commands.has(ext.RESTART_COMMAND));
  assert.ok(stub.recorded.commands.has(ext.SHOW_OUTPUT_COMMAND));
  assert.deepEqual(stub.recorded.errors, []);
});

test('the restart command replaces the client and picks up new settings', { skip: process.platform === 'win32' }, async () => {
  installBinary();
  const { client } = await activate();
  stub.settings['pallas-ls.jaxVersion'] = '0.11';
  await stub.recorded.commands.get(ext.RESTART_COMMAND)!();
  assert.equal(stub.recorded.clients.length, 2);
  assert.equal(client!.disposed, true);
  assert.equal(stub.recorded.watchers[0]!.disposed, true, 'the old file watcher is released');
  const second = stub.recorded.clients[1]!;
  assert.equal(second.started, true);
  assert.equal(second.clientOptions.initializationOptions().jaxVersion, '0.11');
});

test('changing pallas-ls.path restarts; other settings are pulled live', { skip: process.platform === 'win32' }, async () => {
  installBinary();
  await activate();
  stub.configurationChanged.fire({ affectsConfiguration: (s) => s === 'pallas-ls' || s === 'pallas-ls.select' });
  await new Promise((r) => setImmediate(r));
  assert.equal(stub.recorded.clients.length, 1);
  stub.configurationChanged.fire({ affectsConfiguration: (s) => s === 'pallas-ls' || s === 'pallas-ls.path' });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(stub.recorded.clients.length, 2);
});

test('missing binary: one clear error with the fix, no client, no loop', async () => {
  stub.recorded.errorAnswer = 'Copy Install Command';
  const { status, output } = await activate();
  assert.equal(stub.recorded.clients.length, 0);
  assert.equal(stub.recorded.errors.length, 1);
  const err = stub.recorded.errors[0]!;
  assert.match(err.message, /go install github\.com\/pallas-ls\/pallas-ls\/cmd\/pallas-ls@latest/);
  assert.match(err.message, /pallas-ls\.path/);
  assert.deepEqual(err.items, ['Open Settings', 'Copy Install Command']);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(stub.recorded.clipboard, ['go install github.com/pallas-ls/pallas-ls/cmd/pallas-ls@latest']);
  assert.equal(status.text, '$(error) pallas-ls: not found');
  assert.ok(output.lines.some((l) => l.includes('Tried:')));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(stub.recorded.errors.length, 1, 'no repeated notifications');

  if (process.platform !== 'win32') {
    installBinary();
    await stub.recorded.commands.get(ext.RESTART_COMMAND)!();
    assert.equal(stub.recorded.clients.length, 1);
    assert.equal(status.text, '$(check) pallas-ls');
  }
});

test('"Open Settings" opens the pallas-ls.path setting', async () => {
  stub.recorded.errorAnswer = 'Open Settings';
  await activate();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(stub.recorded.executed, [{ command: 'workbench.action.openSettings', args: ['pallas-ls.path'] }]);
});

test('a wrong pallas-ls.path is reported, not replaced by the binary on PATH', { skip: process.platform === 'win32' }, async () => {
  installBinary();
  stub.settings['pallas-ls.path'] = path.join(tmp, 'nope', 'pallas-ls');
  await activate();
  assert.equal(stub.recorded.clients.length, 0);
  assert.match(stub.recorded.errors[0]!.message, /"pallas-ls\.path" setting .* is not an executable file/);
});

test('a failing server start shows an error status once', { skip: process.platform === 'win32' }, async () => {
  installBinary();
  stub.FakeLanguageClient.startError = new Error('initialize failed');
  const { status, client } = await activate();
  assert.equal(client!.disposed, true);
  assert.equal(status.text, '$(error) pallas-ls');
  assert.match(String(status.tooltip), /initialize failed/);
});

test('deactivate stops the server', { skip: process.platform === 'win32' }, async () => {
  installBinary();
  const { client, status } = await activate();
  await ext.deactivate();
  assert.equal(client!.disposed, true);
  assert.equal(status.text, '$(circle-slash) pallas-ls');
});

test('the status item shows the JAX version and platform of the active file, and why', { skip: process.platform === 'win32' }, async () => {
  installBinary();
  stub.FakeLanguageClient.answers['workspace/executeCommand'] = {
    server: 'pallas-ls 0.1.0',
    folder: '/w',
    jaxVersion: '0.11',
    jaxVersionReason: 'jax pin `jax==0.11.0` in /w/pyproject.toml',
    platform: 'tpu',
    platformReason: 'editor setting pallas-ls.platform = tpu',
    tpuChip: 'v5e',
    contextLabels: 'auto',
    files: 3,
  };
  stub.editor.activeTextEditor = { document: { uri: { scheme: 'file', toString: () => 'file:///w/a.py' } } };
  const { client, status } = await activate();
  await new Promise((r) => setTimeout(r, 400));
  assert.deepEqual(client!.requests, [
    { method: 'workspace/executeCommand', params: { command: ext.SERVER_STATUS_COMMAND, arguments: ['file:///w/a.py'] } },
  ]);
  assert.equal(status.text, '$(check) pallas-ls: JAX 0.11 · tpu v5e');
  assert.match(String(status.tooltip), /JAX 0\.11: jax pin/);
  assert.match(String(status.tooltip), /Platform tpu: editor setting pallas-ls\.platform = tpu/);

  // Refreshed, batched, when the diagnostics change.
  stub.FakeLanguageClient.answers['workspace/executeCommand'] = { jaxVersion: '0.8', platform: 'auto', platformReason: 'x' };
  stub.diagnosticsChanged.fire({});
  stub.diagnosticsChanged.fire({});
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(client!.requests.length, 2);
  assert.equal(status.text, '$(check) pallas-ls: JAX 0.8 · auto');

  // A server that does not know the command leaves the plain item.
  stub.FakeLanguageClient.answers['workspace/executeCommand'] = null;
  stub.activeEditorChanged.fire(undefined);
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(status.text, '$(check) pallas-ls: JAX 0.8 · auto');
});

test('package.json declares every setting the extension reads, with the accepted values', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  const props = pkg.contributes.configuration.properties;
  for (const key of ['path', 'jaxVersion', 'select', 'ignore', 'showInfo', 'platform', 'tpuChip', 'contextLabels']) {
    assert.ok(props[`pallas-ls.${key}`], `pallas-ls.${key} is declared`);
  }
  const settingsMod: typeof import('../src/settings') = require('../src/settings');
  assert.deepEqual(props['pallas-ls.platform'].enum, ['', ...settingsMod.PLATFORMS]);
  assert.deepEqual(props['pallas-ls.contextLabels'].enum, [...settingsMod.CONTEXT_LABELS]);
  assert.equal(props['pallas-ls.contextLabels'].default, settingsMod.DEFAULT_SETTINGS.contextLabels);
  assert.equal(props['pallas-ls.tpuChip'].default, '');
});
