import { agent, container, journal, line, podNetwork, runtime } from '../../../test/helpers/agent.js';
import { agentGap, ago, event, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './terminating-cni-teardown.js';

const OLD_UID = '0bdc387d-dfac-11e7-9a8f-52549da43ad9';
const NEW_UID = '35b722f5-dfad-11e7-9a8f-52549da43ad9';
const OLD_SANDBOX = '41857f70ed13326dbc2c04e7d8e7c56c28f83df67e82e76d2fb4d74b7ab24659';
const NEW_SANDBOX = '247d3c7833453715487a4cc892be62060707cd933d618e32a596c159fe23166e';
// Seed 004, kubelet with Calico CNI 1.5 (docker era, one line each as syslog stores them).
const STOP =
  `Dec 13 10:27:43 dev-slave-107 kubelet[15567]: ERROR:1213 10:27:43.029094   15567 remote_runtime.go:114] StopPodSandbox "${OLD_SANDBOX}" from ` +
  `runtime service failed: rpc error: code = 2 desc = NetworkPlugin cni failed to teardown pod "stateful-new-pod-0_lijiaob" network: resource does ` +
  `not exist: WorkloadEndpoint(node=dev-slave-107, orchestrator=k8s, workload=lijiaob.stateful-new-pod-0, name=eth0)`;
const KILL =
  `Dec 13 10:27:43 dev-slave-107 kubelet[15567]: ERROR:1213 10:27:43.029274   15567 kubelet.go:1530] error killing pod: failed to "KillPodSandbox" ` +
  `for "${OLD_UID}" with KillPodSandboxError: "rpc error: code = 2 desc = NetworkPlugin cni failed to teardown pod \\"stateful-new-pod-0_lijiaob\\" ` +
  `network: resource does not exist: WorkloadEndpoint(node=dev-slave-107, orchestrator=k8s, workload=lijiaob.stateful-new-pod-0, name=eth0)"`;
const DELETE_KEY =
  'Dec 13 10:28:09 dev-slave-107 kubelet[15567]: time="2017-12-13T10:28:09+08:00" level=info msg="Delete Key: ' +
  '/calico/v1/host/dev-slave-107/workload/k8s/lijiaob.stateful-new-pod-0/endpoint/eth0"';
const stopLine = line(STOP, ['cni-teardown'], {
  pod: 'stateful-new-pod-0_lijiaob',
  sandboxId: OLD_SANDBOX,
  workloadEndpoint: 'node=dev-slave-107, orchestrator=k8s, workload=lijiaob.stateful-new-pod-0, name=eth0',
});
const killLine = line(KILL, ['cni-teardown'], {
  podUid: OLD_UID,
  workloadEndpoint: 'node=dev-slave-107, orchestrator=k8s, workload=lijiaob.stateful-new-pod-0, name=eth0',
});
const deleteLine = line(DELETE_KEY, ['calico-wep-deleted'], { node: 'dev-slave-107', workload: 'lijiaob.stateful-new-pod-0', endpoint: 'eth0' });

const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'stateful-new-pod', uid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', controller: true };
const livePod = pod({
  metadata: { uid: NEW_UID, name: 'stateful-new-pod-0', namespace: 'lijiaob', ownerReferences: [sts] },
  spec: { nodeName: 'dev-slave-107' },
  status: { podIP: '192.168.8.34' },
});
const stuckPod = pod({
  metadata: { uid: OLD_UID, name: 'stateful-new-pod-0', namespace: 'lijiaob', ownerReferences: [sts], deletionTimestamp: ago(600) },
  spec: { nodeName: 'dev-slave-107' },
});
const deploymentPod = pod({ metadata: { name: 'web-7d9f8c6b5-x2k4q', deletionTimestamp: ago(900) } });

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
});

// Docker-era kubelet words for the other direction: ADD (set up) failing because calico/node is down.
const SET_UP =
  `Dec 13 10:31:02 dev-slave-107 kubelet[15567]: E1213 10:31:02.118302   15567 remote_runtime.go:92] RunPodSandbox from runtime service failed: rpc ` +
  `error: code = Unknown desc = NetworkPlugin cni failed to set up pod "stateful-new-pod-0_lijiaob" network: stat /var/lib/calico/nodename: no such ` +
  `file or directory: check that the calico/node container is running and has mounted /var/lib/calico/`;
const recreating = pod({
  metadata: { uid: NEW_UID, name: 'stateful-new-pod-0', namespace: 'lijiaob', ownerReferences: [sts] },
  spec: { nodeName: 'dev-slave-107' },
  status: {
    phase: 'Pending',
    podIP: undefined,
    containerStatuses: [
      { name: 'web', ready: false, restartCount: 0, image: 'x', imageID: '', started: false, state: { waiting: { reason: 'ContainerCreating' } } },
    ],
  },
});
// A Deployment pod whose old sandbox once failed its teardown (after a SandboxChanged) three hours ago; the retry went through.
const recovered = pod({ metadata: { name: 'web-7d9f8c6b5-x2k4q', namespace: 'shop' }, status: { podIP: '192.168.8.50' } });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'live StatefulSet pod, clean kubelet log', snapshot: snapshot(livePod, { agent: agent('dev-slave-107', { journal: journal([]) }) }) },
    {
      name: 'teardown failure of another kind (ClusterInformation), not the missing-endpoint loop',
      snapshot: snapshot(stuckPod, {
        events: [
          event(stuckPod, {
            reason: 'FailedKillPod',
            message:
              'error killing pod: failed to "KillPodSandbox" for "x" with KillPodSandboxError: "rpc error: code = Unknown desc = failed to destroy ' +
              'network for sandbox \\"aabb\\": plugin type=\\"calico\\" failed (delete): error getting ClusterInformation: Service Unavailable"',
          }),
        ],
      }),
    },
    {
      name: 'near miss (CNI ADD vs teardown on DEL): the sandbox cannot be set up because calico/node is down',
      snapshot: snapshot(recreating, {
        events: [
          event(recreating, { reason: 'SandboxChanged', type: 'Normal', count: 11, message: 'Pod sandbox changed, it will be killed and re-created.' }),
          event(recreating, {
            reason: 'FailedCreatePodSandBox',
            count: 158,
            message:
              'Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "stateful-new-pod-0_lijiaob" ' +
              'network: stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted ' +
              '/var/lib/calico/',
          }),
        ],
        agent: agent('dev-slave-107', { journal: journal([line(SET_UP, ['sandbox-create-failed'])]) }),
      }),
    },
    {
      name: 'near miss (a teardown failure retried past long ago vs one failing forever): the live pod is fine',
      snapshot: snapshot(recovered, {
        events: [
          event(recovered, {
            reason: 'FailedKillPod',
            lastSeenAgo: 3 * 3600,
            message:
              `error killing pod: failed to "KillPodSandbox" for "${recovered.metadata?.uid ?? ''}" with KillPodSandboxError: "rpc error: code = 2 ` +
              `desc = NetworkPlugin cni failed to teardown pod \\"web-7d9f8c6b5-x2k4q_shop\\" network: resource does not exist: ` +
              `WorkloadEndpoint(node=node-1, orchestrator=k8s, workload=shop.web-7d9f8c6b5-x2k4q, name=eth0)"`,
          }),
        ],
        agent: agent('node-1', { journal: journal([]) }),
      }),
    },
  ],
  invalid: [
    {
      name: "seed 004: the retry of the old sandbox deletes the live StatefulSet pod's endpoint",
      snapshot: snapshot(livePod, {
        agent: agent('dev-slave-107', {
          journal: journal([stopLine, killLine, deleteLine]),
          runtime: runtime({ docker: { containers: [container({ id: NEW_SANDBOX, sandbox: true })] } }),
          'pod-network': incomplete,
        }),
      }),
      expect: {
        severity: 'critical',
        playbook: 'recreate-pod',
        causeKey: 'node/dev-slave-107:cni-teardown',
        params: { node: 'dev-slave-107', namespace: 'lijiaob', pod: 'stateful-new-pod-0', sandbox: OLD_SANDBOX },
        said: [{ id: 'retryEarlierSandboxUid', data: { sandbox: '41857f70ed13' } }, 'calicoDel', 'endpointStolen'],
        quotes: [/Delete Key/, /169\.254\.1\.1 0x1 0x0/],
      },
    },
    {
      name: 'the old pod itself, stuck Terminating (API event, containerd-era agent unreachable)',
      snapshot: snapshot(stuckPod, {
        events: [
          event(stuckPod, {
            reason: 'FailedKillPod',
            count: 40,
            message:
              'error killing pod: failed to "KillPodSandbox" for "0bdc387d-dfac-11e7-9a8f-52549da43ad9" with KillPodSandboxError: "rpc error: code ' +
              '= 2 desc = NetworkPlugin cni failed to teardown pod \\"stateful-new-pod-0_lijiaob\\" network: resource does not exist: ' +
              'WorkloadEndpoint(node=dev-slave-107, orchestrator=k8s, workload=lijiaob.stateful-new-pod-0, name=eth0)"',
          }),
        ],
        gaps: [agentGap('dev-slave-107', 'unreachable: EHOSTUNREACH', 'unreachable')],
      }),
      expect: {
        severity: 'error',
        playbook: null,
        said: [
          { id: 'failuresSeen', data: { repeats: 40 } },
          { id: 'checksMissing', data: { missing: /journal could not run/ } },
        ],
      },
    },
    {
      name: 'CRI-O: "failed to destroy network for pod sandbox ...: error removing pod ... from CNI network" (server/sandbox_network.go, ocicni)',
      snapshot: snapshot(stuckPod, {
        node: node({ metadata: { name: 'dev-slave-107' }, status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.28.4' } } }),
        events: [
          event(stuckPod, {
            reason: 'FailedKillPod',
            count: 12,
            message:
              'error killing pod: failed to "KillPodSandbox" for "0bdc387d-dfac-11e7-9a8f-52549da43ad9" with KillPodSandboxError: "rpc error: code ' +
              '= Unknown desc = failed to destroy network for pod sandbox k8s_stateful-new-pod-0_lijiaob_0bdc387d-dfac-11e7-9a8f-52549da43ad9_0' +
              '(41857f70ed13a5e0b6e1fb9f4c2b1e0a7d1c3f6b8a9e2d4c5b7a1f3e6d8c0b2a): error removing pod lijiaob_stateful-new-pod-0 from CNI network ' +
              '\\"k8s-pod-network\\": plugin type=\\"calico\\" failed (delete): resource does not exist: ' +
              'WorkloadEndpoint(node=dev-slave-107, orchestrator=k8s, workload=lijiaob.stateful-new-pod-0, name=eth0)"',
          }),
        ],
        gaps: [agentGap('dev-slave-107', 'unreachable: EHOSTUNREACH', 'unreachable')],
      }),
      expect: { severity: 'error', said: [{ id: 'failuresSeen', data: { repeats: 12 } }], quotes: [/failed to destroy network for pod sandbox/] },
    },
    {
      name: 'not a StatefulSet: reported without the endpoint-theft story',
      snapshot: snapshot(deploymentPod, {
        agent: agent('node-1', {
          journal: journal([line(STOP.replaceAll('stateful-new-pod-0_lijiaob', 'web-7d9f8c6b5-x2k4q_shop'), ['cni-teardown'], { workloadEndpoint: 'x' })]),
        }),
      }),
      expect: { severity: 'error', quotes: [/not a StatefulSet/] },
    },
  ],
});
