// Facts the node agent returns, keyed by probe name. Each probe module owns the zod schema of its
// result (src/probes/<name>.ts); this file only derives the types rules read, so the diagnosis
// side imports no runtime code from the agent.
import type { z } from 'zod';
import type * as fsMounts from './fs-mounts.js';
import type * as host from './host.js';
import type * as journal from './journal.js';
import type * as mountHolders from './mount-holders.js';
import type * as podNetwork from './pod-network.js';
import type * as processes from './processes.js';
import type * as runtime from './runtime.js';

/** What each probe returns when it succeeds. */
export interface ProbeResults {
  'mount-holders': z.output<typeof mountHolders.result>;
  processes: z.output<typeof processes.result>;
  'fs-mounts': z.output<typeof fsMounts.result>;
  runtime: z.output<typeof runtime.result>;
  'pod-network': z.output<typeof podNetwork.result>;
  host: z.output<typeof host.result>;
  journal: z.output<typeof journal.result>;
}

export type ProbeName = keyof ProbeResults;

export interface ProbeFailure {
  ok: false;
  /** Why the probe could not finish (timeout, permission, missing file). */
  error: string;
  durationMs: number;
  timedOut?: boolean;
}

/** A probe's outcome: its result fields with `ok: true`, or a failure. Narrow on `ok`. */
export type ProbeOutcome<K extends ProbeName> = ({ ok: true; durationMs: number } & ProbeResults[K]) | ProbeFailure;

/** Facts from the node agent for one diagnosis; a probe is absent when it was not asked for. */
export interface AgentFacts {
  node: string;
  probes: { [K in ProbeName]?: ProbeOutcome<K> };
}

export type MountHolder = ProbeResults['mount-holders']['holders'][number];
export type MountCheck = ProbeResults['fs-mounts']['mounts'][number];
export type RuntimeContainer = ProbeResults['runtime']['docker']['containers'][number];
export type JournalMatch = ProbeResults['journal']['matches'][number];
export type StaticPods = NonNullable<ProbeResults['host']['staticPods']>;
export type StaticPodManifest = StaticPods['manifests'][number];
