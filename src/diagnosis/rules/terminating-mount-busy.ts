// terminating.mount-busy: Deletion stuck: another process's mount namespace holds the container's mount.

import { matchSignatures } from '../../probes/signatures.js';
import type { MountHolder } from '../../probes/types.js';
import { holderKindOf, holderPlaybook, isServiceUnit, journalEvidence, journalMatches, nodeChecksMissing, probeResult, shortId } from '../agent-facts.js';
import { clip, containerStatuses, eventEvidence, eventsMatching, formatDuration, isStuckTerminating, ms, newestFirst, secondsPastDeletion } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Said, Snapshot } from '../types.js';

const BUSY = /device or resource busy/;
// EBUSY on rmdir of a cgroup directory means tasks are still in that cgroup (a process that
// will not die), not a mount held in another namespace: runc's "Failed to remove cgroup".
const CGROUP_BUSY = /\/sys\/fs\/cgroup\/\S*: device or resource busy/;

/** The held mount is the busy path, a copy of it under another root (`/host/...`), or contains it. */
function holdsPath(mount: string, busy: string): boolean {
  return mount === busy || mount.endsWith(busy) || busy.startsWith(`${mount}/`);
}

/**
 * The holder to name first: a leaked copy or one a process works inside over a passive shared
 * copy, a systemd service over a container.
 */
function rankHolders(holders: MountHolder[]): MountHolder[] {
  const score = (h: MountHolder) =>
    (h.notInHost.length > 0 ? 4 : 0) + ((h.inUse ?? []).length > 0 ? 4 : 0) + (isServiceUnit(h.unit) ? 2 : 0) + (h.privateTmp ? 1 : 0);
  return [...holders].sort((a, b) => score(b) - score(a) || a.pid - b.pid);
}

function earliestContainerStart(snapshot: Snapshot): string | undefined {
  const starts = containerStatuses(snapshot.pod)
    .map((s) => s.status.state?.running?.startedAt ?? s.status.state?.terminated?.startedAt ?? s.status.lastState?.terminated?.startedAt)
    .filter((t): t is string => Boolean(t))
    .sort();
  return starts[0] ?? snapshot.pod?.status?.startTime;
}

const messages = {
  // No holder found.
  titleBusy: 'Pod deletion stuck: {{mount}} is busy on {{node}}',
  titleSomeMountBusy: 'Pod deletion stuck: a container mount is busy on {{node}}',
  cannotRemove:
    'The pod was deleted {{overdue}} past its grace period; the runtime on {{node}} cannot remove its container ' +
    'because the mount {{mount}} is "device or resource busy".',
  cannotRemoveSomeMount:
    'The pod was deleted {{overdue}} past its grace period; the runtime on {{node}} cannot remove its container ' +
    'because a mount of the container is "device or resource busy".',
  someoneHolds: 'Some process in another mount namespace still holds it.',
  checksMissing: '{{missing}}',
  holderNotBusy:
    "{{count}} process outside the host mount namespace holds copies of the pod's mounts ({{holders}}), " +
    'but none holds {{mount}}: releasing them would be a guess.',
  holdersNotBusy:
    "{{count}} processes outside the host mount namespace hold copies of the pod's mounts ({{holders}}), " +
    'but none holds {{mount}}: releasing them would be a guess.',
  holderNotBusyPath:
    "{{count}} process outside the host mount namespace holds copies of the pod's mounts ({{holders}}), " +
    'but none holds the busy path: releasing them would be a guess.',
  holdersNotBusyPath:
    "{{count}} processes outside the host mount namespace hold copies of the pod's mounts ({{holders}}), " +
    'but none holds the busy path: releasing them would be a guess.',
  noHolderMatching:
    'No process outside the host mount namespace holds a mount matching {{match}} now: ' +
    'the holder may have exited, or holds a path the agent was not told about.',
  noHolderOfPod:
    'No process outside the host mount namespace holds a mount matching the pod now: ' +
    'the holder may have exited, or holds a path the agent was not told about.',
  findHolders: 'On {{node}}: `grep -l {{pattern}} /proc/*/mountinfo` lists the holders; restart the service (or pod) that owns each one.',
  goesAwayByItself: 'Once nothing holds the mount, the runtime removes the container and the pod goes away by itself.',
  preventLeaks:
    'Set MountFlags=slave in docker.service (or run containerd), and PrivateTmp=false for services that do not need it; ' +
    'do not mount /var/lib/docker or /var/lib/kubelet into containers.',
  // A holder found.
  titleService: '{{unit}} (pid {{pid}}) holds {{mount}} on {{node}}; the pod cannot be deleted',
  titlePid: 'pid {{pid}} holds {{mount}} on {{node}}; the pod cannot be deleted',
  containerBusy:
    'The pod was deleted {{overdue}} past its grace period, but its container cannot be removed on {{node}}: ' + '{{mount}} is "device or resource busy".',
  heldByService: 'Process {{pid}} ({{command}}) of the service {{unit}} still has that mount in its own mount namespace {{mountNamespace}}.',
  heldByPodContainer:
    'Process {{pid}} ({{command}}) of container {{container}} of pod {{podUid}} ' + 'still has that mount in its own mount namespace {{mountNamespace}}.',
  heldByContainer: 'Process {{pid}} ({{command}}) of container {{container}} still has that mount in its own mount namespace {{mountNamespace}}.',
  heldByProcess: 'Process {{pid}} ({{command}}) of process {{pid}} still has that mount in its own mount namespace {{mountNamespace}}.',
  privateTmp:
    '{{unit}} sets PrivateTmp=true, so systemd started it in a private mount namespace, ' +
    "which copied the container's mount; the host unmounted it, the copy stays and pins it.",
  privateTmpAfter:
    '{{unit}} sets PrivateTmp=true, so systemd started it in a private mount namespace ' +
    'after the container had started ({{startedAt}} > {{containerStart}}), ' +
    "which copied the container's mount; the host unmounted it, the copy stays and pins it.",
  privateNamespace: "{{unit}} runs in a private mount namespace ({{settings}}) that copied the container's mount when it started.",
  privateNamespaceAfter: "{{unit}} runs in a private mount namespace ({{settings}}) that copied the container's mount when it started (after the container).",
  hostDirMounted:
    "That container mounts the runtime or kubelet directory from the host, so its mount namespace got a copy of this container's mount and keeps it.",
  worksInside:
    'Its mount namespace got a copy of the mount and the process works inside it ({{path}}), ' +
    'so every unmount of it fails with "target is busy" / "device or resource busy" until the process leaves or exits.',
  keptCopy: "Its mount namespace got a copy of the container's mount and keeps it after the host unmounted it.",
  restartService: 'Restart {{unit}} on {{node}} (`systemctl restart {{unit}}`) to drop its copy of the mount: playbook release-mount-holder (approval).',
  noForceDelete: 'The runtime then removes the container and the pod goes away; no force delete is needed.',
  restartContainerPod: 'Restart the pod that owns container {{container}} on {{node}}, or remove its hostPath mount of the runtime/kubelet directory.',
  restartPod: 'Restart pod {{podUid}} on {{node}}, which owns pid {{pid}}.',
  podGoesAway: 'The runtime then removes the container and the pod goes away.',
  stopProcess:
    'Stop pid {{pid}} on {{node}} (`kill {{pid}}`): it is part of no systemd service, so nothing starts it again: ' +
    'playbook stop-mount-holder (approval; SIGKILL if it ignores SIGTERM for 10s). If another supervisor runs it, stop it there instead.',
  stopProcessUnit:
    'Stop pid {{pid}} on {{node}} (`kill {{pid}}`): it is part of no systemd service ({{unit}}), so nothing starts it again: ' +
    'playbook stop-mount-holder (approval; SIGKILL if it ignores SIGTERM for 10s). If another supervisor runs it, stop it there instead.',
  canUnmount: 'The kubelet and the runtime can then unmount, and the pod goes away.',
  addMountFlags: 'docker.service on {{node}} sets no MountFlags ({{unitFile}}): add MountFlags=slave so service namespaces stop receiving container mounts.',
  setMountFlags: 'Set MountFlags=slave in docker.service so service namespaces stop receiving container mounts (or move to containerd).',
  dropPrivateTmp: 'Set PrivateTmp=false for {{unit}} if it does not need a private /tmp.',
  noRuntimeDirMounts: 'Do not mount /var/lib/docker or /var/lib/kubelet into containers.',
} as const;

type Id = keyof typeof messages;

/** Who holds the mount, and why its mount namespace kept a copy, as the cause says it. `startedAfter`: the container's start, when the holder started later. */
function holderWords(holder: MountHolder, startedAfter: string | undefined): { who: Said<Id>; why: Said<Id> } {
  const held = { pid: holder.pid, command: holder.command, mountNamespace: holder.mountNamespace };
  const who = isServiceUnit(holder.unit)
    ? msg('heldByService', { ...held, unit: holder.unit })
    : holder.containerId
      ? holder.podUid
        ? msg('heldByPodContainer', { ...held, container: shortId(holder.containerId), podUid: holder.podUid })
        : msg('heldByContainer', { ...held, container: shortId(holder.containerId) })
      : msg('heldByProcess', held);
  const unit = String(holder.unit);
  const why = holder.privateTmp
    ? startedAfter
      ? msg('privateTmpAfter', { unit, startedAt: String(holder.startedAt), containerStart: startedAfter })
      : msg('privateTmp', { unit })
    : holder.namespaceSettings.length > 0
      ? msg(startedAfter ? 'privateNamespaceAfter' : 'privateNamespace', { unit, settings: holder.namespaceSettings.join(', ') })
      : holder.containerId
        ? msg('hostDirMounted')
        : (holder.inUse ?? []).length > 0
          ? msg('worksInside', { path: String((holder.inUse ?? [])[0]) })
          : msg('keptCopy');
  return { who, why };
}

/** The node says (or the API says) a mount is busy, but no holder of it was found. */
function unheldFinding(
  snapshot: Snapshot,
  o: {
    node: string;
    uid: string;
    overdue: string;
    mh: ReturnType<typeof probeResult<'mount-holders'>>;
    holders: MountHolder[];
    busyPath: string | undefined;
    removing: { rootfsMount?: string | undefined }[];
    evidence: Evidence[];
  },
): FindingDraft<Id> {
  const { node, uid, overdue, mh, holders, busyPath, removing, evidence } = o;
  const missing = nodeChecksMissing(snapshot, node, 'mount-holders');
  const mount = busyPath ?? removing.find((c) => c.rootfsMount)?.rootfsMount;
  const listed = {
    count: holders.length,
    holders: holders
      .slice(0, 3)
      .map((h) => `pid ${h.pid} ${h.unit ?? h.command.split(' ')[0]}`)
      .join(', '),
  };
  const one = holders.length === 1;
  const notBusy = (path: string | undefined) =>
    path !== undefined
      ? msg(one ? 'holderNotBusy' : 'holdersNotBusy', { ...listed, mount: path })
      : msg(one ? 'holderNotBusyPath' : 'holdersNotBusyPath', listed);
  const noHolder = mh ? msg('noHolderMatching', { match: mh.match.join(', ') }) : msg('noHolderOfPod');
  return {
    severity: missing ? 'warning' : 'error',
    title: mount ? msg('titleBusy', { mount, node }) : msg('titleSomeMountBusy', { node }),
    cause: [
      mount ? msg('cannotRemove', { overdue, node, mount }) : msg('cannotRemoveSomeMount', { overdue, node }),
      msg('someoneHolds'),
      missing !== undefined ? msg('checksMissing', { missing }) : holders.length > 0 ? notBusy(mount) : noHolder,
    ],
    evidence,
    advice: [msg('findHolders', { node, pattern: mount ?? uid }), msg('goesAwayByItself')],
    prevent: [msg('preventLeaks')],
    playbook: null,
    causeKey: mount ? `node/${node}:mount/${mount}` : `node/${node}:mount-busy`,
    params: { node, ...(mount ? { mount } : {}) },
  };
}

export const rule = defineRule({
  meta: {
    id: 'terminating.mount-busy',
    title: "Deletion stuck: another process's mount namespace holds the container's mount",
    category: 'terminating',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'agent'],
    playbook: 'release-mount-holder',
    priority: 92,
    // A stuck-status symptom is explained by the holder; finalizers and a lost node are separate blockers.
    supersedes: ['terminating.status-lag', 'terminating.stuck'],
    doc:
      "The runtime cannot remove a deleted pod's container " +
      '("device or resource busy" on its overlay/devicemapper dir, shm or a kubelet volume dir) ' +
      'because a process in another mount namespace still has that mount: ' +
      'a systemd service with PrivateTmp=true started after the container (ntpd in seed 001), ' +
      'or a container that mounts /var/lib/docker or /var/lib/kubelet. ' +
      'The finding names the holder PID, command, unit and the mount, from /proc/*/mountinfo on the node.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || !isStuckTerminating(snapshot, pod)) return null;
    const node = pod.spec?.nodeName ?? '?';
    const uid = pod.metadata?.uid ?? '';
    const overdue = formatDuration(secondsPastDeletion(snapshot, pod) ?? 0);

    const mh = probeResult(snapshot, 'mount-holders');
    const holders = rankHolders((mh?.holders ?? []).filter((h) => !h.hostNamespace && !h.ownPod));
    // Holders whose copy the host has already dropped are the proof; shared copies only support it.
    const leaking = holders.filter((h) => h.notInHost.length > 0);
    const busyLines = journalMatches(snapshot, ['device-busy']).filter((m) => !CGROUP_BUSY.test(m.line));
    // A subPath cleanup line without a holder is terminating.subpath-umount-busy's case.
    const mountBusyLines = busyLines.filter((m) => !m.signatures.includes('subpath-cleanup-busy'));
    const apiBusy = newestFirst(eventsMatching(snapshot.events, BUSY)).filter((e) => !CGROUP_BUSY.test(e.message ?? ''));
    const runtime = probeResult(snapshot, 'runtime');
    const removing = (runtime?.docker.containers ?? []).filter(
      (c) => c.state === 'removing' || c.state === 'dead' || /Removal In Progress|Dead/.test(c.status),
    );

    // The paths the runtime or the kubelet says are busy. A holder whose copy the host still has
    // proves nothing by itself: it is the holder only if it holds one of those paths.
    const busyPaths = [...mountBusyLines.map((m) => m.captures.path), ...apiBusy.map((e) => matchSignatures(e.message ?? '')?.captures.path)].filter(
      (p): p is string => Boolean(p),
    );
    const holdsBusy = (h: MountHolder) => busyPaths.length === 0 || h.mounts.some((m) => busyPaths.some((p) => holdsPath(m, p)));
    const holder = leaking[0] ?? (mountBusyLines.length > 0 || apiBusy.length > 0 ? holders.find(holdsBusy) : undefined);
    if (!holder && mountBusyLines.length === 0 && apiBusy.length === 0) return null;

    const evidence: Evidence[] = [
      { source: 'pod.metadata.deletionTimestamp', text: `${pod.metadata?.deletionTimestamp ?? ''} (${overdue} past the grace period)` },
    ];
    for (const m of mountBusyLines.slice(-2)) evidence.push(journalEvidence(node, m));
    for (const e of apiBusy.slice(0, 1)) evidence.push({ ...eventEvidence(e), text: clip(e.message ?? '') });
    for (const c of removing.slice(0, 2)) {
      evidence.push({
        source: `node agent: docker on ${node}`,
        text: `container ${shortId(c.id)}${c.name ? ` ${c.name}` : ''}: ${c.status || c.state}${c.rootfsMount ? `, rootfs ${c.rootfsMount}` : ''}`,
      });
    }
    const busyPath = busyPaths[0] ?? busyLines.map((m) => m.captures.path).find(Boolean);

    if (!holder) return unheldFinding(snapshot, { node, uid, overdue, mh, holders, busyPath, removing, evidence });

    const mount = holder.notInHost[0] ?? busyPath ?? holder.mounts[0] ?? '';
    const nsEntry = mh?.namespaces.find((n) => n.mountNamespace === holder.mountNamespace);
    const line = nsEntry?.mounts.find((m) => m.mountPoint === mount)?.line ?? nsEntry?.mounts[0]?.line;
    if (line) evidence.unshift({ source: `node agent: /proc/${holder.pid}/mountinfo on ${node}`, text: line });
    const settingsText = `${holder.namespaceSettings.join(', ')}${holder.unitFile ? ` in ${holder.unitFile}` : ''}`;
    const unitText = holder.unit ? `unit ${holder.unit}${holder.namespaceSettings.length ? ` (${settingsText})` : ''}` : 'no systemd unit';
    evidence.splice(line ? 1 : 0, 0, {
      source: `node agent: process ${holder.pid} on ${node}`,
      text:
        `pid ${holder.pid} ${holder.command}; started ${holder.startedAt ?? '?'}; ` +
        `mount namespace ${holder.mountNamespace}; ${unitText}${holder.podUid ? `; pod ${holder.podUid}` : ''}`,
    });
    const others = holders.filter((h) => h !== holder);
    if (others.length > 0) {
      evidence.push({
        source: `node agent: mount-holders on ${node}`,
        text: `also held by ${others
          .slice(0, 5)
          .map((h) => `pid ${h.pid} (${h.unit ?? h.command.split(' ')[0]})`)
          .join(', ')}${others.length > 5 ? ` and ${others.length - 5} more` : ''}`,
      });
    }

    const containerStart = earliestContainerStart(snapshot);
    const startedAfter = holder.startedAt && containerStart && (ms(holder.startedAt) ?? 0) > (ms(containerStart) ?? 0);
    const { who, why } = holderWords(holder, startedAfter ? String(containerStart) : undefined);
    const unit = String(holder.unit);
    const service = isServiceUnit(holder.unit);
    // What can release it: a service is restarted (release-mount-holder), a process in no
    // service is stopped (stop-mount-holder), a container's pod is for its owner to restart.
    const holderKind = holderKindOf(holder);
    const host = probeResult(snapshot, 'host');
    const mountFlags = host?.dockerService?.mountFlags;
    if (host?.dockerService) {
      evidence.push({
        source: `node agent: ${host.dockerService.unitFile} on ${node}`,
        text: mountFlags ? `MountFlags=${mountFlags}` : 'no MountFlags set: the runtime shares its mounts with every later mount namespace',
      });
    }
    return {
      severity: 'critical',
      title: service ? msg('titleService', { unit, pid: holder.pid, mount, node }) : msg('titlePid', { pid: holder.pid, mount, node }),
      cause: [msg('containerBusy', { overdue, node, mount }), who, why],
      evidence,
      advice: service
        ? [msg('restartService', { unit, node }), msg('noForceDelete')]
        : holderKind === 'container'
          ? [
              holder.containerId
                ? msg('restartContainerPod', { container: shortId(holder.containerId), node })
                : msg('restartPod', { podUid: holder.podUid ?? '?', node, pid: holder.pid }),
              msg('podGoesAway'),
            ]
          : [
              holder.unit ? msg('stopProcessUnit', { pid: holder.pid, node, unit: holder.unit }) : msg('stopProcess', { pid: holder.pid, node }),
              msg('canUnmount'),
            ],
      prevent: [
        mountFlags === undefined && host?.dockerService ? msg('addMountFlags', { node, unitFile: host.dockerService.unitFile }) : msg('setMountFlags'),
        holder.privateTmp ? msg('dropPrivateTmp', { unit }) : msg('noRuntimeDirMounts'),
      ],
      playbook: holderPlaybook(holderKind) === 'release-mount-holder' ? undefined : holderPlaybook(holderKind),
      causeKey: `node/${node}:holder/${service ? holder.unit : holder.containerId ? `container/${shortId(holder.containerId)}` : `pid/${holder.pid}`}`,
      params: { node, pid: holder.pid, mount, holderKind, ...(holder.unit ? { unit: holder.unit } : {}) },
    } satisfies FindingDraft;
  },
});
