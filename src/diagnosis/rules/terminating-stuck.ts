// terminating.stuck: Deletion stuck on the node, cause not visible from the API.
import { nodeChecksMissing } from '../agent-facts.js';
import { containerStatuses, formatDuration, isStuckTerminating, nodeNotReady, runtimeOf, secondsPastDeletion } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence } from '../types.js';

/**
 * The fallback for a pod whose deletion is stuck when nothing more specific explains it: no
 * finalizer, a Ready node, no busy mount or hung runtime that the API or the agent shows.
 * Every specific terminating rule supersedes it, so it only stands alone when the node
 * could not be examined or showed nothing; then it says so and what to look at.
 */
export const rule = defineRule({
  meta: {
    id: 'terminating.stuck',
    title: 'Deletion stuck on the node, cause not visible from the API',
    category: 'terminating',
    severity: 'warning',
    needs: ['pod', 'events', 'node', 'agent'],
    priority: 40,
    doc:
      'A deleted pod outlived its grace period with no finalizer and on a Ready node: the kubelet cannot finish killing or cleaning it up. ' +
      'The usual causes are on the node (a mount held by another process, a hung runtime or filesystem, a failing CNI teardown); ' +
      'the finding says which node checks could not run.',
    messages: {
      title: 'Pod deletion stuck for {{overdue}} on {{node}}; the blocker is on the node',
      stuck:
        'The pod was deleted {{overdue}} past its grace period. ' +
        'It has no finalizer and {{node}} is Ready, so the kubelet is failing to kill or clean up the pod on the node.',
      checksMissing: '{{missing}}',
      nothingFound: 'The node agent found no busy mount, hung runtime or failing teardown either.',
      readLogs:
        "Look at the kubelet and {{runtime}} logs on {{node}} for this pod's UID {{uid}}: " +
        '"device or resource busy", "context deadline exceeded", "failed to teardown".',
      runAgain: 'Run pod-doctor again with the node agent reachable: it names the process holding a mount or the mount that hangs.',
      forceDelete:
        'If the containers are gone on the node, a force delete only removes the API object (`kubectl delete pod --grace-period=0 --force`); ' +
        'check first, especially for StatefulSet pods.',
      prevent: 'Deploy the pod-doctor node agent on every node so stuck deletions are explained at once.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || !isStuckTerminating(snapshot, pod, 120)) return null;
    if ((pod.metadata?.finalizers ?? []).length > 0 || nodeNotReady(snapshot.node)) return null;
    const node = pod.spec?.nodeName;
    if (!node) return null;
    const overdue = formatDuration(secondsPastDeletion(snapshot, pod) ?? 0);
    const missing = nodeChecksMissing(snapshot, node, 'mount-holders', 'runtime', 'processes', 'journal');
    const runtime = runtimeOf(snapshot);
    const states = containerStatuses(pod).map((s) => {
      const st = s.status.state;
      const state = st?.running
        ? 'running'
        : st?.terminated
          ? `terminated (${st.terminated.reason ?? `exit ${st.terminated.exitCode}`})`
          : st?.waiting
            ? `waiting (${st.waiting.reason ?? ''})`
            : 'unknown';
      return `${s.status.name}: ${state}`;
    });
    const evidence: Evidence[] = [
      { source: 'pod.metadata.deletionTimestamp', text: `${pod.metadata?.deletionTimestamp ?? ''} (${overdue} past the grace period)` },
      {
        source: `node ${node}`,
        text:
          `Ready, runtime ${snapshot.node?.status?.nodeInfo?.containerRuntimeVersion ?? runtime ?? 'unknown'}, ` +
          `kernel ${snapshot.node?.status?.nodeInfo?.kernelVersion ?? 'unknown'}`,
      },
    ];
    if (states.length > 0) evidence.push({ source: 'pod.status.containerStatuses', text: states.join('; ') });
    return {
      title: msg('title', { overdue, node }),
      cause: [msg('stuck', { overdue, node }), missing ? msg('checksMissing', { missing }) : msg('nothingFound')],
      evidence,
      advice: [msg('readLogs', { runtime: runtime ?? 'runtime', node, uid: pod.metadata?.uid ?? '' }), msg('runAgain'), msg('forceDelete')],
      prevent: [msg('prevent')],
      causeKey: `node/${node}:stuck-deletion`,
      params: { node },
    };
  },
});
