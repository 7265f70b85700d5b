import { ago, cloudNode, completedJobPod, daemonSetPod, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { agent, container as runtimeContainer, runtime } from '../../../test/helpers/agent.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { Pod } from '../types.js';
import { rule } from './terminating-exec-hang.js';

const DOCKER_ID = `docker://${'a'.repeat(64)}`;
const dockerNode = node({ metadata: { name: 'node-7' }, status: { nodeInfo: { containerRuntimeVersion: 'docker://20.10.7', kubeletVersion: 'v1.22.5' } } });

const container = (name: string, postStart = false) => ({
  name,
  image: `registry.example.com/chaos/${name}:1.0`,
  ...(postStart ? { lifecycle: { postStart: { exec: { command: ['/bin/sh', '-c', '/opt/register.sh'] } } } } : {}),
});
const running = (name: string, id = DOCKER_ID) => ({ name, ready: false, restartCount: 0, image: 'x', imageID: '', containerID: id, started: true, state: { running: { startedAt: ago(7200) } } });
const creatingStatus = (name: string) => ({ name, ready: false, restartCount: 0, image: 'x', imageID: '', started: false, state: { waiting: { reason: 'ContainerCreating' } } });

/** Seed 002: a 4-container DaemonSet pod with hostPID and a postStart exec, deleted an hour ago. */
const khaos = (opts: { sharing?: 'hostPID' | 'shareProcessNamespace' | 'none'; deletedAgo?: number; phase?: string; id?: string } = {}): Pod =>
  pod({
    metadata: {
      name: 'khaos-guardian-bmzsk',
      namespace: 'kube-system',
      deletionTimestamp: ago(opts.deletedAgo ?? 3600),
      deletionGracePeriodSeconds: 30,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'khaos-guardian', uid: 'u', controller: true }],
    },
    spec: {
      nodeName: 'node-7',
      hostPID: opts.sharing === undefined || opts.sharing === 'hostPID' ? true : undefined,
      shareProcessNamespace: opts.sharing === 'shareProcessNamespace' ? true : undefined,
      containers: [container('agent', true), container('collector'), container('injector'), container('reporter')],
    },
    status: {
      phase: opts.phase ?? 'Pending',
      containerStatuses:
        opts.phase === 'Running'
          ? ['agent', 'collector', 'injector', 'reporter'].map((n) => running(n))
          : [running('agent', opts.id), creatingStatus('collector'), creatingStatus('injector'), creatingStatus('reporter')],
    },
  });

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod(), { node: dockerNode }) },
    { name: 'deleted, still inside its grace period', snapshot: snapshot(khaos({ deletedAgo: -20 }), { node: dockerNode }) },
    { name: 'stuck, but no shared PID namespace', snapshot: snapshot(khaos({ sharing: 'none' }), { node: dockerNode }) },
    { name: 'hostPID + postStart, but it had started fully before deletion', snapshot: snapshot(khaos({ phase: 'Running' }), { node: dockerNode }) },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod(), { node: dockerNode }) },
    { name: 'hostPID DaemonSet pod (no postStart) on a healthy GKE node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('gke') }) },
  ],
  invalid: [
    {
      name: 'seed 002: docker, hostPID, postStart exec, ContainerCreating then Terminating',
      snapshot: snapshot(khaos(), { node: dockerNode }),
      expect: {
        severity: 'error',
        playbook: 'remove-stuck-containers',
        causeKey: 'exec-hang:workload/kube-system/DaemonSet/khaos-guardian',
        params: { node: 'node-7', pod: 'khaos-guardian-bmzsk', containers: ['agent'], runtime: 'docker' },
        mentions: [/92214/, /collector, injector, reporter/, /docker:\/\/20\.10\.7/],
      },
    },
    {
      name: 'node agent confirms: the postStart exec is still running in docker',
      snapshot: snapshot(khaos(), {
        node: dockerNode,
        agent: agent('node-7', {
          runtime: runtime({
            docker: {
              containers: [runtimeContainer({ containerName: 'agent', execs: [{ id: 'f00d', running: true, pid: 31284, command: '/bin/sh -c /opt/register.sh', startedAt: ago(7190) }] })],
            },
          }),
        }),
      }),
      expect: { severity: 'error', mentions: [/exec \/bin\/sh -c \/opt\/register\.sh in container agent still running/, /still running in docker/] },
    },
    {
      name: 'containerd: the docker bug does not apply, lower severity',
      snapshot: snapshot(khaos({ sharing: 'shareProcessNamespace', id: `containerd://${'b'.repeat(64)}` }), { node: node({ metadata: { name: 'node-7' } }) }),
      expect: { severity: 'warning', params: { runtime: 'containerd' }, mentions: [/does not apply/, /shareProcessNamespace: true/] },
    },
    {
      name: 'node object not collected: runtime from the container IDs (docker)',
      snapshot: snapshot(khaos(), { node: undefined }),
      expect: { severity: 'error', params: { runtime: 'docker' } },
    },
  ],
});
