// What the status bar item shows for each server state. Pure data; the
// extension copies it onto a vscode.StatusBarItem.

export type ServerStatus =
  | { kind: 'starting'; binary: string }
  | { kind: 'running'; binary: string; version?: string }
  | { kind: 'stopped'; binary?: string }
  | { kind: 'failed'; message: string }
  | { kind: 'missing'; message: string };

export interface StatusView {
  text: string;
  tooltip: string;
  /** True when the item should use the error background colour. */
  error: boolean;
}

const CLICK = 'Click to show the pallas-ls output.';

export function statusView(s: ServerStatus): StatusView {
  switch (s.kind) {
    case 'starting':
      return { text: '$(sync~spin) pallas-ls', tooltip: `pallas-ls: starting ${s.binary}\n${CLICK}`, error: false };
    case 'running': {
      const version = s.version ? ` ${s.version}` : '';
      return { text: '$(check) pallas-ls', tooltip: `pallas-ls${version}: running ${s.binary}\n${CLICK}`, error: false };
    }
    case 'stopped':
      return {
        text: '$(circle-slash) pallas-ls',
        tooltip: `pallas-ls: stopped. Run "pallas-ls: Restart pallas-ls" to start it again.\n${CLICK}`,
        error: false,
      };
    case 'failed':
      return { text: '$(error) pallas-ls', tooltip: `${s.message}\n${CLICK}`, error: true };
    case 'missing':
      return { text: '$(error) pallas-ls: not found', tooltip: `${s.message}\n${CLICK}`, error: true };
  }
}
