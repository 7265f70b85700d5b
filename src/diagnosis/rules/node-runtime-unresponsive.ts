// node.runtime-unresponsive: Container runtime on the node does not answer.
import { journalEvidence, journalMatches, nodeChecksMissing, probeResult } from '../agent-facts.js';
import { formatDuration, nodeCondition, runtimeOf, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence } from '../types.js';

export const rule = defineRule({
  meta: {
    id: 'node.runtime-unresponsive',
    title: 'Container runtime on the node does not answer',
    category: 'node',
    severity: 'error',
    needs: ['pod', 'node', 'agent'],
    priority: 80,
    doc:
      'The node\'s Ready condition says "PLEG is not healthy" (the kubelet\'s relist of containers takes minutes), ' +
      'or the node agent finds the runtime socket connecting but its API not answering within a timeout. Pods on that node cannot start or stop. ' +
      'The node agent also checks for the usual cause, a hung FUSE/network mount (see terminating.runtime-hung).',
    messages: {
      title: '{{runtime}} on {{node}} does not answer',
      titlePleg: '{{runtime}} on {{node}} does not answer (PLEG is not healthy)',
      pleg: 'The kubelet on {{node}} reports "{{message}}": its periodic relist of containers through the runtime takes longer than the threshold.',
      dockerHung: 'The docker API on {{node}} accepts connections but does not answer ({{detail}}).',
      dockerRefuses: 'The docker API on {{node}} refuses connections ({{detail}}).',
      containerdHung: 'containerd on {{node}} does not answer in time ({{detail}}).',
      containerdRefuses: 'containerd on {{node}} refuses connections ({{detail}}).',
      hungMounts: '{{count}} FUSE/network mount(s) do not answer stat ({{mounts}}): the usual reason a runtime hangs.',
      podsStuck: 'Pods on this node can neither start nor stop until the runtime answers again.',
      checksMissing: '{{missing}}',
      unhangMount:
        'Unhang the mount first (lazy unmount / stop its FUSE client on {{node}}): restarting {{runtime}} while it stays hung does not help. ' +
        'See terminating.runtime-hung.',
      checkRuntime:
        'On {{node}}: check `{{ps}}` answers; look for FUSE/network mounts that do not answer stat, ' +
        'then restart {{runtime}} (`systemctl restart {{runtime}}`).',
      cordon: 'Cordon {{node}} while it is unhealthy so new pods go elsewhere.',
      prevent:
        'Alert on PLEG relist latency and on mounts that stop answering; ' + 'keep the number of containers per node within what the runtime relists in time.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const node = pod?.spec?.nodeName ?? (snapshot.target.kind === 'node' ? snapshot.target.name : undefined);
    if (!node) return null;
    const ready = nodeCondition(snapshot.node, 'Ready');
    const pleg = ready?.message && /PLEG is not healthy/.test(ready.message) ? ready : undefined;
    const runtime = probeResult(snapshot, 'runtime');
    const docker = runtime?.docker;
    const containerd = runtime?.containerd;
    const runtimeName = runtimeOf(snapshot);
    const dockerDown = docker && (docker.state === 'hung' || (docker.state === 'unreachable' && runtimeName === 'docker'));
    const containerdDown = containerd && runtimeName === 'containerd' && (containerd.state === 'hung' || containerd.state === 'unreachable');
    if (!pleg && !dockerDown && !containerdDown) return null;

    const evidence: Evidence[] = [];
    if (pleg) {
      const since = secondsSince(snapshot, pleg.lastTransitionTime);
      evidence.push({
        source: `node ${node} condition Ready=${pleg.status}${since !== undefined ? ` for ${formatDuration(since)}` : ''}`,
        text: pleg.message ?? '',
      });
    }
    if (dockerDown && docker)
      evidence.push({ source: `node agent: docker API ${docker.socket ?? ''} on ${node}`.replace('  ', ' '), text: docker.detail ?? docker.state });
    if (containerdDown && containerd)
      evidence.push({
        source: `node agent: containerd socket ${containerd.socket ?? ''} on ${node}`,
        text: `${containerd.detail ?? containerd.state} (${containerd.note})`,
      });
    for (const m of journalMatches(snapshot, ['pleg-unhealthy', 'runtime-deadline'], { aboutPodOnly: false }).slice(-2))
      evidence.push(journalEvidence(node, m));
    const hung = (probeResult(snapshot, 'fs-mounts')?.mounts ?? []).filter((m) => m.state === 'hung');
    for (const m of hung.slice(0, 2))
      evidence.push({ source: `node agent: stat ${m.mountPoint} on ${node}`, text: `${m.fsType} ${m.source}: ${m.detail ?? 'no answer'}` });

    const missing = !runtime ? nodeChecksMissing(snapshot, node, 'runtime', 'fs-mounts') : undefined;
    const which = dockerDown ? 'docker' : containerdDown ? 'containerd' : (runtimeName ?? 'the container runtime');
    const cause = [
      pleg && msg('pleg', { node, message: String(pleg.message) }),
      dockerDown && docker && msg(docker.state === 'hung' ? 'dockerHung' : 'dockerRefuses', { node, detail: docker.detail ?? docker.state }),
      containerdDown && containerd && msg(containerd.state === 'hung' ? 'containerdHung' : 'containerdRefuses', { node, detail: containerd.detail ?? '' }),
      hung.length > 0 &&
        msg('hungMounts', {
          count: hung.length,
          mounts: hung
            .map((m) => `${m.fsType} ${m.mountPoint}`)
            .slice(0, 2)
            .join(', '),
        }),
      msg('podsStuck'),
      missing ? msg('checksMissing', { missing }) : null,
    ];
    return {
      severity: dockerDown || containerdDown ? 'critical' : 'error',
      title: msg(pleg ? 'titlePleg' : 'title', { runtime: which, node }),
      cause,
      evidence,
      advice: [
        hung.length > 0
          ? msg('unhangMount', { node, runtime: which })
          : msg('checkRuntime', { node, ps: which === 'docker' ? 'docker ps' : 'crictl ps', runtime: which }),
        msg('cordon', { node }),
      ],
      prevent: [msg('prevent')],
      causeKey: `node/${node}:runtime/${which}`,
      params: { node, runtime: which },
    };
  },
});
