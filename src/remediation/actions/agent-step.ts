// The step kinds that act through the node agent, one per entry of the agent's action table
// (src/agent/actions/types.ts) and named as it: the table gives each its own parameters, texts
// and request; here they get the parameters of their scope and agent refusals become step failures.
import { z } from 'zod';
import {
  type ActionRequest,
  type ActionResponse,
  AGENT_ACTION_TABLE,
  AGENT_ACTIONS,
  type AgentActionName,
  type AgentActionScope,
  type ScopeStepParams,
} from '../../agent/actions/types.js';
import { containerIdSchema } from '../../probes/probe.js';
import { AgentActionError } from '../agent-actions-client.js';
import { namespaceName, objectName, uidValue } from '../kube.js';
import { type ActionDef, defineAction, type StepContext, StepError, type StepOutput } from './types.js';

const podScopedParams = {
  node: objectName,
  namespace: namespaceName,
  pod: objectName,
  uid: uidValue,
  containerIds: z.array(containerIdSchema).max(32).default([]),
};

/** The parameters a step starts with, by scope: what the table's step functions are typed for. */
const SCOPE_PARAMS = {
  pod: podScopedParams,
  image: podScopedParams,
  node: { node: objectName },
} satisfies { [S in AgentActionScope]: { [P in keyof ScopeStepParams[S]]-?: z.ZodType<ScopeStepParams[S][P]> } };

/**
 * A table entry's step as a loop over the table sees it. Each entry's describe and toRequest are
 * checked against its own parameters and request in the table; here they take what the step's
 * schema (its scope's parameters and its own) parsed, and the client parses the request again by
 * the action's schema.
 */
interface AgentStepView {
  summary: string;
  destructive: boolean;
  timeoutMs: number;
  params: z.ZodRawShape;
  describe(p: z.output<z.ZodObject>): string[];
  toRequest(p: z.output<z.ZodObject>): ActionRequest<AgentActionName>;
  recheck?: 'not-done';
}

function agentStep(name: AgentActionName): ActionDef {
  const { scope } = AGENT_ACTION_TABLE[name];
  const step: AgentStepView = AGENT_ACTION_TABLE[name].step;
  const { recheck } = step;
  return defineAction({
    kind: name,
    summary: step.summary,
    params: z.object({ ...SCOPE_PARAMS[scope], ...step.params }),
    destructive: step.destructive,
    timeoutMs: step.timeoutMs,
    describe: (p) => step.describe(p),
    run: (ctx, p) => callAgent(ctx, name, step.toRequest(p)),
    ...(recheck && { recheck: async () => recheck }),
  });
}

/** One step kind per agent action, in table order. */
export const AGENT_STEPS: readonly ActionDef[] = AGENT_ACTIONS.map(agentStep);

export async function callAgent<K extends AgentActionName>(ctx: StepContext, action: K, input: ActionRequest<K>): Promise<StepOutput> {
  if (!ctx.agent) throw new StepError(`no node agent configured (POD_DOCTOR_AGENT_TOKEN): cannot ${action} on ${input.node}`);
  let res: ActionResponse;
  try {
    res = await ctx.agent.call(action, input, ctx.signal);
  } catch (err) {
    if (err instanceof AgentActionError) throw new StepError(err.message, { cause: err, status: err.status });
    throw err;
  }
  return { detail: `${input.node}: ${res.detail}`, data: { changed: res.changed, items: res.items } };
}
