import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { BinaryResult } from '../src/binary';
import { type ClientHandle, type ClientState, type ControllerDeps, ServerController } from '../src/controller';
import { type ServerStatus, statusView } from '../src/status';

class FakeClient implements ClientHandle {
  started = 0;
  disposed = 0;
  constructor(
    readonly binary: string,
    readonly onState: (s: ClientState) => void,
    private readonly failWith?: Error,
  ) {}
  async start(): Promise<void> {
    this.onState('starting');
    if (this.failWith) throw this.failWith;
    this.started++;
    this.onState('running');
  }
  async dispose(): Promise<void> {
    this.disposed++;
    this.onState('stopped');
  }
  serverVersion(): string | undefined {
    return '0.1.0';
  }
  /** The status command's answer (a function: it may throw). */
  context: () => unknown = () => undefined;
  readonly asked: Array<string | undefined> = [];
  async checkContext(uri?: string): Promise<unknown> {
    this.asked.push(uri);
    return this.context();
  }
}

function harness(binary: BinaryResult, failWith?: Error) {
  const h = {
    binary,
    failWith,
    clients: [] as FakeClient[],
    missing: [] as string[],
    statuses: [] as ServerStatus[],
    logs: [] as string[],
  };
  const deps: ControllerDeps = {
    resolveBinary: () => h.binary,
    createClient: (b, onState) => {
      const c = new FakeClient(b, onState, h.failWith);
      h.clients.push(c);
      return c;
    },
    reportMissing: (m) => h.missing.push(m),
    setStatus: (s) => h.statuses.push(s),
    log: (m) => h.logs.push(m),
  };
  return { h, ctl: new ServerController(deps), last: () => h.statuses[h.statuses.length - 1] };
}

const found: BinaryResult = { found: true, path: '/usr/bin/pallas-ls', source: 'PATH' };
const missing: BinaryResult = { found: false, message: 'pallas-ls: not found; go install ...', tried: ['/usr/bin/pallas-ls'] };

test('start runs one client and shows it running', async () => {
  const { h, ctl, last } = harness(found);
  await ctl.start();
  await ctl.start(); // idempotent
  assert.equal(h.clients.length, 1);
  assert.equal(h.clients[0]?.started, 1);
  assert.deepEqual(last(), { kind: 'running', binary: '/usr/bin/pallas-ls', version: '0.1.0' });
  assert.ok(h.logs.some((l) => l.includes('found via PATH')));
});

test('restart disposes the old client and starts a new one', async () => {
  const { h, ctl, last } = harness(found);
  await ctl.start();
  await ctl.restart();
  assert.equal(h.clients.length, 2);
  assert.equal(h.clients[0]?.disposed, 1);
  assert.equal(h.clients[1]?.started, 1);
  assert.equal(last()?.kind, 'running');
});

test('concurrent restarts run one after another', async () => {
  const { h, ctl } = harness(found);
  await Promise.all([ctl.start(), ctl.restart(), ctl.restart()]);
  assert.equal(h.clients.length, 3);
  assert.deepEqual(h.clients.map((c) => c.disposed), [1, 1, 0]);
  assert.equal(ctl.active, true);
});

test('a replaced client cannot overwrite the status of its successor', async () => {
  const { h, ctl, last } = harness(found);
  await ctl.start();
  await ctl.restart();
  h.clients[0]?.onState('stopped');
  assert.equal(last()?.kind, 'running');
  h.clients[1]?.onState('stopped');
  assert.equal(last()?.kind, 'stopped');
});

test('missing binary: one error, no client, no retry; restart after install works', async () => {
  const { h, ctl, last } = harness(missing);
  await ctl.start();
  assert.deepEqual(h.missing, [missing.found ? '' : missing.message]);
  assert.equal(h.clients.length, 0);
  assert.equal(last()?.kind, 'missing');
  assert.equal(ctl.active, false);
  assert.match(statusView(last()!).text, /not found/);

  h.binary = found;
  await ctl.restart();
  assert.equal(h.clients.length, 1);
  assert.equal(h.missing.length, 1);
  assert.equal(last()?.kind, 'running');
});

test('a server that fails to start is disposed and reported, not retried', async () => {
  const { h, ctl, last } = harness(found, new Error('exec format error'));
  await ctl.start();
  assert.equal(h.clients.length, 1);
  assert.equal(h.clients[0]?.disposed, 1);
  assert.equal(ctl.active, false);
  const s = last();
  assert.equal(s?.kind, 'failed');
  assert.match(s?.kind === 'failed' ? s.message : '', /exec format error/);
  assert.equal(statusView(s!).error, true);
});

test('stop disposes the client and shows stopped', async () => {
  const { h, ctl, last } = harness(found);
  await ctl.start();
  await ctl.stop();
  assert.equal(h.clients[0]?.disposed, 1);
  assert.equal(ctl.active, false);
  assert.equal(last()?.kind, 'stopped');
});

test('status texts', () => {
  assert.equal(statusView({ kind: 'starting', binary: '/b' }).text, '$(sync~spin) pallas-ls');
  assert.match(statusView({ kind: 'running', binary: '/b', version: '0.1.0' }).tooltip, /pallas-ls 0\.1\.0: running \/b/);
  assert.match(statusView({ kind: 'stopped' }).tooltip, /Restart pallas-ls/);
  assert.equal(statusView({ kind: 'missing', message: 'm' }).error, true);
});

test('refreshContext puts the JAX version and platform into the running status', async () => {
  const { h, ctl, last } = harness(found);
  await ctl.refreshContext('file:///a.py'); // no server yet: nothing asked
  await ctl.start();
  const c = h.clients[0]!;
  c.context = () => ({ jaxVersion: '0.11', jaxVersionReason: 'pin', platform: 'tpu', platformReason: 'setting', tpuChip: '', files: 2 });
  await ctl.refreshContext('file:///a.py');
  assert.deepEqual(c.asked, ['file:///a.py']);
  const s = last()!;
  assert.equal(s.kind, 'running');
  assert.equal(statusView(s).text, '$(check) pallas-ls: JAX 0.11 · tpu');
  assert.match(statusView(s).tooltip, /JAX 0\.11: pin\nPlatform tpu: setting/);

  // A failing or meaningless answer keeps what is shown, and is logged.
  const before = h.statuses.length;
  c.context = () => {
    throw new Error('boom');
  };
  await ctl.refreshContext();
  c.context = () => 'nonsense';
  await ctl.refreshContext();
  assert.equal(h.statuses.length, before);
  assert.ok(h.logs.some((l) => l.includes('boom')));

  // A restart forgets the old context until the new server answers.
  await ctl.restart();
  assert.equal(statusView(last()!).text, '$(check) pallas-ls');
});
