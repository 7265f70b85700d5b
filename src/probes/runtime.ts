// runtime: is the container runtime answering, and what does it say about the pod's containers?
// Docker is asked through its HTTP API on the unix socket (ping, version, storage driver, the
// pod's containers by label, their state — "Removal In Progress", Dead — and their running
// execs). containerd (or CRI-O) is asked over CRI (gRPC, ./cri.ts): Version, and the pod's
// containers and sandboxes by label. Every call has its own timeout, and a call that connects
// but never answers marks the runtime as hung (`docker ps` hanging in seed 000, `crictl ps`).

import { stat } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { CONTAINER_STATES, CriClient, describeFailure, SANDBOX_STATES } from './cri.js';
import { capped, clipText, containerIdSchema, defineProbe, type ProbeEnv, podUidSchema } from './probe.js';
import { readBootTime, readStat, startTimeIso } from './proc.js';

export const params = z.object({
  podUid: podUidSchema.optional(),
  containerIds: z.array(containerIdSchema).max(32).default([]),
});
export type RuntimeParams = z.infer<typeof params>;

const MAX_CONTAINERS = 16;
const MAX_EXECS = 8;
const MAX_BODY = 4 * 1024 * 1024;

const exec = z.object({
  id: z.string(),
  running: z.boolean(),
  pid: z.number().optional(),
  command: z.string(),
  exitCode: z.number().nullable().optional(),
  /** From the exec process's start time in /proc. */
  startedAt: z.string().optional(),
});

const container = z.object({
  id: z.string(),
  name: z.string().optional(),
  /** Kubernetes container name (label `io.kubernetes.container.name`; `POD` for the sandbox). */
  containerName: z.string().optional(),
  sandbox: z.boolean(),
  image: z.string().optional(),
  /** Docker's state word: created, running, paused, restarting, removing, exited, dead. */
  state: z.string(),
  /** Docker's status text: "Up 10 days", "Removal In Progress", "Dead". */
  status: z.string(),
  pid: z.number().optional(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  error: z.string().optional(),
  graphDriver: z.string().optional(),
  /** The container's root filesystem mount on the host (overlay merged dir, devicemapper mnt dir). */
  rootfsMount: z.string().optional(),
  /** The layer id in that path: what mount-holders looks for. */
  layerId: z.string().optional(),
  execs: z.array(exec),
  /** Inspect did not answer in time. */
  inspectTimedOut: z.boolean().optional(),
});
export type RuntimeContainer = z.infer<typeof container>;

const runtimeState = z.enum(['ok', 'hung', 'unreachable', 'absent', 'error']);

const criContainer = z.object({
  id: z.string(),
  /** Kubernetes container name; the sandbox is `POD`. */
  containerName: z.string(),
  sandbox: z.boolean(),
  /** created, running, exited, unknown; sandboxes ready / notready. */
  state: z.string(),
  attempt: z.number().optional(),
  createdAt: z.string().optional(),
  image: z.string().optional(),
});
export type CriContainerFacts = z.infer<typeof criContainer>;

export const result = z.object({
  docker: z.object({
    socket: z.string().optional(),
    state: runtimeState,
    detail: z.string().optional(),
    pingMs: z.number().optional(),
    version: z.string().optional(),
    apiVersion: z.string().optional(),
    storageDriver: z.string().optional(),
    dockerRootDir: z.string().optional(),
    /** API paths that connected but did not answer within the call timeout. */
    timedOut: z.array(z.string()),
    callTimeoutMs: z.number(),
    containers: z.array(container),
    truncated: z.boolean(),
  }),
  containerd: z.object({
    socket: z.string().optional(),
    state: runtimeState,
    detail: z.string().optional(),
    note: z.string(),
    /** From CRI `Version` (runtime.v1 or v1alpha2): e.g. containerd 1.6.20, API v1. */
    version: z.string().optional(),
    runtimeName: z.string().optional(),
    apiVersion: z.string().optional(),
    pingMs: z.number().optional(),
    /** CRI calls that connected but did not answer within the call timeout. */
    timedOut: z.array(z.string()).default([]),
    /** The pod's containers and sandboxes as the runtime lists them (label io.kubernetes.pod.uid). */
    containers: z.array(criContainer).default([]),
  }),
});
export type RuntimeResult = z.infer<typeof result>;

type CallResult = { kind: 'ok'; status: number; body: unknown } | { kind: 'timeout' } | { kind: 'error'; message: string; code?: string };

/** GET a Docker API path over the unix socket with a hard timeout. */
export function dockerGet(socketPath: string, path: string, timeoutMs: number, signal?: AbortSignal): Promise<CallResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: CallResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const req = request({ socketPath, path, method: 'GET', headers: { Host: 'docker', Accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) {
          req.destroy();
          done({ kind: 'error', message: `response of ${path} larger than ${MAX_BODY} bytes` });
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        if ((res.headers['content-type'] ?? '').includes('json')) {
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
        }
        done({ kind: 'ok', status: res.statusCode ?? 0, body });
      });
      res.on('error', (err) => done({ kind: 'error', message: err.message }));
    });
    const timer = setTimeout(() => {
      done({ kind: 'timeout' });
      req.destroy();
    }, timeoutMs);
    const onAbort = () => {
      done({ kind: 'timeout' });
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => done({ kind: 'error', message: err.message, code: err.code }));
    req.end();
  });
}

async function firstExisting(paths: string[]): Promise<string | undefined> {
  for (const p of paths) {
    try {
      await stat(p);
      return p;
    } catch {
      // try the next one
    }
  }
  return undefined;
}

/** Connect to a unix socket and close: reachable, refused, or no answer to the connect. */
export function socketConnect(path: string, timeoutMs: number): Promise<{ state: 'ok' | 'unreachable' | 'hung'; detail?: string }> {
  return new Promise((resolve) => {
    const sock = connect({ path });
    const timer = setTimeout(() => {
      sock.destroy();
      resolve({ state: 'hung', detail: `connect did not complete within ${timeoutMs}ms` });
    }, timeoutMs);
    sock.once('connect', () => {
      clearTimeout(timer);
      sock.destroy();
      resolve({ state: 'ok' });
    });
    sock.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ state: 'unreachable', detail: `${err.code ?? ''} ${err.message}`.trim() });
    });
  });
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The layer directory of a container's root filesystem, from `GraphDriver.Data`. */
export function rootfsOf(graph: Record<string, unknown>, dockerRoot = '/var/lib/docker'): { mount?: string; layerId?: string } {
  const data = obj(graph.Data);
  const merged = str(data.MergedDir);
  if (merged) return { mount: merged, layerId: /\/([0-9a-f]{64})\/merged$/.exec(merged)?.[1] };
  const device = str(data.DeviceName);
  const id = device ? /-([0-9a-f]{64})$/.exec(device)?.[1] : undefined;
  if (id) return { mount: `${dockerRoot}/devicemapper/mnt/${id}`, layerId: id };
  return {};
}

async function inspectDocker(socket: string, p: RuntimeParams, env: ProbeEnv, callTimeoutMs: number): Promise<RuntimeResult['docker']> {
  const base = { socket, timedOut: [] as string[], callTimeoutMs, containers: [] as RuntimeContainer[], truncated: false };
  const t0 = performance.now();
  const ping = await dockerGet(socket, '/_ping', callTimeoutMs, env.signal);
  if (ping.kind === 'timeout') return { ...base, state: 'hung', detail: `GET /_ping did not answer within ${callTimeoutMs}ms`, timedOut: ['/_ping'] };
  if (ping.kind === 'error') return { ...base, state: 'unreachable', detail: ping.message };
  const pingMs = Math.round(performance.now() - t0);
  const timedOut: string[] = [];
  const call = async (path: string) => {
    const r = await dockerGet(socket, path, callTimeoutMs, env.signal);
    if (r.kind === 'timeout') timedOut.push(path.split('?')[0]!);
    return r.kind === 'ok' && r.status < 300 ? r.body : undefined;
  };
  const filters = p.podUid ? encodeURIComponent(JSON.stringify({ label: [`io.kubernetes.pod.uid=${p.podUid}`] })) : undefined;
  // Independent calls in parallel: a hung daemon costs one call timeout, not three.
  const [version, info, list] = await Promise.all([call('/version'), call('/info'), filters ? call(`/containers/json?all=1&filters=${filters}`) : undefined]);
  const v = obj(version);
  const i = obj(info);
  const dockerRootDir = str(i.DockerRootDir);
  let containers: RuntimeContainer[] = [];
  let truncated = false;
  if (p.podUid) {
    const rows = Array.isArray(list) ? list.map(obj) : [];
    const c = capped(rows, MAX_CONTAINERS);
    truncated = c.truncated;
    const bootTime = await readBootTime(env.procRoot);
    containers = await Promise.all(
      c.items.map(async (row): Promise<RuntimeContainer> => {
        const id = str(row.Id) ?? '?';
        const labels = obj(row.Labels);
        const base: RuntimeContainer = {
          id,
          name: (Array.isArray(row.Names) ? str(row.Names[0]) : undefined)?.replace(/^\//, ''),
          containerName: str(labels['io.kubernetes.container.name']),
          sandbox: labels['io.kubernetes.docker.type'] === 'podsandbox' || labels['io.kubernetes.container.name'] === 'POD',
          image: str(row.Image),
          state: str(row.State) ?? 'unknown',
          status: str(row.Status) ?? '',
          execs: [],
        };
        if (!/^[0-9a-f]{12,64}$/.test(id)) return base;
        const detail = await dockerGet(socket, `/containers/${id}/json`, callTimeoutMs, env.signal);
        if (detail.kind === 'timeout') {
          timedOut.push(`/containers/${id.slice(0, 12)}/json`);
          return { ...base, inspectTimedOut: true };
        }
        if (detail.kind !== 'ok' || detail.status >= 300) return base;
        const d = obj(detail.body);
        const state = obj(d.State);
        const graph = obj(d.GraphDriver);
        const rootfs = rootfsOf(graph, dockerRootDir);
        const execIds = (Array.isArray(d.ExecIDs) ? d.ExecIDs : []).filter((x): x is string => typeof x === 'string' && /^[0-9a-f]{12,64}$/.test(x));
        const execs = await Promise.all(
          execIds.slice(0, MAX_EXECS).map(async (execId) => {
            const e = await dockerGet(socket, `/exec/${execId}/json`, callTimeoutMs, env.signal);
            if (e.kind === 'timeout') timedOut.push(`/exec/${execId.slice(0, 12)}/json`);
            const x = e.kind === 'ok' && e.status < 300 ? obj(e.body) : {};
            const pc = obj(x.ProcessConfig);
            const pid = num(x.Pid);
            const st = pid ? await readStat(env.procRoot, pid) : undefined;
            return {
              id: execId,
              running: x.Running === true,
              pid: pid || undefined,
              command: clipText(
                [str(pc.entrypoint), ...(Array.isArray(pc.arguments) ? pc.arguments.filter((a): a is string => typeof a === 'string') : [])]
                  .filter(Boolean)
                  .join(' '),
                300,
              ),
              exitCode: typeof x.ExitCode === 'number' ? x.ExitCode : null,
              startedAt: st ? startTimeIso(bootTime, st.startTicks) : undefined,
            };
          }),
        );
        const status = str(state.Status);
        return {
          ...base,
          state: status ?? base.state,
          pid: num(state.Pid) || undefined,
          startedAt: str(state.StartedAt),
          finishedAt: str(state.FinishedAt),
          error: str(state.Error),
          graphDriver: str(graph.Name),
          rootfsMount: rootfs.mount,
          layerId: rootfs.layerId,
          execs,
        };
      }),
    );
  }
  return {
    ...base,
    state: timedOut.length > 0 ? 'hung' : 'ok',
    detail: timedOut.length > 0 ? `${timedOut.join(', ')} did not answer within ${callTimeoutMs}ms although /_ping did` : undefined,
    pingMs,
    version: str(v.Version),
    apiVersion: str(v.ApiVersion),
    storageDriver: str(i.Driver),
    dockerRootDir,
    timedOut,
    containers,
    truncated,
  };
}

const nsToIso = (ns: bigint): string | undefined => (ns > 0n ? new Date(Number(ns / 1_000_000n)).toISOString() : undefined);

/**
 * containerd (or CRI-O) over CRI: `Version` says whether the runtime answers at all (a socket
 * that accepts and never answers is "hung", what `crictl ps` hanging looks like), then the
 * pod's containers and sandboxes.
 */
async function inspectCri(socket: string, p: RuntimeParams, callTimeoutMs: number, note: string): Promise<RuntimeResult['containerd']> {
  const base = { socket, note, timedOut: [] as string[], containers: [] as CriContainerFacts[] };
  const connected = await socketConnect(socket, callTimeoutMs);
  if (connected.state !== 'ok') return { ...base, ...connected };
  const client = new CriClient({ socketPath: socket, timeoutMs: callTimeoutMs });
  const t0 = performance.now();
  const version = await client.getVersion();
  if (!version.ok) {
    if (version.kind === 'timeout') return { ...base, state: 'hung', detail: `CRI Version did not answer within ${callTimeoutMs}ms`, timedOut: ['Version'] };
    // Docker's own containerd runs with the CRI plugin disabled: reachable, but no CRI.
    return { ...base, state: version.kind === 'status' ? 'ok' : 'error', detail: `CRI: ${describeFailure(version)}` };
  }
  const pingMs = Math.round(performance.now() - t0);
  const facts = {
    ...base,
    state: 'ok' as const,
    version: version.value.runtimeVersion,
    runtimeName: version.value.runtimeName,
    apiVersion: version.value.runtimeApiVersion,
    pingMs,
  };
  if (!p.podUid) return facts;
  const selector = { labelSelector: { 'io.kubernetes.pod.uid': p.podUid } };
  const [containers, sandboxes] = await Promise.all([client.listContainers(selector), client.listPodSandbox(selector)]);
  const timedOut = [
    ...(!containers.ok && containers.kind === 'timeout' ? ['ListContainers'] : []),
    ...(!sandboxes.ok && sandboxes.kind === 'timeout' ? ['ListPodSandbox'] : []),
  ];
  const list: CriContainerFacts[] = [
    ...(sandboxes.ok ? sandboxes.value : []).map((b) => ({
      id: b.id,
      containerName: 'POD',
      sandbox: true,
      state: SANDBOX_STATES[b.state] ?? String(b.state),
      attempt: b.metadata?.attempt,
      createdAt: nsToIso(b.createdAt),
    })),
    ...(containers.ok ? containers.value : []).map((c) => ({
      id: c.id,
      containerName: c.metadata?.name ?? c.labels['io.kubernetes.container.name'] ?? '?',
      sandbox: false,
      state: CONTAINER_STATES[c.state] ?? String(c.state),
      attempt: c.metadata?.attempt,
      createdAt: nsToIso(c.createdAt),
      image: c.image?.image || c.imageRef || undefined,
    })),
  ];
  return {
    ...facts,
    timedOut,
    containers: list.slice(0, MAX_CONTAINERS),
    ...(timedOut.length ? { state: 'hung' as const, detail: `CRI ${timedOut.join(', ')} did not answer within ${callTimeoutMs}ms` } : {}),
  };
}

export async function checkRuntime(p: RuntimeParams, env: ProbeEnv): Promise<RuntimeResult> {
  const callTimeoutMs = env.runtimeCallTimeoutMs ?? 2000;
  const dockerSockets = env.dockerSockets ?? [join(env.hostRoot, 'var/run/docker.sock'), join(env.hostRoot, 'run/docker.sock')];
  const containerdSockets = env.containerdSockets ?? [join(env.hostRoot, 'run/containerd/containerd.sock')];
  const [dockerSocket, containerdSocket] = await Promise.all([firstExisting(dockerSockets), firstExisting(containerdSockets)]);
  const note = "Asked over CRI (gRPC on its socket): Version, and the pod's containers and sandboxes by label.";
  const [docker, containerd] = await Promise.all([
    dockerSocket
      ? inspectDocker(dockerSocket, p, env, callTimeoutMs)
      : Promise.resolve({
          state: 'absent' as const,
          detail: `no socket at ${dockerSockets.join(' or ')}`,
          timedOut: [],
          callTimeoutMs,
          containers: [],
          truncated: false,
        }),
    containerdSocket
      ? inspectCri(containerdSocket, p, callTimeoutMs, note)
      : Promise.resolve({ state: 'absent' as const, detail: `no socket at ${containerdSockets.join(' or ')}`, note, timedOut: [], containers: [] }),
  ]);
  return { docker, containerd };
}

export const probe = defineProbe({
  name: 'runtime',
  description:
    "Docker (HTTP API on its socket) and containerd/CRI-O (CRI over gRPC) reachable within a timeout; version, storage driver, the pod's containers and sandboxes, their states and (Docker) running execs.",
  params,
  result,
  timeoutMs: 8000,
  run: checkRuntime,
});
