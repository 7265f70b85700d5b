// Shared pieces of the playbook tests: a simulated cluster loaded from an incident scenario and
// reached through the real client, a node agent over a copy of a fixture proc tree with a fake
// docker and a recording HostExec, a kubelet stand-in (the sim has no kubelet), Redis per test.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { createActionHandler } from '../../src/agent/actions/index.js';
import type { ExecResult, HostContainer, HostExec } from '../../src/agent/actions/types.js';
import { type RunningAgent, startAgent } from '../../src/agent/server.js';
import { createAgentLookup } from '../../src/collect/agent-client.js';
import { KubeSource } from '../../src/collect/kube-source.js';
import type { AgentLookup } from '../../src/collect/snapshot.js';
import { nodeNotReady } from '../../src/diagnosis/facts.js';
import type { Diagnosis, KubeObject, Pod, Target } from '../../src/diagnosis/types.js';
import { parseTarget } from '../../src/kube/target.js';
import { type RedisClient, redisFromUrl } from '../../src/redis/client.js';
import { keyPattern } from '../../src/redis/keys.js';
import { AgentActionsClient } from '../../src/remediation/agent-actions-client.js';
import { loadPlaybooks } from '../../src/remediation/load.js';
import { createRunner, type RunEvent, type Runner, type RunnerDeps } from '../../src/remediation/runner.js';
import type { Playbook } from '../../src/remediation/schema.js';
import { MemoryRunStore, RedisRunStore, type RunStore } from '../../src/remediation/store.js';
import { type FakeDocker, type FakeDockerSpec, loadDockerSpec, startFakeDocker } from '../../src/sim/fake-docker.js';
import { loadScenario, type Scenario } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { diagnoseTarget } from '../../src/usecases/diagnose.js';
import { sharedAgentCerts } from './agent-tls.js';
import { ago, lostNode, NOW, pod } from './factories.js';
import { silent } from './logger.js';

export const INCIDENTS = join(import.meta.dirname, '../fixtures/incidents');
export const NODES = join(import.meta.dirname, '../fixtures/nodes');
export const TOKEN = 'test-agent-token-0123456789';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const PLAYBOOKS: Playbook[] = await loadPlaybooks();
export function playbook(id: string): Playbook {
  const p = PLAYBOOKS.find((x) => x.id === id);
  if (!p) throw new Error(`no playbook ${id}`);
  return p;
}

export interface Cluster {
  sim: Sim;
  kube: KubeSource;
  now: () => Date;
  target: Target;
  scenario?: Scenario;
  close(): Promise<void>;
}

export function kubeFor(sim: Sim): KubeSource {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.kubeconfig());
  return new KubeSource(kc);
}

/** A sim with the scenario's objects (optionally edited), its clock fixed at the scenario's `now`. */
export async function scenarioCluster(slug: string, edit?: (objects: KubeObject[]) => KubeObject[]): Promise<Cluster> {
  const scenario = await loadScenario(join(INCIDENTS, slug));
  const at = new Date(scenario.meta.now);
  const now = () => at;
  const objects = edit ? edit(structuredClone(scenario.objects)) : scenario.objects;
  const sim = await startSim({ objects, now });
  return { sim, kube: kubeFor(sim), now, target: parseTarget(scenario.meta.target), scenario, close: () => sim.close() };
}

export async function objectsCluster(objects: KubeObject[], target: string, nowIso: string): Promise<Cluster> {
  const at = new Date(nowIso);
  const now = () => at;
  const sim = await startSim({ objects, now });
  return { sim, kube: kubeFor(sim), now, target: parseTarget(target), close: () => sim.close() };
}

/** A Deployment pod (shop/web-1) stuck Terminating on a lost node (node-9): force-delete-pod fixes it. */
export function lostNodeCluster(): Promise<Cluster> {
  const p = pod({
    metadata: {
      name: 'web-1',
      namespace: 'shop',
      deletionTimestamp: ago(900),
      deletionGracePeriodSeconds: 30,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8c6b5', uid: '11111111-2222-4333-8444-555555555555', controller: true }],
    },
    spec: { nodeName: 'node-9' },
  });
  return objectsCluster([lostNode('node-9', 1200), p] as KubeObject[], 'shop/web-1', NOW);
}

export function podObject(objects: KubeObject[], name: string): Pod {
  const p = objects.find((o) => o.kind === 'Pod' && o.metadata?.name === name);
  if (!p) throw new Error(`no pod ${name}`);
  return p as Pod;
}

/** The scenario's target pod as saved (names come from the fixture, never hard-coded). */
export function targetPod(cluster: Cluster): Pod {
  const t = cluster.target;
  if (t.kind !== 'pod' || !cluster.scenario) throw new Error('not a pod scenario');
  const p = cluster.scenario.objects.find((o) => o.kind === 'Pod' && o.metadata?.name === t.name && o.metadata?.namespace === t.namespace);
  if (!p) throw new Error(`no pod ${t.namespace}/${t.name} in the scenario`);
  return p as Pod;
}

/** Label the fake docker's containers with this pod's UID (fixture trees predate scenario edits). */
export function relabel(uid: string) {
  return (spec: FakeDockerSpec) => {
    for (const c of (spec.routes['/containers/json'] as { Labels?: Record<string, string> }[] | undefined) ?? [])
      c.Labels = { ...c.Labels, 'io.kubernetes.pod.uid': uid };
  };
}

// ---- Node agent over a fixture ------------------------------------------------------------

export interface ExecCall {
  op: keyof HostExec;
  arg: string;
}

export interface RecordingExec extends HostExec {
  calls: ExecCall[];
}

/**
 * A HostExec that records every call and answers from the fake docker's spec (removing a
 * container removes it from the spec, so the runtime probe sees it gone). `on` hooks stand in
 * for what the host would do next (a restarted unit drops its mount namespace; a signalled
 * process leaves the proc tree). A signal is recorded as `SIGTERM <pid>`; liveness checks are
 * not recorded and answer from `alive` (default: every pid is there).
 */
export function recordingExec(
  spec: FakeDockerSpec,
  on: Partial<Record<keyof HostExec, (arg: string) => void | Promise<void>>> = {},
  alive: (pid: number) => boolean = () => true,
): RecordingExec {
  const calls: ExecCall[] = [];
  const containers = () => (spec.routes['/containers/json'] as Record<string, unknown>[] | undefined) ?? [];
  const record = async (op: keyof HostExec, arg: string): Promise<void> => {
    calls.push({ op, arg });
    await on[op]?.(arg);
  };
  const ok = (detail = ''): ExecResult => ({ ok: true, detail, code: 0 });
  return {
    calls,
    async restartUnit(unit) {
      await record('restartUnit', unit);
      return ok();
    },
    async signalProcess(pid, signal) {
      if (!alive(pid)) return { ok: false, detail: `no process ${pid}`, code: 404 };
      await record('signalProcess', `${signal} ${pid}`);
      return ok();
    },
    async processAlive(pid) {
      return alive(pid);
    },
    async lazyUnmount(path) {
      await record('lazyUnmount', path);
      return ok();
    },
    async listPodContainers(uid) {
      if (spec.hang?.includes('/containers/json')) throw new Error('docker: /containers/json did not answer');
      return containers()
        .map((c) => {
          const x = c as { Id: string; Names?: string[]; Image?: string; ImageID?: string; State?: string; Labels?: Record<string, string> };
          return {
            id: x.Id,
            name: x.Names?.[0],
            image: x.Image ?? '',
            imageId: x.ImageID,
            state: x.State ?? '',
            labels: x.Labels ?? {},
          } satisfies HostContainer;
        })
        .filter((c) => c.labels['io.kubernetes.pod.uid'] === uid);
    },
    async removeContainer(id) {
      await record('removeContainer', id);
      spec.routes['/containers/json'] = containers().filter((c) => (c as { Id: string }).Id !== id);
      return ok();
    },
    async removeImage(ref) {
      await record('removeImage', ref);
      return ok();
    },
    async pullImage(ref) {
      await record('pullImage', ref);
      return ok();
    },
  };
}

export interface FixtureAgent {
  node: string;
  url: string;
  procRoot: string;
  spec: FakeDockerSpec;
  docker: FakeDocker;
  agent: RunningAgent;
  exec: RecordingExec;
  lookup: AgentLookup;
  close(): Promise<void>;
}

/**
 * The real agent server (probes + actions) over a temp copy of `test/fixtures/nodes/<seed>`,
 * so a test may change the proc tree (a restarted holder leaves it). A pid is alive while its
 * directory is in that tree.
 */
export async function fixtureAgent(
  seed: string,
  node: string,
  options: {
    editSpec?: (spec: FakeDockerSpec) => void;
    on?: (ctx: { procRoot: string; spec: FakeDockerSpec }) => Partial<Record<keyof HostExec, (arg: string) => void | Promise<void>>>;
    /** fs-mounts stat command (default: answers at once). */
    statCommand?: string[];
    /** stop-mount-holder's wait between SIGTERM and SIGKILL (default 10 s). */
    stopGraceMs?: number;
  } = {},
): Promise<FixtureAgent> {
  const dir = mkdtempSync(join(tmpdir(), `pd-node-${seed}-`));
  cpSync(join(NODES, seed), dir, { recursive: true, verbatimSymlinks: true });
  const procRoot = join(dir, 'proc');
  const spec = loadDockerSpec(dir);
  options.editSpec?.(spec);
  const docker = await startFakeDocker(spec);
  const exec = recordingExec(spec, options.on?.({ procRoot, spec }) ?? {}, (pid) => existsSync(join(procRoot, String(pid))));
  const probeEnv = {
    procRoot,
    hostRoot: join(dir, 'host'),
    dockerSockets: [docker.socket],
    containerdSockets: [join(dir, 'no-containerd.sock')],
    runtimeCallTimeoutMs: 300,
    statTimeoutMs: 300,
    statCommand: options.statCommand ?? ['true'],
    logFiles: [join(dir, 'host/var/log/messages')].filter((f) => existsSync(f)),
  };
  const actions = createActionHandler({
    exec,
    probeEnv,
    nodeName: node,
    log: silent,
    ...(options.stopGraceMs !== undefined ? { stopGraceMs: options.stopGraceMs } : {}),
  });
  const agent = await startAgent({
    port: 0,
    host: '127.0.0.1',
    token: TOKEN,
    tls: { cert: sharedAgentCerts().cert, key: sharedAgentCerts().key },
    procRoot,
    hostRoot: probeEnv.hostRoot,
    nodeName: node,
    probeEnv,
    logger: silent,
    actions,
  });
  const lookup = createAgentLookup({ agentToken: TOKEN, agentUrls: { [node]: agent.url }, agentTimeoutMs: 8000, transport: sharedAgentCerts().transport });
  return {
    node,
    url: agent.url,
    procRoot,
    spec,
    docker,
    agent,
    exec,
    lookup,
    close: async () => {
      await agent.close();
      await docker.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** fs-mounts stat that hangs on glusterfs mounts and answers on others. */
export const HANGING_GLUSTER_STAT = ['sh', '-c', 'case "$1" in *glusterfs*) exec sleep 3;; esac; exit 0', 'stat'];

// ---- The kubelet the sim does not have ----------------------------------------------------

/**
 * Finishes graceful deletions on Ready nodes, as a kubelet does once the containers are gone:
 * pods with a deletionTimestamp, no finalizers and `canFinish(pod)` are deleted with grace 0.
 */
export function kubeletStandIn(kube: KubeSource, canFinish: (pod: Pod) => boolean = () => true, intervalMs = 40): { stop(): void } {
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      try {
        for (const pod of await kube.listPods({})) {
          const m = pod.metadata ?? {};
          if (!m.deletionTimestamp || (m.finalizers ?? []).length > 0 || !pod.spec?.nodeName) continue;
          const node = await kube.getNode(pod.spec.nodeName);
          if (!node || nodeNotReady(node) || !canFinish(pod)) continue;
          await kube.core
            .deleteNamespacedPod({
              name: m.name ?? '',
              namespace: m.namespace ?? '',
              gracePeriodSeconds: 0,
              body: { gracePeriodSeconds: 0, preconditions: { uid: m.uid } },
            })
            .catch(() => undefined);
        }
      } catch {
        // the sim is closing
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  };
  void loop();
  return { stop: () => (stopped = true) };
}

// ---- Runner wiring ------------------------------------------------------------------------

export function redis(): RedisClient {
  return redisFromUrl(REDIS_URL, {}, { role: 'worker' });
}

export function testPrefix(name: string): string {
  return `pdtest-${name}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function cleanup(client: RedisClient, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', keyPattern(prefix), 'COUNT', 1000);
    cursor = next;
    if (found.length > 0) await client.del(...found);
  } while (cursor !== '0');
}

export function fastSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, Math.min(ms, 40));
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export interface Harness {
  runner: Runner;
  events: RunEvent[];
  store: RunStore;
  diagnose(): Promise<Diagnosis>;
}

export function harness(cluster: Cluster, options: { agent?: FixtureAgent; store?: RunStore; deps?: Partial<RunnerDeps> } = {}): Harness {
  const events: RunEvent[] = [];
  const store = options.store ?? new MemoryRunStore();
  const agentDeps = options.agent
    ? {
        agent: options.agent.lookup,
        agentActions: new AgentActionsClient({
          token: TOKEN,
          agentUrls: { [options.agent.node]: options.agent.url },
          transport: sharedAgentCerts().transport,
          getNode: (n) => cluster.kube.getNode(n),
          timeoutMs: 20_000,
        }),
      }
    : {};
  const runner = createRunner({
    cluster: 'test',
    kube: cluster.kube,
    store,
    now: cluster.now,
    logger: silent,
    onEvent: (e) => {
      events.push(e);
    },
    // Waits poll fast here; their time limits stay real.
    sleep: fastSleep,
    ...agentDeps,
    ...options.deps,
  });
  const diagnose = () =>
    diagnoseTarget(cluster.kube, cluster.target, { cluster: 'test', now: cluster.now, ...(options.agent ? { agent: options.agent.lookup } : {}) });
  return { runner, events, store, diagnose };
}

/** Diagnose, take the finding of `rule`, propose `playbookId` for it. */
export async function propose(h: Harness, rule: string, playbookId: string) {
  const diagnosis = await h.diagnose();
  const finding = diagnosis.findings.find((f) => f.rule === rule);
  if (!finding) throw new Error(`no ${rule} finding; got ${diagnosis.findings.map((f) => `${f.rule}(${f.playbook})`).join(', ')}`);
  const plan = await h.runner.proposePlan(finding, diagnosis, playbook(playbookId));
  return { diagnosis, finding, plan };
}

export function redisStore(client: RedisClient, prefix: string, cluster = 'test'): RedisRunStore {
  return new RedisRunStore(client, cluster, prefix, 3600);
}
