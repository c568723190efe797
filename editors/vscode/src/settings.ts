// Settings: the `pallas-ls.*` configuration as the extension reads it, and the
// one shape the server receives it in (initializationOptions at start,
// workspace/configuration answers afterwards). No `vscode` import, so the
// mapping is unit-tested without an editor.

/** The configuration section, the client id and the setting prefix. */
export const SECTION = 'pallas-ls';

/** Settings whose change needs a new server process (the rest are pulled live). */
export const RESTART_SETTINGS: readonly string[] = [`${SECTION}.path`];

/** The extension's view of its settings after normalisation. */
export interface PallasSettings {
  /** Explicit binary; "" means look it up (bundled, PATH, Go's bin). */
  path: string;
  /** JAX version to predict, e.g. "0.11"; "" means detect from the project. */
  jaxVersion: string;
  /** Code globs to enable (e.g. PAL1*); empty means the project's choice. */
  select: string[];
  /** Code globs to disable. */
  ignore: string[];
  /** Show info-level hints (library kernels without a caller in the workspace). */
  showInfo: boolean;
  /** Backend of kernels without markers: "auto", "tpu", "gpu"; "" means the project's choice. */
  platform: Platform | '';
  /** Target TPU generation, e.g. "v5e"; "" means the project's choice. */
  tpuChip: string;
  /** How kernel calls and shard_maps show their SPMD context. */
  contextLabels: ContextLabels;
}

export type Platform = 'auto' | 'tpu' | 'gpu';
export const PLATFORMS: readonly Platform[] = ['auto', 'tpu', 'gpu'];

/** "auto": inlay hints (VS Code has them); the others force a channel or turn the labels off. */
export type ContextLabels = 'auto' | 'inlayHints' | 'codeLens' | 'both' | 'off';
export const CONTEXT_LABELS: readonly ContextLabels[] = ['auto', 'inlayHints', 'codeLens', 'both', 'off'];

/**
 * What the server gets, both as initializationOptions and as the answer to
 * workspace/configuration for section "pallas-ls". Every key is always
 * present: "" and [] mean "not set here; use pyproject.toml / detection".
 */
export interface ServerSettings {
  jaxVersion: string;
  select: string[];
  ignore: string[];
  showInfo: boolean;
  platform: string;
  tpuChip: string;
  contextLabels: ContextLabels;
}

export const DEFAULT_SETTINGS: Readonly<PallasSettings> = Object.freeze({
  path: '',
  jaxVersion: '',
  select: [],
  ignore: [],
  showInfo: true,
  platform: '',
  tpuChip: '',
  contextLabels: 'auto',
});

/** Reads one key of the section, as vscode.WorkspaceConfiguration.get does. */
export type SettingGetter = (key: string) => unknown;

/** Reads and normalises the settings; wrong types fall back to the defaults. */
export function readSettings(get: SettingGetter): PallasSettings {
  const showInfo = get('showInfo');
  return {
    path: asString(get('path')),
    jaxVersion: asString(get('jaxVersion')),
    select: asCodeList(get('select')),
    ignore: asCodeList(get('ignore')),
    showInfo: typeof showInfo === 'boolean' ? showInfo : DEFAULT_SETTINGS.showInfo,
    platform: oneOf(asString(get('platform')).toLowerCase(), PLATFORMS) ?? '',
    tpuChip: asString(get('tpuChip')),
    contextLabels: oneOf(asString(get('contextLabels')), CONTEXT_LABELS) ?? DEFAULT_SETTINGS.contextLabels,
  };
}

/** Reads settings from a plain object such as a workspace/configuration result. */
export function settingsFromObject(value: unknown): PallasSettings {
  const obj = isRecord(value) ? value : {};
  return readSettings((key) => obj[key]);
}

/** The initializationOptions / workspace/configuration payload. */
export function toServerSettings(s: PallasSettings): ServerSettings {
  return {
    jaxVersion: s.jaxVersion,
    select: [...s.select],
    ignore: [...s.ignore],
    showInfo: s.showInfo,
    platform: s.platform,
    tpuChip: s.tpuChip,
    contextLabels: s.contextLabels,
  };
}

/**
 * Rewrites the client's default answer to workspace/configuration so that an
 * item asking for the whole "pallas-ls" section gets the same ServerSettings
 * shape as initializationOptions (not the raw setting tree with `path` and
 * `trace`). Items for other sections, or for one key, pass through.
 */
export function shapeConfiguration(
  items: ReadonlyArray<{ section?: string | null }>,
  results: readonly unknown[],
): unknown[] {
  return results.map((result, i) =>
    items[i]?.section === SECTION ? toServerSettings(settingsFromObject(result)) : result,
  );
}

/** The argument list `pallas-ls` is started with (LSP over stdio). */
export function serverArgs(): string[] {
  return ['serve'];
}

/** True when a configuration change needs the server process restarted. */
export function needsRestart(affects: (setting: string) => boolean): boolean {
  return RESTART_SETTINGS.some((s) => affects(s));
}

function oneOf<T extends string>(v: string, allowed: readonly T[]): T | undefined {
  return (allowed as readonly string[]).includes(v) ? (v as T) : undefined;
}

function asString(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

// Accepts a list or a comma-separated string (as on the command line); codes
// are case-insensitive for users but upper case on the wire.
function asCodeList(v: unknown): string[] {
  const parts = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  return parts
    .filter((p): p is string => typeof p === 'string')
    .map((p) => p.trim().toUpperCase())
    .filter((p) => p !== '');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
