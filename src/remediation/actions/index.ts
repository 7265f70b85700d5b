// The one place step kinds are registered; the playbook loader refuses any other kind.

import { AGENT_STEPS } from './agent-step.js';
import { action as clearNamespaceFinalizers } from './clear-namespace-finalizers.js';
import { action as cordon } from './cordon.js';
import { action as deletePod } from './delete.js';
import { action as evict } from './evict.js';
import { action as forceDelete } from './force-delete.js';
import { action as rediagnose } from './rediagnose.js';
import { action as removeFinalizers } from './remove-finalizers.js';
import { action as rollback } from './rollback.js';
import { action as scale } from './scale.js';
import type { ActionDef } from './types.js';
import { action as wait } from './wait.js';

export type ActionRegistry = Readonly<Record<string, ActionDef>>;

const list: readonly ActionDef[] = [
  removeFinalizers,
  forceDelete,
  deletePod,
  evict,
  cordon,
  scale,
  rollback,
  clearNamespaceFinalizers,
  // The node agent's actions (src/agent/actions/types.ts), one step kind each.
  ...AGENT_STEPS,
  wait,
  rediagnose,
];

export const ACTIONS: ActionRegistry = Object.freeze(Object.fromEntries(list.map((a) => [a.kind, a])));

export function actionByKind(kind: string, registry: ActionRegistry = ACTIONS): ActionDef | undefined {
  return Object.hasOwn(registry, kind) ? registry[kind] : undefined;
}

export type { ActionDef, Recheck, StepContext, StepOutput } from './types.js';
