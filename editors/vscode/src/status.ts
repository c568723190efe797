// What the status bar item shows for each server state. Pure data; the
// extension copies it onto a vscode.StatusBarItem.

/** The answer of the server's `pallas-ls.status` command for the active file. */
export interface CheckContext {
  server: string;
  folder: string;
  jaxVersion: string;
  jaxVersionReason: string;
  platform: string;
  platformReason: string;
  tpuChip: string;
  contextLabels: string;
  files: number;
}

export type ServerStatus =
  | { kind: 'starting'; binary: string }
  | { kind: 'running'; binary: string; version?: string; context?: CheckContext }
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
      const running = `pallas-ls${version}: running ${s.binary}`;
      if (!s.context) {
        return { text: '$(check) pallas-ls', tooltip: `${running}\n${CLICK}`, error: false };
      }
      return {
        text: `$(check) pallas-ls: ${contextText(s.context)}`,
        tooltip: `${running}\n${contextTooltip(s.context)}\n${CLICK}`,
        error: false,
      };
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

/** The short form in the status bar: "JAX 0.11 · tpu v5e". */
export function contextText(c: CheckContext): string {
  const chip = c.tpuChip ? ` ${c.tpuChip}` : '';
  return `JAX ${c.jaxVersion} · ${c.platform}${chip}`;
}

/** The long form, with why each was chosen. */
export function contextTooltip(c: CheckContext): string {
  const lines = [`JAX ${c.jaxVersion}: ${c.jaxVersionReason}`, `Platform ${c.platform}: ${c.platformReason}`];
  if (c.tpuChip) {
    lines.push(`TPU chip ${c.tpuChip}`);
  }
  lines.push(`${c.files} Python files in ${c.folder}; context labels: ${c.contextLabels}`);
  return lines.join('\n');
}

/** Reads a status command answer; undefined when it is not one. */
export function parseContext(v: unknown): CheckContext | undefined {
  if (typeof v !== 'object' || v === null) {
    return undefined;
  }
  const o = v as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
  if (!str('jaxVersion')) {
    return undefined;
  }
  return {
    server: str('server'),
    folder: str('folder'),
    jaxVersion: str('jaxVersion'),
    jaxVersionReason: str('jaxVersionReason'),
    platform: str('platform'),
    platformReason: str('platformReason'),
    tpuChip: str('tpuChip'),
    contextLabels: str('contextLabels'),
    files: typeof o['files'] === 'number' ? (o['files'] as number) : 0,
  };
}
