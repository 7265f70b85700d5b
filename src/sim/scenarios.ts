// Incident scenarios: a folder of saved objects plus `expected.yaml` saying what to diagnose,
// as of when, and which rule must rank first. Tests replay them; the demo serves them.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import type { KubeObject } from '../diagnosis/types.js';
import { canonicalTime, mapTimes } from '../kube/wire.js';
import { loadObjects } from './load.js';

export const ScenarioMeta = z.object({
  title: z.string(),
  /** Seed report this reproduces (`000`…`004`), when it does. */
  seed: z.string().optional(),
  target: z.string(),
  /** Evaluation time the objects' timestamps were written for. */
  now: z.string(),
  /** The rule that must rank first; `null` for negative fixtures (no warning or worse). */
  first: z.string().nullable(),
  /** Other rules that must also be reported. */
  also: z.array(z.string()).default([]),
  /** Rules that must not be reported. */
  absent: z.array(z.string()).default([]),
  /** Node agent fixture tree (relative to the scenario), for node-level scenarios. */
  node: z.string().optional(),
  /** With `node`: the rule that ranks first when no agent answers (API facts only), if not `first`. */
  firstWithoutAgent: z.string().nullable().optional(),
});
export type ScenarioMeta = z.infer<typeof ScenarioMeta>;

export interface Scenario {
  slug: string;
  dir: string;
  meta: ScenarioMeta;
  objects: KubeObject[];
}

export async function loadScenario(dir: string): Promise<Scenario> {
  const meta = ScenarioMeta.parse(parse(await readFile(join(dir, 'expected.yaml'), 'utf8')));
  const files = (await readdir(dir)).filter((f) => /\.(ya?ml|json)$/.test(f) && f !== 'expected.yaml').map((f) => join(dir, f));
  return { slug: dir.split('/').pop() ?? dir, dir, meta, objects: await loadObjects(files) };
}

export async function loadScenarios(root: string): Promise<Scenario[]> {
  const entries = (await readdir(root)).sort();
  const out: Scenario[] = [];
  for (const e of entries) {
    const dir = join(root, e);
    if ((await stat(dir)).isDirectory()) out.push(await loadScenario(dir));
  }
  return out;
}

/** Move every timestamp by `deltaMs` so a scenario written for `meta.now` looks live today. */
export function shiftTimes<T>(value: T, deltaMs: number): T {
  return mapTimes(value, (t) => (Number.isNaN(Date.parse(t)) ? t : canonicalTime(new Date(Date.parse(t) + deltaMs).toISOString())));
}
