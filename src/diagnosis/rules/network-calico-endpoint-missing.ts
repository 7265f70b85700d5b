// network.calico-endpoint-missing: Running pod has no Calico WorkloadEndpoint (cut off from the network).
import { CALICO_GATEWAY, calicoVethName, workloadEndpointName } from '../../probes/calico.js';
import { nodeChecksMissing, probeResult } from '../agent-facts.js';
import { containerStatuses, formatDuration, isDeleting, secondsSince, stopConfirmed } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, KubeObject, Pod, Snapshot } from '../types.js';

function wepSpec(w: KubeObject): { pod?: string; node?: string; ipNetworks?: string[]; interfaceName?: string } {
  return (w.spec ?? {}) as { pod?: string; node?: string; ipNetworks?: string[]; interfaceName?: string };
}

function calicoInUse(snapshot: Snapshot, pod: Pod): boolean {
  if ((snapshot.workloadEndpoints ?? []).length > 0) return true;
  if (Object.keys(pod.metadata?.annotations ?? {}).some((k) => k.startsWith('cni.projectcalico.org/'))) return true;
  if (Object.keys(snapshot.node?.metadata?.annotations ?? {}).some((k) => k.startsWith('projectcalico.org/'))) return true;
  const net = probeResult(snapshot, 'pod-network');
  return Boolean(net?.pod?.calicoGateway || (net?.host.caliInterfaces.length ?? 0) > 0);
}

/**
 * A pod that no longer holds its IP although its status still shows it: the kubelet confirmed
 * the stop (grace 0) or every container has terminated, so the CNI DEL released the address.
 */
function releasedIp(p: Pod): boolean {
  if (stopConfirmed(p)) return true;
  const statuses = containerStatuses(p);
  return statuses.length > 0 && statuses.every((s) => s.status.state?.terminated);
}

export const rule = defineRule({
  meta: {
    id: 'network.calico-endpoint-missing',
    title: 'Running pod has no Calico WorkloadEndpoint (cut off from the network)',
    category: 'network',
    severity: 'error',
    needs: ['pod', 'node', 'podsOnNode', 'workloadEndpoints', 'agent'],
    playbook: 'recreate-pod',
    priority: 86,
    doc:
      'A Running pod with an IP has no Calico WorkloadEndpoint (`<node>-k8s-<pod>-eth0`, dashes doubled), or one with another IP. ' +
      'On the node: inside the pod the gateway 169.254.1.1 neighbour is incomplete (no proxy ARP answer), host cali* veths exist without pods, ' +
      "two pods share one IP. A stale CNI delete removed this pod's endpoint (seed 004). " +
      'An unresolved gateway while the endpoint and the host veth are in place is a dataplane problem (Felix, calico-node), not this; ' +
      'when the endpoints cannot be read the finding says so and offers no playbook. ' +
      'A pod that already released its IP (kubelet confirmed the stop, containers terminated) is no duplicate.',
    messages: {
      titleNoEndpoint: '{{pod}} ({{ip}}) is cut off: no Calico WorkloadEndpoint on {{node}}',
      titleWrongIp: '{{pod}} ({{ip}}) is cut off: its WorkloadEndpoint has another IP on {{node}}',
      titleGateway: '{{pod}} ({{ip}}) is cut off: gateway {{gateway}} unresolved on {{node}}',
      titleDuplicateIp: '{{pod}} ({{ip}}) is cut off: its IP is used twice on {{node}}',
      running: 'The pod has been Running for {{age}} with IP {{ip}}.',
      noEndpoint: 'Calico has no WorkloadEndpoint for it ({{endpoint}}), so Felix programs no route or proxy ARP for {{ip}}.',
      wrongIp: "Its WorkloadEndpoint carries {{endpointIps}}, not the pod's {{ip}}: it belongs to an earlier pod of the same name.",
      gatewayDead: 'Inside the pod the gateway {{gateway}} stays unresolved (ARP incomplete): nothing answers on the host side, so the pod can reach nothing.',
      duplicateIp: '{{ip}} is in use twice on {{node}}: IPAM released it while it was still in use.',
      duplicateIpWith: '{{ip}} is in use twice on {{node}} ({{pods}}): IPAM released it while it was still in use.',
      staleVeths: '{{count}} host veth(s) have no pod: earlier deletes did not finish.',
      unconfirmed:
        "The pod's WorkloadEndpoint could not be read, so a missing endpoint is not confirmed: " +
        'a Felix/calico-node failure on the node leaves the gateway unresolved too.',
      staleDelete: "A CNI delete for an old pod (often a retried teardown of a same-named StatefulSet pod) removed this live pod's endpoint.",
      checksMissing: '{{missing}}',
      checkEndpoint:
        'Check the endpoint first (`kubectl get workloadendpoints.crd.projectcalico.org -n {{namespace}}`, `calicoctl get wep -n {{namespace}}`) ' +
        'and the calico-node pod on {{node}}; recreate {{pod}} only if its endpoint is gone.',
      recreate: 'Recreate {{pod}} so Calico CNI sets up a new endpoint: playbook recreate-pod (approval).',
      staleSandbox:
        'If {{node}} keeps retrying a teardown (kubelet log "failed to teardown pod"), ' +
        'remove that stale sandbox first or the new endpoint is deleted too (see terminating.cni-teardown).',
      cleanStale: 'Clean stale endpoints, veths and IPAM handles (`calicoctl get workloadendpoints`, `calicoctl ipam check`).',
      prevent: 'Upgrade Calico CNI to >= 1.10 (a missing endpoint on DEL is no longer an error, so no retry loop deletes live endpoints).',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isDeleting(pod) || pod.status?.phase !== 'Running' || pod.spec?.hostNetwork) return null;
    const ip = pod.status?.podIP;
    const node = pod.spec?.nodeName;
    if (!ip || !node) return null;
    // Right after start the endpoint may still be on its way: only speak after a minute.
    const age = secondsSince(snapshot, pod.status?.startTime ?? pod.metadata?.creationTimestamp);
    if (age === undefined || age < 60) return null;
    if (!calicoInUse(snapshot, pod)) return null;
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';

    const wepName = workloadEndpointName(node, name);
    const weps = snapshot.workloadEndpoints;
    const wep = weps?.find((w) => w.metadata?.name === wepName) ?? weps?.find((w) => wepSpec(w).pod === name && wepSpec(w).node === node);
    const wepMissing = weps !== undefined && !wep;
    const wepIps = wep ? (wepSpec(wep).ipNetworks ?? []).map((n) => n.split('/')[0]) : [];
    const wepWrongIp = wep !== undefined && wepIps.length > 0 && !wepIps.includes(ip);

    const net = probeResult(snapshot, 'pod-network');
    const gw = net?.pod?.gateway;
    const gatewayDead = gw !== undefined && gw.ip === CALICO_GATEWAY && gw.state === 'incomplete';
    const samePodIp = (snapshot.podsOnNode ?? []).filter(
      (p) => p.metadata?.uid !== pod.metadata?.uid && !p.spec?.hostNetwork && p.status?.podIP === ip && !releasedIp(p),
    );
    const arpDevices = [...new Set((net?.host.arpForPodIp ?? []).map((n) => n.device))];
    const duplicateIp = samePodIp.length > 0 || arpDevices.length > 1;
    if (!wepMissing && !wepWrongIp && !gatewayDead && !duplicateIp) return null;
    // An unresolved gateway alone is a dataplane symptom: with the pod's endpoint and host veth in
    // place it is Felix/calico-node (or the node's network), and a new pod would get the same.
    const vethGone = net?.host.expectedInterface !== undefined && net.host.expectedPresent === false;
    const endpointUnknown = weps === undefined && !vethGone;
    if (gatewayDead && !wepMissing && !wepWrongIp && !vethGone && !duplicateIp && !endpointUnknown) return null;
    const unconfirmed = gatewayDead && endpointUnknown && !duplicateIp;

    // Host veths with no pod behind them: leftovers of deletes that did not finish.
    let stale: string[] = [];
    if (net && snapshot.podsOnNode) {
      const expected = new Set(
        [...snapshot.podsOnNode, pod].filter((p) => !p.spec?.hostNetwork).map((p) => calicoVethName(p.metadata?.namespace ?? '', p.metadata?.name ?? '')),
      );
      stale = net.host.caliInterfaces.filter((i) => !expected.has(i));
    }

    const evidence: Evidence[] = [];
    if (wepMissing)
      evidence.push({
        source: `calico WorkloadEndpoints in ${ns}`,
        text: `no WorkloadEndpoint ${wepName} (pod ${name}, node ${node}); ${weps?.length ?? 0} endpoint(s) in the namespace`,
      });
    if (wepWrongIp && wep)
      evidence.push({
        source: `calico WorkloadEndpoint ${wep.metadata?.name ?? ''}`,
        text: `ipNetworks ${JSON.stringify(wepSpec(wep).ipNetworks)} but the pod IP is ${ip}`,
      });
    if (gatewayDead && gw) evidence.push({ source: `node agent: /proc/${net?.pid ?? '?'}/net/arp on ${node}`, text: gw.entry?.line ?? `${gw.ip} incomplete` });
    if (net?.pod?.defaultRoute)
      evidence.push({
        source: `node agent: /proc/${net.pid ?? '?'}/net/route on ${node}`,
        text: `default via ${net.pod.defaultRoute.gateway} dev ${net.pod.defaultRoute.iface}`,
      });
    if (net?.host.expectedInterface)
      evidence.push({
        source: `node agent: host interfaces on ${node}`,
        text: `${net.host.expectedInterface} (${ns}.${name}) ${net.host.expectedPresent ? 'present' : 'absent'}`,
      });
    if (samePodIp.length > 0)
      evidence.push({
        source: `pods on ${node}`,
        text: `${ip} is also the IP of ${samePodIp.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).join(', ')}`,
      });
    if (arpDevices.length > 1)
      evidence.push({ source: `node agent: /proc/1/net/arp on ${node}`, text: (net?.host.arpForPodIp ?? []).map((n) => n.line).join(' | ') });
    if (stale.length > 0)
      evidence.push({
        source: `node agent: host cali* interfaces on ${node}`,
        text: `${stale.length} without a pod on the node: ${stale.slice(0, 8).join(', ')}${stale.length > 8 ? ' …' : ''}`,
      });

    const missing = !net ? nodeChecksMissing(snapshot, node, 'pod-network') : undefined;
    const podRef = `${ns}/${name}`;
    const titled = { pod: podRef, ip, node };
    return {
      severity: gatewayDead ? 'critical' : 'error',
      title: wepMissing
        ? msg('titleNoEndpoint', titled)
        : wepWrongIp
          ? msg('titleWrongIp', titled)
          : gatewayDead
            ? msg('titleGateway', { ...titled, gateway: CALICO_GATEWAY })
            : msg('titleDuplicateIp', titled),
      cause: [
        msg('running', { age: formatDuration(age), ip }),
        wepMissing && msg('noEndpoint', { endpoint: wepName, ip }),
        wepWrongIp && msg('wrongIp', { endpointIps: wepIps.join(', '), ip }),
        gatewayDead && msg('gatewayDead', { gateway: CALICO_GATEWAY }),
        duplicateIp &&
          (samePodIp.length > 0
            ? msg('duplicateIpWith', { ip, node, pods: samePodIp.map((p) => p.metadata?.name).join(', ') })
            : msg('duplicateIp', { ip, node })),
        stale.length > 0 && msg('staleVeths', { count: stale.length }),
        unconfirmed ? msg('unconfirmed') : msg('staleDelete'),
        missing ? msg('checksMissing', { missing }) : null,
      ],
      evidence,
      advice: [
        unconfirmed ? msg('checkEndpoint', { namespace: ns, node, pod: podRef }) : msg('recreate', { pod: podRef }),
        msg('staleSandbox', { node }),
        msg('cleanStale'),
      ],
      prevent: [msg('prevent')],
      ...(unconfirmed ? { playbook: null } : {}),
      causeKey: `node/${node}:calico-endpoints`,
      params: { node, namespace: ns, pod: name, workloadEndpoint: wepName },
    };
  },
});
