// terminating.subpath-umount-busy: Deletion stuck: kubelet cannot unmount subPath mounts (kernel 3.10 + old docker).
import { holderKindOf, holderPlaybook, journalEvidence, journalMatches, nodeChecksMissing, parseVersion, probeResult, versionLess } from '../agent-facts.js';
import { formatDuration, isStuckTerminating, nodeNotReady, secondsPastDeletion } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Pod } from '../types.js';

const FIXED_DOCKER: [number, number, number] = [17, 12, 1];

function subPathMounts(pod: Pod): string[] {
  const out: string[] = [];
  for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
    for (const m of c.volumeMounts ?? [])
      if (m.subPath || m.subPathExpr) out.push(`${c.name}: ${m.name} → ${m.mountPath} (subPath ${m.subPath ?? m.subPathExpr})`);
  }
  return out;
}

export const rule = defineRule({
  meta: {
    id: 'terminating.subpath-umount-busy',
    title: 'Deletion stuck: kubelet cannot unmount subPath mounts (kernel 3.10 + old docker)',
    category: 'terminating',
    severity: 'error',
    needs: ['pod', 'node', 'agent'],
    playbook: 'release-mount-holder',
    priority: 84,
    supersedes: ['terminating.status-lag', 'terminating.stuck'],
    doc:
      'The kubelet log repeats "error cleaning subPath mounts ... device or resource busy" for a deleted pod. ' +
      'On CentOS kernel 3.10.x with docker older than 17.12.1 umount can fail with EBUSY (seed 003); the fix is an upgrade. ' +
      'Without the kubelet log (agent unreachable) the finding falls back to the kernel and docker versions from the API ' +
      'and says the log check could not run, but only on a Ready node (on a lost node the kubelet is not unmounting anything). ' +
      'A holder is named, and its playbook offered, only when it holds the busy subPath mount.',
    messages: {
      title: 'kubelet on {{node}} cannot unmount subPath mounts',
      titleKnownBug: 'kubelet on {{node}} cannot unmount subPath mounts (kernel {{kernel}}, docker {{docker}})',
      umountBusy: 'The kubelet on {{node}} cannot remove the pod\'s subPath bind mounts: umount returns "device or resource busy".',
      umountBusyPath: 'The kubelet on {{node}} cannot remove the pod\'s subPath bind mounts ({{path}}): umount returns "device or resource busy".',
      knownBug:
        '{{node}} runs kernel {{kernel}} with docker {{docker}}, a pair with a known umount bug ' +
        '(fixed in docker 17.12.1; kernels from 4.4 are not affected), ' +
        'so the kubelet retries forever and the pod stays Terminating ({{overdue}} past its grace period).',
      umountBusyOverdue:
        "The kubelet on {{node}} cannot remove the pod's subPath bind mounts: " +
        'umount returns "device or resource busy" ({{overdue}} past the grace period).',
      umountBusyPathOverdue:
        "The kubelet on {{node}} cannot remove the pod's subPath bind mounts ({{path}}): " +
        'umount returns "device or resource busy" ({{overdue}} past the grace period).',
      notKnownPairDocker:
        '{{node}} runs kernel {{kernel}} with docker {{docker}}, not the known 3.10/docker<17.12.1 pair, so another process most likely holds the mount.',
      notKnownPairRuntime:
        '{{node}} runs kernel {{kernel}} with {{runtime}}, not the known 3.10/docker<17.12.1 pair, so another process most likely holds the mount.',
      notKnownPairUnknownRuntime:
        '{{node}} runs kernel {{kernel}} with an unknown runtime, not the known 3.10/docker<17.12.1 pair, so another process most likely holds the mount.',
      holder: 'Process {{pid}} ({{command}}) holds it in mount namespace {{mountNamespace}}.',
      holderUnit: 'Process {{pid}} ({{command}}, {{unit}}) holds it in mount namespace {{mountNamespace}}.',
      checksMissing: '{{missing}}',
      restartService: 'Release the holder on {{node}}: `systemctl restart {{unit}}` (playbook release-mount-holder, approval).',
      stopProcess: 'Stop pid {{pid}} on {{node}}, which is part of no systemd service (playbook stop-mount-holder, approval).',
      restartPod: 'Pid {{pid}} belongs to a container: restart that pod through its owner.',
      restartPodUid: 'Pid {{pid}} belongs to a container of pod {{podUid}}: restart that pod through its owner.',
      upgrade: 'Upgrade docker on {{node}} to 17.12.1 or later, or the kernel to 4.4 or later; until then drain pods with subPath volumes off it.',
      findHolder: 'Find the holder on {{node}}: `grep -l volume-subpaths /proc/*/mountinfo`.',
      goesAway: 'After the mount is released the kubelet finishes the cleanup and the pod goes away by itself.',
      avoidPair: 'Keep nodes off the kernel 3.10 + docker < 17.12.1 combination.',
      avoidPrivateMounts: 'Avoid services with private mount namespaces (PrivateTmp) or containers that mount /var/lib/kubelet.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || !isStuckTerminating(snapshot, pod)) return null;
    const node = pod.spec?.nodeName ?? '?';
    const lines = journalMatches(snapshot, ['subpath-cleanup-busy']);
    const info = snapshot.node?.status?.nodeInfo;
    const host = probeResult(snapshot, 'host');
    const runtime = probeResult(snapshot, 'runtime');
    const kernel = host?.kernel ?? info?.kernelVersion;
    const runtimeVersion = info?.containerRuntimeVersion;
    const dockerVersion = runtime?.docker.version ?? (runtimeVersion?.startsWith('docker://') ? runtimeVersion.slice(9) : undefined);
    const oldKernel = kernel !== undefined && /^3\.10\./.test(kernel);
    const dv = parseVersion(dockerVersion);
    const oldDocker = dv !== undefined && versionLess(dv, FIXED_DOCKER);
    const subPaths = subPathMounts(pod);
    const badPair = oldKernel && oldDocker;

    // The log line proves it; without it, the version pair plus subPath mounts only suggest it, and
    // only while the kubelet is alive to retry the unmount: on a NotReady node that is the blocker.
    if (lines.length === 0 && !(badPair && subPaths.length > 0 && !nodeNotReady(snapshot.node))) return null;
    const missing = lines.length === 0 ? nodeChecksMissing(snapshot, node, 'journal') : undefined;
    if (lines.length === 0 && !missing) return null; // the log was read and is clean: not this

    const overdue = formatDuration(secondsPastDeletion(snapshot, pod) ?? 0);
    const path = lines.map((m) => m.captures.path).find(Boolean);
    const evidence: Evidence[] = lines.slice(-2).map((m) => journalEvidence(node, m, 900));
    evidence.push({ source: `node ${node} kernel`, text: kernel ?? 'unknown' });
    evidence.push({ source: `node ${node} container runtime`, text: dockerVersion ? `docker ${dockerVersion}` : (runtimeVersion ?? 'unknown') });
    if (subPaths.length > 0) evidence.push({ source: 'pod.spec volumeMounts with subPath', text: subPaths.slice(0, 4).join('; ') });
    evidence.push({ source: 'pod.metadata.deletionTimestamp', text: `${pod.metadata?.deletionTimestamp ?? ''} (${overdue} past the grace period)` });

    // A holder of the subPath bind mount, when the agent found one, is what to release now: the
    // busy one when the log names it (seen from the holder, it may sit under another root), not
    // just any copy of a subPath mount.
    const tail = path?.includes('/pods/') ? path.slice(path.indexOf('/pods/')) : path;
    const holder = (probeResult(snapshot, 'mount-holders')?.holders ?? []).find(
      (h) => !h.hostNamespace && !h.ownPod && h.mounts.some((m) => m.includes('volume-subpaths') && (!tail || m.endsWith(tail))),
    );
    const holderKind = holder ? holderKindOf(holder) : undefined;
    const fix = holderKind ? holderPlaybook(holderKind) : null;
    // `badPair` implies both versions are known.
    const versions = { node, kernel: String(kernel), docker: String(dockerVersion) };
    const cause = badPair
      ? [path ? msg('umountBusyPath', { node, path }) : msg('umountBusy', { node }), msg('knownBug', { ...versions, overdue })]
      : [
          path ? msg('umountBusyPathOverdue', { node, path, overdue }) : msg('umountBusyOverdue', { node, overdue }),
          dockerVersion
            ? msg('notKnownPairDocker', { node, kernel: kernel ?? '?', docker: dockerVersion })
            : runtimeVersion !== undefined
              ? msg('notKnownPairRuntime', { node, kernel: kernel ?? '?', runtime: runtimeVersion })
              : msg('notKnownPairUnknownRuntime', { node, kernel: kernel ?? '?' }),
        ];
    const holderSaid = holder
      ? holder.unit
        ? msg('holderUnit', { pid: holder.pid, command: holder.command, unit: holder.unit, mountNamespace: holder.mountNamespace })
        : msg('holder', { pid: holder.pid, command: holder.command, mountNamespace: holder.mountNamespace })
      : null;
    return {
      severity: lines.length > 0 ? 'error' : 'warning',
      title: badPair ? msg('titleKnownBug', versions) : msg('title', { node }),
      cause: [...cause, holderSaid, missing ? msg('checksMissing', { missing }) : null],
      evidence,
      advice: [
        holder &&
          (holderKind === 'service'
            ? msg('restartService', { node, unit: String(holder.unit) })
            : holderKind === 'process'
              ? msg('stopProcess', { pid: holder.pid, node })
              : holder.podUid
                ? msg('restartPodUid', { pid: holder.pid, podUid: holder.podUid })
                : msg('restartPod', { pid: holder.pid })),
        badPair ? msg('upgrade', { node }) : msg('findHolder', { node }),
        msg('goesAway'),
      ],
      prevent: [badPair ? msg('avoidPair') : msg('avoidPrivateMounts')],
      // The rule's own playbook (release-mount-holder) for a service; stop-mount-holder for a bare
      // process; none for another pod's container.
      playbook: fix === 'release-mount-holder' ? undefined : fix,
      causeKey: badPair ? `node/${node}:subpath-umount` : `node/${node}:mount/${path ?? 'volume-subpaths'}`,
      params: {
        node,
        ...(path ? { mount: path } : {}),
        ...(kernel ? { kernel } : {}),
        ...(dockerVersion ? { docker: dockerVersion } : {}),
        ...(holder ? { pid: holder.pid, holderKind: holderKind!, ...(holder.unit ? { unit: holder.unit } : {}) } : {}),
      },
    } satisfies FindingDraft;
  },
});
