// A simulated cluster for incident scenarios: one simulated API server holding every scenario's
// objects, and for each scenario with a node fixture tree (`node:` in expected.yaml) a fake
// docker and a real node agent serving that tree as the scenario's node, on loopback. Tests and
// the demo diagnose through the real client and the real agent client against it.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { type AgentOptions, type RunningAgent, startAgent } from '../agent/server.js';
import type { KubeObject } from '../diagnosis/types.js';
import { parseTarget } from '../kube/target.js';
import { createLogger } from '../log.js';
import { SimLoadError } from './errors.js';
import { type FakeDocker, type FakeDockerSpec, loadDockerSpec, startFakeDocker } from './fake-docker.js';
import { type Scenario, shiftTimes } from './scenarios.js';
import { type Sim, startSim } from './server.js';

export interface ScenarioClusterOptions {
  /**
   * Move every timestamp by this many ms so the incidents look live (the demo: now − meta.now).
   * A function gives each scenario its own shift. Node trees move too: the boot time in
   * `proc/stat` (so process start times) and the docker API's times. Syslog lines keep theirs.
   */
  shiftMs?: number | ((scenario: Scenario) => number);
  /** Bearer token of the node agents (default: a random one). */
  agentToken?: string;
  /** Clock of the simulated API server (default: real time). */
  now?: () => Date;
  /** Overrides of the agents' probe settings (see the defaults below). */
  probeEnv?: AgentOptions['probeEnv'];
  /** Agents' logger (default: silent). */
  logger?: Logger;
}

export interface ScenarioCluster {
  sim: Sim;
  /** The API server's URL (as `sim.url`). */
  url: string;
  /** Node name → agent URL (plain HTTP on loopback), for `createAgentLookup({ agentUrls, agentToken, transport: { plainHttp: true } })`. */
  agentUrls: Record<string, string>;
  agentToken: string;
  /** A kubeconfig (YAML) whose current context points at the simulated API. */
  kubeconfig(): string;
  close(): Promise<void>;
}

/**
 * Nothing serves a fixture tree's FUSE and network mounts, so a stat of one never returns: the
 * agent reports it hung (seed 000's glusterfs) after `statTimeoutMs`.
 */
const HANGING_STAT = [process.execPath, '-e', 'setTimeout(() => {}, 600000)'];

/** Probe settings of a simulated node: its fake docker only, short limits (the runtime may hang). */
function defaultProbeEnv(dockerSocket: string): NonNullable<AgentOptions['probeEnv']> {
  return { dockerSockets: [dockerSocket], containerdSockets: [], statCommand: HANGING_STAT, statTimeoutMs: 400, runtimeCallTimeoutMs: 400 };
}

function objectKey(o: KubeObject): string {
  const base = `${o.kind ?? '?'} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name ?? '?'}`;
  // Pod logs are documents per container; two of one pod are not a conflict.
  if (o.kind === 'PodLog') {
    const log = o as KubeObject & { container?: string; previous?: boolean };
    return `${base} container ${log.container ?? ''}${log.previous ? ' (previous)' : ''}`;
  }
  return base;
}

/** The first path where two values differ, for a conflict message. */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(ra), ...Object.keys(rb)])]) {
      if (!isDeepStrictEqual(ra[k], rb[k])) return firstDifference(ra[k], rb[k], Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
    }
  }
  const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v).slice(0, 80));
  return `${path || '(object)'}: ${show(a)} vs ${show(b)}`;
}

/** All scenarios' objects, each once; an object two scenarios define differently is an error. */
export function mergeScenarioObjects(scenarios: readonly Scenario[], shiftOf: (s: Scenario) => number = () => 0): KubeObject[] {
  const seen = new Map<string, { slug: string; object: KubeObject }>();
  const out: KubeObject[] = [];
  for (const s of scenarios) {
    const shift = shiftOf(s);
    for (const o of s.objects) {
      const key = objectKey(o);
      const first = seen.get(key);
      if (first) {
        if (!isDeepStrictEqual(first.object, o)) {
          throw new SimLoadError(
            'SIM_INVALID',
            `scenarios ${first.slug} and ${s.slug} define ${key} differently (${firstDifference(first.object, o)}); one cluster cannot hold both`,
          );
        }
        continue;
      }
      seen.set(key, { slug: s.slug, object: o });
      out.push(shift ? shiftTimes(o, shift) : o);
    }
  }
  return out;
}

/** The node a scenario is about: its target pod's node, or the target node. */
export function scenarioNode(s: Scenario): string {
  const target = parseTarget(s.meta.target);
  if (target.kind === 'node') return target.name;
  if (target.kind === 'namespace') throw new Error(`scenario ${s.slug}: a node tree needs a pod or node target, not ${s.meta.target}`);
  const pod = s.objects.find((o) => o.kind === 'Pod' && o.metadata?.namespace === target.namespace && o.metadata?.name === target.name);
  if (!pod) throw new Error(`scenario ${s.slug}: target pod ${s.meta.target} is not among its objects`);
  const nodeName = (pod as { spec?: { nodeName?: string } }).spec?.nodeName;
  if (!nodeName) throw new Error(`scenario ${s.slug}: target pod ${s.meta.target} has no spec.nodeName, so no node to serve ${s.meta.node ?? ''}`);
  return nodeName;
}

/** Docker API answers with every ISO time moved (`State.StartedAt`, `Created`, …). */
function shiftDockerSpec(spec: FakeDockerSpec, deltaMs: number): FakeDockerSpec {
  const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && iso.test(v) && !v.startsWith('0001-')) return new Date(Date.parse(v) + deltaMs).toISOString();
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(spec) as FakeDockerSpec;
}

/** A copy of a node tree whose boot time (and so every process start time) is moved. */
async function shiftedTree(tree: string, deltaMs: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pd-node-'));
  await cp(tree, dir, { recursive: true, verbatimSymlinks: true });
  const statPath = join(dir, 'proc/stat');
  const stat = await readFile(statPath, 'utf8').catch(() => undefined);
  if (stat !== undefined) {
    await writeFile(
      statPath,
      stat.replace(/^btime (\d+)$/m, (_, t: string) => `btime ${Number(t) + Math.round(deltaMs / 1000)}`),
    );
  }
  return dir;
}

interface NodeRuntime {
  node: string;
  tree: string;
  agent?: RunningAgent;
  docker?: FakeDocker;
  copy?: string;
}

/**
 * Start one simulated API for all `scenarios` and a node agent for each scenario with a node tree.
 * Throws (after stopping what it started) when two scenarios define an object differently or put
 * different trees on one node.
 */
export async function startScenarioCluster(scenarios: readonly Scenario[], opts: ScenarioClusterOptions = {}): Promise<ScenarioCluster> {
  const { shiftMs } = opts;
  const shiftOf = typeof shiftMs === 'function' ? shiftMs : () => shiftMs ?? 0;
  const objects = mergeScenarioObjects(scenarios, shiftOf);

  // One agent per node; scenarios about the same node must use the same tree.
  const nodes = new Map<string, NodeRuntime & { slug: string; shift: number }>();
  for (const s of scenarios) {
    if (!s.meta.node) continue;
    const node = scenarioNode(s);
    const tree = resolve(s.dir, s.meta.node);
    const shift = shiftOf(s);
    const other = nodes.get(node);
    if (other && (other.tree !== tree || other.shift !== shift)) {
      throw new Error(
        `scenarios ${other.slug} and ${s.slug} both put node ${node} in the cluster with ${other.tree !== tree ? `different trees (${other.tree}, ${tree})` : 'different time shifts'}`,
      );
    }
    if (!other) nodes.set(node, { node, tree, slug: s.slug, shift });
  }

  const agentToken = opts.agentToken ?? randomBytes(24).toString('hex');
  const logger = opts.logger ?? createLogger({ level: 'silent' });
  const started: NodeRuntime[] = [];
  let sim: Sim | undefined;
  const close = async () => {
    for (const n of started) {
      await n.agent?.close();
      await n.docker?.close();
      if (n.copy) await rm(n.copy, { recursive: true, force: true });
    }
    started.length = 0;
    await sim?.close();
    sim = undefined;
  };

  try {
    sim = await startSim({ objects, ...(opts.now ? { now: opts.now } : {}) });
    const agentUrls: Record<string, string> = {};
    for (const n of nodes.values()) {
      const runtime: NodeRuntime = { node: n.node, tree: n.tree };
      started.push(runtime);
      const spec = loadDockerSpec(n.tree);
      runtime.docker = await startFakeDocker(n.shift ? shiftDockerSpec(spec, n.shift) : spec);
      const root = n.shift ? (runtime.copy = await shiftedTree(n.tree, n.shift)) : n.tree;
      runtime.agent = await startAgent({
        port: 0,
        host: '127.0.0.1',
        token: agentToken,
        // Loopback only, in this process: clients pass `transport: { plainHttp: true }`.
        plainHttp: true,
        procRoot: join(root, 'proc'),
        hostRoot: join(root, 'host'),
        nodeName: n.node,
        logger,
        probeEnv: { ...defaultProbeEnv(runtime.docker.socket), ...opts.probeEnv },
      });
      agentUrls[n.node] = runtime.agent.url;
    }
    const api = sim;
    return { sim: api, url: api.url, agentUrls, agentToken, kubeconfig: () => api.kubeconfig(), close };
  } catch (err) {
    await close();
    throw err;
  }
}
