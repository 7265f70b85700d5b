// Redis keys of the alert intake, under the job system's per-cluster hash tag (a cluster's
// alert keys share a slot with its queues). Parts are structured, never rendered text.
import { createHash } from 'node:crypto';
import { clusterTag } from '../redis/keys.js';

export const alertKeys = {
  /** The group-events stream the chat side reads. */
  stream: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:alert-groups`,
  /** Group state (hash) of one (cluster, channel, groupKey). */
  group: (prefix: string, cluster: string, groupId: string) => `${clusterTag(prefix, cluster)}:alert-group:${groupId}`,
  /** Job ids queued for one firing alert (set): diagnose job ids, `expand:<id>` for workload expansions. */
  jobs: (prefix: string, cluster: string, fingerprint: string, startsAt: string) => `${clusterTag(prefix, cluster)}:alert-jobs:${fingerprint}:${startsAt}`,
  /** Present once the alert (fingerprint, startsAt) resolved: its queued work may be cancelled. */
  resolved: (prefix: string, cluster: string, fingerprint: string, startsAt: string) =>
    `${clusterTag(prefix, cluster)}:alert-resolved:${fingerprint}:${startsAt}`,
  resolvedPrefix: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:alert-resolved:`,
};

/** Stable id of a group: (cluster, channel, groupKey) hashed, since group keys are long free text. */
export function groupIdOf(cluster: string, channel: string | null, groupKey: string): string {
  return createHash('sha256')
    .update(`${cluster}\n${channel ?? ''}\n${groupKey}`)
    .digest('hex')
    .slice(0, 32);
}

/** Per-pod fingerprint of a workload alert: the same alert may ask for several pods. */
export function podFingerprint(alertFingerprint: string, podKey: string): string {
  return createHash('sha256').update(`${alertFingerprint}\n${podKey}`).digest('hex').slice(0, 16);
}
