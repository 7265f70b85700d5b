import { agent, processes, runtime, container as runtimeContainer } from '../../../test/helpers/agent.js';
import { ago, cloudNode, completedJobPod, daemonSetPod, event, node, pod, snapshot } from '../../../test/helpers/factories.js';
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
const running = (name: string, id = DOCKER_ID) => ({
  name,
  ready: false,
  restartCount: 0,
  image: 'x',
  imageID: '',
  containerID: id,
  started: true,
  state: { running: { startedAt: ago(7200) } },
});
const creatingStatus = (name: string) => ({
  name,
  ready: false,
  restartCount: 0,
  image: 'x',
  imageID: '',
  started: false,
  state: { waiting: { reason: 'ContainerCreating' } },
});

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

/**
 * Seed 002 as a real containerd node makes it: `agent` crashed once, its restart's postStart hook
 * never returned, so the status still shows the crash while the new container runs.
 */
const CTRD = 'c'.repeat(64);
const frozen = (): Pod => {
  const p = khaos({ sharing: 'shareProcessNamespace', phase: 'Running', id: `containerd://${CTRD}` });
  p.spec!.containers = [container('agent', true), container('main')];
  p.status!.containerStatuses = [
    {
      name: 'agent',
      ready: false,
      restartCount: 0,
      image: 'x',
      imageID: '',
      containerID: `containerd://${CTRD}`,
      started: false,
      state: { terminated: { exitCode: 1, reason: 'Error', startedAt: ago(3620), finishedAt: ago(3614) } },
    },
    running('main', `containerd://${'d'.repeat(64)}`),
  ];
  return p;
};
const frozenProcesses = (withNewContainer: boolean) =>
  processes([
    {
      id: 'd'.repeat(64),
      known: true,
      processCount: 1,
      initPid: 4100,
      initState: 'S',
      initCommand: 'sleep 3600',
      initAlive: true,
      zombies: 0,
      uninterruptible: 0,
    },
    // The sandbox is never "unreported".
    {
      id: 'e'.repeat(64),
      known: false,
      processCount: 1,
      initPid: 4010,
      initState: 'S',
      initCommand: '/pause',
      initAlive: true,
      zombies: 0,
      uninterruptible: 0,
    },
    ...(withNewContainer
      ? [
          {
            id: 'f'.repeat(64),
            known: false,
            processCount: 2,
            initPid: 4300,
            initState: 'S',
            initCommand: 'sh -c if [ -f /m/started ]; then exec sleep 3600; fi',
            initAlive: true,
            zombies: 0,
            uninterruptible: 0,
          },
        ]
      : []),
  ]);
const containerdNode = node({
  metadata: { name: 'node-7' },
  status: { nodeInfo: { containerRuntimeVersion: 'containerd://1.6.20', kubeletVersion: 'v1.20.2' } },
});

/** Seed 002's pod on a containerd node whose Calico CNI never set up the sandbox: no container ever started. */
const SANDBOX = '5c8f2e1a9b7d4c3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e';
const noSandbox = (): Pod => {
  const p = khaos({ sharing: 'hostPID', deletedAgo: 1200 });
  p.status!.containerStatuses = ['agent', 'collector', 'injector', 'reporter'].map(creatingStatus);
  return p;
};
const calicoDown = 'stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/';

/** The hooked container's own image cannot be pulled, so its hook never ran; the others run. */
const hookImageMissing = (): Pod => {
  const p = khaos({ deletedAgo: 900 });
  p.status!.containerStatuses = [
    {
      name: 'agent',
      ready: false,
      restartCount: 0,
      image: 'registry.example.com/chaos/agent:1.0',
      imageID: '',
      started: false,
      state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "registry.example.com/chaos/agent:1.0"' } },
    },
    running('collector'),
    running('injector'),
    running('reporter'),
  ];
  return p;
};

testRule(rule, {
  valid: [
    { name: 'healthy running pod', snapshot: snapshot(pod(), { node: dockerNode }) },
    { name: 'deleted, still inside its grace period', snapshot: snapshot(khaos({ deletedAgo: -20 }), { node: dockerNode }) },
    { name: 'stuck, but no shared PID namespace', snapshot: snapshot(khaos({ sharing: 'none' }), { node: dockerNode }) },
    { name: 'hostPID + postStart, but it had started fully before deletion', snapshot: snapshot(khaos({ phase: 'Running' }), { node: dockerNode }) },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod(), { node: dockerNode }) },
    {
      name: 'Running, a hooked container crashed, but the node shows no container the status misses (no frozen sync)',
      snapshot: snapshot(frozen(), { node: containerdNode, agent: agent('node-7', { processes: frozenProcesses(false) }) }),
    },
    { name: 'hostPID DaemonSet pod (no postStart) on a healthy GKE node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('gke') }) },
    {
      name: 'near miss (CNI ADD/DEL failure vs hook hang): the sandbox never came up, so no container and no postStart hook ever ran',
      snapshot: (() => {
        const p = noSandbox();
        return snapshot(p, {
          node: containerdNode,
          events: [
            event(p, {
              reason: 'FailedCreatePodSandBox',
              count: 14,
              lastSeenAgo: 1300,
              message:
                `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${SANDBOX}": plugin ` +
                `type="calico" failed (add): ${calicoDown}`,
            }),
            event(p, {
              reason: 'FailedKillPod',
              count: 9,
              lastSeenAgo: 60,
              message:
                `error killing pod: failed to "KillPodSandbox" for "${p.metadata?.uid ?? ''}" with KillPodSandboxError: "rpc error: code = Unknown ` +
                `desc = failed to destroy network for sandbox \\"${SANDBOX}\\": plugin type=\\"calico\\" failed (delete): ${calicoDown}"`,
            }),
          ],
        });
      })(),
    },
    {
      name: 'near miss (image pull vs hook hang): the hooked container is in ImagePullBackOff, its hook never ran',
      snapshot: (() => {
        const p = hookImageMissing();
        return snapshot(p, {
          node: dockerNode,
          events: [
            event(p, {
              reason: 'Failed',
              fieldPath: 'spec.containers{agent}',
              count: 8,
              message:
                'Failed to pull image "registry.example.com/chaos/agent:1.0": rpc error: code = Unknown desc = Error response from daemon: ' +
                'manifest for registry.example.com/chaos/agent:1.0 not found: manifest unknown: manifest unknown',
            }),
            event(p, {
              reason: 'BackOff',
              type: 'Normal',
              fieldPath: 'spec.containers{agent}',
              count: 40,
              message: 'Back-off pulling image "registry.example.com/chaos/agent:1.0"',
            }),
          ],
        });
      })(),
    },
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
        said: ['titleDocker', { id: 'kubeletWaits', data: { waiting: 'collector, injector, reporter' } }],
        quotes: [/docker:\/\/20\.10\.7/],
      },
    },
    {
      name: 'node agent confirms: the postStart exec is still running in docker',
      snapshot: snapshot(khaos(), {
        node: dockerNode,
        agent: agent('node-7', {
          runtime: runtime({
            docker: {
              containers: [
                runtimeContainer({
                  containerName: 'agent',
                  execs: [{ id: 'f00d', running: true, pid: 31284, command: '/bin/sh -c /opt/register.sh', startedAt: ago(7190) }],
                }),
              ],
            },
          }),
        }),
      }),
      expect: { severity: 'error', said: ['execStillRunning'], quotes: [/exec \/bin\/sh -c \/opt\/register\.sh in container agent still running/] },
    },
    {
      name: 'containerd: the docker bug does not apply, lower severity',
      snapshot: snapshot(khaos({ sharing: 'shareProcessNamespace', id: `containerd://${'b'.repeat(64)}` }), { node: node({ metadata: { name: 'node-7' } }) }),
      expect: {
        severity: 'warning',
        params: { runtime: 'containerd' },
        said: ['notDocker', { id: 'titleHookRuns', data: { sharing: 'shareProcessNamespace: true' } }],
      },
    },
    {
      name: 'real containerd node: the hook hung after a restart, the status is frozen, the node runs a container the status does not list',
      snapshot: snapshot(frozen(), { node: containerdNode, agent: agent('node-7', { processes: frozenProcesses(true) }) }),
      expect: {
        severity: 'error',
        playbook: 'remove-stuck-containers',
        params: { runtime: 'containerd', containers: ['agent'] },
        said: ['titleFrozen'],
        quotes: [/container ffffffffffff of this pod runs \(2 processes/, /last reported: terminated \(Error\)/],
      },
    },
    {
      name: 'node object not collected: runtime from the container IDs (docker)',
      snapshot: snapshot(khaos(), { node: undefined }),
      expect: { severity: 'error', params: { runtime: 'docker' } },
    },
  ],
});
