// volume.multi-attach: Volume still attached to another node (Multi-Attach error).

import { clip, eventEvidence, eventTime, formatDuration, isDeleting, isStuckTerminating, newestFirst, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// A ReadWriteOnce volume is still attached to another node, so the attach/detach controller
// will not attach it to this pod's node:
//   FailedAttachVolume (attachdetach-controller)  Multi-Attach error for volume "pvc-0a1b..." Volume is already used by pod(s) web-0
//   older:  Multi-Attach error for volume "pvc-0a1b..." Volume is already exclusively attached to one node and can't be attached to another
// Typical after a node failure (the old pod is stuck Terminating on a lost node) or a Deployment
// rolling update of a pod with an RWO claim (the new pod starts before the old one lets go).

const MULTI = /Multi-Attach error for volume "([^"]+)"/;

export const rule = defineRule({
  meta: {
    id: 'volume.multi-attach',
    title: 'Volume still attached to another node (Multi-Attach error)',
    category: 'volume',
    severity: 'error',
    needs: ['pod', 'events', 'volumeUsers'],
    priority: 66,
    doc:
      'FailedAttachVolume "Multi-Attach error for volume ... Volume is already used by pod(s) X" (or "already exclusively attached to one node"): ' +
      'a ReadWriteOnce volume is still attached to another node, usually for a pod stuck Terminating on a lost node or the old pod of a rolling update. ' +
      'Names that pod and its node.',
    messages: {
      title: 'Volume {{volume}} is still attached elsewhere',
      titleUsedBy: 'Volume {{volume}} is still attached elsewhere (used by {{users}})',
      refused:
        'The attach/detach controller refuses to attach volume {{volume}} to {{node}} for {{duration}}: ' +
        'it is ReadWriteOnce and still attached to another node.',
      refusedClaim:
        'The attach/detach controller refuses to attach volume {{volume}} (claim {{claim}}) to {{node}} for {{duration}}: ' +
        'it is ReadWriteOnce and still attached to another node.',
      refusedUsedBy:
        'The attach/detach controller refuses to attach volume {{volume}} to {{node}} for {{duration}}: ' +
        'it is ReadWriteOnce and still attached to another node, for {{users}}.',
      refusedClaimUsedBy:
        'The attach/detach controller refuses to attach volume {{volume}} (claim {{claim}}) to {{node}} for {{duration}}: ' +
        'it is ReadWriteOnce and still attached to another node, for {{users}}.',
      staysCreating: 'The pod stays ContainerCreating until the volume is detached there.',
      oldPodStuck:
        'The old pod {{pod}} is stuck Terminating on {{node}}: recover that node, ' +
        'or (if it is really down) delete the pod with --force --grace-period=0 and then its VolumeAttachment, ' +
        'so the volume detaches (pod-doctor {{pod}}: diagnose it for the safe way).',
      waitOldPod:
        'Wait for the old pod to stop; if it is a rolling update of a Deployment with a ReadWriteOnce claim, ' +
        'use strategy Recreate (or a StatefulSet) so the new pod does not start before the old one releases the volume.',
      whereAttached: 'See where it is attached: kubectl get volumeattachment | grep {{volume}}.',
      prevent:
        'Use strategy: Recreate for Deployments with ReadWriteOnce volumes (or ReadWriteOncePod / a StatefulSet), ' +
        'and set up node-failure handling (non-graceful node shutdown taint) for stateful workloads.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isDeleting(pod) || pod.status?.phase !== 'Pending') return null;
    const events = newestFirst(snapshot.events).filter((e) => MULTI.test(e.message ?? ''));
    const last = events[0];
    const ago = last ? secondsSince(snapshot, eventTime(last)) : undefined;
    if (!last || ago === undefined || ago > 900) return null;
    const volume = MULTI.exec(last.message ?? '')?.[1] ?? '?';
    const users = snapshot.volumeUsers ?? [];
    const named =
      /already used by pods? ?\(?s?\)? ?([^:]+?)(?:$|\s*:)/
        .exec(last.message ?? '')?.[1]
        ?.split(/,\s*/)
        .map((n) => n.trim()) ?? [];
    const evidence: Evidence[] = [eventEvidence(last)];
    const descriptions = named.map((n) => {
      const other = users.find((u) => u.metadata?.name === n);
      if (!other) return `${n}`;
      const where = other.spec?.nodeName ? ` on node ${other.spec.nodeName}` : '';
      const state = isDeleting(other)
        ? isStuckTerminating(snapshot, other)
          ? ', stuck Terminating'
          : ', Terminating'
        : `, ${other.status?.phase ?? 'phase unknown'}`;
      const deleted = other.metadata?.deletionTimestamp ? `, deletionTimestamp ${other.metadata.deletionTimestamp}` : '';
      evidence.push({ source: `pod ${n}`, text: `node ${other.spec?.nodeName ?? '?'}, phase ${other.status?.phase ?? '?'}${deleted}` });
      return `${n}${where}${state}`;
    });
    const stuck = users.find((u) => isStuckTerminating(snapshot, u));
    const pvc = (pod.spec?.volumes ?? []).find((v) => v.persistentVolumeClaim)?.persistentVolumeClaim?.claimName;
    const refused = {
      volume,
      node: pod.spec?.nodeName ?? "this pod's node",
      duration: formatDuration(secondsSince(snapshot, last.firstTimestamp ?? eventTime(last)) ?? 0),
    };
    const usedBy = descriptions.join('; ');
    return {
      title: descriptions[0] ? msg('titleUsedBy', { volume, users: clip(usedBy, 100) }) : msg('title', { volume }),
      cause: [
        pvc
          ? descriptions.length > 0
            ? msg('refusedClaimUsedBy', { ...refused, claim: pvc, users: usedBy })
            : msg('refusedClaim', { ...refused, claim: pvc })
          : descriptions.length > 0
            ? msg('refusedUsedBy', { ...refused, users: usedBy })
            : msg('refused', refused),
        msg('staysCreating'),
      ],
      evidence,
      advice: [
        // A stuck pod has a name; String() renders a missing one as the template literal did.
        stuck ? msg('oldPodStuck', { pod: String(stuck.metadata?.name), node: stuck.spec?.nodeName ?? 'its node' }) : msg('waitOldPod'),
        msg('whereAttached', { volume }),
      ],
      prevent: [msg('prevent')],
      causeKey: `volume/${volume}:multi-attach`,
      params: {
        volume,
        ...(named.length > 0 ? { usedBy: named } : {}),
        ...(stuck?.spec?.nodeName ? { otherNode: stuck.spec.nodeName } : users[0]?.spec?.nodeName ? { otherNode: users[0].spec.nodeName } : {}),
      },
    } satisfies FindingDraft;
  },
});
