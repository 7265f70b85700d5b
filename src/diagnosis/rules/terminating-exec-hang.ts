// terminating.exec-hang: Deletion stuck: postStart exec hung (hostPID/shareProcessNamespace on docker).

import type { ProcessesResult } from '../../probes/processes.js';
import { probeResult } from '../agent-facts.js';
import { containerStatuses, formatDuration, isStuckTerminating, type NamedStatus, runtimeOf, secondsPastDeletion, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, Pod, Snapshot } from '../types.js';

/**
 * A pod that shares the host's or its own process namespace, whose postStart exec hook holds
 * the kubelet: its containers wait ContainerCreating, or (frozen) a restarted hooked container
 * runs unreported. Null when the pattern does not hold or something else holds the pod.
 */
function hookWait(snapshot: Snapshot, pod: Pod) {
  const spec = pod.spec;
  const sharing = spec?.hostPID ? 'hostPID: true' : spec?.shareProcessNamespace ? 'shareProcessNamespace: true' : undefined;
  if (!sharing) return null;
  const hooked = [...(spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...(spec?.containers ?? [])].filter(
    (c) => c.lifecycle?.postStart?.exec,
  );
  if (hooked.length === 0) return null;

  // The API half of "stuck ContainerCreating": the kubelet waits on postStart before starting the next containers.
  const statuses = containerStatuses(pod);
  const creating = statuses.filter((s) => ['ContainerCreating', 'PodInitializing'].includes(s.status.state?.waiting?.reason ?? ''));
  const neverStarted = (spec?.containers ?? []).filter(
    (c) => !statuses.some((s) => s.status.name === c.name && (s.status.state?.running || s.status.state?.terminated)),
  );
  // The frozen variant (seed 002 on containerd, for real): a hooked container was restarted, its
  // hook never returned, and the kubelet's sync for the pod waits on it, so the status still
  // shows the previous run. The node shows the new container running under the pod's UID
  // although the status does not list it.
  const processes = probeResult(snapshot, 'processes');
  const unreported = (processes?.containers ?? []).filter((c) => !c.known && c.initAlive && !/(^|\/)pause$/.test(c.initCommand?.split(' ')[0] ?? ''));
  const hookedNotRunning = statuses.filter((s) => hooked.some((h) => h.name === s.status.name) && !s.status.state?.running);
  const frozen = pod.status?.phase === 'Running' && hookedNotRunning.length > 0 && unreported.length > 0;
  if (pod.status?.phase !== 'Pending' && creating.length === 0 && !frozen) return null;
  // A postStart hook runs only after its container started (the kubelet records Started first).
  // While the hook blocks, the status stays ContainerCreating, so that proves nothing; what rules
  // the hook out is a hooked container held before its start (image, config) or a sandbox that
  // never came up with no hooked container ever started.
  const started = (name: string) =>
    snapshot.events.some(
      (e) => e.reason === 'Started' && (e.involvedObject?.fieldPath ? e.involvedObject.fieldPath.endsWith(`{${name}}`) : (e.message ?? '').includes(name)),
    );
  const heldBeforeStart = (name: string) => {
    const w = statuses.find((s) => s.status.name === name)?.status.state?.waiting?.reason;
    return w !== undefined && !['ContainerCreating', 'PodInitializing'].includes(w);
  };
  const noSandbox = snapshot.events.some((e) => e.reason === 'FailedCreatePodSandBox') && !hooked.some((h) => started(h.name));
  if (!frozen && (noSandbox || hooked.every((h) => heldBeforeStart(h.name)))) return null;
  return { spec, sharing, hooked, creating, neverStarted, unreported, hookedNotRunning, frozen };
}

/** The frozen variant's proof: what the status last said of the hooked containers, and the containers only the node shows. */
function frozenEvidence(hookedNotRunning: NamedStatus[], unreported: ProcessesResult['containers'], nodeName: string): Evidence[] {
  const evidence: Evidence[] = [];
  for (const s of hookedNotRunning.slice(0, 2))
    evidence.push(
      statusEvidence(
        s,
        'state',
        `last reported: ${
          s.status.state?.terminated
            ? `terminated (${s.status.state.terminated.reason ?? `exit ${s.status.state.terminated.exitCode}`})`
            : `waiting: ${s.status.state?.waiting?.reason ?? '?'}`
        }, restartCount ${s.status.restartCount ?? 0}`,
      ),
    );
  for (const c of unreported.slice(0, 2)) {
    evidence.push({
      source: `node agent: processes on ${nodeName}`,
      text:
        `container ${c.id.slice(0, 12)} of this pod runs (${c.processCount} process${c.processCount === 1 ? '' : 'es'}, init ${c.initCommand ?? '?'}) ` +
        "but the pod's status does not list it: the kubelet started it and never reported it",
    });
  }
  return evidence;
}

export const rule = defineRule({
  meta: {
    id: 'terminating.exec-hang',
    title: 'Deletion stuck: postStart exec hung (hostPID/shareProcessNamespace on docker)',
    category: 'terminating',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'agent'],
    playbook: 'remove-stuck-containers',
    priority: 72,
    supersedes: ['terminating.stuck'],
    // No `supersedes`: finalizers would still hold the object after the containers are removed,
    // and node-lost (75) ranks above when the node is gone, since no container can be removed then.
    doc:
      'Pod spec has hostPID or shareProcessNamespace and a container with lifecycle.postStart.exec; ' +
      'the pod stayed ContainerCreating, then Terminating. ' +
      'On docker an exec whose container exits first never returns (kubernetes issue 92214), postStart blocks the next containers and the kill (002). ' +
      "On any runtime a hook that never returns after a container restart freezes the pod's status at the previous run and blocks the deletion; " +
      'the node agent shows the restarted container running although the status does not list it. ' +
      'A hook that never started cannot hang: a hooked container held before its start (ImagePullBackOff, a config error) ' +
      'or a sandbox that never came up (FailedCreatePodSandBox, no Started event) is another class.',
    messages: {
      titleDocker: 'Pod stuck: postStart exec hung in docker ({{sharing}}, kubernetes#92214)',
      runsWith: 'The pod runs with {{sharing}} and {{hooks}}.',
      dockerExecBug: 'With a shared PID namespace, docker exec never returns when the container exits before the exec process (kubernetes issue 92214).',
      kubeletWaits:
        'The kubelet runs postStart through that exec and waits for it before starting the next containers ' +
        '({{waiting}} stayed ContainerCreating), so the pod never started and the kill cannot finish: ' +
        'it has been Terminating {{overdue}} past its grace period.',
      kubeletWaitsRest:
        'The kubelet runs postStart through that exec and waits for it before starting the next containers ' +
        '(the rest stayed ContainerCreating), so the pod never started and the kill cannot finish: ' +
        'it has been Terminating {{overdue}} past its grace period.',
      execStillRunning: 'The node agent sees the hook exec still running in docker.',
      removeDockerContainers:
        "Remove the pod's containers on {{node}} (`docker ps -a | grep {{pod}}`, `docker rm -f`), " +
        'then force delete the pod: playbook remove-stuck-containers (approval).',
      dropHook: 'Drop the postStart exec hook (do the work in the entrypoint or an init container), or drop hostPID/shareProcessNamespace from the pod.',
      moveToContainerd: 'Move the node to containerd (dockershim was removed in Kubernetes 1.24).',
      titleFrozen: 'Pod stuck: the postStart hook of {{containers}} never returned after a restart (runtime {{runtime}})',
      hookNeverReturned:
        'Container {{containers}} was restarted and its postStart hook has not returned: exec hooks have no timeout, ' +
        "and the kubelet's work on this pod waits for it, so the pod's status is frozen at the previous run " +
        'and the deletion is never carried out (Terminating {{overdue}} past its grace period).',
      unreportedContainer: "The node agent sees the restarted container running under the pod's UID although the status does not list it.",
      removeCriContainers:
        "Remove the pod's containers on {{node}} (this ends the hung hook), then force delete the pod: " +
        'playbook remove-stuck-containers (approval). ' +
        'By hand: `crictl ps -a --label io.kubernetes.pod.uid={{uid}}`, `crictl stop` / `crictl rm`.',
      boundHook: 'Make postStart hooks short and bounded (`timeout 30 ...`), or move the work into the entrypoint or an init container.',
      titleHookRuns: 'Pod stuck while its postStart hook runs ({{sharing}}; runtime {{runtime}}, docker bug not applicable)',
      wasCreating:
        'The pod runs with {{sharing}} and {{hooks}}, was stuck ContainerCreating ({{waiting}}) ' + 'and is now Terminating {{overdue}} past its grace period.',
      wasCreatingNotStarted:
        'The pod runs with {{sharing}} and {{hooks}}, was stuck ContainerCreating (containers not started) ' +
        'and is now Terminating {{overdue}} past its grace period.',
      notDocker:
        'The node runs {{runtime}}, so the docker exec hang (kubernetes issue 92214) does not apply; ' +
        'more likely the postStart command itself never returns (exec hooks have no timeout) and blocks the next containers.',
      runtimeUnknown:
        'The runtime is unknown, so the docker exec hang (kubernetes issue 92214) cannot be confirmed; ' +
        'more likely the postStart command itself never returns (exec hooks have no timeout) and blocks the next containers.',
      checkHook: 'Check what the postStart command of {{containers}} waits for (`crictl ps -a` / `crictl exec` on {{node}}).',
      removeAndForceDelete:
        'If the containers cannot be stopped, remove them on the node and force delete the pod (playbook remove-stuck-containers, approval).',
      boundHookEntrypoint: 'Make postStart hooks short and bounded (`timeout 30 ...`) or move the work into the entrypoint.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || !isStuckTerminating(snapshot, pod)) return null;
    const wait = hookWait(snapshot, pod);
    if (!wait) return null;
    const { spec, sharing, hooked, creating, neverStarted, unreported, hookedNotRunning, frozen } = wait;

    const runtime = runtimeOf(snapshot);
    const docker = runtime === 'docker';
    const nodeName = spec?.nodeName ?? '?';
    const overdue = secondsPastDeletion(snapshot, pod) ?? 0;
    const hookText = hooked.map((c) => `${c.name} (postStart exec ${JSON.stringify(c.lifecycle?.postStart?.exec?.command ?? [])})`).join(', ');
    const waitingNames = (creating.length ? creating.map((s) => s.status.name) : neverStarted.map((c) => c.name)).join(', ');

    const evidence: Evidence[] = [
      { source: 'pod.spec', text: `${sharing}; ${hookText}` },
      {
        source: 'pod.metadata.deletionTimestamp',
        text: `${pod.metadata?.deletionTimestamp ?? ''} (${formatDuration(overdue)} overdue), phase ${pod.status?.phase ?? '?'}`,
      },
      ...creating.slice(0, 4).map((s) => statusEvidence(s, 'state', `waiting: ${s.status.state?.waiting?.reason ?? ''}`)),
      {
        source: `node ${nodeName} nodeInfo.containerRuntimeVersion`,
        text: snapshot.node?.status?.nodeInfo?.containerRuntimeVersion ?? `${runtime ?? 'unknown'} (from container IDs)`,
      },
    ];

    // Node half, when the agent answered: the hook's exec still running in docker confirms the hang.
    const hangingExecs = (probeResult(snapshot, 'runtime')?.docker.containers ?? [])
      .filter((c) => hooked.some((h) => h.name === c.containerName))
      .flatMap((c) => c.execs.filter((e) => e.running).map((e) => ({ container: c.containerName ?? c.id, exec: e })));
    for (const { container, exec } of hangingExecs.slice(0, 2)) {
      evidence.push({
        source: `node agent: runtime on ${nodeName}`,
        text: `exec ${exec.command} in container ${container} still running${exec.startedAt ? ` since ${exec.startedAt}` : ''}`,
      });
    }
    if (frozen) evidence.push(...frozenEvidence(hookedNotRunning, unreported, nodeName));

    const owner = pod.metadata?.ownerReferences?.[0];
    const ns = pod.metadata?.namespace ?? '';
    const subject = owner ? `workload/${ns}/${owner.kind}/${owner.name}` : `pod/${ns}/${pod.metadata?.name ?? ''}`;
    const params = { node: nodeName, namespace: ns, pod: pod.metadata?.name ?? '', containers: hooked.map((c) => c.name), runtime: runtime ?? 'unknown' };

    const late = formatDuration(overdue);
    if (docker) {
      return {
        title: msg('titleDocker', { sharing }),
        cause: [
          msg('runsWith', { sharing, hooks: hookText }),
          msg('dockerExecBug'),
          waitingNames ? msg('kubeletWaits', { waiting: waitingNames, overdue: late }) : msg('kubeletWaitsRest', { overdue: late }),
          hangingExecs.length > 0 && msg('execStillRunning'),
        ],
        evidence,
        advice: [msg('removeDockerContainers', { node: nodeName, pod: pod.metadata?.name ?? '<pod>' })],
        prevent: [msg('dropHook'), msg('moveToContainerd')],
        causeKey: `exec-hang:${subject}`,
        params,
      };
    }
    if (frozen) {
      const restarted = hookedNotRunning.map((s) => s.status.name).join(', ');
      return {
        title: msg('titleFrozen', { containers: restarted, runtime: params.runtime }),
        cause: [msg('runsWith', { sharing, hooks: hookText }), msg('hookNeverReturned', { containers: restarted, overdue: late }), msg('unreportedContainer')],
        evidence,
        advice: [msg('removeCriContainers', { node: nodeName, uid: pod.metadata?.uid ?? '<uid>' })],
        prevent: [msg('boundHook')],
        causeKey: `exec-hang:${subject}`,
        params,
      };
    }
    return {
      // The docker bug is ruled out: the pattern is suggestive only, so lower severity and confidence.
      severity: 'warning',
      title: msg('titleHookRuns', { sharing, runtime: params.runtime }),
      cause: [
        waitingNames
          ? msg('wasCreating', { sharing, hooks: hookText, waiting: waitingNames, overdue: late })
          : msg('wasCreatingNotStarted', { sharing, hooks: hookText, overdue: late }),
        runtime ? msg('notDocker', { runtime }) : msg('runtimeUnknown'),
      ],
      evidence,
      advice: [msg('checkHook', { containers: hooked.map((c) => c.name).join(', '), node: nodeName }), msg('removeAndForceDelete')],
      prevent: [msg('boundHookEntrypoint')],
      causeKey: `exec-hang:${subject}`,
      params,
    };
  },
});
