// Loading Bolt on every Node this project supports. @slack/bolt 5.1 always loads
// @slack/socket-mode, whose undici 8 requires Node >= 22.19 and throws while loading on Node 20
// (zlib zstd, worker_threads.markAsUncloneable). HTTP mode needs none of it, so on an older
// Node the socket-mode package is replaced, before Bolt loads, by a stand-in whose client
// refuses to start with a clear message. Trying to load undici there is not an option: a half-
// loaded undici would already have installed its global dispatcher.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

type Bolt = typeof import('@slack/bolt');

const require = createRequire(import.meta.url);

function satisfies(version: string, min: string): boolean {
  const a = version.split('.').map((n) => Number.parseInt(n, 10));
  const b = min.split('.').map((n) => Number.parseInt(n, 10));
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return true;
}

/** The Node version undici (under @slack/socket-mode) needs, e.g. `22.19.0`; undefined if unknown. */
function undiciMinimumNode(socketModeEntry: string): string | undefined {
  try {
    const fromSocketMode = createRequire(socketModeEntry);
    const pkg = JSON.parse(readFileSync(fromSocketMode.resolve('undici/package.json'), 'utf8')) as { engines?: { node?: string } };
    return /(\d+\.\d+(?:\.\d+)?)/.exec(pkg.engines?.node ?? '')?.[1];
  } catch {
    return undefined;
  }
}

export const SOCKET_MODE_UNAVAILABLE = (min: string) =>
  `Socket Mode is not available on Node ${process.versions.node}: @slack/socket-mode's undici needs Node >= ${min}. Use POD_DOCTOR_SLACK_MODE=http or a newer Node.`;

let socketModeProblem: string | undefined;

/** Why Socket Mode cannot run in this process, or undefined when it can. */
export function socketModeUnavailable(): string | undefined {
  loadBolt();
  return socketModeProblem;
}

let bolt: Bolt | undefined;

export function loadBolt(): Bolt {
  if (bolt) return bolt;
  const fromBolt = createRequire(require.resolve('@slack/bolt'));
  const socketModeEntry = fromBolt.resolve('@slack/socket-mode');
  const min = undiciMinimumNode(socketModeEntry);
  if (min && !satisfies(process.versions.node, min) && !require.cache[socketModeEntry]) {
    socketModeProblem = SOCKET_MODE_UNAVAILABLE(min);
    const problem = socketModeProblem;
    class SocketModeClient {
      constructor() {
        throw new Error(problem);
      }
    }
    const stand = new (require('node:module') as { Module: new (id: string) => NodeJS.Module }).Module(socketModeEntry);
    stand.filename = socketModeEntry;
    stand.loaded = true;
    stand.exports = { SocketModeClient };
    (stand as unknown as { paths: string[] }).paths = [dirname(socketModeEntry)];
    require.cache[socketModeEntry] = stand;
  }
  bolt = require('@slack/bolt') as Bolt;
  return bolt;
}
