// volume.mount-failed: A volume cannot be attached or mounted.

import { componentState } from '../components.js';
import { clip, eventCount, eventEvidence, eventTime, formatDuration, isDeleting, ms, newestFirst, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Event, Evidence, FindingDraft, Pod, Said, Snapshot } from '../types.js';

// The kubelet (FailedMount) or the attach/detach controller (FailedAttachVolume) cannot make a
// volume available, so the pod stays ContainerCreating. Wording (1.24+ first):
//   MountVolume.MountDevice failed for volume "pvc-1" : kubernetes.io/csi: attacher.MountDevice failed to create
//     newCsiDriverClient: driver name ebs.csi.aws.com not found in the list of registered CSI drivers
//   Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data kube-api-access-x]: timed out waiting for the condition
//   MountVolume.SetUp failed for volume "share" : mount failed: exit status 32 ... Output: mount.nfs: Connection timed out
//   mount.nfs: access denied by server while mounting 10.0.0.5:/exports/share
//   AttachVolume.Attach failed for volume "pvc-1" : rpc error: code = DeadlineExceeded desc = context deadline exceeded
//   MountVolume.WaitForAttach failed ... iscsiadm: cannot make connection to 10.0.0.9: Connection refused
// ConfigMap/Secret "not found" mounts are config.missing-reference's; Multi-Attach is volume.multi-attach's.

type Problem = 'driver-missing' | 'nfs-timeout' | 'nfs-denied' | 'iscsi' | 'deadline' | 'fs-corrupt' | 'timed-out' | 'other';

function classify(text: string): Problem {
  // The kubelet's periodic summary ends in "context deadline exceeded" (1.26+) or "timed out waiting
  // for the condition": it only says that something before it failed.
  if (/^Unable to (?:attach or )?mount volumes/.test(text.trim())) return 'timed-out';
  if (/not found in the list of registered CSI drivers|driver name \S+ not found/.test(text)) return 'driver-missing';
  if (/mount\.nfs: (?:Connection timed out|Connection refused|No route to host)/.test(text)) return 'nfs-timeout';
  if (/access denied by server/.test(text)) return 'nfs-denied';
  if (/iscsi|iscsiadm/i.test(text)) return 'iscsi';
  if (/wrong fs type|bad superblock|structure needs cleaning|fsck/i.test(text)) return 'fs-corrupt';
  if (/DeadlineExceeded|context deadline exceeded/.test(text)) return 'deadline';
  if (/timed out waiting for the condition/.test(text)) return 'timed-out';
  return 'other';
}

const SKIP = /Multi-Attach error|(?:configmap|secret) "[^"]+" not found|couldn't find key|object "[^"]+"\/"[^"]+" not registered/i;

// The kubelet creates a pod's sandbox only after every volume is attached and mounted (syncPod waits in
// volumeManager.WaitForAttachAndMount before the runtime's SyncPod): a sandbox attempt, an image pull
// or a container start of the pod after a mount failure shows that the mount got through since. A
// one-off "failed to sync configmap cache" followed by failing sandboxes is the sandbox's problem.
const PAST_MOUNT = new Set([
  'FailedCreatePodSandBox',
  'SandboxChanged',
  'FailedPodSandBoxStatus',
  'Pulling',
  'Pulled',
  'Created',
  'Started',
  'Failed',
  'BackOff',
  'ErrImageNeverPull',
  'InspectFailed',
]);

/** The newest time the kubelet got past the volumes for this pod (an event of a later step), in ms. */
function pastMountAt(snapshot: Snapshot, pod: Pod): number | undefined {
  let newest: number | undefined;
  for (const e of snapshot.events) {
    if (!PAST_MOUNT.has(e.reason ?? '')) continue;
    const about = e.involvedObject;
    if (about && ((about.kind && about.kind !== 'Pod') || (about.name && about.name !== pod.metadata?.name))) continue;
    const at = ms(eventTime(e));
    if (at !== undefined && (newest === undefined || at > newest)) newest = at;
  }
  return newest;
}

/** The driver behind a volume: CSI driver name, or the in-tree plugin, from the message or the pod spec. */
function driverOf(text: string, pod: Pod, volume: string | undefined): string | undefined {
  const named =
    /driver name (\S+) not found/.exec(text)?.[1] ??
    /kubernetes\.io[/~](csi|nfs|iscsi|rbd|cephfs|glusterfs|aws-ebs|gce-pd|azure-disk|azure-file)/.exec(text)?.[1];
  if (named) return named;
  const v = pod.spec?.volumes?.find((x) => x.name === volume);
  if (v?.csi?.driver) return v.csi.driver;
  if (v?.nfs) return 'nfs';
  if (v?.iscsi) return 'iscsi';
  if (v?.persistentVolumeClaim) return `PersistentVolumeClaim ${v.persistentVolumeClaim.claimName}`;
  return undefined;
}

const messages = {
  titleDriverMissing: 'Volume {{volume}} cannot be mounted on {{node}}: CSI driver not registered',
  titleNfsTimeout: 'Volume {{volume}} cannot be mounted on {{node}}: NFS server unreachable',
  titleNfsDenied: 'Volume {{volume}} cannot be mounted on {{node}}: NFS access denied',
  titleIscsi: 'Volume {{volume}} cannot be mounted on {{node}}: iSCSI login failed',
  titleFsCorrupt: 'Volume {{volume}} cannot be mounted on {{node}}: filesystem cannot be mounted',
  titleDeadline: 'Volume {{volume}} cannot be mounted on {{node}}: storage driver timed out',
  titleTimedOut: 'Volume {{volume}} cannot be mounted on {{node}}: timed out waiting',
  titleOther: 'Volume {{volume}} cannot be mounted on {{node}}: mount error',
  cannotAttach: 'The attach/detach controller cannot attach volume {{volume}}, {{count}} {{failures}} over {{duration}}: "{{message}}".',
  cannotAttachDriver: 'The attach/detach controller cannot attach volume {{volume}} ({{driver}}), {{count}} {{failures}} over {{duration}}: "{{message}}".',
  cannotMount: 'The kubelet on {{node}} cannot mount volume {{volume}}, {{count}} {{failures}} over {{duration}}: "{{message}}".',
  cannotMountDriver: 'The kubelet on {{node}} cannot mount volume {{volume}} ({{driver}}), {{count}} {{failures}} over {{duration}}: "{{message}}".',
  staysCreating: 'The pod stays ContainerCreating until the volume is available.',
  // The CSI node plugin's state, worded by the shared component table (components.ts).
  pluginSummary: '{{summary}}',
  driverMissing:
    'The CSI driver {{driver}} is not registered on {{node}}: check its node plugin DaemonSet has a Ready pod there ' +
    '(kubectl get pods -A -o wide | grep {{node}} | grep -i csi) and `kubectl get csinode {{node}} -o yaml` lists it.',
  nfsTimeout:
    'The NFS server does not answer from {{node}}: check the server address and export, firewall rules for 2049/tcp (and 111 for NFSv3), ' +
    'and that {{node}} has nfs-common/nfs-utils installed.',
  nfsDenied:
    "The NFS server refuses {{node}}: add the node's address (or its subnet) to the export's allowed clients (/etc/exports), and check the path exists.",
  iscsi:
    'The iSCSI target does not accept {{node}}: check the portal address and port 3260 from the node, ' +
    'the initiator name allowed on the target, and iscsid running on the node.',
  fsCorrupt:
    "The volume's filesystem cannot be mounted (wrong type or damaged): " +
    "check the PV's fsType, and run fsck on the volume from a maintenance host before using it again.",
  deadline:
    'The storage driver did not answer in time: ' +
    'check its controller and node plugin logs (kubectl logs -n kube-system <csi pods>) and the cloud/storage API it calls.',
  deadlineDriver:
    'The storage driver ({{driver}}) did not answer in time: ' +
    'check its controller and node plugin logs (kubectl logs -n kube-system <csi pods>) and the cloud/storage API it calls.',
  timedOut:
    'The kubelet on {{node}} gave up waiting for the volume: an earlier step (attach, the CSI node plugin, the network to the storage) is failing; ' +
    "the events before this one and the CSI node plugin's logs on {{node}} say which.",
  other:
    'Read the mount error quoted above; check the storage driver on {{node}} (its node plugin logs and kubelet logs: journalctl -u kubelet | grep -i mount).',
  otherDriver:
    'Read the mount error quoted above; check the storage driver {{driver}} on {{node}} ' +
    '(its node plugin logs and kubelet logs: journalctl -u kubelet | grep -i mount).',
  describePod: 'kubectl describe pod -n {{namespace}} {{pod}} shows every mount attempt; the kubelet retries by itself once the cause is fixed.',
  prevent:
    'Monitor the storage driver (CSI node plugins on every node, NFS/iSCSI servers) and alert on FailedMount events, not only on pods that stay Pending.',
} as const;

type Id = keyof typeof messages;

const TITLE: Record<Problem, Id> = {
  'driver-missing': 'titleDriverMissing',
  'nfs-timeout': 'titleNfsTimeout',
  'nfs-denied': 'titleNfsDenied',
  iscsi: 'titleIscsi',
  'fs-corrupt': 'titleFsCorrupt',
  deadline: 'titleDeadline',
  'timed-out': 'titleTimedOut',
  other: 'titleOther',
};

/** What to do about the problem, by the error class. */
function advice(problem: Problem, driver: string | undefined, node: string): Said<Id> {
  switch (problem) {
    case 'driver-missing':
      return msg('driverMissing', { driver: driver ?? '', node });
    case 'nfs-timeout':
      return msg('nfsTimeout', { node });
    case 'nfs-denied':
      return msg('nfsDenied', { node });
    case 'iscsi':
      return msg('iscsi', { node });
    case 'fs-corrupt':
      return msg('fsCorrupt');
    case 'deadline':
      return driver ? msg('deadlineDriver', { driver }) : msg('deadline');
    case 'timed-out':
      return msg('timedOut', { node });
    case 'other':
      return driver ? msg('otherDriver', { driver, node }) : msg('other', { node });
  }
}

/** 3: a named error, 2: another message, 1: a driver timeout, 0: the kubelet's summary. */
function specificity(text: string): number {
  const problem = classify(text);
  if (problem === 'timed-out') return 0;
  if (problem === 'deadline') return 1;
  if (problem === 'other') return 2;
  return 3;
}

/** Attach errors the attacher wrote on the pod's VolumeAttachments (the claims' facts). */
function attachErrors(snapshot: Snapshot): { name: string; message: string }[] {
  return (snapshot.claims ?? []).flatMap((c) => {
    const status = c.attachment?.status as { attached?: boolean; attachError?: { message?: string } } | undefined;
    return status?.attachError?.message && !status.attached ? [{ name: c.attachment?.metadata?.name ?? '', message: status.attachError.message }] : [];
  });
}

export const rule = defineRule({
  meta: {
    id: 'volume.mount-failed',
    title: 'A volume cannot be attached or mounted',
    category: 'volume',
    severity: 'error',
    needs: ['pod', 'events', 'claims', 'components'],
    priority: 57,
    doc:
      'FailedMount / FailedAttachVolume for CSI, NFS, iSCSI and friends: "driver name X not found in the list of registered CSI drivers", ' +
      '"Unable to attach or mount volumes ... timed out waiting for the condition", "mount.nfs: Connection timed out" / "access denied by server", ' +
      '"rpc error: code = DeadlineExceeded", iscsiadm errors. Names the volume, the driver and the node, and advises by the error. ' +
      'A failure the kubelet got past (the pod has a later sandbox attempt, image pull or container start: volumes are mounted before the sandbox) is over.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isDeleting(pod) || pod.status?.phase !== 'Pending' || !pod.spec?.nodeName) return null;
    const node = pod.spec.nodeName;
    const past = pastMountAt(snapshot, pod);
    const failures = newestFirst(snapshot.events).filter(
      (e: Event) =>
        (e.reason === 'FailedMount' || e.reason === 'FailedAttachVolume') &&
        !SKIP.test(e.message ?? '') &&
        // Strictly later: a sandbox attempt in the same second may be the one the failure stopped.
        !(past !== undefined && past > (ms(eventTime(e)) ?? Infinity)),
    );
    const recent = failures.filter((e) => (secondsSince(snapshot, eventTime(e)) ?? Infinity) <= 900);
    if (recent.length === 0) return null;
    // The most specific message of the last hour wins (its event may repeat less often than the
    // summary): a named error, then a driver timeout, then the kubelet's summary. The attacher's own
    // error on the VolumeAttachment is as specific as it gets.
    const hour = failures.filter((e) => (secondsSince(snapshot, eventTime(e)) ?? Infinity) <= 3600);
    const ranked = [...hour].sort((a, b) => specificity(b.message ?? '') - specificity(a.message ?? ''));
    const main = ranked[0]!;
    const attachError = attachErrors(snapshot).find(() => specificity(main.message ?? '') < 3);
    const message = attachError?.message ?? main.message ?? '';
    const problem = classify(message);
    const volume = /for volume "([^"]+)"/.exec(message)?.[1] ?? /unmounted volumes=\[([^\] ]+)/.exec(message)?.[1];
    const driver = driverOf(message, pod, volume);
    const since = secondsSince(snapshot, failures[failures.length - 1]?.firstTimestamp ?? eventTime(failures[failures.length - 1]!));
    const evidence: Evidence[] = attachError
      ? [{ source: `volumeattachment ${attachError.name} status.attachError`, text: clip(attachError.message, 900) }]
      : [{ ...eventEvidence(main), text: clip(message, 900) }];
    const summary = recent.find((e) => (attachError || e !== main) && classify(e.message ?? '') === 'timed-out');
    if (summary) evidence.push(eventEvidence(summary));
    const count = failures.reduce((n, e) => n + eventCount(e), 0);
    // A driver that is not registered: its node plugin on this node says why, and CSINode lists what is registered.
    const plugin = problem === 'driver-missing' ? componentState(snapshot, 'csi') : undefined;
    if (plugin) {
      evidence.push(...plugin.evidence);
      if (plugin.fact.registered !== undefined)
        evidence.push({
          source: `csinode ${node}`,
          text: plugin.fact.registered === null ? 'no CSINode object' : `registered drivers: ${plugin.fact.registered.join(', ') || 'none'}`,
        });
    }
    const failed = {
      volume: volume ?? '(unnamed)',
      count,
      failures: count === 1 ? 'failure' : 'failures',
      duration: formatDuration(since ?? 0),
      message: clip(message.replace(/\s+/g, ' '), 400),
    };
    const attach = attachError || main.reason === 'FailedAttachVolume';
    return {
      title: msg(TITLE[problem], { volume: volume ?? '?', node }),
      cause: [
        attach
          ? driver
            ? msg('cannotAttachDriver', { ...failed, driver })
            : msg('cannotAttach', failed)
          : driver
            ? msg('cannotMountDriver', { ...failed, node, driver })
            : msg('cannotMount', { ...failed, node }),
        msg('staysCreating'),
        plugin && msg('pluginSummary', { summary: plugin.summary }),
      ],
      evidence,
      advice: [advice(problem, driver, node), msg('describePod', { namespace: pod.metadata?.namespace ?? '', pod: pod.metadata?.name ?? '' })],
      prevent: [msg('prevent')],
      causeKey: `node/${node}:volume-${problem}:${driver ?? volume ?? ''}`,
      params: { node, problem, ...(volume ? { volume } : {}), ...(driver ? { driver } : {}) },
    } satisfies FindingDraft<Id>;
  },
});
