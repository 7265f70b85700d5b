import { defineRule } from '../rule.js';
import { formatDuration, isStuckTerminating, nodeNotReady, secondsPastDeletion } from '../facts.js';

// Finalizers → the controller most likely to own them, so the finding names who to ask.
const OWNERS: [RegExp, string][] = [
  [/^foregroundDeletion$/, 'the garbage collector (foreground cascading deletion waits for dependents)'],
  [/^orphan$/, 'the garbage collector (orphaning dependents)'],
  [/^kubernetes\.io\/pvc-protection$/, 'the PVC protection controller'],
  [/^kubernetes\.io\/pv-protection$/, 'the PV protection controller'],
  [/^batch\.kubernetes\.io\/job-tracking$/, 'the Job controller'],
  [/^([a-z0-9.-]+)\//, 'the controller of API group or domain "$1"'],
];

export function likelyOwner(finalizer: string): string {
  for (const [re, who] of OWNERS) {
    const m = re.exec(finalizer);
    if (m) return who.replace('$1', m[1] ?? '');
  }
  return 'an unknown controller';
}

export const rule = defineRule({
  meta: {
    id: 'terminating.finalizers',
    title: 'Deletion blocked by finalizers',
    category: 'terminating',
    severity: 'error',
    needs: ['pod', 'node'],
    playbook: 'remove-finalizers',
    priority: 70,
    doc: 'A deleted pod stays while `metadata.finalizers` is non-empty; the controller that owns each finalizer has not removed it.',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const finalizers = pod?.metadata?.finalizers ?? [];
    if (!pod || finalizers.length === 0 || !isStuckTerminating(snapshot, pod)) return null;
    // On a lost node the kubelet is the blocker; finalizers are then secondary.
    const overdue = secondsPastDeletion(snapshot, pod) ?? 0;
    return {
      severity: nodeNotReady(snapshot.node) ? 'warning' : 'error',
      title: `Pod deletion blocked by finalizer${finalizers.length > 1 ? 's' : ''} ${finalizers.join(', ')}`,
      cause: `The pod was deleted ${formatDuration(overdue)} past its grace period but keeps ${finalizers
        .map((f) => `"${f}" (owned by ${likelyOwner(f)})`)
        .join(', ')}; the API server removes the object only when every finalizer is gone.`,
      evidence: [
        { source: 'pod.metadata.deletionTimestamp', text: pod.metadata?.deletionTimestamp ?? '' },
        { source: 'pod.metadata.finalizers', text: JSON.stringify(finalizers) },
      ],
      advice: [
        `Check why ${finalizers.map(likelyOwner).join(' / ')} has not finished (its logs, its health).`,
        'If the owner is gone for good, remove the finalizers (playbook remove-finalizers, needs approval).',
      ],
      prevent: ['Keep the controllers that add finalizers running and healthy; uninstall them only after their objects are gone.'],
      causeKey: `finalizers:${[...finalizers].sort().join(',')}`,
      params: { finalizers },
    };
  },
});
