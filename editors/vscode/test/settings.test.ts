import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  DEFAULT_SETTINGS,
  needsRestart,
  readSettings,
  serverArgs,
  settingsFromObject,
  shapeConfiguration,
  toServerSettings,
} from '../src/settings';

test('defaults when nothing is set', () => {
  const s = readSettings(() => undefined);
  assert.deepEqual(s, DEFAULT_SETTINGS);
  assert.deepEqual(toServerSettings(s), {
    jaxVersion: '',
    select: [],
    ignore: [],
    showInfo: true,
    platform: '',
    tpuChip: '',
    contextLabels: 'auto',
  });
});

test('settings become initializationOptions {jaxVersion, select, ignore, showInfo}', () => {
  const values: Record<string, unknown> = {
    path: ' /opt/pallas-ls ',
    jaxVersion: ' 0.8.1 ',
    select: ['pal1*', 'PAL301', ' '],
    ignore: 'PAL103, pal902',
    showInfo: false,
    platform: ' GPU ',
    tpuChip: ' v6e ',
    contextLabels: 'both',
  };
  const s = readSettings((k) => values[k]);
  assert.equal(s.path, '/opt/pallas-ls');
  const init = toServerSettings(s);
  assert.deepEqual(init, {
    jaxVersion: '0.8.1',
    select: ['PAL1*', 'PAL301'],
    ignore: ['PAL103', 'PAL902'],
    showInfo: false,
    platform: 'gpu',
    tpuChip: 'v6e',
    contextLabels: 'both',
  });
  // The binary path and trace level are the client's business, not the server's.
  assert.deepEqual(Object.keys(init).sort(), ['contextLabels', 'ignore', 'jaxVersion', 'platform', 'select', 'showInfo', 'tpuChip']);
  assert.deepEqual(JSON.parse(JSON.stringify(init)), init);
});

test('wrong types fall back to defaults', () => {
  const values: Record<string, unknown> = {
    jaxVersion: 11,
    select: [1, 'PAL101'],
    ignore: null,
    showInfo: 'no',
    platform: 'cpu',
    tpuChip: 5,
    contextLabels: 'sideways',
  };
  assert.deepEqual(toServerSettings(readSettings((k) => values[k])), {
    jaxVersion: '',
    select: ['PAL101'],
    ignore: [],
    showInfo: true,
    platform: '',
    tpuChip: '',
    contextLabels: 'auto',
  });
});

test('workspace/configuration for section pallas-ls answers the initializationOptions shape', () => {
  const raw = { path: '/x', jaxVersion: '0.11', select: ['PAL1*'], ignore: [], showInfo: true, trace: { server: 'off' } };
  const out = shapeConfiguration(
    [{ section: 'pallas-ls' }, { section: 'pallas-ls.jaxVersion' }, { section: 'python' }, {}],
    [raw, '0.11', { foo: 1 }, null],
  );
  assert.deepEqual(out, [
    { jaxVersion: '0.11', select: ['PAL1*'], ignore: [], showInfo: true, platform: '', tpuChip: '', contextLabels: 'auto' },
    '0.11',
    { foo: 1 },
    null,
  ]);
  assert.deepEqual(settingsFromObject(undefined), DEFAULT_SETTINGS);
});

test('server is started as `pallas-ls serve`', () => {
  assert.deepEqual(serverArgs(), ['serve']);
});

test('only a new binary path needs a restart', () => {
  assert.equal(needsRestart((s) => s === 'pallas-ls.path'), true);
  assert.equal(needsRestart((s) => s === 'pallas-ls' || s === 'pallas-ls.select'), false);
});
