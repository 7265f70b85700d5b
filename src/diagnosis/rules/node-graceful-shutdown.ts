// node.graceful-shutdown: Stopped by a node shutdown and left behind as Failed.

import { formatDuration, ms, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence } from '../types.js';

// Graceful node shutdown (kubelet shutdownGracePeriod): when the node is told to shut down, the
// kubelet stops its pods and marks them Failed: reason Terminated ("Pod was terminated in response
// to imminent node shutdown."), older kubelets Shutdown ("Node is shutting down, cannot ...") or
// NodeShutdown, with DisruptionTarget TerminationByKubelet (1.26+). Their controllers replace them
// elsewhere; the Failed pods stay behind until the pod GC threshold (12500 by default) removes them.

const SHUTDOWN_REASONS = new Set(['Terminated', 'Shutdown', 'NodeShutdown']);
const SHUTDOWN_MESSAGE = /imminent node shutdown|Node is shutting down|node shutdown/i;

export const rule = defineRule({
  meta: {
    id: 'node.graceful-shutdown',
    title: 'Stopped by a node shutdown and left behind as Failed',
    category: 'node',
    severity: 'warning',
    needs: ['pod', 'events', 'owners'],
    priority: 46,
    doc:
      'The pod is Failed with reason Terminated / Shutdown / NodeShutdown ("Pod was terminated in response to imminent node shutdown."): ' +
      'the kubelet stopped it because its node shut down (graceful node shutdown). Nothing is wrong with the pod; its controller replaced it. ' +
      'The Failed pod stays until the pod garbage collector removes it (terminated-pod-gc-threshold, 12500 by default), which alerts keep seeing.',
    messages: {
      title: '{{pod}} was stopped by the shutdown of node {{node}}',
      titleAgo: '{{pod}} was stopped by the shutdown of node {{node}} {{ago}} ago',
      stopped: 'The kubelet on {{node}} stopped this pod because the node was shutting down ("{{message}}"), and left it Failed.',
      replaced: 'Its {{kind}} {{owner}} has replaced it elsewhere; this Failed pod is a leftover, kept until the pod garbage collector removes it.',
      barePod: 'It is a bare pod: nothing re-creates it, kept until the pod garbage collector removes it.',
      deleteLeftovers: 'Delete the leftovers: `kubectl delete pods -n {{namespace}} --field-selector=status.phase=Failed` (they no longer run).',
      recreate: 'Re-create the pod (a bare pod is not restarted); better, run it under a Deployment.',
      gcThreshold:
        'If these pile up after every node restart, lower the kube-controller-manager --terminated-pod-gc-threshold ' + 'or clean them up after maintenance.',
      prevent: 'Alert on pods not Running for long rather than on every Failed pod; Failed pods from graceful shutdown are expected after node restarts.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (pod?.status?.phase !== 'Failed') return null;
    const reason = pod.status.reason ?? '';
    const message = pod.status.message ?? '';
    const disruption = pod.status.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True' && SHUTDOWN_MESSAGE.test(c.message ?? ''));
    if (!(SHUTDOWN_REASONS.has(reason) && SHUTDOWN_MESSAGE.test(message)) && !disruption) return null;
    const evidence: Evidence[] = [{ source: 'pod.status', text: `phase Failed, reason ${reason}: ${message}` }];
    if (disruption) evidence.push({ source: 'pod.status.conditions[DisruptionTarget]', text: `${disruption.reason ?? ''}: ${disruption.message ?? ''}` });
    const owner = pod.metadata?.ownerReferences?.find((o) => o.controller);
    const when = ms(disruption?.lastTransitionTime) !== undefined ? secondsSince(snapshot, disruption?.lastTransitionTime) : undefined;
    const ns = pod.metadata?.namespace ?? '';
    return {
      title:
        when !== undefined
          ? msg('titleAgo', { pod: pod.metadata?.name ?? 'Pod', node: pod.spec?.nodeName ?? '?', ago: formatDuration(when) })
          : msg('title', { pod: pod.metadata?.name ?? 'Pod', node: pod.spec?.nodeName ?? '?' }),
      cause: [
        msg('stopped', { node: pod.spec?.nodeName ?? 'its node', message: String(message || disruption?.message) }),
        owner ? msg('replaced', { kind: owner.kind, owner: owner.name }) : msg('barePod'),
      ],
      evidence,
      advice: [owner ? msg('deleteLeftovers', { namespace: ns }) : msg('recreate'), msg('gcThreshold')],
      prevent: [msg('prevent')],
      causeKey: `node/${pod.spec?.nodeName ?? '?'}:shutdown`,
      params: { reason, ...(owner ? { owner: `${owner.kind}/${owner.name}` } : {}) },
    };
  },
});
