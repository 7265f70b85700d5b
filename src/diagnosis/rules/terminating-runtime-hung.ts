// terminating.runtime-hung: Deletion stuck: the container runtime hangs (hung FUSE/network mount, zombie init).
import { journalEvidence, journalMatches, nodeChecksMissing, probeResult, shortId } from '../agent-facts.js';
import { clip, eventEvidence, eventsMatching, formatDuration, isStuckTerminating, newestFirst, secondsPastDeletion, stopConfirmed } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Said } from '../types.js';

const KILL_DEADLINE = /KillContainerError.*(context deadline exceeded|operation timeout)|(context deadline exceeded|operation timeout).*KillContainer/;
const NS_LSTAT = /lstat \/proc\/(\d+)\/ns\/(\w+): no such file or directory/;
// dockerd's "failed to exit within 30 seconds of signal 15 - using the force" is the normal
// escalation of a stop to SIGKILL; only "... of kill - trying direct SIGKILL" says the kill did not take.
const TERM_ESCALATION = /failed to exit within \d+ seconds of signal \d+/;

export const rule = defineRule({
  meta: {
    id: 'terminating.runtime-hung',
    title: 'Deletion stuck: the container runtime hangs (hung FUSE/network mount, zombie init)',
    category: 'terminating',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'agent'],
    playbook: 'unhang-fuse-mount',
    priority: 90,
    // A hung runtime is what node.runtime-unresponsive reports for the node; for this pod it is the cause.
    supersedes: ['node.runtime-unresponsive', 'terminating.status-lag', 'terminating.stuck'],
    doc:
      'The kubelet cannot kill the pod: FailedKillPod "KillContainerError ... context deadline exceeded", ' +
      'FailedPreStopHook "lstat /proc/<pid>/ns/ipc: no such file or directory". ' +
      'On the node: a FUSE/network mount (fuse.glusterfs in seed 000) that does not answer stat, the container init a zombie, ' +
      'the sandbox gone, the runtime API not answering. ' +
      'The API half reports without the agent and says which node checks could not run. ' +
      'The FUSE playbook is offered only for a hung mount of this pod; ' +
      'the normal SIGTERM-to-SIGKILL escalation of docker ("of signal 15 - using the force") is not a hang, ' +
      'and once the kubelet confirmed the stop (deletionGracePeriodSeconds 0) earlier kill timeouts are over.',
    messages: {
      titleHungMount: 'Hung {{fsType}} mount {{mountPoint}} on {{node}} blocks the runtime; the pod cannot be killed',
      titleRuntimeHangs: 'The container runtime on {{node}} hangs; the pod cannot be killed',
      titleCannotKill: "The container runtime on {{node}} cannot kill the pod's container",
      cannotKill: 'The pod was deleted {{overdue}} past its grace period and the kubelet cannot kill it.',
      // The old text ended this sentence with a space when nothing more specific followed; kept byte for byte.
      cannotKillNoDetail: 'The pod was deleted {{overdue}} past its grace period and the kubelet cannot kill it. ',
      hungMount:
        'The {{fsType}} mount {{mountPoint}} ({{source}}) does not answer stat within {{timeoutMs}}ms: ' +
        "every process touching it blocks in the kernel, the container's processes included, " +
        'so the runtime can neither stop the container nor answer for it.',
      zombieInit: 'The container init {{inits}} is a zombie that nothing reaps, so the container never counts as stopped.',
      nsGone:
        'Exec into the container fails because process {{pid}}, whose namespaces it joins, is gone (lstat /proc/{{pid}}/ns/ipc), ' +
        'so the preStop hook cannot run.',
      nsGoneSandbox:
        'Exec into the container fails because process {{pid}}, whose namespaces it joins, is gone (lstat /proc/{{pid}}/ns/ipc): ' +
        'the pause container was already removed, so the preStop hook cannot run.',
      hungElsewhere:
        'The {{fsType}} mount {{mountPoint}} on {{node}} does not answer either, but this pod does not use it: ' +
        'it blocks only the processes that touch it, so unmounting it is not the fix for this pod.',
      dockerHung: 'The docker API on {{node}} does not answer ({{timedOut}}): `docker ps` hangs.',
      killTimeout: "The kubelet's kill of the container times out in the runtime (KillContainerError: context deadline exceeded).",
      checksMissing: '{{missing}}',
      unmountLazy:
        'On {{node}}: lazy-unmount {{mountPoint}} (`umount -l`) or stop its FUSE client, ' +
        'then remove the container and force delete the pod: playbook unhang-fuse-mount (approval).',
      checkServer: 'Check the {{fsType}} server {{server}}; the same mount will hang the next node the workload lands on (see node.notready-cascade).',
      findHungMounts:
        'On {{node}}: check for FUSE/network mounts that do not answer ' +
        "(`timeout 5 stat <mountpoint>` for each line of `grep -E 'fuse|nfs|ceph|cifs' /proc/mounts`) and whether `docker ps` answers.",
      restartRuntime: 'On {{node}}: restart the container runtime once nothing blocks it, then remove the container and force delete the pod.',
      reapZombie: 'If the container init is a zombie, its parent (the shim) must reap it: restarting the shim or the runtime does.',
      healthCheckMounts:
        'Do not put FUSE/network filesystems that can hang (glusterfs, nfs hard mounts) under pods without a health check; ' +
        'prefer CSI drivers with timeouts.',
      alertOnMounts: 'Alert on mounts that stop answering before the runtime hangs.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || !isStuckTerminating(snapshot, pod)) return null;
    // Grace 0: the kubelet confirmed the containers stopped (only finalizers can hold the object),
    // so earlier kill timeouts are over.
    if (stopConfirmed(pod)) return null;
    const node = pod.spec?.nodeName ?? '?';
    const overdue = formatDuration(secondsPastDeletion(snapshot, pod) ?? 0);

    const killEvents = newestFirst(eventsMatching(snapshot.events, KILL_DEADLINE, ['FailedKillPod']));
    const lstatEvents = newestFirst(eventsMatching(snapshot.events, NS_LSTAT));
    const fs = probeResult(snapshot, 'fs-mounts');
    const hung = (fs?.mounts ?? []).filter((m) => m.state === 'hung');
    const podHung = hung.filter((m) => m.podMount);
    const proc = probeResult(snapshot, 'processes');
    const zombieInits = (proc?.containers ?? []).filter((c) => c.initState === 'Z');
    const runtime = probeResult(snapshot, 'runtime');
    const dockerHung = runtime?.docker.state === 'hung';
    const journalKill = journalMatches(snapshot, ['kill-deadline', 'kill-timeout']).filter(
      (m) => m.signatures.includes('kill-deadline') || !TERM_ESCALATION.test(m.line),
    );
    const journalLstat = journalMatches(snapshot, ['ns-lstat'], { aboutPodOnly: false });

    const apiSignal = killEvents.length > 0 || lstatEvents.length > 0;
    const nodeSignal = podHung.length > 0 || zombieInits.length > 0 || dockerHung || journalKill.length > 0;
    if (!apiSignal && !nodeSignal) return null;

    const evidence: Evidence[] = [];
    // Only a hung mount of this pod can hold its processes; another one on the node is context.
    const mount = podHung[0];
    const elsewhere = mount ? undefined : hung[0];
    if (mount) {
      evidence.push({ source: `node agent: stat ${mount.mountPoint} on ${node}`, text: `${mount.fsType} ${mount.source}: ${mount.detail ?? 'no answer'}` });
      evidence.push({ source: `node agent: /proc/1/mountinfo on ${node}`, text: mount.line });
    }
    if (elsewhere)
      evidence.push({
        source: `node agent: stat ${elsewhere.mountPoint} on ${node}`,
        text: `${elsewhere.fsType} ${elsewhere.source}: ${elsewhere.detail ?? 'no answer'} (not a mount of this pod)`,
      });
    for (const c of zombieInits.slice(0, 2)) {
      evidence.push({
        source: `node agent: processes on ${node}`,
        text:
          `container ${shortId(c.id)} init pid ${c.initPid ?? '?'} ${c.initCommand ?? ''} is a zombie (state Z); ` +
          `${c.processCount} process(es) left in the container`,
      });
    }
    if (dockerHung && runtime)
      evidence.push({ source: `node agent: docker API on ${node}`, text: runtime.docker.detail ?? `${runtime.docker.timedOut.join(', ')} did not answer` });
    for (const e of killEvents.slice(0, 1)) evidence.push({ ...eventEvidence(e), text: clip(e.message ?? '') });
    for (const e of lstatEvents.slice(0, 1)) evidence.push({ ...eventEvidence(e), text: clip(e.message ?? '') });
    for (const m of journalKill.slice(-1)) evidence.push(journalEvidence(node, m));
    if (lstatEvents.length === 0) for (const m of journalLstat.slice(-1)) evidence.push(journalEvidence(node, m));
    // The sandbox is gone when docker answered and lists no sandbox of the pod that still runs.
    const sandboxes =
      runtime && runtime.docker.state === 'ok' && runtime.docker.containers.length > 0 ? runtime.docker.containers.filter((c) => c.sandbox) : undefined;
    const sandboxGone = sandboxes !== undefined && !sandboxes.some((c) => c.state === 'running');
    if (sandboxGone)
      evidence.push({
        source: `node agent: docker on ${node}`,
        text:
          'no running sandbox (pause) container for the pod' +
          (sandboxes.length ? `: ${sandboxes.map((c) => `${shortId(c.id)} ${c.status || c.state}`).join(', ')}` : ''),
      });
    evidence.push({ source: 'pod.metadata.deletionTimestamp', text: `${pod.metadata?.deletionTimestamp ?? ''} (${overdue} past the grace period)` });

    const missing = nodeChecksMissing(snapshot, node, 'fs-mounts', 'processes', 'runtime');
    const lstatPid = NS_LSTAT.exec(lstatEvents[0]?.message ?? journalLstat[0]?.line ?? '')?.[1];
    type Id = 'hungMount' | 'zombieInit' | 'nsGone' | 'nsGoneSandbox' | 'hungElsewhere' | 'dockerHung' | 'killTimeout';
    const parts: Said<Id>[] = [];
    if (mount) {
      parts.push(msg('hungMount', { fsType: mount.fsType, mountPoint: mount.mountPoint, source: mount.source, timeoutMs: fs?.statTimeoutMs ?? '?' }));
    }
    if (zombieInits.length > 0) parts.push(msg('zombieInit', { inits: zombieInits.map((c) => `pid ${c.initPid} (${c.initCommand ?? '?'})`).join(', ') }));
    if (lstatPid) parts.push(msg(sandboxGone ? 'nsGoneSandbox' : 'nsGone', { pid: lstatPid }));
    if (elsewhere) parts.push(msg('hungElsewhere', { fsType: elsewhere.fsType, mountPoint: elsewhere.mountPoint, node }));
    if (dockerHung) parts.push(msg('dockerHung', { node, timedOut: String(runtime?.docker.timedOut.join(', ')) }));
    if (killEvents.length > 0 && !mount && !dockerHung) parts.push(msg('killTimeout'));

    const fuse = mount !== undefined;
    return {
      severity: fuse || dockerHung ? 'critical' : 'error',
      title: fuse
        ? msg('titleHungMount', { fsType: mount.fsType, mountPoint: mount.mountPoint, node })
        : msg(dockerHung ? 'titleRuntimeHangs' : 'titleCannotKill', { node }),
      cause: [msg(parts.length > 0 ? 'cannotKill' : 'cannotKillNoDetail', { overdue }), ...parts, missing ? msg('checksMissing', { missing }) : null],
      evidence,
      advice: fuse
        ? [msg('unmountLazy', { node, mountPoint: mount.mountPoint }), msg('checkServer', { fsType: mount.fsType, server: String(mount.source.split(':')[0]) })]
        : [msg(missing ? 'findHungMounts' : 'restartRuntime', { node }), msg('reapZombie')],
      prevent: [msg('healthCheckMounts'), msg('alertOnMounts')],
      playbook: fuse ? undefined : null,
      causeKey: fuse ? `fs/${mount.fsType}/${mount.source}` : `node/${node}:runtime/${dockerHung ? 'docker' : 'kill'}`,
      params: {
        node,
        ...(fuse ? { mount: mount.mountPoint, fsType: mount.fsType, source: mount.source } : {}),
        containers: (proc?.containers ?? []).filter((c) => c.known).map((c) => c.id),
      },
    } satisfies FindingDraft;
  },
});
