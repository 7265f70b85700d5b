// The names of every Redis key pod-doctor owns outside BullMQ, and the hash tags they start
// with: `{<prefix>:<cluster>}` for one Kubernetes cluster's keys (its BullMQ queues, dedup,
// incidents, streams, plans, locks: one slot per cluster, so clusters spread over the shards of
// a Redis Cluster) and `{<prefix>}` for keys shared by all clusters (chat). BullMQ needs a
// queue's keys in one slot; our Lua scripts only ever touch keys of one tag.

export const DEFAULT_PREFIX = 'pod-doctor';

/** The configured prefix without braces: `{pod-doctor}` (the old Cluster advice) and `pod-doctor` name the same keys. */
export function barePrefix(prefix: string): string {
  return prefix.replace(/[{}]/g, '');
}

/**
 * `{pod-doctor:prod-eu}`: the hash tag, and the start of every key, of one Kubernetes cluster
 * (its BullMQ prefix too). Cluster names are DNS labels, so no cluster's tag equals another's
 * or the shared one.
 */
export function clusterTag(prefix: string, cluster: string): string {
  return `{${barePrefix(prefix)}:${cluster}}`;
}

/** `{pod-doctor}`: the hash tag of keys shared by every cluster (chat threads, limits, approvals). */
export function sharedTag(prefix: string): string {
  return `{${barePrefix(prefix)}}`;
}

/** SCAN pattern matching every key of a prefix, per-cluster and shared (cleanup, the demo). */
export function keyPattern(prefix: string): string {
  return `{${barePrefix(prefix)}[:}]*`;
}

/** Redis keys outside BullMQ. Parts are structured, never rendered text. */
export const keys = {
  dedup: (prefix: string, cluster: string, target: string) => `${clusterTag(prefix, cluster)}:dedup:${target}`,
  requesters: (prefix: string, cluster: string, jobId: string) => `${clusterTag(prefix, cluster)}:requesters:${jobId}`,
  requestersPrefix: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:requesters:`,
  alert: (prefix: string, cluster: string, fingerprint: string, status: string, startsAt: string) =>
    `${clusterTag(prefix, cluster)}:alert:${fingerprint}:${status}:${startsAt}`,
  incident: (prefix: string, cluster: string, rule: string, causeKey: string) => `${clusterTag(prefix, cluster)}:incident:${rule}|${causeKey}`,
  incidents: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:incidents`,
  /** Incidents of one fingerprint (rule|workload|node), kept for the recurrence retention. */
  recurrence: (prefix: string, cluster: string, fingerprint: string) => `${clusterTag(prefix, cluster)}:recur:${fingerprint}`,
  /** The last verified fix of a fingerprint (hash: playbook, outcome, at). */
  recurrenceFix: (prefix: string, cluster: string, fingerprint: string) => `${clusterTag(prefix, cluster)}:recur-fix:${fingerprint}`,
  /** Findings marked Not a problem for one object (`shop/Deployment web`): hash rule → who, when, until. */
  marks: (prefix: string, cluster: string, object: string) => `${clusterTag(prefix, cluster)}:marks:${object}`,
  apiBucket: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:bucket:api`,
  results: (prefix: string, cluster: string) => `${clusterTag(prefix, cluster)}:results`,
  /** Shared keys: `{pod-doctor}:chat:<what>:...` (one slot for every cluster's chat state). */
  chat: (prefix: string, ...parts: string[]) => `${sharedTag(prefix)}:chat:${parts.join(':')}`,
  chatBucket: (prefix: string, channel: string) => keys.chat(prefix, 'bucket', channel),
  chatPause: (prefix: string, channel: string) => keys.chat(prefix, 'pause', channel),
};
