// The diagnose use case: collect the facts the rules need (src/collect), then run the rules over
// them (src/diagnosis). The CLI, the worker and the playbook runner's verification step all
// diagnose through this one function.

import { type AgentLookup, collectSnapshot } from '../collect/snapshot.js';
import type { FactSource } from '../collect/source.js';
import { diagnose, type EngineOptions, factsNeeded } from '../diagnosis/engine.js';
import type { Rule } from '../diagnosis/rule.js';
import { RULES } from '../diagnosis/rules/index.js';
import type { Diagnosis, Target } from '../diagnosis/types.js';

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
}

export async function diagnoseTarget(source: FactSource, target: Target, options: DiagnoseOptions): Promise<Diagnosis> {
  const rules = options.rules ?? RULES;
  const active = rules.filter((r) => options.overrides?.[r.meta.id]?.enabled !== false);
  const snapshot = await collectSnapshot(source, target, {
    cluster: options.cluster,
    needs: factsNeeded(active),
    timeoutMs: options.timeoutMs,
    checkSecrets: options.checkSecrets,
    now: options.now,
    agent: options.agent,
    agentSkipReason: options.agentSkipReason,
  });
  return diagnose(snapshot, {
    rules: active,
    overrides: options.overrides,
    ctx: options.pendingGraceSeconds !== undefined ? { pendingGraceSeconds: options.pendingGraceSeconds } : undefined,
  });
}
