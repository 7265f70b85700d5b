// volume.fsgroup-chown-slow: The kubelet is still changing the ownership of every file on the volume (fsGroup).

import { clip, eventEvidence, eventsWithReason, isDeleting, newestFirst } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';

// With securityContext.fsGroup and the default fsGroupChangePolicy (Always), the kubelet chowns and
// chmods every file of the volume at every mount. On a volume with millions of files that takes
// longer than the mount timeout: FailedMount "Unable to attach or mount volumes ... context deadline
// exceeded" repeats while the volume is attached and healthy. Newer kubelets say so themselves:
//   VolumePermissionChangeInProgress  Setting volume ownership for <path> is taking longer than expected,
//     consider using OnRootMismatch - https://kubernetes.io/docs/...
//   VolumePermissionChangeInProgress  Setting volume ownership for <path>, processed 6122418 files

export const rule = defineRule({
  meta: {
    id: 'volume.fsgroup-chown-slow',
    title: 'The kubelet is still changing the ownership of every file on the volume (fsGroup)',
    category: 'volume',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 61,
    supersedes: ['volume.mount-failed'],
    doc:
      'VolumePermissionChangeInProgress ("Setting volume ownership for ... is taking longer than expected, consider using OnRootMismatch") ' +
      'while the pod stays ContainerCreating with FailedMount timeouts: securityContext.fsGroup makes the kubelet chown the whole volume at every mount, ' +
      'and a volume with millions of files outlasts the mount timeout. Set fsGroupChangePolicy: OnRootMismatch.',
    messages: {
      title: 'The kubelet is still chowning the volume for fsGroup {{fsGroup}}',
      titleFiles: 'The kubelet is still chowning the volume for fsGroup {{fsGroup}} ({{files}} files so far)',
      setsFsGroup:
        'The pod sets securityContext.fsGroup with fsGroupChangePolicy {{policy}}, ' +
        'so at every mount the kubelet changes the owner and mode of every file on the volume.',
      setsFsGroupValue:
        'The pod sets securityContext.fsGroup {{fsGroup}} with fsGroupChangePolicy {{policy}}, ' +
        'so at every mount the kubelet changes the owner and mode of every file on the volume.',
      saysSo: 'It says so: "{{message}}".',
      saysSoFiles: 'It says so: "{{message}}", {{files}} files processed.',
      outlasts: 'The volume is attached and fine; the walk over its files outlasts the mount timeout, so the pod stays ContainerCreating.',
      outlastsTimeout:
        'The volume is attached and fine; the walk over its files outlasts the mount timeout, so the pod stays ContainerCreating ("{{timeout}}").',
      onRootMismatch:
        'Set `fsGroupChangePolicy: OnRootMismatch` in the pod securityContext: ' +
        'the kubelet then skips the walk when the volume root already has the right owner.',
      dropFsGroup:
        'Or drop fsGroup if the image already runs with the volume owner; ' +
        'for CSI drivers that support it, fsGroupPolicy: File with VOLUME_MOUNT_GROUP delegates ownership to the driver.',
      prevent: 'Use OnRootMismatch for every pod with fsGroup on large volumes.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isDeleting(pod) || pod.status?.phase !== 'Pending') return null;
    const progress = newestFirst(eventsWithReason(snapshot, 'VolumePermissionChangeInProgress'));
    const slow = progress.find((e) => /taking longer than expected/.test(e.message ?? '')) ?? progress[0];
    if (!slow) return null;
    const fsGroup = pod.spec?.securityContext?.fsGroup;
    const policy = pod.spec?.securityContext?.fsGroupChangePolicy ?? 'Always';
    const files = progress.map((e) => /processed (\d+) files/.exec(e.message ?? '')?.[1]).find(Boolean);
    const timeout = newestFirst(eventsWithReason(snapshot, 'FailedMount'))[0];
    const message = clip(slow.message ?? '', 300);
    return {
      title: files ? msg('titleFiles', { fsGroup: fsGroup ?? '?', files: Number(files).toLocaleString('en-US') }) : msg('title', { fsGroup: fsGroup ?? '?' }),
      cause: [
        fsGroup !== undefined ? msg('setsFsGroupValue', { fsGroup, policy }) : msg('setsFsGroup', { policy }),
        files ? msg('saysSoFiles', { message, files }) : msg('saysSo', { message }),
        timeout ? msg('outlastsTimeout', { timeout: clip(timeout.message ?? '', 200) }) : msg('outlasts'),
      ],
      evidence: [...progress.slice(0, 2).map(eventEvidence), ...(timeout ? [eventEvidence(timeout)] : [])],
      advice: [msg('onRootMismatch'), msg('dropFsGroup')],
      prevent: [msg('prevent')],
      causeKey: `pod/${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}:fsgroup-chown`,
      params: { ...(fsGroup !== undefined ? { fsGroup } : {}), policy, ...(files ? { files: Number(files) } : {}) },
    };
  },
});
