import { agent, podNetwork } from '../../../test/helpers/agent.js';
import { agentGap, ago, containerStatus, pod, snapshot, terminated } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { calicoVethName, workloadEndpointName } from '../../probes/calico.js';
import type { KubeObject } from '../types.js';
import { rule } from './network-calico-endpoint-missing.js';

const NODE = 'dev-slave-107';
const live = (patch: Parameters<typeof pod>[0] = {}) =>
  pod({
    metadata: { name: 'stateful-new-pod-0', namespace: 'lijiaob', uid: '35b722f5-dfad-11e7-9a8f-52549da43ad9' },
    spec: { nodeName: NODE },
    status: { podIP: '192.168.8.34', startTime: ago(600) },
    ...patch,
  });
const other = pod({ metadata: { name: 'etcd1-0', namespace: 'lijiaob' }, spec: { nodeName: NODE }, status: { podIP: '192.168.8.12' } });

function wep(podName: string, ip: string): KubeObject {
  return {
    apiVersion: 'crd.projectcalico.org/v1',
    kind: 'WorkloadEndpoint',
    metadata: { name: workloadEndpointName(NODE, podName), namespace: 'lijiaob' },
    spec: { orchestrator: 'k8s', node: NODE, pod: podName, endpoint: 'eth0', interfaceName: calicoVethName('lijiaob', podName), ipNetworks: [`${ip}/32`] },
  };
}

const incomplete = podNetwork({
  pod: {
    defaultRoute: { iface: 'eth0', destination: '0.0.0.0', gateway: '169.254.1.1', mask: '0.0.0.0', line: 'eth0 00000000 0101FEA9 0003 0 0 0 00000000 0 0 0' },
    routes: [],
    gateway: {
      ip: '169.254.1.1',
      state: 'incomplete',
      entry: {
        ip: '169.254.1.1',
        hw: '00:00:00:00:00:00',
        flags: '0x0',
        device: 'eth0',
        state: 'incomplete',
        line: '169.254.1.1 0x1 0x0 00:00:00:00:00:00 * eth0',
      },
    },
    calicoGateway: true,
    interfaces: ['lo', 'eth0'],
  },
  host: {
    caliInterfaces: ['cali91dded39638', 'cali9118ebbb10b', 'calie5b2a8a1d1e'],
    expectedInterface: 'cali91dded39638',
    expectedPresent: true,
    arpForPodIp: [],
  },
});

// The gateway unresolved although the endpoint and the host veth are there: calico-node's Felix is down.
const gatewayOnly = podNetwork({ ...incomplete, host: { ...incomplete.host, caliInterfaces: ['cali91dded39638', 'cali9118ebbb10b'] } });
// A StatefulSet pod from before, deleted and held by a finalizer: the kubelet confirmed the stop
// (grace 0) and the CNI DEL released 192.168.8.34, but its status (1.26 kubelet) still shows the IP.
const released = pod({
  metadata: {
    name: 'stateful-old-pod-0',
    namespace: 'lijiaob',
    deletionTimestamp: ago(1800),
    deletionGracePeriodSeconds: 0,
    finalizers: ['example.com/backup'],
  },
  spec: { nodeName: NODE },
  status: {
    podIP: '192.168.8.34',
    containerStatuses: [containerStatus({ ready: false, started: false, state: { terminated: terminated({ exitCode: 143, finishedAgo: 1790 }) } })],
  },
});

testRule(rule, {
  valid: [
    {
      name: 'healthy pod with its endpoint',
      snapshot: snapshot(live(), {
        workloadEndpoints: [wep('stateful-new-pod-0', '192.168.8.34'), wep('etcd1-0', '192.168.8.12')],
        podsOnNode: [other],
        agent: agent(NODE, { 'pod-network': podNetwork() }),
      }),
    },
    {
      name: 'just started: the endpoint may still be on its way',
      snapshot: snapshot(live({ status: { startTime: ago(10) } }), { workloadEndpoints: [wep('etcd1-0', '192.168.8.12')] }),
    },
    { name: 'Calico not in use (no endpoints, no calico annotations, no agent facts)', snapshot: snapshot(live(), { workloadEndpoints: [] }) },
    { name: 'hostNetwork pod', snapshot: snapshot(live({ spec: { hostNetwork: true } }), { workloadEndpoints: [wep('etcd1-0', '192.168.8.12')] }) },
    { name: 'endpoints not collected at all and no node facts', snapshot: snapshot(live()) },
    {
      name: "near miss (calico-node/Felix down vs missing endpoint): the gateway is unresolved but the pod's endpoint and veth are in place",
      snapshot: snapshot(live(), {
        workloadEndpoints: [wep('stateful-new-pod-0', '192.168.8.34'), wep('etcd1-0', '192.168.8.12')],
        podsOnNode: [other],
        agent: agent(NODE, { 'pod-network': gatewayOnly }),
      }),
    },
    {
      name: 'near miss (an IP released by a finished pod vs one IP used twice): the old pod only still shows it in its status',
      snapshot: snapshot(live(), {
        workloadEndpoints: [wep('stateful-new-pod-0', '192.168.8.34'), wep('etcd1-0', '192.168.8.12')],
        podsOnNode: [other, released],
      }),
    },
  ],
  invalid: [
    {
      name: 'seed 004: no endpoint, gateway ARP incomplete, a stale cali veth',
      snapshot: snapshot(live(), {
        workloadEndpoints: [wep('etcd1-0', '192.168.8.12')],
        podsOnNode: [other],
        agent: agent(NODE, { 'pod-network': incomplete }),
      }),
      expect: {
        severity: 'critical',
        playbook: 'recreate-pod',
        causeKey: `node/${NODE}:calico-endpoints`,
        params: { node: NODE, namespace: 'lijiaob', pod: 'stateful-new-pod-0', workloadEndpoint: 'dev--slave--107-k8s-stateful--new--pod--0-eth0' },
        quotes: [/no WorkloadEndpoint dev--slave--107-k8s-stateful--new--pod--0-eth0/, /169\.254\.1\.1 0x1 0x0 00:00:00:00:00:00/, /calie5b2a8a1d1e/],
      },
    },
    {
      name: 'API only: endpoint belongs to an earlier pod (other IP); node check named',
      snapshot: snapshot(live(), {
        workloadEndpoints: [wep('stateful-new-pod-0', '192.168.8.66')],
        gaps: [agentGap('dev-slave-107', 'unreachable: ECONNREFUSED', 'unreachable')],
      }),
      expect: {
        severity: 'error',
        said: [
          { id: 'wrongIp', data: { endpointIps: '192.168.8.66' } },
          { id: 'checksMissing', data: { missing: /pod-network could not run/ } },
        ],
      },
    },
    {
      name: 'gateway unresolved but the endpoints could not be read: reported without a playbook',
      snapshot: snapshot(live(), {
        podsOnNode: [other],
        agent: agent(NODE, { 'pod-network': gatewayOnly }),
        gaps: [
          { check: 'calico WorkloadEndpoints in lijiaob', reason: 'workloadendpoints.crd.projectcalico.org is forbidden', kind: 'forbidden', origin: 'api' },
        ],
      }),
      expect: { severity: 'critical', playbook: null, said: ['unconfirmed'], quotes: [/169\.254\.1\.1 0x1 0x0/] },
    },
    {
      name: 'two pods with one IP on the node',
      snapshot: snapshot(live(), {
        workloadEndpoints: [wep('stateful-new-pod-0', '192.168.8.34')],
        podsOnNode: [pod({ metadata: { name: 'etcd1-0', namespace: 'lijiaob' }, spec: { nodeName: NODE }, status: { podIP: '192.168.8.34' } })],
      }),
      expect: { quotes: [/192\.168\.8\.34 is also the IP of lijiaob\/etcd1-0/] },
    },
  ],
});
