// Finding the pallas-ls executable. Order: the `pallas-ls.path` setting, a
// binary bundled in the extension's bin/ folder, PATH, then Go's install
// directories (GOBIN, GOPATH/bin, ~/go/bin), because `go install` puts it
// there and editors started from a desktop launcher often lack it on PATH.
// The file system and environment come in through BinaryHost so the order is
// unit-tested; nodeHost() is the real one.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const INSTALL_COMMAND = 'go install github.com/pallas-ls/pallas-ls/cmd/pallas-ls@latest';

export type BinarySource = 'setting' | 'bundled' | 'PATH' | 'Go bin directory';

export type BinaryResult =
  | { found: true; path: string; source: BinarySource }
  | { found: false; message: string; tried: string[] };

export interface BinaryHost {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  homedir: string;
  /** True for an existing regular file the current user may execute. */
  isExecutableFile(file: string): boolean;
}

export interface BinaryLookup {
  /** The `pallas-ls.path` setting ("" when unset). */
  configuredPath: string;
  /** The extension's install directory (context.extensionPath). */
  extensionPath: string;
  /** Workspace folder paths; the first one anchors a relative setting. */
  workspaceFolders: readonly string[];
}

/** Finds the server binary or explains, once and with the fix, why not. */
export function findServerBinary(lookup: BinaryLookup, host: BinaryHost): BinaryResult {
  if (lookup.configuredPath !== '') {
    return fromSetting(lookup, host);
  }
  const tried: string[] = [];
  const sources: Array<[BinarySource, string[]]> = [
    ['bundled', [pathFor(host).join(lookup.extensionPath, 'bin')]],
    ['PATH', splitList(host.env['PATH'] ?? host.env['Path'], host)],
    ['Go bin directory', goBinDirs(host)],
  ];
  for (const [source, dirs] of sources) {
    for (const dir of dirs) {
      const file = pathFor(host).join(dir, exeName(host));
      tried.push(file);
      if (host.isExecutableFile(file)) {
        return { found: true, path: file, source };
      }
    }
  }
  return { found: false, message: missingMessage(), tried };
}

/** The one error a user sees when no binary is found. */
export function missingMessage(): string {
  return (
    'pallas-ls: the `pallas-ls` executable was not found (looked in the extension\'s bin/ folder, ' +
    'on PATH and in Go\'s bin directory). Install it with ' +
    `\`${INSTALL_COMMAND}\` (Go 1.26+ and a C compiler) ` +
    'or set "pallas-ls.path" to the binary, then run "pallas-ls: Restart pallas-ls".'
  );
}

// An explicit setting is the only candidate: silently falling back to another
// binary would hide a typo in the setting.
function fromSetting(lookup: BinaryLookup, host: BinaryHost): BinaryResult {
  const p = pathFor(host);
  let file = expandHome(lookup.configuredPath, host);
  file = file.replace(/\$\{workspaceFolder\}/g, lookup.workspaceFolders[0] ?? '');
  if (!p.isAbsolute(file)) {
    const base = lookup.workspaceFolders[0];
    if (base === undefined) {
      return settingError(lookup.configuredPath, [file], 'is relative and no workspace folder is open');
    }
    file = p.resolve(base, file);
  }
  const candidates = [file];
  if (host.platform === 'win32' && p.extname(file) === '') {
    candidates.push(`${file}.exe`);
  }
  const hit = candidates.find((c) => host.isExecutableFile(c));
  return hit !== undefined
    ? { found: true, path: hit, source: 'setting' }
    : settingError(lookup.configuredPath, candidates, 'is not an executable file');
}

function settingError(configured: string, tried: string[], why: string): BinaryResult {
  return {
    found: false,
    tried,
    message:
      `pallas-ls: the "pallas-ls.path" setting ("${configured}") ${why}. ` +
      `Fix the setting or clear it to use pallas-ls from PATH (install: \`${INSTALL_COMMAND}\`), ` +
      'then run "pallas-ls: Restart pallas-ls".',
  };
}

function goBinDirs(host: BinaryHost): string[] {
  const p = pathFor(host);
  const dirs: string[] = [];
  const gobin = host.env['GOBIN'];
  if (gobin) {
    dirs.push(gobin);
  }
  for (const gopath of splitList(host.env['GOPATH'], host)) {
    dirs.push(p.join(gopath, 'bin'));
  }
  if (host.homedir !== '') {
    dirs.push(p.join(host.homedir, 'go', 'bin'));
  }
  return [...new Set(dirs)];
}

function splitList(value: string | undefined, host: BinaryHost): string[] {
  const sep = host.platform === 'win32' ? ';' : ':';
  return (value ?? '')
    .split(sep)
    .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
    .filter((d) => d !== '');
}

function expandHome(file: string, host: BinaryHost): string {
  const p = pathFor(host);
  file = file.replace(/\$\{userHome\}/g, host.homedir);
  if (file === '~') {
    return host.homedir;
  }
  if (file.startsWith('~/') || (host.platform === 'win32' && file.startsWith('~\\'))) {
    return p.join(host.homedir, file.slice(2));
  }
  return file;
}

function exeName(host: BinaryHost): string {
  // Only .exe on Windows: Node refuses to spawn .cmd/.bat without a shell.
  return host.platform === 'win32' ? 'pallas-ls.exe' : 'pallas-ls';
}

function pathFor(host: BinaryHost): path.PlatformPath {
  return host.platform === 'win32' ? path.win32 : path.posix;
}

/** The real host: this process's platform, environment and file system. */
export function nodeHost(): BinaryHost {
  return {
    platform: process.platform,
    env: process.env,
    homedir: os.homedir(),
    isExecutableFile(file: string): boolean {
      try {
        if (!fs.statSync(file).isFile()) {
          return false;
        }
        if (process.platform !== 'win32') {
          fs.accessSync(file, fs.constants.X_OK);
        }
        return true;
      } catch {
        return false;
      }
    },
  };
}
