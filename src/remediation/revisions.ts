// A workload's rollout history as the rollback playbook reads it live: the workload, its
// revisions (oldest first) and whether its pod template is a given revision's. Shared by the
// rollback step and the checks that guard it (the revision still exists, nothing newer was
// rolled out, the workload is at the revision afterwards).
import { isHistoryKind, workloadRevisions } from '../collect/history.js';
import type { FactSource } from '../collect/source.js';
import { type Revision, revisions } from '../diagnosis/changes.js';
import type { KubeObject } from '../diagnosis/types.js';

export interface LiveHistory {
  object: KubeObject;
  revisions: Revision[];
}

/** The workload and its revisions; null when the workload is gone. */
export async function readHistory(
  source: Pick<FactSource, 'getOwner' | 'listRevisions'>,
  namespace: string,
  kind: string,
  name: string,
): Promise<LiveHistory | null> {
  if (!isHistoryKind(kind)) throw new Error(`a ${kind} has no rollout history`);
  const object = await source.getOwner(namespace, kind, name);
  if (!object) return null;
  const objects = await workloadRevisions(source, namespace, kind, object);
  return { object, revisions: revisions({ workload: { kind, name, object, revisions: objects }, configs: [] }) };
}

/** The pod template a workload gets back for a revision: without the labels its controller adds. */
export function templateOf(revision: Revision): Record<string, unknown> {
  const template = structuredClone((revision.template ?? {}) as Record<string, unknown> & { metadata?: { labels?: Record<string, string> } });
  delete template.$patch;
  if (template.metadata?.labels) {
    delete template.metadata.labels['pod-template-hash'];
    delete template.metadata.labels['controller-revision-hash'];
  }
  return template;
}

/**
 * `have` holds everything `want` says (arrays element by element, same length): the API server
 * fills in defaults on the workload's template that a revision's saved template may lack.
 */
function holds(have: unknown, want: unknown): boolean {
  if (Array.isArray(want)) return Array.isArray(have) && have.length === want.length && want.every((w, i) => holds(have[i], w));
  if (want && typeof want === 'object') {
    if (!have || typeof have !== 'object' || Array.isArray(have)) return false;
    return Object.entries(want).every(([k, w]) => holds((have as Record<string, unknown>)[k], w));
  }
  return have === want;
}

/** Whether the workload's pod spec is the revision's (what a rollback to it leaves). */
export function atRevision(object: KubeObject, revision: Revision): boolean {
  const current = (object.spec as { template?: { spec?: unknown } } | undefined)?.template?.spec;
  return holds(current, (templateOf(revision) as { spec?: unknown }).spec ?? {});
}
