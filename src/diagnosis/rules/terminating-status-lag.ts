// terminating.status-lag: Pod status lags behind the node: kubelet API QPS too low for a busy node.
import { nodeChecksMissing, parseVersion, probeResult, shortId, versionLess } from '../agent-facts.js';
import { containerStatuses, formatDuration, isDeleting, isStuckTerminating, secondsPastDeletion, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

/** A node this busy makes the default kubelet API QPS a bottleneck (seed 003: 200+ pods). */
const BUSY_NODE_PODS = 200;
/** How long a status may look stale before this rule speaks. */
const STALE_SECONDS = 600;

export const rule = defineRule({
  meta: {
    id: 'terminating.status-lag',
    title: 'Pod status lags behind the node: kubelet API QPS too low for a busy node',
    category: 'terminating',
    severity: 'warning',
    needs: ['pod', 'node', 'podsOnNode', 'agent'],
    priority: 62,
    supersedes: ['terminating.stuck'],
    doc:
      'A pod stays Terminating or ContainerCreating for a long time while its node already did the work (containers gone, or running); ' +
      "the node runs 200+ pods and the kubelet's --kube-api-qps/--event-qps are at their old defaults (5), " +
      'so status updates queue behind each other (seed 003). ' +
      'Node-level causes that really block the pod (a holder, a hung runtime) supersede this finding.',
    messages: {
      title: 'kubelet on {{node}} posts pod status too slowly (kube-api-qps {{qps}}, {{pods}} pods)',
      deletedGone: 'The pod has looked Terminating for {{stuckFor}}, although its containers are already gone on the node.',
      creatingRunning: 'The pod has looked ContainerCreating for {{stuckFor}}, although its containers already run on the node.',
      maybeDone: 'The pod has looked {{state}} for {{stuckFor}}, while the node may already be done.',
      slowQps:
        '{{node}} runs {{pods}} pods and its kubelet may send only {{qps}} API requests per second, ' + 'so status updates queue up for minutes or hours.',
      checksMissing: '{{missing}}',
      raiseQps: "Raise the kubelet's --kube-api-qps/--kube-api-burst and --event-qps/--event-burst on {{node}} (e.g. 50/100), then restart the kubelet.",
      prevent: 'Size kubelet API QPS for the pod density of each node (defaults are 50/100 from Kubernetes 1.27).',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const node = pod?.spec?.nodeName;
    if (!pod || !node) return null;
    const deleting = isDeleting(pod);
    const creating = !deleting && containerStatuses(pod).some((s) => s.status.state?.waiting?.reason === 'ContainerCreating');
    const stuckFor = deleting ? secondsPastDeletion(snapshot, pod) : creating ? secondsSince(snapshot, pod.metadata?.creationTimestamp) : undefined;
    if (stuckFor === undefined || stuckFor < STALE_SECONDS || (deleting && !isStuckTerminating(snapshot, pod, STALE_SECONDS))) return null;
    const pods = snapshot.podsOnNode?.length;
    if (pods === undefined || pods < BUSY_NODE_PODS) return null;

    // The kubelet's API QPS: the agent reads the flag or config file; else the version's default.
    const kubeletVersion = snapshot.node?.status?.nodeInfo?.kubeletVersion;
    const v = parseVersion(kubeletVersion);
    const defaultQps = v && versionLess(v, [1, 27, 0]) ? 5 : 50;
    const host = probeResult(snapshot, 'host');
    const setting = host?.kubelet.settings.kubeAPIQPS;
    const qps = typeof setting?.value === 'number' ? setting.value : setting?.source === 'unset' || !host ? defaultQps : Number(setting?.value);
    const qpsSource =
      setting && setting.source !== 'unset'
        ? `--kube-api-qps / kubeAPIQPS = ${String(setting.value)} (${setting.source})`
        : `default for kubelet ${kubeletVersion ?? '?'} (${defaultQps})${host ? '' : ', assumed'}`;
    if (!(qps > 0 && qps <= 5)) return null;

    // The node side must agree that the work is done, else something else blocks the pod.
    const runtime = probeResult(snapshot, 'runtime');
    const containers = (runtime?.docker.containers ?? []).filter((c) => !c.sandbox);
    if (runtime && runtime.docker.state === 'ok') {
      if (deleting && containers.some((c) => c.state === 'running' || c.state === 'removing')) return null;
      if (creating && !containers.some((c) => c.state === 'running')) return null;
    }
    const evidence: Evidence[] = [
      deleting
        ? { source: 'pod.metadata.deletionTimestamp', text: `${pod.metadata?.deletionTimestamp ?? ''} (${formatDuration(stuckFor)} past the grace period)` }
        : { source: 'pod.status.containerStatuses', text: `ContainerCreating for ${formatDuration(stuckFor)}` },
      { source: `pods on ${node}`, text: `${pods} pods` },
      { source: `node agent: kubelet on ${node}`, text: qpsSource },
    ];
    if (runtime?.docker.state === 'ok') {
      evidence.push({
        source: `node agent: docker on ${node}`,
        text: containers.length
          ? containers.map((c) => `${shortId(c.id)} ${c.containerName ?? ''} ${c.status || c.state}`.replace(/ +/g, ' ')).join('; ')
          : 'no containers of the pod left',
      });
    }
    const missing = nodeChecksMissing(snapshot, node, 'host', 'runtime');
    return {
      severity: missing ? 'info' : 'warning',
      title: msg('title', { node, qps, pods }),
      cause: [
        runtime?.docker.state === 'ok'
          ? msg(deleting ? 'deletedGone' : 'creatingRunning', { stuckFor: formatDuration(stuckFor) })
          : msg('maybeDone', { state: deleting ? 'Terminating' : 'ContainerCreating', stuckFor: formatDuration(stuckFor) }),
        msg('slowQps', { node, pods, qps }),
        missing ? msg('checksMissing', { missing }) : null,
      ],
      evidence,
      advice: [msg('raiseQps', { node })],
      prevent: [msg('prevent')],
      causeKey: `node/${node}:kubelet-qps`,
      params: { node, kubeAPIQPS: qps, pods },
    } satisfies FindingDraft;
  },
});
