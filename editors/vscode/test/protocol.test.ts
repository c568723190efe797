// End to end over the Language Server Protocol: starts the real
// `pallas-ls serve` (PALLAS_LS_BIN) on a temporary copy of test/fixture, and
// checks what the VS Code client relies on: pushed PAL101 diagnostics at the
// kernel call, quick fixes, hover, the context label (inlay hint), the call
// hierarchy, the status command behind the status bar item, the suppression
// round trip and a clean shutdown. Skipped when PALLAS_LS_BIN is unset (no binary built yet).

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyPrepareRequest,
  type ClientCapabilities,
  type CodeAction,
  CodeActionRequest,
  type Command,
  ConfigurationRequest,
  createProtocolConnection,
  type Diagnostic,
  DiagnosticSeverity,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExecuteCommandRequest,
  ExitNotification,
  HoverRequest,
  type Hover,
  InitializedNotification,
  InitializeRequest,
  InlayHintRequest,
  LogMessageNotification,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  RegistrationRequest,
  ShowMessageNotification,
  ShowMessageRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type TextEdit,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  type WorkspaceEdit,
  WorkspaceFoldersRequest,
} from 'vscode-languageserver-protocol/node';

import { DEFAULT_SETTINGS, SECTION, toServerSettings } from '../src/settings';

const BIN = process.env['PALLAS_LS_BIN'];
const FIXTURE = path.resolve(__dirname, '..', '..', 'test', 'fixture');
const WAIT_MS = Number(process.env['PALLAS_LS_TEST_TIMEOUT_MS'] ?? 60_000);

const SKIP = BIN
  ? false
  : 'PALLAS_LS_BIN is not set; build the server (go build -o pallas-ls ./cmd/pallas-ls) and set PALLAS_LS_BIN to its path to run this test';

test('pallas-ls serve: PAL101 diagnostic, quick fix, hover, context label, call hierarchy, status, suppression, shutdown', { skip: SKIP, timeout: 6 * WAIT_MS }, async () => {
  const workspace = copyFixture();
  const session = new Session(BIN!, workspace);
  try {
    await session.run();
  } catch (err) {
    throw annotate(err, session);
  } finally {
    session.kill();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});

function copyFixture(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pallas-ls-protocol-')));
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

class Session {
  readonly stderr: string[] = [];
  readonly logs: string[] = [];
  /** How the server process ended, once it has. */
  exit: string | undefined;
  private readonly proc: ChildProcess;
  private readonly conn: ProtocolConnection;
  private readonly diagnostics = new Diagnostics();
  private readonly file: string;
  private readonly uri: string;
  private readonly exited: Promise<number | null>;
  /** Rejects when the server exits before we asked it to. */
  private readonly died: Promise<never>;
  private exiting = false;

  constructor(bin: string, private readonly workspace: string) {
    this.file = path.join(workspace, 'ring.py');
    this.uri = pathToFileURL(this.file).href;
    this.proc = spawn(bin, ['serve'], { cwd: workspace, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)));
    this.proc.on('exit', (code, signal) => (this.exit = `code ${code}, signal ${signal}`));
    this.died = new Promise<never>((_, reject) => {
      const fail = (why: string) => !this.exiting && reject(new Error(`pallas-ls ${why} before the test finished`));
      this.proc.on('error', (err) => fail(`could not be started (${err.message})`));
      this.proc.on('exit', (code, signal) => fail(`exited (code ${code}, signal ${signal})`));
    });
    this.died.catch(() => undefined);
    this.proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => this.stderr.push(chunk));
    this.conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.answerServerRequests();
    this.conn.listen();
  }

  async run(): Promise<void> {
    await this.initialize();
    const text = fs.readFileSync(this.file, 'utf8');
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: this.uri, languageId: 'python', version: 1, text },
    });
    const diag = await this.waitForPal101(text);
    await this.checkHover(diag);
    await this.checkContext(diag);
    const ignore = await this.checkCodeActions(diag);
    if (ignore !== undefined) {
      await this.checkSuppression(text, ignore);
    }
    await this.shutdown();
  }

  private answerServerRequests(): void {
    const settings = toServerSettings(DEFAULT_SETTINGS);
    this.conn.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => (item.section === SECTION ? settings : null)),
    );
    this.conn.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    this.conn.onRequest(RegistrationRequest.type, () => undefined);
    this.conn.onRequest(UnregistrationRequest.type, () => undefined);
    this.conn.onRequest(ShowMessageRequest.type, () => null);
    this.conn.onRequest(WorkspaceFoldersRequest.type, () => [this.folder()]);
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => this.diagnostics.publish(p));
    this.conn.onNotification(LogMessageNotification.type, (p) => {
      this.logs.push(markup(p.message));
    });
    this.conn.onNotification(ShowMessageNotification.type, (p) => {
      this.logs.push(`showMessage: ${markup(p.message)}`);
    });
    this.conn.onNotification('$/progress', () => undefined);
    this.conn.onNotification('telemetry/event', () => undefined);
  }

  private folder() {
    return { uri: pathToFileURL(this.workspace).href, name: path.basename(this.workspace) };
  }

  private async initialize(): Promise<void> {
    const result = await this.guard(
      this.conn.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        clientInfo: { name: 'pallas-ls protocol test', version: '0.1.0' },
        rootUri: this.folder().uri,
        workspaceFolders: [this.folder()],
        initializationOptions: toServerSettings(DEFAULT_SETTINGS),
        capabilities: CLIENT_CAPABILITIES,
      }),
      'the initialize response',
    );
    const caps = result.capabilities;
    assert.ok(caps.textDocumentSync !== undefined, 'server declares textDocumentSync');
    assert.ok(caps.codeActionProvider, 'server declares codeActionProvider');
    assert.ok(caps.hoverProvider, 'server declares hoverProvider');
    assert.ok(caps.positionEncoding === undefined || caps.positionEncoding === 'utf-16', 'only utf-16 was offered');
    await this.conn.sendNotification(InitializedNotification.type, {});
  }

  // Spec §3: anchored at the call of the kernel, `pl.pallas_call(...)(x)` in
  // ring(), a range on its first line; the witness path in related.
  private async waitForPal101(text: string): Promise<Diagnostic> {
    const diags = await this.guard(this.diagnostics.waitFor(this.file, (ds) => ds.some(isPal101), 'a PAL101 diagnostic for ring.py'), 'diagnostics');
    const pal101 = diags.filter(isPal101);
    assert.equal(pal101.length, 1, 'one diagnostic per call site and code');
    const diag = pal101[0]!;
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('pl.pallas_call('));
    assert.equal(diag.range.start.line, line, `PAL101 on the pl.pallas_call( line (${line + 1})`);
    assert.equal(diag.range.start.character, lines[line]!.indexOf('pl.pallas_call'), 'starts at the call expression');
    assert.equal(diag.range.end.line, line, 'a short range on the first line of the call');
    assert.equal(diag.severity, DiagnosticSeverity.Error);
    assert.match(markup(diag.message), /ring_kernel/, 'the message names the kernel');
    assert.match(markup(diag.message), /shard_map/, 'the message says what is missing');
    assert.ok((diag.relatedInformation ?? []).length > 0, 'the witness path is in relatedInformation');
    return diag;
  }

  private async checkHover(diag: Diagnostic): Promise<void> {
    const hover = await this.guard(
      this.conn.sendRequest(HoverRequest.type, { textDocument: { uri: this.uri }, position: diag.range.start }),
      'the hover response',
    );
    const text = hoverText(hover);
    assert.match(text, /PAL101/, `hover mentions PAL101; got: ${text}`);
    assert.match(text, /0\.11/, `hover shows the JAX version in use; got: ${text}`);
  }

  // The context label at the kernel call (VS Code has inlay hints, so
  // contextLabels "auto" answers them), how the call is reached, and the
  // status command the status bar item shows.
  private async checkContext(diag: Diagnostic): Promise<void> {
    const hints = await this.guard(
      this.conn.sendRequest(InlayHintRequest.type, {
        textDocument: { uri: this.uri },
        range: { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } },
      }),
      'the inlayHint response',
    );
    const labels = (hints ?? []).map((h) => `${h.position.line}: ${typeof h.label === 'string' ? h.label : ''}`);
    assert.deepEqual(labels, [`${diag.range.start.line}: TPU · communicates on x · outside shard_map`]);

    const items = await this.guard(
      this.conn.sendRequest(CallHierarchyPrepareRequest.type, { textDocument: { uri: this.uri }, position: diag.range.start }),
      'the prepareCallHierarchy response',
    );
    assert.equal(items?.length, 1, 'one call hierarchy item at the kernel call');
    const calls = await this.guard(
      this.conn.sendRequest(CallHierarchyIncomingCallsRequest.type, { item: items![0]! }),
      'the incomingCalls response',
    );
    assert.deepEqual(
      (calls ?? []).map((c) => c.from.name),
      ['`ring(jnp.ones((8, 128)))`'],
      'reached from the __main__ block',
    );

    const status = (await this.guard(
      this.conn.sendRequest(ExecuteCommandRequest.type, { command: 'pallas-ls.status', arguments: [this.uri] }),
      'the pallas-ls.status response',
    )) as { jaxVersion?: string; platform?: string; platformReason?: string; contextLabels?: string };
    assert.equal(status.jaxVersion, '0.11');
    // No platform setting: the project decides; ring.py imports Pallas TPU.
    assert.equal(status.platform, 'tpu');
    assert.match(status.platformReason ?? '', /pallas\.tpu/, `why TPU; got: ${status.platformReason}`);
    assert.equal(status.contextLabels, 'auto');
  }

  /** Returns the "Ignore PAL101 for this line" action when the server offers one. */
  private async checkCodeActions(diag: Diagnostic): Promise<CodeAction | undefined> {
    const result = await this.guard(
      this.conn.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: this.uri },
        range: diag.range,
        context: { diagnostics: [diag], triggerKind: 1 },
      }),
      'the codeAction response',
    );
    const actions = (result ?? []).filter(isCodeAction);
    const titles = actions.map((a) => `${a.kind ?? '(no kind)'}: ${a.title}`);
    const fixes = actions.filter(
      (a) => (a.kind ?? '').startsWith('quickfix') && /Wrap .*jax\.shard_map|Ignore PAL101 for this line/.test(a.title),
    );
    assert.ok(fixes.length > 0, `a PAL101 quick fix; got: ${JSON.stringify(titles)}`);
    const ignore = fixes.find((a) => /Ignore PAL101 for this line/.test(a.title));
    if (ignore !== undefined) {
      assert.ok(ignore.edit, 'the ignore action carries its edit (no resolveSupport was declared)');
    }
    return ignore;
  }

  // Apply "Ignore PAL101 for this line" as VS Code would and check that the
  // diagnostic goes away.
  private async checkSuppression(text: string, ignore: CodeAction): Promise<void> {
    const edited = applyEdits(text, editsFor(ignore.edit!, this.uri));
    assert.match(edited, /pallas-ls: ignore\[PAL101\]|noqa: PAL101/, 'the edit adds a suppression comment');
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: this.uri, version: 2 },
      contentChanges: [{ text: edited }],
    });
    await this.guard(this.diagnostics.waitFor(this.file, (ds) => !ds.some(isPal101), 'PAL101 gone after the ignore fix'), 'diagnostics');
  }

  private async shutdown(): Promise<void> {
    await this.guard(this.conn.sendRequest(ShutdownRequest.type), 'the shutdown response');
    this.exiting = true;
    await this.conn.sendNotification(ExitNotification.type);
    const code = await withTimeout(this.exited, 'the server to exit after `exit`');
    assert.equal(code, 0, 'exit after shutdown exits with code 0');
  }

  private guard<T>(p: Promise<T>, what: string): Promise<T> {
    return Promise.race([withTimeout(p, what), this.died]);
  }

  kill(): void {
    this.exiting = true;
    this.conn.dispose();
    if (this.proc.exitCode === null && this.proc.signalCode === null) {
      this.proc.kill();
    }
  }
}

const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  window: { workDoneProgress: true, showMessage: {} },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    applyEdit: true,
    workspaceEdit: { documentChanges: true },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true },
    codeAction: {
      codeActionLiteralSupport: {
        codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.fixAll', 'source.fixAll.pallas-ls'] },
      },
      isPreferredSupport: true,
      dataSupport: true,
    },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    inlayHint: {},
    callHierarchy: {},
  },
};

/** Latest diagnostics per file, with waiters for a condition on them. */
class Diagnostics {
  private readonly latest = new Map<string, Diagnostic[]>();
  private waiters: Array<() => void> = [];

  publish(p: PublishDiagnosticsParams): void {
    this.latest.set(filePath(p.uri), p.diagnostics);
    for (const w of [...this.waiters]) w();
  }

  waitFor(file: string, pred: (ds: Diagnostic[]) => boolean, what: string): Promise<Diagnostic[]> {
    const current = (): Diagnostic[] | undefined => {
      const ds = this.latest.get(file);
      return ds !== undefined && pred(ds) ? ds : undefined;
    };
    const now = current();
    if (now !== undefined) {
      return Promise.resolve(now);
    }
    return withTimeout(
      new Promise<Diagnostic[]>((resolve) => {
        const check = () => {
          const ds = current();
          if (ds !== undefined) {
            this.waiters = this.waiters.filter((w) => w !== check);
            resolve(ds);
          }
        };
        this.waiters.push(check);
      }),
      `${what} (last published: ${JSON.stringify(this.latest.get(file) ?? null)})`,
    );
  }
}

function isPal101(d: Diagnostic): boolean {
  return d.code === 'PAL101';
}

function isCodeAction(a: Command | CodeAction): a is CodeAction {
  return typeof (a as Command).command !== 'string';
}

function markup(m: string | { value: string }): string {
  return typeof m === 'string' ? m : m.value;
}

function hoverText(h: Hover | null): string {
  if (h === null) return '';
  const parts = Array.isArray(h.contents) ? h.contents : [h.contents];
  return parts.map((p) => (typeof p === 'string' ? p : p.value)).join('\n');
}

function editsFor(edit: WorkspaceEdit, uri: string): TextEdit[] {
  const file = filePath(uri);
  const fromChanges = Object.entries(edit.changes ?? {})
    .filter(([u]) => filePath(u) === file)
    .flatMap(([, edits]) => edits);
  const fromDocumentChanges = (edit.documentChanges ?? []).flatMap((c) =>
    'textDocument' in c && filePath(c.textDocument.uri) === file ? c.edits.filter((e): e is TextEdit => 'range' in e) : [],
  );
  const edits = [...fromChanges, ...fromDocumentChanges];
  assert.ok(edits.length > 0, `the edit changes ring.py: ${JSON.stringify(edit)}`);
  return edits;
}

// Positions are UTF-16 code units, as JavaScript string indices are.
function applyEdits(text: string, edits: TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const offset = (p: { line: number; character: number }) =>
    p.line < starts.length ? Math.min(starts[p.line]! + p.character, text.length) : text.length;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  }
  return text;
}

function filePath(uri: string): string {
  try {
    return path.normalize(fileURLToPath(uri));
  } catch {
    return uri;
  }
}

function withTimeout<T>(p: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function annotate(err: unknown, s: Session): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  const tail = (xs: string[]) => xs.join('').slice(-4000) || '(empty)';
  if (s.exit !== undefined) {
    e.message += `\n--- the server process exited (${s.exit}) ---`;
  }
  e.message += `\n--- server stderr ---\n${tail(s.stderr)}\n--- window/logMessage ---\n${s.logs.slice(-50).join('\n') || '(none)'}`;
  return e;
}
