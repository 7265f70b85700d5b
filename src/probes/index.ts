// The probe registry, and the pipeline the agent runs for one pod: the independent probes first,
// then the ones that need their answers (mount-holders looks for the layer dirs the runtime
// reports and the busy paths the logs name; pod-network enters a process the processes probe found).
import { z } from 'zod';
import * as fsMounts from './fs-mounts.js';
import * as host from './host.js';
import * as journal from './journal.js';
import * as mountHolders from './mount-holders.js';
import * as podNetwork from './pod-network.js';
import { containerIdSchema, ipv4Schema, matchSchema, namespaceSchema, outcomeSchema, type ProbeEnv, podNameSchema, podUidSchema, runProbe } from './probe.js';
import * as processes from './processes.js';
import * as runtime from './runtime.js';
import type { AgentFacts, ProbeName, ProbeOutcome } from './types.js';

export const PROBES = {
  'mount-holders': mountHolders.probe,
  processes: processes.probe,
  'fs-mounts': fsMounts.probe,
  runtime: runtime.probe,
  'pod-network': podNetwork.probe,
  host: host.probe,
  journal: journal.probe,
} as const satisfies Record<ProbeName, unknown>;

export const PROBE_NAMES = Object.keys(PROBES) as ProbeName[];

export function isProbeName(name: string): name is ProbeName {
  return Object.hasOwn(PROBES, name);
}

/** Outcome schemas, for validating an agent's answer on the worker side. */
export const OUTCOME_SCHEMAS = {
  'mount-holders': outcomeSchema(mountHolders.result),
  processes: outcomeSchema(processes.result),
  'fs-mounts': outcomeSchema(fsMounts.result),
  runtime: outcomeSchema(runtime.result),
  'pod-network': outcomeSchema(podNetwork.result),
  host: outcomeSchema(host.result),
  journal: outcomeSchema(journal.result),
} as const satisfies Record<ProbeName, z.ZodType>;

/** The pod a diagnosis asks about, as the worker sends it. */
export const podRefSchema = z.object({
  uid: podUidSchema,
  namespace: namespaceSchema,
  name: podNameSchema,
  containerIds: z.array(containerIdSchema).max(32).default([]),
  podIp: ipv4Schema.optional(),
});
export type PodRef = z.infer<typeof podRefSchema>;

/** Agent-wide probe settings: a ProbeEnv without the per-run limit, plus per-probe limits. */
export type AgentProbeEnv = Omit<ProbeEnv, 'timeoutMs' | 'signal'> & { timeouts?: Partial<Record<ProbeName, number>> };

function envFor(env: AgentProbeEnv, name: ProbeName): ProbeEnv {
  return { ...env, timeoutMs: env.timeouts?.[name] ?? PROBES[name].timeoutMs };
}

/** Run one probe by name with raw (unvalidated) params. */
export async function runNamedProbe<K extends ProbeName>(name: K, rawParams: unknown, env: AgentProbeEnv): Promise<ProbeOutcome<K>> {
  // The registry maps each name to its own definition; the cast only forgets that link.
  const probe = PROBES[name] as unknown as Parameters<typeof runProbe>[0];
  return (await runProbe(probe, rawParams, envFor(env, name))) as ProbeOutcome<K>;
}

const isMatchText = (s: string) => matchSchema.safeParse(s).success;

/** Run the requested probes (default all) for one pod, in dependency order. */
export async function runPodProbes(pod: PodRef, names: readonly ProbeName[] | undefined, env: AgentProbeEnv): Promise<AgentFacts['probes']> {
  const want = new Set<ProbeName>(names && names.length > 0 ? names : PROBE_NAMES);
  const out: AgentFacts['probes'] = {};
  const run = async <K extends ProbeName>(name: K, params: unknown): Promise<void> => {
    if (!want.has(name)) return;
    out[name] = (await runNamedProbe(name, params, env)) as AgentFacts['probes'][K];
  };

  // Stage 1: independent probes. The processes and runtime answers feed stage 2, so run them
  // even when only a stage-2 probe was asked for.
  const needProcesses = want.has('processes') || want.has('pod-network');
  const needRuntime = want.has('runtime') || want.has('mount-holders');
  const needJournal = want.has('journal') || want.has('mount-holders');
  const [proc, rt, jr] = await Promise.all([
    needProcesses ? runNamedProbe('processes', { podUid: pod.uid, containerIds: pod.containerIds }, env) : undefined,
    needRuntime ? runNamedProbe('runtime', { podUid: pod.uid, containerIds: pod.containerIds }, env) : undefined,
    needJournal ? runNamedProbe('journal', { podUid: pod.uid, namespace: pod.namespace, name: pod.name, containerIds: pod.containerIds }, env) : undefined,
    run('fs-mounts', { podUid: pod.uid }),
    run('host', {}),
  ]);
  if (want.has('processes') && proc) out.processes = proc;
  if (want.has('runtime') && rt) out.runtime = rt;
  if (want.has('journal') && jr) out.journal = jr;

  // Stage 2: what to look for in mount tables, and where the pod's network namespace is.
  // Most specific first (the cap is 16): busy paths from the logs, layer dirs, sandboxes, containers, the UID.
  const match = new Set<string>();
  if (jr?.ok) {
    for (const m of jr.matches) {
      const path = m.captures.path;
      if (m.aboutPod && path && isMatchText(path)) match.add(path);
    }
  }
  if (rt?.ok) {
    for (const c of rt.docker.containers) {
      if (c.layerId) match.add(c.layerId);
      else if (c.rootfsMount && isMatchText(c.rootfsMount)) match.add(c.rootfsMount);
    }
    for (const c of rt.docker.containers) if (c.sandbox) match.add(c.id);
  }
  for (const id of pod.containerIds) match.add(id);
  match.add(pod.uid);
  const samplePid = (proc?.ok ? proc.samplePid : undefined) ?? (rt?.ok ? rt.docker.containers.find((c) => c.pid && c.state === 'running')?.pid : undefined);
  await Promise.all([
    run('mount-holders', { match: [...match].filter(isMatchText).slice(0, 16), podUid: pod.uid }),
    run('pod-network', { podUid: pod.uid, pid: samplePid, namespace: pod.namespace, name: pod.name, podIp: pod.podIp }),
  ]);
  return out;
}

export { fsMounts, host, journal, mountHolders, podNetwork, processes, runtime };
