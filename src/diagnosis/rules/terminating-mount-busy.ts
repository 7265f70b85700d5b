// terminating.mount-busy: Deletion stuck: another process's mount namespace holds the container's mount.

import { matchSignatures } from '../../probes/signatures.js';
import type { MountHolder } from '../../probes/types.js';
import { holderKindOf, holderPlaybook, isServiceUnit, journalEvidence, journalMatches, nodeChecksMissing, probeResult, shortId } from '../agent-facts.js';
import { clip, containerStatuses, eventEvidence, eventsMatching, formatDuration, isStuckTerminating, ms, newestFirst, secondsPastDeletion } from '../facts.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Snapshot } from '../types.js';

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
    doc: 'The runtime cannot remove a deleted pod\'s container ("device or resource busy" on its overlay/devicemapper dir, shm or a kubelet volume dir) because a process in another mount namespace still has that mount: a systemd service with PrivateTmp=true started after the container (ntpd in seed 001), or a container that mounts /var/lib/docker or /var/lib/kubelet. The finding names the holder PID, command, unit and the mount, from /proc/*/mountinfo on the node.',
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

    if (!holder) {
      // The node says (or the API says) a mount is busy, but no holder was found.
      const missing = nodeChecksMissing(snapshot, node, 'mount-holders');
      const mount = busyPath ?? removing.find((c) => c.rootfsMount)?.rootfsMount;
      return {
        severity: missing ? 'warning' : 'error',
        title: `Pod deletion stuck: ${mount ? `${mount} is busy` : 'a container mount is busy'} on ${node}`,
        cause:
          `The pod was deleted ${overdue} past its grace period; the runtime on ${node} cannot remove its container because ${mount ? `the mount ${mount}` : 'a mount of the container'} is "device or resource busy". ` +
          'Some process in another mount namespace still holds it. ' +
          (missing ??
            (holders.length > 0
              ? `${holders.length} process${holders.length === 1 ? '' : 'es'} outside the host mount namespace hold${holders.length === 1 ? 's' : ''} copies of the pod's mounts (${holders
                  .slice(0, 3)
                  .map((h) => `pid ${h.pid} ${h.unit ?? h.command.split(' ')[0]}`)
                  .join(', ')}), but none holds ${mount ?? 'the busy path'}: releasing them would be a guess.`
              : `No process outside the host mount namespace holds a mount matching ${mh?.match.join(', ') ?? 'the pod'} now: the holder may have exited, or holds a path the agent was not told about.`)),
        evidence,
        advice: [
          `On ${node}: \`grep -l ${mount ?? uid} /proc/*/mountinfo\` lists the holders; restart the service (or pod) that owns each one.`,
          'Once nothing holds the mount, the runtime removes the container and the pod goes away by itself.',
        ],
        prevent: [
          'Set MountFlags=slave in docker.service (or run containerd), and PrivateTmp=false for services that do not need it; do not mount /var/lib/docker or /var/lib/kubelet into containers.',
        ],
        playbook: null,
        causeKey: mount ? `node/${node}:mount/${mount}` : `node/${node}:mount-busy`,
        params: { node, ...(mount ? { mount } : {}) },
      } satisfies FindingDraft;
    }

    const mount = holder.notInHost[0] ?? busyPath ?? holder.mounts[0] ?? '';
    const nsEntry = mh?.namespaces.find((n) => n.mountNamespace === holder.mountNamespace);
    const line = nsEntry?.mounts.find((m) => m.mountPoint === mount)?.line ?? nsEntry?.mounts[0]?.line;
    if (line) evidence.unshift({ source: `node agent: /proc/${holder.pid}/mountinfo on ${node}`, text: line });
    const unitText = holder.unit
      ? `unit ${holder.unit}${holder.namespaceSettings.length ? ` (${holder.namespaceSettings.join(', ')}${holder.unitFile ? ` in ${holder.unitFile}` : ''})` : ''}`
      : 'no systemd unit';
    evidence.splice(line ? 1 : 0, 0, {
      source: `node agent: process ${holder.pid} on ${node}`,
      text: `pid ${holder.pid} ${holder.command}; started ${holder.startedAt ?? '?'}; mount namespace ${holder.mountNamespace}; ${unitText}${holder.podUid ? `; pod ${holder.podUid}` : ''}`,
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
    const who = isServiceUnit(holder.unit)
      ? `the service ${holder.unit}`
      : holder.containerId
        ? `container ${shortId(holder.containerId)}${holder.podUid ? ` of pod ${holder.podUid}` : ''}`
        : `process ${holder.pid}`;
    const why = holder.privateTmp
      ? `${holder.unit} sets PrivateTmp=true, so systemd started it in a private mount namespace${startedAfter ? ` after the container had started (${holder.startedAt} > ${containerStart})` : ''}, which copied the container's mount; the host unmounted it, the copy stays and pins it.`
      : holder.namespaceSettings.length > 0
        ? `${holder.unit} runs in a private mount namespace (${holder.namespaceSettings.join(', ')}) that copied the container's mount when it started${startedAfter ? ` (after the container)` : ''}.`
        : holder.containerId
          ? "That container mounts the runtime or kubelet directory from the host, so its mount namespace got a copy of this container's mount and keeps it."
          : (holder.inUse ?? []).length > 0
            ? `Its mount namespace got a copy of the mount and the process works inside it (${(holder.inUse ?? [])[0]}), so every unmount of it fails with "target is busy" / "device or resource busy" until the process leaves or exits.`
            : "Its mount namespace got a copy of the container's mount and keeps it after the host unmounted it.";
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
      title: `${service ? holder.unit : `pid ${holder.pid}`} (pid ${holder.pid}) holds ${mount} on ${node}; the pod cannot be deleted`,
      cause:
        `The pod was deleted ${overdue} past its grace period, but its container cannot be removed on ${node}: ${mount} is "device or resource busy". ` +
        `Process ${holder.pid} (${holder.command}) of ${who} still has that mount in its own mount namespace ${holder.mountNamespace}. ${why}`,
      evidence,
      advice: service
        ? [
            `Restart ${holder.unit} on ${node} (\`systemctl restart ${holder.unit}\`) to drop its copy of the mount: playbook release-mount-holder (approval).`,
            'The runtime then removes the container and the pod goes away; no force delete is needed.',
          ]
        : holderKind === 'container'
          ? [
              holder.containerId
                ? `Restart the pod that owns container ${shortId(holder.containerId)} on ${node}, or remove its hostPath mount of the runtime/kubelet directory.`
                : `Restart pod ${holder.podUid ?? '?'} on ${node}, which owns pid ${holder.pid}.`,
              'The runtime then removes the container and the pod goes away.',
            ]
          : [
              `Stop pid ${holder.pid} on ${node} (\`kill ${holder.pid}\`): it is part of no systemd service${holder.unit ? ` (${holder.unit})` : ''}, so nothing starts it again: playbook stop-mount-holder (approval; SIGKILL if it ignores SIGTERM for 10s). If another supervisor runs it, stop it there instead.`,
              'The kubelet and the runtime can then unmount, and the pod goes away.',
            ],
      prevent: [
        mountFlags === undefined && host?.dockerService
          ? `docker.service on ${node} sets no MountFlags (${host.dockerService.unitFile}): add MountFlags=slave so service namespaces stop receiving container mounts.`
          : 'Set MountFlags=slave in docker.service so service namespaces stop receiving container mounts (or move to containerd).',
        holder.privateTmp
          ? `Set PrivateTmp=false for ${holder.unit} if it does not need a private /tmp.`
          : 'Do not mount /var/lib/docker or /var/lib/kubelet into containers.',
      ],
      playbook: holderPlaybook(holderKind) === 'release-mount-holder' ? undefined : holderPlaybook(holderKind),
      causeKey: `node/${node}:holder/${service ? holder.unit : holder.containerId ? `container/${shortId(holder.containerId)}` : `pid/${holder.pid}`}`,
      params: { node, pid: holder.pid, mount, holderKind, ...(holder.unit ? { unit: holder.unit } : {}) },
    } satisfies FindingDraft;
  },
});
