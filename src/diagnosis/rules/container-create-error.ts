// container.create-error: The runtime on the node fails to create the container.

import { innermostError } from '../decisive.js';
import { clip, eventCount, eventEvidence, eventsOfContainer, runtimeOf, statusEvidence, waitingWith } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { isExecFailure, nodeSideFailure } from '../runtime-errors.js';
import type { Evidence, FindingDraft } from '../types.js';

// CreateContainerError that is not about the pod's configuration: the runtime on the node failed
// to create the container. Wording:
//   containerd: failed to reserve container name "web_web-7d9f_shop_<uid>_0": name "web_web-7d9f_shop_<uid>_0"
//     is reserved for "4f1c0e9d..."  (a previous create timed out and still holds the name)
//   kubelet: context deadline exceeded  (the CRI CreateContainer call outlived the kubelet's timeout)
//   containerd: failed to create containerd container: ... no space left on device / failed to mount rootfs
//   docker: Error response from daemon: Conflict. The container name "/k8s_web_..." is already in use by container "..."
//   CRI-O 1.27+: kubelet may be retrying requests that are timing out in CRI-O due to system load. Currently at stage
//     container volume configuration: context deadline exceeded: error reserving ctr name k8s_web_..._0 for id 8424...:
//     name is reserved  (≤ 1.26: "Kubelet may be retrying ... due to system load: ..."; the same timed-out create)
//   CRI-O: error reading container (probably exited) json message: EOF  (conmon lost the OCI runtime mid-create)
// Exec problems (executable not found...) are container.start-error's, in runc's and crun's words (runtime-errors.ts).

type Kind = 'node-helper' | 'name-reserved' | 'deadline' | 'disk-full' | 'name-conflict' | 'runtime';

function classify(message: string): Kind | undefined {
  // A program the runtime runs on the node (apparmor_parser, a shim) is missing: the node, not the image.
  if (nodeSideFailure(message)) return 'node-helper';
  if (isExecFailure(message)) return undefined;
  if (/failed to reserve container name|error reserving ctr name \S+ for id \S+: name is reserved/.test(message)) return 'name-reserved';
  if (/is already in use by container/.test(message)) return 'name-conflict';
  if (/context deadline exceeded|DeadlineExceeded/.test(message)) return 'deadline';
  if (/no space left on device/i.test(message)) return 'disk-full';
  return 'runtime';
}

const messages = {
  titleNodeHelper: '{{container}}: {{runtime}} on {{node}} fails to create the container ({{program}} missing on the node)',
  titleNameReserved: '{{container}}: {{runtime}} on {{node}} fails to create the container (name still reserved)',
  titleDeadline: '{{container}}: {{runtime}} on {{node}} fails to create the container (timed out)',
  titleDiskFull: '{{container}}: {{runtime}} on {{node}} fails to create the container (disk full)',
  titleNameConflict: '{{container}}: {{runtime}} on {{node}} fails to create the container (name in use)',
  titleRuntime: '{{container}}: {{runtime}} on {{node}} fails to create the container ({{error}})',
  nodeHelper:
    'The container runtime on the node runs a program of its own to create the container ' +
    '(containerd runs apparmor_parser to load its default AppArmor profile; a shim binary per runtime), ' +
    "and that program is not installed on the node. The container's image and command are not at fault: every pod on this node fails the same way.",
  nameReserved:
    'An earlier CreateContainer call for this container timed out in the kubelet but is still running (or stuck) in {{runtime}}, ' +
    'which keeps the name reserved; every retry fails until that call finishes or {{runtime}} is restarted. ' +
    "It happens when the node's disk or containerd is too slow (I/O saturation, a large image being unpacked, many pods starting at once).",
  deadline:
    "The container runtime did not finish creating the container within the kubelet's timeout (context deadline exceeded): " +
    'containerd/dockerd on this node is overloaded or blocked (slow disk, hung mounts, too many concurrent creates).',
  diskFull:
    "The node's disk (the runtime's root, usually /var/lib/containerd, /var/lib/containers for CRI-O or /var/lib/docker) is full, " +
    "so the container's writable layer cannot be created.",
  nameConflict:
    'Docker still has a container with the name the kubelet wants, left behind by an earlier attempt; ' +
    'the kubelet cannot create the new one until it is removed.',
  runtime: 'The container runtime on the node refused to create the container; its error is quoted below.',
  tries: 'The kubelet has tried {{tries}} times.',
  runtimeMessage: 'Runtime message: "{{message}}".',
  nodeSide: 'This is a problem of the container runtime on {{node}}, not of the pod spec.',
  installHelper:
    "Install {{program}} on {{node}} (Debian/Ubuntu: the apparmor package for apparmor_parser) or fix the runtime's configuration, " +
    'then restart the runtime; check that the other nodes of the pool have it.',
  clearReservation:
    'On {{node}}: `crictl ps -a --name {{container}}` and `journalctl -u {{daemon}} --since -1h | grep -i {{container}}`; ' +
    'if the reservation never clears, restart {{daemon}} (running containers survive it).',
  freeSpace: 'Free space on {{node}} (`df -h {{root}}`; `{{cli}} rmi --prune`), then the kubelet retries by itself.',
  removeLeftover: 'Remove the leftover container on {{node}}: `docker ps -a | grep k8s_{{container}}_`, then `docker rm -f <id>`.',
  checkRuntime:
    'Check the runtime on {{node}}: `journalctl -u {{daemon}} --since -1h`, disk I/O (`iostat -x 1`) ' +
    'and hung mounts (`{{cli}} info` must answer quickly).',
  cordon: 'If the node stays unhealthy, cordon it and delete the pod so it is created elsewhere.',
  prevent:
    'Watch container-runtime latency on nodes (kubelet_runtime_operations_duration_seconds) ' +
    "and keep the runtime's disk on fast storage with free space alerts.",
} as const;

type Id = keyof typeof messages;

/** Per runtime (runtimeOf): its name in prose, its systemd unit and where it keeps images and containers. */
const DAEMONS: Record<string, { name: string; unit: string; root: string }> = {
  containerd: { name: 'containerd', unit: 'containerd', root: '/var/lib/containerd' },
  'cri-o': { name: 'CRI-O', unit: 'crio', root: '/var/lib/containers' },
  docker: { name: 'dockerd', unit: 'docker', root: '/var/lib/docker' },
};

/** Per kind: the title and the explanation that opens the cause. */
const WORDS: Record<Kind, { titleId: Id; explainId: Id }> = {
  'node-helper': { titleId: 'titleNodeHelper', explainId: 'nodeHelper' },
  'name-reserved': { titleId: 'titleNameReserved', explainId: 'nameReserved' },
  deadline: { titleId: 'titleDeadline', explainId: 'deadline' },
  'disk-full': { titleId: 'titleDiskFull', explainId: 'diskFull' },
  'name-conflict': { titleId: 'titleNameConflict', explainId: 'nameConflict' },
  runtime: { titleId: 'titleRuntime', explainId: 'runtime' },
};

export const rule = defineRule({
  meta: {
    id: 'container.create-error',
    title: 'The runtime on the node fails to create the container',
    category: 'container',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 54,
    doc:
      "Waiting reason CreateContainerError for a runtime reason, not the pod's configuration: " +
      'containerd\'s "failed to reserve container name ... is reserved for" and CRI-O\'s "error reserving ctr name ...: name is reserved", ' +
      '"context deadline exceeded", "no space left on device", ' +
      "docker's name conflicts. Says when it is a problem of the node's runtime and what to check there.",
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const nodeName = pod?.spec?.nodeName ?? '';
    const out: FindingDraft<Id>[] = [];
    for (const s of waitingWith(pod, 'CreateContainerError')) {
      const events = eventsOfContainer(snapshot, s, ['Failed']);
      const message = s.message || (events[0]?.message ?? '').replace(/^Error: /, '');
      const kind = classify(message);
      if (!kind) continue;
      const runtime = runtimeOf(snapshot) ?? (/CRI-O|container create failed|probably exited/.test(message) ? 'cri-o' : 'containerd');
      const evidence: Evidence[] = [statusEvidence(s, 'state', `CreateContainerError${s.message ? `: ${clip(s.message)}` : ''}`)];
      if (events[0]) evidence.push(eventEvidence(events[0]));
      const tries = events.reduce((n, e) => n + eventCount(e), 0);
      const nodeSide = kind !== 'runtime' || /containerd|dockerd|daemon|shim|snapshotter|overlay|conmon|probably exited/i.test(message);
      const cli = runtime === 'docker' ? 'docker' : 'crictl';
      const node = nodeName || 'the node';
      const container = s.status.name;
      const program = nodeSideFailure(message)?.program ?? '';
      const daemon = DAEMONS[runtime] ?? DAEMONS.containerd!;
      out.push({
        title: msg(WORDS[kind].titleId, { container, runtime: daemon.name, node, program, error: innermostError(message) }),
        cause: [
          msg(WORDS[kind].explainId, { runtime: daemon.name }),
          tries > 1 && msg('tries', { tries }),
          msg('runtimeMessage', { message: clip(message, 400) }),
          nodeSide && msg('nodeSide', { node }),
        ],
        evidence,
        advice: [
          kind === 'node-helper'
            ? msg('installHelper', { program, node })
            : kind === 'name-reserved'
              ? msg('clearReservation', { node, container, daemon: daemon.unit })
              : kind === 'disk-full'
                ? msg('freeSpace', { node, root: daemon.root, cli })
                : kind === 'name-conflict'
                  ? msg('removeLeftover', { node, container })
                  : msg('checkRuntime', { node, daemon: daemon.unit, cli }),
          msg('cordon'),
        ],
        prevent: [msg('prevent')],
        causeKey: `node/${nodeName}:create-${kind}`,
        params: { container: s.status.name, problem: kind, ...(nodeName ? { node: nodeName } : {}) },
      });
    }
    return out;
  },
});
