// The diagnose use case: collect the facts the rules need (src/collect), then run the rules over
// them (src/diagnosis). The CLI, the worker and the playbook runner's verification step all
// diagnose through this one function.

import { bounded } from '../bounded.js';
import { type AgentLookup, collectSnapshot } from '../collect/snapshot.js';
import type { FactSource } from '../collect/source.js';
import { diagnose, type EngineOptions, factsNeeded } from '../diagnosis/engine.js';
import { type Mark, markObjectOf } from '../diagnosis/ignore.js';
import type { Rule } from '../diagnosis/rule.js';
import { RULES } from '../diagnosis/rules/index.js';
import type { Diagnosis, Target } from '../diagnosis/types.js';
import { beginSpan, runIn, settle, targetAttributes } from '../tracing/spans.js';

export interface DiagnoseOptions {
  cluster: string;
  rules?: readonly Rule[];
  overrides?: EngineOptions['overrides'];
  checkSecrets?: boolean;
  timeoutMs?: number;
  now?: () => Date;
  agent?: AgentLookup;
  agentSkipReason?: string;
  pendingGraceSeconds?: number;
  /** How far before the failure "what changed" looks (default 2 h). */
  changeWindowMinutes?: number;
  /** The Not a problem marks of an object (`shop/Deployment web`), where they are kept (the worker: Redis). */
  marks?: (object: string) => Promise<Mark[]>;
}

/** A diagnosis never waits long for its marks: without them it answers in full, and says so. */
const MARKS_TIMEOUT_MS = 2000;

// Each phase is a span (`collect`, `rules`: children of the job's when a worker diagnoses); the
// diagnosis module itself stays pure.
export async function diagnoseTarget(source: FactSource, target: Target, options: DiagnoseOptions): Promise<Diagnosis> {
  const rules = options.rules ?? RULES;
  const active = rules.filter((r) => options.overrides?.[r.meta.id]?.enabled !== false);
  const needs = factsNeeded(active);
  const where = targetAttributes(options.cluster, target);
  const collecting = beginSpan('collect', { attributes: { ...where, 'pod_doctor.facts': [...needs].sort() } });
  const collected = runIn(collecting.context, () =>
    collectSnapshot(source, target, {
      cluster: options.cluster,
      needs,
      timeoutMs: options.timeoutMs,
      checkSecrets: options.checkSecrets,
      now: options.now,
      agent: options.agent,
      agentSkipReason: options.agentSkipReason,
    }),
  );
  const snapshot = await settle(collecting, collected, (s) => ({ 'pod_doctor.gaps': s.gaps.length }));
  const { marks, marksError } = await readMarks(options, snapshot);
  const ruling = beginSpan('rules', { attributes: { ...where, 'pod_doctor.rules': active.length } });
  let diagnosis: Diagnosis;
  try {
    diagnosis = diagnose(snapshot, {
      rules: active,
      overrides: options.overrides,
      marks,
      ctx: {
        ...(options.pendingGraceSeconds !== undefined ? { pendingGraceSeconds: options.pendingGraceSeconds } : {}),
        ...(options.changeWindowMinutes !== undefined ? { changeWindowSeconds: options.changeWindowMinutes * 60 } : {}),
      },
    });
  } catch (err) {
    ruling.end(err);
    throw err;
  }
  if (marksError) diagnosis.ruleErrors.push({ rule: 'not-a-problem', error: marksError });
  ruling.set({
    'pod_doctor.findings': diagnosis.findings.length,
    'pod_doctor.finding.rules': diagnosis.findings.map((f) => f.rule),
    'pod_doctor.rule_errors': diagnosis.ruleErrors.length,
  });
  ruling.end();
  return diagnosis;
}

/** The marks of the snapshot's object; none (and why) when they could not be read in time. */
async function readMarks(options: DiagnoseOptions, snapshot: Parameters<typeof markObjectOf>[0]): Promise<{ marks: Mark[]; marksError?: string }> {
  const object = options.marks ? markObjectOf(snapshot) : undefined;
  if (!options.marks || object === undefined) return { marks: [] };
  const read = options.marks;
  const got = await bounded(MARKS_TIMEOUT_MS, () => read(object));
  if (got.status === 'done') return { marks: got.value };
  const why = got.status === 'timeout' ? `Redis did not answer within ${MARKS_TIMEOUT_MS / 1000} s` : String((got.error as Error)?.message ?? got.error);
  return { marks: [], marksError: `the Not a problem marks could not be read (${why}); nothing was hidden because of them` };
}
