// A stand-in for the `vscode` module (and for vscode-languageclient/node,
// whose real implementation needs the editor), enough for extension.ts.
// install() routes require() of both names here; tests then drive the fakes
// and read what the extension did from `recorded`.

import Module = require('node:module');

type Listener<T> = (e: T) => void;

export class Emitter<T> {
  private listeners: Array<Listener<T>> = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) {
      l(e);
    }
  }
}

export class FakeStatusBarItem {
  text = '';
  tooltip: unknown = '';
  name = '';
  command: unknown;
  backgroundColor: unknown;
  visible = false;
  disposed = false;
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
  }
}

export class FakeOutputChannel {
  lines: string[] = [];
  shown = 0;
  disposed = false;
  constructor(readonly name: string) {}
  info(m: string): void {
    this.lines.push(m);
  }
  warn(m: string): void {
    this.lines.push(m);
  }
  error(m: string | Error): void {
    this.lines.push(String(m));
  }
  debug(m: string): void {
    this.lines.push(m);
  }
  trace(m: string): void {
    this.lines.push(m);
  }
  append(m: string): void {
    this.lines.push(m);
  }
  appendLine(m: string): void {
    this.lines.push(m);
  }
  show(): void {
    this.shown++;
  }
  dispose(): void {
    this.disposed = true;
  }
}

export class FakeWatcher {
  disposed = false;
  constructor(readonly pattern: string) {}
  dispose(): void {
    this.disposed = true;
  }
}

/** A fake vscode-languageclient LanguageClient. */
export class FakeLanguageClient {
  static startError: Error | undefined;
  readonly stateEmitter = new Emitter<{ oldState: number; newState: number }>();
  readonly onDidChangeState = this.stateEmitter.event;
  started = false;
  disposed = false;
  initializeResult: { serverInfo?: { name: string; version?: string } } | undefined;
  /** What sendRequest answers, by method (undefined: null). */
  static answers: Record<string, unknown> = {};
  readonly requests: Array<{ method: string; params: unknown }> = [];
  async sendRequest(type: { method: string }, params: unknown): Promise<unknown> {
    this.requests.push({ method: type.method, params });
    return FakeLanguageClient.answers[type.method] ?? null;
  }
  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: any,
    readonly clientOptions: any,
  ) {
    recorded.clients.push(this);
  }
  async start(): Promise<void> {
    this.stateEmitter.fire({ oldState: State.Stopped, newState: State.Starting });
    if (FakeLanguageClient.startError !== undefined) {
      this.stateEmitter.fire({ oldState: State.Starting, newState: State.StartFailed });
      throw FakeLanguageClient.startError;
    }
    this.initializeResult = { serverInfo: { name: 'pallas-ls', version: '0.1.0' } };
    this.started = true;
    this.stateEmitter.fire({ oldState: State.Starting, newState: State.Running });
  }
  async dispose(): Promise<void> {
    this.disposed = true;
    this.stateEmitter.fire({ oldState: State.Running, newState: State.Stopped });
  }
}

export const State = { Stopped: 1, Running: 2, Starting: 3, StartFailed: 4 } as const;

export const recorded = {
  clients: [] as FakeLanguageClient[],
  statusItems: [] as FakeStatusBarItem[],
  outputs: [] as FakeOutputChannel[],
  watchers: [] as FakeWatcher[],
  errors: [] as Array<{ message: string; items: string[] }>,
  executed: [] as Array<{ command: string; args: unknown[] }>,
  clipboard: [] as string[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  /** The answer the next showErrorMessage gives (undefined: dismissed). */
  errorAnswer: undefined as string | undefined,
};

/** The settings the fake workspace returns, keyed without the section prefix. */
export const settings: Record<string, unknown> = {};
export let workspaceFolders: Array<{ uri: { fsPath: string } }> | undefined;
export function setWorkspaceFolders(paths: string[] | undefined): void {
  workspaceFolders = paths?.map((p) => ({ uri: { fsPath: p } }));
}
export const configurationChanged = new Emitter<{ affectsConfiguration(section: string): boolean }>();
export const activeEditorChanged = new Emitter<unknown>();
export const diagnosticsChanged = new Emitter<unknown>();
export const editor: { activeTextEditor: unknown } = { activeTextEditor: undefined };

export const vscodeStub = {
  StatusBarAlignment: { Left: 1, Right: 2 },
  ThemeColor: class {
    constructor(readonly id: string) {}
  },
  window: {
    createOutputChannel(name: string) {
      const c = new FakeOutputChannel(name);
      recorded.outputs.push(c);
      return c;
    },
    createStatusBarItem() {
      const s = new FakeStatusBarItem();
      recorded.statusItems.push(s);
      return s;
    },
    get activeTextEditor() {
      return editor.activeTextEditor;
    },
    onDidChangeActiveTextEditor: activeEditorChanged.event,
    async showErrorMessage(message: string, ...items: string[]) {
      recorded.errors.push({ message, items });
      return recorded.errorAnswer;
    },
  },
  commands: {
    registerCommand(command: string, fn: (...args: unknown[]) => unknown) {
      recorded.commands.set(command, fn);
      return { dispose: () => recorded.commands.delete(command) };
    },
    async executeCommand(command: string, ...args: unknown[]) {
      recorded.executed.push({ command, args });
    },
  },
  workspace: {
    get workspaceFolders() {
      return workspaceFolders;
    },
    getConfiguration(section?: string) {
      return {
        get(key: string, dflt?: unknown) {
          const full = section ? `${section}.${key}` : key;
          return full in settings ? settings[full] : dflt;
        },
      };
    },
    onDidChangeConfiguration: configurationChanged.event,
    createFileSystemWatcher(pattern: string) {
      const w = new FakeWatcher(pattern);
      recorded.watchers.push(w);
      return w;
    },
  },
  languages: {
    onDidChangeDiagnostics: diagnosticsChanged.event,
  },
  env: {
    clipboard: {
      async writeText(text: string) {
        recorded.clipboard.push(text);
      },
    },
  },
};

export const languageClientStub = {
  LanguageClient: FakeLanguageClient,
  ExecuteCommandRequest: { type: { method: 'workspace/executeCommand' } },
  State,
  RevealOutputChannelOn: { Debug: 0, Info: 1, Warn: 2, Error: 3, Never: 4 },
};

/** Makes require('vscode') and require('vscode-languageclient/node') return the stubs. */
export function install(): void {
  const mod = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const original = mod._load;
  mod._load = function (request: string, parent: unknown, isMain: boolean) {
    if (request === 'vscode') {
      return vscodeStub;
    }
    if (request === 'vscode-languageclient/node') {
      return languageClientStub;
    }
    return original.call(this, request, parent, isMain);
  };
}

/** A minimal fake ExtensionContext. */
export function fakeContext(extensionPath: string) {
  return { extensionPath, subscriptions: [] as Array<{ dispose(): unknown }> };
}
