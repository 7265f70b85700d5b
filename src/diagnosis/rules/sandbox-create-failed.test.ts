import { describe, expect, it } from 'vitest';
import { agent, host, journal, line } from '../../../test/helpers/agent.js';
import { ago, cloudNode, completedJobPod, daemonSetPod, event, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { Pod } from '../types.js';
import { rule } from './sandbox-create-failed.js';

/** Scheduled, sandbox not created: Pending, container waiting ContainerCreating. */
const creating = (ageSeconds = 600): Pod =>
  pod({
    metadata: { name: 'dnsutils-ds-7q6dr', creationTimestamp: ago(ageSeconds) },
    spec: { nodeName: '172.27.129.237' },
    status: {
      phase: 'Pending',
      podIP: undefined,
      conditions: [
        { type: 'PodReadyToStartContainers', status: 'False' },
        { type: 'PodScheduled', status: 'True' },
      ],
      containerStatuses: [{ name: 'web', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: { reason: 'ContainerCreating' } } }],
    },
  });
const sandboxEvent = (p: Pod, message: string) => event(p, { reason: 'FailedCreatePodSandBox', message, count: 8, host: '172.27.129.237' });

const containerdPause =
  'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image ' +
  '"registry.k8s.io/pause:3.9": failed to pull image "registry.k8s.io/pause:3.9": failed to pull and unpack ' +
  'image "registry.k8s.io/pause:3.9": failed to resolve reference "registry.k8s.io/pause:3.9": unexpected status ' +
  'from HEAD request to https://registry.k8s.io/v2/pause/manifests/3.9: 401 Unauthorized';
const seed003Agent = agent('172.27.129.237', {
  host: host({
    kernel: '3.10.0-693.el7.x86_64',
    kubelet: { settings: { podInfraContainerImage: { value: 'docker02:35000/rhel7/pod-infrastructure:latest', source: 'flag' } } },
  }),
  journal: journal([
    line(
      'kubelet[3583]: E0922 20:04:07.711666 3583 pod_workers.go:186] Error syncing pod (dnsutils-ds-7q6dr_shop): ' +
        'failed to "CreatePodSandbox" for "dnsutils-ds-7q6dr_shop" with CreatePodSandboxError: "CreatePodSandbox for ' +
        'pod \\"dnsutils-ds-7q6dr_shop\\" failed: rpc error: code = Unknown desc = failed pulling image ' +
        '\\"docker02:35000/rhel7/pod-infrastructure:latest\\": Error response from daemon: Get ' +
        'https://docker02:35000/v2/rhel7/pod-infrastructure/manifests/latest: unauthorized: authentication required"',
      ['sandbox-create-failed'],
      { image: 'docker02:35000/rhel7/pod-infrastructure:latest' },
    ),
  ]),
});

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod()) },
    {
      name: 'sandbox failed once, pod Running since',
      snapshot: (() => {
        const p = pod();
        return snapshot(p, { events: [sandboxEvent(p, containerdPause)] });
      })(),
    },
    {
      name: 'within the pending grace',
      snapshot: (() => {
        const p = creating(20);
        return snapshot(p, { events: [sandboxEvent(p, containerdPause)] });
      })(),
    },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod()) },
    { name: 'DaemonSet pod on a healthy EKS node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('eks') }) },
  ],
  invalid: [
    {
      name: 'containerd: sandbox image pull 401, no node agent',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, { events: [sandboxEvent(p, containerdPause)] });
      })(),
      expect: {
        severity: 'error',
        causeKey: 'sandbox-image:registry.k8s.io/pause:3.9',
        params: { node: '172.27.129.237', kind: 'sandbox-image', image: 'registry.k8s.io/pause:3.9' },
        mentions: [/node checks host, journal could not run on 172\.27\.129\.237 \(no node agent facts were collected\)/, /--pod-infra-container-image/],
      },
    },
    {
      name: 'seed 003 (k8s 1.8, docker): bare event, the node log names the pod-infra image',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, {
          node: node({ metadata: { name: '172.27.129.237' }, status: { nodeInfo: { containerRuntimeVersion: 'docker://17.3.2' } } }),
          agent: seed003Agent,
          events: [sandboxEvent(p, 'Failed create pod sandbox.')],
        });
      })(),
      expect: {
        causeKey: 'sandbox-image:docker02:35000/rhel7/pod-infrastructure:latest',
        mentions: [/docker on 172\.27\.129\.237 cannot get the sandbox \(pause\) image/, /authentication required/, /from flag/],
      },
    },
    {
      name: 'old kubelet, bare event and no agent: says the node check could not run',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, { events: [sandboxEvent(p, 'Failed create pod sandbox.')] });
      })(),
      expect: { causeKey: 'node/172.27.129.237:sandbox', mentions: [/could not run/, /pod-infra-container-image/] },
    },
    {
      name: 'containerd + calico: network setup fails',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, {
          events: [
            sandboxEvent(
              p,
              'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox ' +
                '"3f1c0e9d2b7a6c5e8f3d1a0b9c8e7f6d5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d": plugin type="calico" failed (add): stat ' +
                '/var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has ' +
                'mounted /var/lib/calico/',
            ),
          ],
        });
      })(),
      expect: {
        causeKey: 'cni:calico',
        params: { kind: 'cni', plugin: 'calico' },
        mentions: [/in CNI plugin calico on 172/, /calico\/node container is running/],
      },
    },
  ],
});

describe('sandbox.create-failed advice follows the evidence', () => {
  it('an i/o timeout pulling the pause image is a network path problem, not credentials', () => {
    const p = waitingPod('ContainerCreating', undefined, { metadata: { creationTimestamp: ago(900) } });
    const d = diagnose(
      snapshot(p, {
        events: [
          event(p, {
            reason: 'FailedCreatePodSandBox',
            count: 14,
            message:
              'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image ' +
              '"registry.k8s.io/pause:3.9": failed to pull image "registry.k8s.io/pause:3.9": failed to pull and unpack ' +
              'image "registry.k8s.io/pause:3.9": failed to resolve reference "registry.k8s.io/pause:3.9": failed to do ' +
              'request: Head "https://registry.k8s.io/v2/pause/manifests/3.9": dial tcp 34.96.108.209:443: i/o timeout',
          }),
        ],
      }),
      { rules: [rule] },
    );
    const f = d.findings[0];
    expect(f?.cause).toMatch(/network path problem/);
    expect(f?.advice[0]).not.toMatch(/credentials/);
  });
});
