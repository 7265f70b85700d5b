// Shared pieces of the steps that act through the node agent: the pod reference the agent
// scopes every action to, and turning agent refusals into step failures.
import { z } from 'zod';
import { containerIdSchema } from '../../probes/probe.js';
import type { ActionRequest, ActionResponse, AgentActionName } from '../../agent/actions/types.js';
import { AgentActionError } from '../agent-actions-client.js';
import { namespaceName, objectName, uidValue } from '../kube.js';
import type { StepContext, StepOutput } from './types.js';
import { StepError } from './types.js';

export const podScopedParams = {
  node: objectName,
  namespace: namespaceName,
  pod: objectName,
  uid: uidValue,
  containerIds: z.array(containerIdSchema).max(32).default([]),
};

export function podRef(p: { namespace: string; pod: string; uid: string; containerIds: string[] }) {
  return { uid: p.uid, namespace: p.namespace, name: p.pod, containerIds: p.containerIds };
}

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
