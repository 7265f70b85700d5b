// Reading systemd unit files from the host root: the settings that give a service its own
// mount namespace (PrivateTmp and friends) and docker.service's MountFlags. Drop-ins override
// the main file, and /etc overrides /run overrides /usr/lib and /lib, as in systemd itself.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readText } from './proc.js';

export const UNIT_DIRS = ['etc/systemd/system', 'run/systemd/system', 'usr/lib/systemd/system', 'lib/systemd/system'];

/** Settings that make systemd run the service in its own mount namespace. */
export const NAMESPACE_SETTINGS = [
  'PrivateTmp',
  'PrivateDevices',
  'PrivateMounts',
  'ProtectSystem',
  'ProtectHome',
  'ProtectKernelTunables',
  'ProtectKernelModules',
  'ProtectControlGroups',
  'ReadOnlyPaths',
  'ReadWritePaths',
  'InaccessiblePaths',
  'TemporaryFileSystem',
  'BindPaths',
  'BindReadOnlyPaths',
  'MountFlags',
] as const;

export interface UnitFile {
  unit: string;
  /** Host path (without the host root) of the main unit file. */
  file: string;
  dropIns: string[];
  /** Last value of each `[Service]` setting after drop-ins. */
  service: Record<string, string>;
}

const VALID_UNIT = /^[A-Za-z0-9:_.@\\-]+\.(service|scope|socket|mount|slice)$/;

function parseService(text: string, into: Record<string, string>): void {
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      section = line;
      continue;
    }
    if (section !== '[Service]') continue;
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    into[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
}

/**
 * Load a unit and its drop-ins. Template instances (`foo@bar.service`) fall back to
 * `foo@.service`. Returns undefined when no file exists (transient scopes, container units).
 */
export async function readUnit(hostRoot: string, unit: string): Promise<UnitFile | undefined> {
  if (!VALID_UNIT.test(unit)) return undefined;
  const names = [unit];
  const at = unit.indexOf('@');
  if (at > 0) names.push(`${unit.slice(0, at + 1)}${unit.slice(unit.lastIndexOf('.'))}`);
  let main: { file: string; text: string } | undefined;
  for (const dir of UNIT_DIRS) {
    for (const name of names) {
      const text = await readText(join(hostRoot, dir, name));
      if (text !== undefined) {
        main = { file: `/${dir}/${name}`, text };
        break;
      }
    }
    if (main) break;
  }
  if (!main) return undefined;
  const service: Record<string, string> = {};
  parseService(main.text, service);
  // Drop-ins are applied in file-name order across directories; a later dir with the same name is shadowed.
  const dropIns = new Map<string, string>();
  for (const dir of [...UNIT_DIRS].reverse()) {
    for (const name of names) {
      const d = join(hostRoot, dir, `${name}.d`);
      let entries: string[];
      try {
        entries = await readdir(d);
      } catch {
        continue;
      }
      for (const entry of entries) if (entry.endsWith('.conf')) dropIns.set(entry, `/${dir}/${name}.d/${entry}`);
    }
  }
  const ordered = [...dropIns.entries()].sort(([a], [b]) => a.localeCompare(b));
  for (const [, file] of ordered) {
    const text = await readText(join(hostRoot, file));
    if (text) parseService(text, service);
  }
  return { unit, file: main.file, dropIns: ordered.map(([, f]) => f), service };
}

export function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'yes', 'true', 'on'].includes(value.toLowerCase());
}

/** The namespace-creating settings a unit has turned on, as `Key=value`. */
export function namespaceSettings(unit: UnitFile): string[] {
  const out: string[] = [];
  for (const key of NAMESPACE_SETTINGS) {
    const v = unit.service[key];
    if (v === undefined || v === '' || ['no', 'false', '0', 'off'].includes(v.toLowerCase())) continue;
    out.push(`${key}=${v}`);
  }
  return out;
}
