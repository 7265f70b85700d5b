// pending.volume-limit: Not scheduled: nodes have reached their attachable volume limit.

import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { otherReasons, rankSeverity, reasonsOf, schedulingFailure } from '../scheduling.js';
import type { Evidence } from '../types.js';

// The nodes already have as many volumes attached as their driver allows:
//   0/4 nodes are available: 4 node(s) exceed max volume count.   (1.11+, CSI and in-tree)
//   ≤1.8 predicates: MaxEBSVolumeCount / MaxGCEPDVolumeCount / MaxAzureDiskVolumeCount / MaxCSIVolumeCountPred
// The limit is the node's CSINode allocatable count (or attachable-volumes-* in node allocatable).

export const rule = defineRule({
  meta: {
    id: 'pending.volume-limit',
    title: 'Not scheduled: nodes have reached their attachable volume limit',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes'],
    priority: 55,
    doc:
      'FailedScheduling says `node(s) exceed max volume count` (≤1.8: MaxEBSVolumeCount, MaxCSIVolumeCountPred...): ' +
      'every candidate node already has as many volumes attached as its storage driver allows ' +
      '(CSINode allocatable count, `attachable-volumes-*`), so a pod with another volume cannot go there.',
    messages: {
      title: 'Pod cannot be scheduled: {{count}} node(s) exceed their max volume count',
      needsVolumesUnnamed:
        'The pod has been Pending for {{duration}}: it needs a volumes, ' +
        'and {{count}} node(s) already have as many volumes attached as their storage driver allows.',
      needsVolume:
        'The pod has been Pending for {{duration}}: it needs 1 volume ({{claims}}), ' +
        'and {{count}} node(s) already have as many volumes attached as their storage driver allows.',
      needsVolumes:
        'The pod has been Pending for {{duration}}: it needs {{claimCount}} volumes ({{claims}}), ' +
        'and {{count}} node(s) already have as many volumes attached as their storage driver allows.',
      othersRuledOut: 'Other nodes were ruled out for: {{others}}.',
      addNodes:
        'Add nodes (or a node type that allows more attachments, e.g. larger cloud instances), ' +
        'or spread volume-heavy pods with topologySpreadConstraints.',
      checkLimit:
        'Check the limit the driver reports: `kubectl get csinode <node> -o jsonpath={.spec.drivers[*].allocatable}`; ' +
        'detached-but-not-cleaned VolumeAttachments (`kubectl get volumeattachment`) also count.',
      prevent: 'Size node pools for the volumes per node, not only CPU and memory, and alert when attached volumes approach the CSINode limit.',
    },
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return null;
    const reasons = reasonsOf(failure.fit, 'volume-limit');
    if (reasons.length === 0) return null;
    const { pod, fit } = failure;
    const nodeCount = reasons.reduce((n, r) => n + r.count, 0);
    const evidence: Evidence[] = [...failure.evidence];
    const limits = (snapshot.nodes ?? []).flatMap((n) =>
      Object.entries(n.status?.allocatable ?? {})
        .filter(([k]) => k.startsWith('attachable-volumes-'))
        .map(([k, v]) => `${n.metadata?.name}: ${k}=${v}`),
    );
    if (limits.length) evidence.push({ source: 'node status.allocatable', text: limits.slice(0, 6).join(', ') });
    const claims = (pod.spec?.volumes ?? []).filter((v) => v.persistentVolumeClaim || v.csi).map((v) => v.persistentVolumeClaim?.claimName ?? v.name);
    const others = otherReasons(fit, 'volume-limit');
    return {
      severity: rankSeverity(snapshot, fit, 'volume-limit'),
      title: msg('title', { count: nodeCount }),
      cause: [
        msg(claims.length === 0 ? 'needsVolumesUnnamed' : claims.length === 1 ? 'needsVolume' : 'needsVolumes', {
          duration: formatDuration(failure.seconds),
          claimCount: claims.length,
          claims: claims.join(', '),
          count: nodeCount,
        }),
        others.length > 0 && msg('othersRuledOut', { others: others.join(', ') }),
      ],
      evidence,
      advice: [msg('addNodes'), msg('checkLimit')],
      prevent: [msg('prevent')],
      causeKey: 'volume-limit',
      params: { nodes: nodeCount },
    };
  },
});
