// The seed incidents 000, 001, 002 and 004 end to end on the node side: an agent serving the
// fixture tree (real mountinfo, ps and log lines from the reports) and a fake docker API, the
// worker's client fetching its facts, and the full rule set ranking the right cause first.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCerts, makeAgentCerts } from '../../test/helpers/agent-tls.js';
import { ago, event, node, pod, snapshot } from '../../test/helpers/factories.js';
import { silent } from '../../test/helpers/logger.js';
import { createAgentLookup } from '../collect/agent-client.js';
import { diagnose } from '../diagnosis/engine.js';
import { RULES } from '../diagnosis/rules/index.js';
import type { Event, KubeObject, Node, Pod, Snapshot } from '../diagnosis/types.js';
import { workloadEndpointName } from '../probes/calico.js';
import { type FakeDocker, loadDockerSpec, startFakeDocker } from '../sim/fake-docker.js';
import { type AgentOptions, type RunningAgent, startAgent } from './server.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const TOKEN = 'seed-incidents-token-0123456789';
const running: { agent: RunningAgent; docker: FakeDocker }[] = [];
/** The agents serve HTTPS, as deployed; the worker's client trusts their CA. */
let certs: AgentCerts;
beforeAll(() => {
  certs = makeAgentCerts();
});
afterAll(async () => {
  for (const r of running) {
    await r.agent.close();
    await r.docker.close();
  }
  certs?.cleanup();
});

async function diagnoseSeed(seed: string, nodeObj: Node, p: Pod, more: Partial<Snapshot> & { probeEnv?: AgentOptions['probeEnv'] } = {}) {
  const dir = join(FIXTURES, seed);
  const docker = await startFakeDocker(loadDockerSpec(dir));
  const nodeName = nodeObj.metadata?.name ?? '';
  const agent = await startAgent({
    port: 0,
    host: '127.0.0.1',
    token: TOKEN,
    tls: { cert: certs.cert, key: certs.key },
    procRoot: join(dir, 'proc'),
    hostRoot: join(dir, 'host'),
    nodeName,
    logger: silent,
    probeEnv: {
      dockerSockets: [docker.socket],
      containerdSockets: [],
      logFiles: [join(dir, 'host/var/log/messages')],
      runtimeCallTimeoutMs: 400,
      statTimeoutMs: 400,
      ...more.probeEnv,
    },
  });
  running.push({ agent, docker });
  const lookup = createAgentLookup({ agentUrls: { [nodeName]: agent.url }, agentToken: TOKEN, agentTimeoutMs: 10_000, transport: certs.transport });
  const { facts, gaps } = await lookup.fetch({ node: nodeObj, pod: p });
  const { probeEnv: _env, ...rest } = more;
  const snap = snapshot(p, { node: nodeObj, agent: facts, gaps, ...rest });
  return { diagnosis: diagnose(snap, { rules: RULES }), facts, gaps };
}

const dockerNode = (name: string, runtime: string, kernel: string, ready?: { status: string; reason: string; message: string }) =>
  node({
    metadata: { name },
    status: {
      nodeInfo: { containerRuntimeVersion: runtime, kernelVersion: kernel, osImage: 'CentOS Linux 7 (Core)' },
      ...(ready ? { conditions: [{ type: 'Ready', ...ready, lastHeartbeatTime: ago(10), lastTransitionTime: ago(600) }] } : {}),
    },
  });

function text(f: { title: string; cause: string; evidence: { text: string }[] }): string {
  return [f.title, f.cause, ...f.evidence.map((e) => e.text)].join('\n');
}

describe('seed incidents on the node', () => {
  it('000: hung glusterfs, zombie java init, docker ps hangs → terminating.runtime-hung', async () => {
    const n = dockerNode('kube-cluster-node-xxx', 'docker://1.13.1', '3.10.0-957.el7.x86_64', {
      status: 'False',
      reason: 'KubeletNotReady',
      message: 'PLEG is not healthy: pleg was last seen active 3m12.36s ago; threshold is 3m0s',
    });
    const p = pod({
      metadata: {
        uid: '2b8e5882-5146-11e9-b3b3-525400dd6f19',
        name: 'xxxx-xxxxx-index-task-569f775985-2qv8x',
        namespace: 'xxx-xxxx',
        deletionTimestamp: ago(1800),
        deletionGracePeriodSeconds: 30,
      },
      spec: { nodeName: 'kube-cluster-node-xxx' },
      status: {
        containerStatuses: [
          {
            name: 'xxxx-xxxxx-index-task',
            ready: false,
            restartCount: 0,
            image: 'xxxx.xxxx.com/hindex/xxxx-xxxxx-index-task',
            imageID: '',
            containerID: 'docker://17619dcf545c0936b5a5bad416c1fe50064547f49ba3f34721baf4201f242c1b',
            state: { running: { startedAt: ago(864000) } },
          },
        ],
      },
    });
    const events: Event[] = [
      event(p, { reason: 'Killing', type: 'Normal', count: 35, message: 'Killing container with id docker://xxxx-xxxxx-index-task:Need to kill Pod' }),
      event(p, {
        reason: 'FailedKillPod',
        count: 4,
        message:
          'error killing pod: failed to "KillContainer" for "xxxx-xxxxx-index-task" with KillContainerError: "rpc error: code = Unknown desc = operation timeout: context deadline exceeded"',
      }),
      event(p, {
        reason: 'FailedPreStopHook',
        count: 5,
        message:
          'Exec lifecycle hook ([/bin/sleep 30]) for Container "xxxx-xxxxx-index-task" in Pod "xxxx-xxxxx-index-task-569f775985-2qv8x_xxx-xxxx(2b8e5882-5146-11e9-b3b3-525400dd6f19)" failed - error: command \'/bin/sleep 30\' exited with 126: , message: "rpc error: code = 2 desc = oci runtime error: exec failed: container_linux.go:240: creating new parent process caused \\"container_linux.go:1254: running lstat on namespace path \\\\\\"/proc/30849/ns/ipc\\\\\\" caused \\\\\\"lstat /proc/30849/ns/ipc: no such file or directory\\\\\\"\\""',
      }),
    ];
    // stat(2) on a glusterfs mount whose server is gone never returns.
    const { diagnosis, facts } = await diagnoseSeed('000', n, p, {
      events,
      probeEnv: { statCommand: [process.execPath, '-e', "if (process.argv[1].includes('glusterfs')) setTimeout(() => {}, 60000)"] },
    });
    const first = diagnosis.findings[0]!;
    expect(first.rule, JSON.stringify(diagnosis.findings.map((f) => f.rule))).toBe('terminating.runtime-hung');
    expect(first.severity).toBe('critical');
    expect(first.playbook).toBe('unhang-fuse-mount');
    expect(first.causeKey).toBe('fs/fuse.glusterfs/10.10.64.58:xxxx-log');
    expect(first.merged).toContain('node.runtime-unresponsive');
    expect(text(first)).toMatch(/xxxx-xxxxx-index-task-volume-log/);
    expect(text(first)).toMatch(/pid 31238 \(\[java\]\) is a zombie/);
    expect(text(first)).toMatch(/\/containers\/json did not answer/);
    expect(text(first)).toMatch(/lstat \/proc\/30849\/ns\/ipc/);
    expect(facts?.probes['fs-mounts']).toMatchObject({ ok: true, hung: 2 });
  });

  it('001: ntpd (PrivateTmp) holds the overlay merged dir → terminating.mount-busy naming pid, unit, mount', async () => {
    const n = dockerNode('c3-a05-136-45-4.com', 'docker://17.9.1', '3.10.0-327.el7.x86_64');
    const p = pod({
      metadata: {
        uid: '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b',
        name: 'httpserver-prod-1-6cb97dfbcc-f9flb',
        namespace: 'default',
        creationTimestamp: '2018-12-11T06:19:50Z',
        deletionTimestamp: '2019-01-30T06:57:00Z',
        deletionGracePeriodSeconds: 30,
      },
      spec: { nodeName: 'c3-a05-136-45-4.com' },
      status: {
        startTime: '2018-12-11T06:19:55Z',
        containerStatuses: [
          {
            name: 'golang-httpserver',
            ready: false,
            restartCount: 0,
            image: 'golang-httpserver',
            imageID: '',
            containerID: 'docker://e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9',
            state: { terminated: { exitCode: 137, reason: 'Error', startedAt: '2018-12-11T06:20:01Z', finishedAt: '2019-01-30T06:57:30Z' } },
          },
        ],
      },
    });
    const { diagnosis } = await diagnoseSeed('001', n, p, { now: '2019-01-30T12:00:00Z' });
    const first = diagnosis.findings[0]!;
    expect(first.rule, JSON.stringify(diagnosis.findings.map((f) => f.rule))).toBe('terminating.mount-busy');
    expect(first.params).toEqual({
      node: 'c3-a05-136-45-4.com',
      pid: 2725007,
      unit: 'ntpd.service',
      holderKind: 'service',
      mount: '/var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged',
    });
    expect(first.playbook).toBe('release-mount-holder');
    expect(first.causeKey).toBe('node/c3-a05-136-45-4.com:holder/ntpd.service');
    // The real mountinfo line, the holder, its unit file, the docker log line and status.
    expect(first.evidence[0]?.text).toMatch(/^296 183 0:183 \/ \/var\/lib\/docker\/overlay\/98a56d695c9e.*\/merged rw,relatime shared:88 - overlay overlay/);
    expect(text(first)).toMatch(/pid 2725007 \/usr\/sbin\/ntpd -u ntp:ntp -g; started 2019-01-07T03:12:00.000Z/);
    expect(text(first)).toMatch(/PrivateTmp=true in \/usr\/lib\/systemd\/system\/ntpd.service/);
    expect(text(first)).toMatch(/after the container had started/);
    expect(text(first)).toMatch(/Removal In Progress/);
    expect(text(first)).toMatch(/remove \/var\/lib\/docker\/overlay\/98a56d.*\/merged: device or resource busy/);
    expect(text(first)).toMatch(/no MountFlags set/);
  });

  it('002: hostPID + postStart exec hang on docker → terminating.exec-hang; node rules stay quiet', async () => {
    const n = dockerNode('node-172-16-3-21', 'docker://19.3.15', '4.19.91-24.1.al7.x86_64');
    const hook = { postStart: { exec: { command: ['/bin/sh', '-c', '/opt/khaos/post-start.sh'] } } };
    const p = pod({
      metadata: {
        uid: '1da9e4f1-a5d4-40db-b8bc-4db1d27ca458',
        name: 'khaos-guardian-bmzsk',
        namespace: 'khaos',
        deletionTimestamp: ago(3600),
        deletionGracePeriodSeconds: 30,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'khaos-guardian', uid: 'd5e0c1a2-0000-4000-8000-000000000002', controller: true }],
      },
      spec: {
        nodeName: 'node-172-16-3-21',
        hostPID: true,
        containers: [
          { name: 'khaos-agent', image: 'registry.example.com/khaos/agent:v1.8.2', lifecycle: hook },
          { name: 'khaos-collector', image: 'registry.example.com/khaos/collector:v1.8.2' },
          { name: 'khaos-injector', image: 'registry.example.com/khaos/injector:v1.8.2' },
          { name: 'khaos-reporter', image: 'registry.example.com/khaos/reporter:v1.8.2' },
        ],
      },
      status: {
        phase: 'Pending',
        containerStatuses: ['khaos-agent', 'khaos-collector', 'khaos-injector', 'khaos-reporter'].map((name) => ({
          name,
          ready: false,
          restartCount: 0,
          image: '',
          imageID: '',
          state: { waiting: { reason: 'ContainerCreating' } },
        })),
      },
    });
    const { diagnosis, facts } = await diagnoseSeed('002', n, p);
    expect(diagnosis.findings[0]?.rule, JSON.stringify(diagnosis.findings.map((f) => f.rule))).toBe('terminating.exec-hang');
    const mine = [
      'terminating.mount-busy',
      'terminating.runtime-hung',
      'terminating.subpath-umount-busy',
      'terminating.cni-teardown',
      'network.calico-endpoint-missing',
      'node.runtime-unresponsive',
    ];
    expect(diagnosis.findings.filter((f) => mine.includes(f.rule))).toEqual([]);
    // The node fact the finding can use: an exec still running in an exited container.
    const rt = facts?.probes.runtime;
    expect(rt?.ok && rt.docker.containers.find((c) => c.containerName === 'khaos-agent')).toMatchObject({
      state: 'exited',
      execs: [{ running: true, pid: 40533 }],
    });
  });

  it('004: the stale teardown of a same-named StatefulSet pod deleted its endpoint → terminating.cni-teardown absorbing calico-endpoint-missing', async () => {
    const n = dockerNode('dev-slave-107', 'docker://1.12.6', '3.10.0-514.26.2.el7.x86_64');
    const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'stateful-new-pod', uid: 'e1a2b3c4-dfac-11e7-9a8f-52549da43ad9', controller: true };
    const p = pod({
      metadata: { uid: '35b722f5-dfad-11e7-9a8f-52549da43ad9', name: 'stateful-new-pod-0', namespace: 'lijiaob', ownerReferences: [sts] },
      spec: { nodeName: 'dev-slave-107' },
      status: {
        podIP: '192.168.8.34',
        startTime: ago(600),
        containerStatuses: [
          {
            name: 'stateful-pod',
            ready: true,
            restartCount: 0,
            image: 'reg.lijiaocn.cn/lijiaocn/etcd:3.2',
            imageID: '',
            containerID: 'docker://50fbf6844903a7d2c9e1b5f3a8d6c4e2b0f9a7c5e3d1b8f6a4c2e0d9b7f5a3c1',
            state: { running: { startedAt: ago(590) } },
          },
        ],
      },
    });
    const etcd = pod({
      metadata: { uid: 'f8d1e7d4-df36-11e7-9d36-5254b24cbf5e', name: 'etcd1-0', namespace: 'lijiaob' },
      spec: { nodeName: 'dev-slave-107' },
      status: { podIP: '192.168.8.12' },
    });
    const wep: KubeObject = {
      apiVersion: 'crd.projectcalico.org/v1',
      kind: 'WorkloadEndpoint',
      metadata: { name: workloadEndpointName('dev-slave-107', 'etcd1-0'), namespace: 'lijiaob' },
      spec: { orchestrator: 'k8s', node: 'dev-slave-107', pod: 'etcd1-0', endpoint: 'eth0', interfaceName: 'cali9118ebbb10b', ipNetworks: ['192.168.8.12/32'] },
    };
    const { diagnosis, facts } = await diagnoseSeed('004', n, p, {
      workloadEndpoints: [wep],
      podsOnNode: [p, etcd],
      owners: [{ kind: 'StatefulSet', name: 'stateful-new-pod', events: [] }],
    });
    const first = diagnosis.findings[0]!;
    expect(first.rule, JSON.stringify(diagnosis.findings.map((f) => f.rule))).toBe('terminating.cni-teardown');
    expect(first.merged).toContain('network.calico-endpoint-missing');
    expect(first.severity).toBe('critical');
    expect(first.playbook).toBe('recreate-pod');
    expect(first.params).toMatchObject({
      node: 'dev-slave-107',
      namespace: 'lijiaob',
      pod: 'stateful-new-pod-0',
      sandbox: '41857f70ed13326dbc2c04e7d8e7c56c28f83df67e82e76d2fb4d74b7ab24659',
    });
    const all = text(first);
    expect(all).toMatch(/NetworkPlugin cni failed to teardown pod "stateful-new-pod-0_lijiaob" network: resource does not exist: WorkloadEndpoint/);
    expect(all).toMatch(/Delete Key: \/calico\/v1\/host\/dev-slave-107\/workload\/k8s\/lijiaob\.stateful-new-pod-0\/endpoint\/eth0/);
    expect(all).toMatch(/169\.254\.1\.1 +0x1 +0x0 +00:00:00:00:00:00/);
    // From the absorbed calico finding: the missing endpoint and the stale veth.
    expect(all).toMatch(/no WorkloadEndpoint dev--slave--107-k8s-stateful--new--pod--0-eth0/);
    expect(all).toMatch(/calie0a5d64c6f1/);
    expect(JSON.stringify(facts)).not.toMatch(/eyJhbGciOiJSUzI1NiIs/);
  });

  it('an unreachable agent: the API halves still report and say which node checks could not run', async () => {
    const p = pod({
      metadata: {
        uid: '2b8e5882-5146-11e9-b3b3-525400dd6f19',
        name: 'xxxx-xxxxx-index-task-569f775985-2qv8x',
        namespace: 'xxx-xxxx',
        deletionTimestamp: ago(1800),
      },
      spec: { nodeName: 'kube-cluster-node-xxx' },
    });
    const n = dockerNode('kube-cluster-node-xxx', 'docker://1.13.1', '3.10.0-957.el7.x86_64');
    const lookup = createAgentLookup({
      agentUrls: { 'kube-cluster-node-xxx': 'https://127.0.0.1:1' },
      agentToken: TOKEN,
      agentTimeoutMs: 2000,
      transport: certs.transport,
    });
    const { facts, gaps } = await lookup.fetch({ node: n, pod: p });
    expect(facts).toBeUndefined();
    const events = [
      event(p, {
        reason: 'FailedKillPod',
        count: 4,
        message:
          'error killing pod: failed to "KillContainer" for "xxxx-xxxxx-index-task" with KillContainerError: "rpc error: code = Unknown desc = operation timeout: context deadline exceeded"',
      }),
    ];
    const d = diagnose(snapshot(p, { node: n, events, gaps }), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('terminating.runtime-hung');
    expect(d.findings[0]?.cause).toMatch(
      /fs-mounts, processes, runtime could not run on kube-cluster-node-xxx \(https:\/\/127\.0\.0\.1:1 unreachable: ECONNREFUSED\)/,
    );
    expect(d.skipped).toEqual(gaps);
  });
});
