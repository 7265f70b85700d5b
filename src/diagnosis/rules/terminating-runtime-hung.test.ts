import { agent, container, failed, fsMounts, journal, line, mountCheck, processes, runtime } from '../../../test/helpers/agent.js';
import { agentGap, ago, containerStatus, event, pod, snapshot, terminated } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { matchSignatures } from '../../probes/signatures.js';
import { rule } from './terminating-runtime-hung.js';

const CID = '17619dcf545c0936b5a5bad416c1fe50064547f49ba3f34721baf4201f242c1b';
const stuck = (deletedAgo = 1800) =>
  pod({
    metadata: { name: 'xxxx-xxxxx-index-task-569f775985-2qv8x', namespace: 'xxx-xxxx', deletionTimestamp: ago(deletedAgo), deletionGracePeriodSeconds: 30 },
  });

// Seed 000, as kubectl describe showed them (docker era).
const killDocker = (p = stuck()) =>
  event(p, {
    reason: 'FailedKillPod',
    count: 4,
    message:
      'error killing pod: failed to "KillContainer" for "xxxx-xxxxx-index-task" with KillContainerError: "rpc error: code = Unknown desc = ' +
      'operation timeout: context deadline exceeded"',
  });
const lstat = (p = stuck()) =>
  event(p, {
    reason: 'FailedPreStopHook',
    count: 5,
    message:
      'Exec lifecycle hook ([/bin/sleep 30]) for Container "xxxx-xxxxx-index-task" in Pod ' +
      '"xxxx-xxxxx-index-task-569f775985-2qv8x_xxx-xxxx(2b8e5882-5146-11e9-b3b3-525400dd6f19)" failed - error: command \'/bin/sleep 30\' exited ' +
      'with 126: , message: "rpc error: code = 2 desc = oci runtime error: exec failed: container_linux.go:240: creating new parent process caused ' +
      '\\"container_linux.go:1254: running lstat on namespace path \\\\\\"/proc/30849/ns/ipc\\\\\\" caused \\\\\\"lstat /proc/30849/ns/ipc: no ' +
      'such file or directory\\\\\\"\\""',
  });
// containerd era: the CRI wording of the same timeout.
const killContainerd = (p = stuck()) =>
  event(p, {
    reason: 'FailedKillPod',
    message:
      'error killing pod: failed to "KillContainer" for "api" with KillContainerError: "rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
  });

const hungGluster = mountCheck({ state: 'hung', detail: 'stat did not return within 2000ms', ms: 2001 });
const zombieInit = processes([
  { id: CID, known: true, processCount: 2, initPid: 31238, initState: 'Z', initCommand: '[java] <defunct>', initAlive: false, zombies: 1, uninterruptible: 0 },
]);
const dockerHung = runtime({
  docker: { state: 'hung', detail: '/containers/json did not answer within 2000ms although /_ping did', timedOut: ['/containers/json'] },
});

/** A journal match with the signatures and captures the agent's journal probe gives that line. */
const probed = (text: string) => {
  const hit = matchSignatures(text);
  return line(text, hit?.signatures ?? [], hit?.captures ?? {});
};
// dockerd escalating a stop: the app ignored SIGTERM for the grace period and got SIGKILL, which worked.
const USING_THE_FORCE =
  `Nov 21 09:31:02 node-1 dockerd[1359]: time="2026-11-21T09:31:02.905096697Z" level=info msg="Container ${CID} failed to exit within 30 seconds of ` +
  `signal 15 - using the force"`;
const healthyNode = agent('node-1', { 'fs-mounts': fsMounts([mountCheck()]), processes: processes([]), runtime: runtime() });

/** The kubelet confirmed the stop (grace 0, containers terminated); a finalizer keeps the object. */
const confirmed = () =>
  pod({
    metadata: {
      name: 'xxxx-xxxxx-index-task-569f775985-2qv8x',
      namespace: 'xxx-xxxx',
      deletionTimestamp: ago(2400),
      deletionGracePeriodSeconds: 0,
      finalizers: ['example.com/drain-hook'],
    },
    status: {
      phase: 'Failed',
      containerStatuses: [containerStatus({ ready: false, started: false, state: { terminated: terminated({ exitCode: 137, finishedAgo: 2000 }) } })],
    },
  });

testRule(rule, {
  valid: [
    {
      name: 'healthy running pod on a node with a hung mount',
      snapshot: snapshot(pod(), { agent: agent('node-1', { 'fs-mounts': fsMounts([hungGluster]) }) }),
    },
    { name: 'deleted, inside its grace period, kill failing', snapshot: snapshot(stuck(-10), { events: [killDocker(stuck(-10))] }) },
    {
      name: "stuck, but the only hung mount is not the pod's and nothing else points at the runtime",
      snapshot: snapshot(stuck(), {
        agent: agent('node-1', {
          'fs-mounts': fsMounts([mountCheck({ state: 'hung', podMount: false, mountPoint: '/mnt/nfs-old' })]),
          processes: processes([]),
          runtime: runtime(),
        }),
      }),
    },
    {
      name: 'stuck with healthy node facts and no kill errors',
      snapshot: snapshot(stuck(), { agent: agent('node-1', { 'fs-mounts': fsMounts([mountCheck()]), processes: processes([]), runtime: runtime() }) }),
    },
    {
      name: 'near miss (an app ignoring SIGTERM vs a kill that does not take): docker escalated to SIGKILL, which worked',
      snapshot: snapshot(stuck(), {
        agent: agent('node-1', { ...healthyNode.probes, journal: journal([probed(USING_THE_FORCE)]) }),
      }),
    },
    {
      name: 'near miss (a transient kill timeout vs a hung runtime): the kubelet has since confirmed the stop, a finalizer holds the pod',
      snapshot: snapshot(confirmed(), {
        events: [{ ...killContainerd(confirmed()), count: 2, lastTimestamp: ago(2100), firstTimestamp: ago(2300) }],
        agent: healthyNode,
      }),
    },
  ],
  invalid: [
    {
      name: 'seed 000: hung glusterfs, zombie java init, docker ps hangs, kill deadline and lstat ns errors',
      snapshot: snapshot(stuck(), {
        events: [killDocker(), lstat()],
        agent: agent('node-1', {
          'fs-mounts': fsMounts([hungGluster]),
          processes: zombieInit,
          runtime: dockerHung,
          journal: journal([
            line(
              'Apr 08 13:31:44 kube-cluster-node-xxx dockerd[10628]: time="2019-04-08T13:31:44.464673647+08:00" level=error msg="Error running ' +
                'exec in container: ... lstat /proc/30849/ns/ipc: no such file or directory"',
              ['ns-lstat', 'exec-failed'],
              { pid: '30849', ns: 'ipc' },
              false,
            ),
          ]),
        }),
      }),
      expect: {
        severity: 'critical',
        playbook: 'unhang-fuse-mount',
        causeKey: 'fs/fuse.glusterfs/10.10.64.58:gv-log',
        params: { node: 'node-1', fsType: 'fuse.glusterfs', containers: [CID] },
        said: [
          { id: 'titleHungMount', data: { fsType: 'fuse.glusterfs' } },
          'hungMount',
          { id: 'zombieInit', data: { inits: 'pid 31238 ([java] <defunct>)' } },
          { id: 'nsGone', data: { pid: '30849' } },
          'dockerHung',
        ],
        quotes: [/KillContainerError/],
      },
    },
    {
      name: 'API half only (agent unreachable): kill deadline and lstat still reported, node checks named',
      snapshot: snapshot(stuck(), { events: [killDocker(), lstat()], gaps: [agentGap('node-1', 'no answer within 8000ms', 'timeout')] }),
      expect: {
        severity: 'error',
        playbook: null,
        causeKey: 'node/node-1:runtime/kill',
        said: [
          { id: 'checksMissing', data: { missing: /fs-mounts, processes, runtime could not run on node-1 \(no answer within 8000ms\)/ } },
          { id: 'nsGone', data: { pid: '30849' } },
        ],
      },
    },
    {
      name: 'containerd wording of the kill timeout',
      snapshot: snapshot(stuck(), {
        events: [killContainerd()],
        agent: agent('node-1', {
          'fs-mounts': fsMounts([]),
          processes: processes([]),
          runtime: runtime({ docker: { state: 'absent' }, containerd: { state: 'ok' } }),
        }),
      }),
      expect: { severity: 'error', playbook: null, said: ['killTimeout'] },
    },
    {
      name: "a hung NFS mount elsewhere on the node is not this pod's: the kill timeout is reported, no FUSE playbook",
      snapshot: snapshot(stuck(), {
        events: [killContainerd()],
        agent: agent('node-1', {
          'fs-mounts': fsMounts([
            mountCheck({
              state: 'hung',
              podMount: false,
              fsType: 'nfs4',
              source: 'nas-1:/export/backups',
              mountPoint: '/mnt/backups',
              line: '401 30 0:120 / /mnt/backups rw,relatime shared:210 - nfs4 nas-1:/export/backups rw,vers=4.1,hard',
            }),
          ]),
          processes: processes([]),
          runtime: runtime({ docker: { state: 'absent' }, containerd: { state: 'ok' } }),
        }),
      }),
      expect: {
        severity: 'error',
        playbook: null,
        causeKey: 'node/node-1:runtime/kill',
        said: [{ id: 'hungElsewhere', data: { mountPoint: '/mnt/backups' } }],
      },
    },
    {
      name: 'zombie init alone (no events yet)',
      snapshot: snapshot(stuck(), {
        agent: agent('node-1', { 'fs-mounts': fsMounts([]), processes: zombieInit, runtime: runtime({ docker: { containers: [container({ id: CID })] } }) }),
      }),
      expect: { severity: 'error', said: [{ id: 'zombieInit', data: { inits: 'pid 31238 ([java] <defunct>)' } }], quotes: [/no running sandbox/] },
    },
    {
      name: 'fs-mounts probe itself timed out: says which check failed',
      snapshot: snapshot(stuck(), {
        events: [killDocker()],
        agent: agent('node-1', { 'fs-mounts': failed('fs-mounts did not finish within 8000ms', true), processes: processes([]), runtime: dockerHung }),
      }),
      expect: {
        severity: 'critical',
        causeKey: 'node/node-1:runtime/docker',
        said: [{ id: 'checksMissing', data: { missing: /fs-mounts could not run/ } }, 'dockerHung'],
      },
    },
  ],
});
