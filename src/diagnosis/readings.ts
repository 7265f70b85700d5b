// What a running container's own log says, read by the mechanism catalogue: the rules about pods
// that run without being Ready (readiness, an init container that waits, the catch-all) ask it the
// same way the crash rules ask crashReading() about a crashed run.
import { containerSpec } from './crashes.js';
import type { NamedStatus } from './facts.js';
import { type Reading, readTexts } from './mechanisms/index.js';
import type { Snapshot } from './types.js';

const byContainer = new WeakMap<Snapshot, Map<string, Reading | null>>();

/** The decisive line of the container's current log (its running run), if the catalogue knows it. */
export function currentReading(snapshot: Snapshot, s: NamedStatus): Reading | undefined {
  let memo = byContainer.get(snapshot);
  if (!memo) byContainer.set(snapshot, (memo = new Map()));
  const key = `${s.init ? 'init' : 'app'}/${s.status.name}`;
  let r = memo.get(key);
  if (r === undefined) memo.set(key, (r = read(snapshot, s) ?? null));
  return r ?? undefined;
}

function read(snapshot: Snapshot, s: NamedStatus): Reading | undefined {
  const tail = (snapshot.logs ?? []).find((l) => l.container === s.status.name && !l.previous && l.lines.length > 0);
  if (!tail) return undefined;
  const spec = containerSpec(snapshot.pod, s.status.name, s.init);
  return readTexts([{ lines: tail.lines, source: `logs ${tail.container}` }], {
    snapshot,
    ...(snapshot.pod ? { pod: snapshot.pod } : {}),
    ...(spec ? { container: spec } : {}),
    status: s.status,
    init: s.init,
    ...(snapshot.node ? { node: snapshot.node } : {}),
  });
}
