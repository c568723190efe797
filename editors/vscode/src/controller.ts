// ServerController owns the lifecycle of one language client at a time:
// find the binary, start, restart (re-resolving the binary, since the
// setting may have changed), stop. Operations run one after another, and
// state events from a client that has been replaced are ignored, so a slow
// shutdown cannot overwrite the status of its successor. No `vscode` import:
// the editor side comes in through ControllerDeps.

import type { BinaryResult } from './binary';
import { type CheckContext, parseContext, type ServerStatus } from './status';

/** The part of a vscode-languageclient LanguageClient the controller drives. */
export interface ClientHandle {
  start(): Promise<void>;
  /** Shuts the server down and releases the client (LanguageClient.dispose). */
  dispose(): Promise<void>;
  /** serverInfo.version from the initialize result, if the server sent it. */
  serverVersion(): string | undefined;
  /** Runs the server's `pallas-ls.status` command for a file URI (or the first folder). */
  checkContext(uri?: string): Promise<unknown>;
}

/** Client states the controller reacts to (vscode-languageclient State, simplified). */
export type ClientState = 'starting' | 'running' | 'stopped';

export interface ControllerDeps {
  resolveBinary(): BinaryResult;
  /** Creates (does not start) a client; it reports state changes through onState. */
  createClient(binary: string, onState: (state: ClientState) => void): ClientHandle;
  /** Shows the missing-binary error to the user (one notification per attempt). */
  reportMissing(message: string): void;
  setStatus(status: ServerStatus): void;
  log(message: string): void;
}

export class ServerController {
  private client: ClientHandle | undefined;
  private binary: string | undefined;
  private queue: Promise<void> = Promise.resolve();
  private running = false;
  private context: CheckContext | undefined;

  constructor(private readonly deps: ControllerDeps) {}

  /** Starts the server unless one is already running. */
  start(): Promise<void> {
    return this.enqueue(async () => {
      if (this.client === undefined) {
        await this.doStart();
      }
    });
  }

  /** Stops any running server and starts a fresh one. */
  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      this.deps.setStatus({ kind: 'stopped', binary: this.binary });
    });
  }

  /**
   * Asks the running server which JAX version and platform the file is
   * checked for, and why, and shows it in the status item. Does nothing
   * while no server runs; a failed or late answer changes nothing.
   */
  async refreshContext(uri?: string): Promise<void> {
    const client = this.client;
    if (client === undefined || !this.running) {
      return;
    }
    let context: CheckContext | undefined;
    try {
      context = parseContext(await client.checkContext(uri));
    } catch (err) {
      this.deps.log(`pallas-ls: the status command failed: ${errorText(err)}`);
      return;
    }
    if (client !== this.client || !this.running || context === undefined) {
      return;
    }
    this.context = context;
    this.showRunning(client);
  }

  private showRunning(client: ClientHandle): void {
    this.running = true;
    const status: ServerStatus = { kind: 'running', binary: this.binary!, version: client.serverVersion() };
    if (this.context !== undefined) {
      status.context = this.context;
    }
    this.deps.setStatus(status);
  }

  /** True while a client exists (started or starting). */
  get active(): boolean {
    return this.client !== undefined;
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    const next = this.queue.then(op, op);
    // Keep the chain alive after a failure; callers still see the rejection.
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async doStart(): Promise<void> {
    const found = this.deps.resolveBinary();
    if (!found.found) {
      this.deps.log(`${found.message}\nTried: ${found.tried.join(', ') || '(nothing)'}`);
      this.deps.setStatus({ kind: 'missing', message: found.message });
      this.deps.reportMissing(found.message);
      return;
    }
    this.binary = found.path;
    this.running = false;
    this.context = undefined;
    this.deps.log(`Starting ${found.path} serve (found via ${found.source})`);
    this.deps.setStatus({ kind: 'starting', binary: found.path });
    const client = this.deps.createClient(found.path, (state) => this.onState(client, state));
    this.client = client;
    try {
      await client.start();
    } catch (err) {
      await this.failStart(client, err);
      return;
    }
    if (this.client === client) {
      this.showRunning(client);
    }
  }

  // A server that cannot start is not retried in a loop: the client is
  // disposed and the user restarts once the cause is fixed.
  private async failStart(client: ClientHandle, err: unknown): Promise<void> {
    const message = `pallas-ls: could not start ${this.binary}: ${errorText(err)}`;
    this.deps.log(message);
    if (this.client === client) {
      this.client = undefined;
    }
    await client.dispose().catch(() => undefined);
    this.deps.setStatus({ kind: 'failed', message });
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.running = false;
    this.context = undefined;
    if (client !== undefined) {
      try {
        await client.dispose();
      } catch (err) {
        this.deps.log(`pallas-ls: stopping the server failed: ${errorText(err)}`);
      }
    }
  }

  private onState(client: ClientHandle, state: ClientState): void {
    if (client !== this.client || this.binary === undefined) {
      return;
    }
    switch (state) {
      case 'starting':
        this.running = false;
        this.deps.setStatus({ kind: 'starting', binary: this.binary });
        break;
      case 'running':
        this.showRunning(client);
        break;
      case 'stopped':
        this.running = false;
        this.deps.setStatus({ kind: 'stopped', binary: this.binary });
        break;
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
