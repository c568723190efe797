// The VS Code side: wires the editor (settings, status bar, output channel,
// commands) to a vscode-languageclient LanguageClient that runs
// `pallas-ls serve` over stdio. Decisions live in settings.ts, binary.ts,
// controller.ts and status.ts; this file only translates.

import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  RevealOutputChannelOn,
  type ServerOptions,
  State,
} from 'vscode-languageclient/node';

import { findServerBinary, INSTALL_COMMAND, nodeHost } from './binary';
import { type ClientHandle, type ClientState, ServerController } from './controller';
import { needsRestart, readSettings, SECTION, serverArgs, shapeConfiguration, toServerSettings } from './settings';
import { type ServerStatus, statusView } from './status';

export const RESTART_COMMAND = 'pallas-ls.restart';
export const SHOW_OUTPUT_COMMAND = 'pallas-ls.showOutput';
/** The server's command behind the status item (not a VS Code command of ours). */
export const SERVER_STATUS_COMMAND = 'pallas-ls.status';

/** Files whose change on disk can change diagnostics (whole-program analysis, config, pins). */
export const WATCHED_FILES = '**/{*.py,pyproject.toml,.pallas-ls.toml,requirements*.txt}';

let controller: ServerController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('pallas-ls', { log: true });
  const status = vscode.window.createStatusBarItem('pallas-ls.status', vscode.StatusBarAlignment.Right, 100);
  status.name = 'pallas-ls';
  status.command = SHOW_OUTPUT_COMMAND;
  status.show();

  const ctl = new ServerController({
    resolveBinary: () =>
      findServerBinary(
        {
          configuredPath: currentSettings().path,
          extensionPath: context.extensionPath,
          workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
        },
        nodeHost(),
      ),
    createClient: (binary, onState) => createClient(binary, output, onState),
    reportMissing: (message) => void showMissing(message),
    setStatus: (s) => renderStatus(status, s),
    log: (message) => output.info(message),
  });
  controller = ctl;

  // The status item shows the JAX version and platform of the active
  // file; they change with the file, the settings and the project's pins
  // (whose edits change the diagnostics), so refresh on each, batched.
  let refresh: ReturnType<typeof setTimeout> | undefined;
  const refreshContext = () => {
    clearTimeout(refresh);
    refresh = setTimeout(() => {
      const doc = vscode.window.activeTextEditor?.document;
      void ctl.refreshContext(doc?.uri.scheme === 'file' ? doc.uri.toString() : undefined);
    }, 300);
  };

  context.subscriptions.push(
    output,
    status,
    { dispose: () => clearTimeout(refresh) },
    vscode.commands.registerCommand(RESTART_COMMAND, () => ctl.restart()),
    vscode.commands.registerCommand(SHOW_OUTPUT_COMMAND, () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (needsRestart((s) => e.affectsConfiguration(s))) {
        void ctl.restart().then(refreshContext);
      } else if (e.affectsConfiguration(SECTION)) {
        refreshContext();
      }
    }),
    vscode.window.onDidChangeActiveTextEditor(refreshContext),
    vscode.languages.onDidChangeDiagnostics(refreshContext),
  );
  await ctl.start();
  refreshContext();
}

export async function deactivate(): Promise<void> {
  const ctl = controller;
  controller = undefined;
  await ctl?.stop();
}

function currentSettings() {
  const config = vscode.workspace.getConfiguration(SECTION);
  return readSettings((key) => config.get(key));
}

/** The LanguageClient options; exported for tests. */
export function clientOptions(
  output: vscode.LogOutputChannel,
  watcher: vscode.FileSystemWatcher,
): LanguageClientOptions {
  return {
    documentSelector: [{ scheme: 'file', language: 'python' }],
    diagnosticCollectionName: SECTION,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // A function, so a restart sends the settings as they are then.
    initializationOptions: () => toServerSettings(currentSettings()),
    synchronize: {
      configurationSection: SECTION,
      fileEvents: watcher,
    },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          return Array.isArray(result) ? shapeConfiguration(params.items, result) : result;
        },
      },
    },
    // Reported once through the status bar and output; no retry loop.
    initializationFailedHandler: () => false,
  };
}

function createClient(
  binary: string,
  output: vscode.LogOutputChannel,
  onState: (state: ClientState) => void,
): ClientHandle {
  // No `transport`: the client would append --stdio; `serve` already speaks stdio.
  const server: ServerOptions = { command: binary, args: serverArgs() };
  // The client does not dispose a watcher handed to it in synchronize.fileEvents.
  const watcher = vscode.workspace.createFileSystemWatcher(WATCHED_FILES);
  const client = new LanguageClient(SECTION, 'pallas-ls', server, clientOptions(output, watcher));
  const sub = client.onDidChangeState((e) => onState(clientState(e.newState)));
  return {
    start: () => client.start(),
    dispose: async () => {
      sub.dispose();
      try {
        await client.dispose();
      } finally {
        watcher.dispose();
      }
    },
    serverVersion: () => client.initializeResult?.serverInfo?.version,
    checkContext: (uri) =>
      client.sendRequest(ExecuteCommandRequest.type, { command: SERVER_STATUS_COMMAND, arguments: uri ? [uri] : [] }),
  };
}

function clientState(state: State): ClientState {
  switch (state) {
    case State.Starting:
      return 'starting';
    case State.Running:
      return 'running';
    default:
      return 'stopped';
  }
}

function renderStatus(item: vscode.StatusBarItem, s: ServerStatus): void {
  const view = statusView(s);
  item.text = view.text;
  item.tooltip = view.tooltip;
  item.backgroundColor = view.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
}

const OPEN_SETTINGS = 'Open Settings';
const COPY_INSTALL = 'Copy Install Command';

async function showMissing(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, OPEN_SETTINGS, COPY_INSTALL);
  if (choice === OPEN_SETTINGS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.path`);
  } else if (choice === COPY_INSTALL) {
    await vscode.env.clipboard.writeText(INSTALL_COMMAND);
  }
}
