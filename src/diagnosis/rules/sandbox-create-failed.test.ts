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
const crioNode = node({ metadata: { name: '172.27.129.237' }, status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.29.4' } } });
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
      name: 'CRI-O: the pause image pull cannot resolve the registry (creating pod sandbox ... initializing source docker://...)',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, {
          node: crioNode,
          events: [
            sandboxEvent(
              p,
              'Failed to create pod sandbox: rpc error: code = Unknown desc = creating pod sandbox with name ' +
                '"k8s_dnsutils-ds-7q6dr_shop_00000000-0000-4000-8000-000000000001_0": initializing source docker://registry.k8s.io/pause:3.9: ' +
                'pinging container registry registry.k8s.io: Get "https://registry.k8s.io/v2/": dial tcp: lookup registry.k8s.io on 10.0.0.2:53: no such host',
            ),
          ],
        });
      })(),
      expect: {
        params: { kind: 'sandbox-image', image: 'registry.k8s.io/pause:3.9' },
        said: [{ id: 'imagePullNetwork', data: { node: '172.27.129.237', runtime: 'cri-o' } }],
      },
    },
    {
      name: 'CRI-O: conmon lost the runtime ("error reading container (probably exited) json message: EOF", k8s#98142)',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, {
          node: crioNode,
          events: [
            sandboxEvent(p, 'Failed to create pod sandbox: rpc error: code = Unknown desc = error reading container (probably exited) json message: EOF'),
          ],
        });
      })(),
      expect: { params: { kind: 'runtime' }, causeKey: 'node/172.27.129.237:sandbox-runtime' },
    },
    {
      name: 'CRI-O: the CNI add fails (failed to create pod network sandbox ... error adding pod ... to CNI network)',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, {
          node: crioNode,
          events: [
            sandboxEvent(
              p,
              'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox ' +
                'k8s_nginx_default_hdishd83djaidwnduwk28bcsb_1(4338cd100cc17c254a6f89daa92c357555d7cabb5cedced52b7df9ce29c0b4b5): ' +
                'error adding pod default_nginx to CNI network "k8s-pod-network": plugin type="calico" failed (add): ' +
                'stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/',
            ),
          ],
        });
      })(),
      expect: { params: { kind: 'cni', plugin: 'calico' } },
    },
    {
      name: 'containerd 2.x: "failed to start sandbox" wraps the sandbox image pull',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, {
          events: [
            sandboxEvent(
              p,
              'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to start sandbox ' +
                '"116108124acdfc5b9012abcc32dce046139ee2d92583aa509f51abe6c1b084a2": failed to get sandbox image "registry.k8s.io/pause:3.10": ' +
                'failed to pull image "registry.k8s.io/pause:3.10": failed to pull and unpack image "registry.k8s.io/pause:3.10": ' +
                'failed to resolve image: failed to do request: Head "https://registry.k8s.io/v2/pause/manifests/3.10": dial tcp 34.96.108.209:443: i/o timeout',
            ),
          ],
        });
      })(),
      expect: { params: { kind: 'sandbox-image', image: 'registry.k8s.io/pause:3.10' }, said: ['imagePullNetwork'] },
    },
    {
      name: 'containerd 2.x: "failed to start sandbox" wraps the shim failing to mount the pause rootfs',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, {
          events: [
            sandboxEvent(
              p,
              'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to start sandbox ' +
                '"4f38b85717ed70d13927a956da02f42e8f31d224513d5b8def2c67fb735959e9": failed to create containerd task: failed to create shim task: ' +
                'failed to mount rootfs component: mount source: "overlay", target: ' +
                '"/run/containerd/io.containerd.runtime.v2.task/k8s.io/4f38b85717ed70d13927a956da02f42e8f31d224513d5b8def2c67fb735959e9/rootfs", ' +
                'fstype: overlay, flags: 0, data: "workdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/31/work": invalid argument',
            ),
          ],
        });
      })(),
      expect: { params: { kind: 'runtime' } },
    },
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
        said: [
          { id: 'checksMissing', data: { missing: /node checks host, journal could not run on 172\.27\.129\.237 \(no node agent facts were collected\)/ } },
        ],
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
        said: [{ id: 'imagePullAuth', data: { node: '172.27.129.237', runtime: 'docker' } }],
        quotes: [/authentication required/, /from flag/],
      },
    },
    {
      name: 'old kubelet, bare event and no agent: says the node check could not run',
      snapshot: (() => {
        const p = creating();
        return snapshot(p, { events: [sandboxEvent(p, 'Failed create pod sandbox.')] });
      })(),
      expect: { causeKey: 'node/172.27.129.237:sandbox', said: [{ id: 'checksMissing', data: { missing: /could not run/ } }, 'noDetail'] },
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
        said: [{ id: 'cniPluginFails', data: { node: '172.27.129.237', plugin: 'calico' } }],
        quotes: [/calico\/node container is running/],
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
