// Wait a fixed time, or until a condition holds (the pod is gone, the node is Ready again, the
// namespace is gone, a rule no longer reports), polling the live state. Not meeting the
// condition in time continues by default: the final verification then says "not fixed".
import { z } from 'zod';
import { nodeNotReady } from '../../diagnosis/facts.js';
import { namespaceName, objectName, uidValue } from '../kube.js';
import { ruleIdSchema } from '../schema.js';
import type { StepContext } from './types.js';
import { defineAction, StepError } from './types.js';

const UNTIL = ['pod-gone', 'node-ready', 'namespace-gone', 'rule-gone'] as const;

const params = z
  .object({
    seconds: z.number().positive().max(3600).optional(),
    until: z.enum(UNTIL).optional(),
    namespace: namespaceName.optional(),
    pod: objectName.optional(),
    uid: uidValue.optional(),
    node: objectName.optional(),
    rule: ruleIdSchema.optional(),
    timeoutSeconds: z.number().positive().max(3600).default(120),
    pollSeconds: z.number().min(0.05).max(60).default(2),
    onTimeout: z.enum(['continue', 'fail']).default('continue'),
  })
  .refine((p) => p.seconds !== undefined || p.until !== undefined, { message: 'give `seconds` or `until`', path: ['until'] })
  .refine((p) => p.until !== 'pod-gone' || (p.namespace && p.pod), { message: 'until pod-gone needs namespace and pod', path: ['pod'] })
  .refine((p) => p.until !== 'node-ready' || p.node, { message: 'until node-ready needs node', path: ['node'] })
  .refine((p) => p.until !== 'namespace-gone' || p.namespace, { message: 'until namespace-gone needs namespace', path: ['namespace'] })
  .refine((p) => p.until !== 'rule-gone' || p.rule, { message: 'until rule-gone needs rule', path: ['rule'] });
type Params = z.output<typeof params>;

function what(p: Params): string {
  switch (p.until) {
    case 'pod-gone':
      return `pod ${p.namespace}/${p.pod}${p.uid ? ` (uid ${p.uid})` : ''} is gone`;
    case 'node-ready':
      return `node ${p.node} is Ready`;
    case 'namespace-gone':
      return `namespace ${p.namespace} is gone`;
    case 'rule-gone':
      return `a new diagnosis no longer reports ${p.rule}`;
    default:
      return '';
  }
}

async function holds(ctx: StepContext, p: Params): Promise<boolean> {
  switch (p.until) {
    case 'pod-gone': {
      const pod = await ctx.kube.getPod(p.namespace ?? '', p.pod ?? '');
      return !pod || (p.uid !== undefined && pod.metadata?.uid !== p.uid);
    }
    case 'node-ready': {
      const node = await ctx.kube.getNode(p.node ?? '');
      return node !== null && !nodeNotReady(node) && node.status?.conditions?.some((c) => c.type === 'Ready') === true;
    }
    case 'namespace-gone':
      return (await ctx.kube.getNamespace(p.namespace ?? '')) === null;
    case 'rule-gone': {
      const d = await ctx.diagnose().catch((err: unknown) => {
        // A target that no longer exists has no findings.
        if ((err as { code?: string }).code === 'TARGET_NOT_FOUND') return undefined;
        throw err;
      });
      return !d?.findings.some((f) => f.rule === p.rule || f.merged.includes(p.rule ?? ''));
    }
    default:
      return true;
  }
}

export const action = defineAction({
  kind: 'wait',
  summary: 'Wait some seconds, or until the pod/namespace is gone, the node Ready, or a rule no longer reports',
  params,
  destructive: false,
  timeoutMs: 120_000,
  timeoutFor: (p) => (p.until ? p.timeoutSeconds : (p.seconds ?? 0)) * 1000 + 10_000,
  describe: (p) => [p.until ? `wait up to ${p.timeoutSeconds}s until ${what(p)}` : `wait ${p.seconds}s`],
  async run(ctx, p) {
    if (!p.until) {
      await ctx.sleep((p.seconds ?? 0) * 1000);
      return { detail: `waited ${p.seconds}s` };
    }
    const started = Date.now();
    const deadline = started + p.timeoutSeconds * 1000;
    for (;;) {
      if (await holds(ctx, p)) return { detail: `${what(p)} after ${Math.round((Date.now() - started) / 1000)}s`, data: { met: true } };
      if (Date.now() >= deadline) break;
      await ctx.sleep(Math.min(p.pollSeconds * 1000, Math.max(0, deadline - Date.now())));
    }
    const text = `not met within ${p.timeoutSeconds}s: ${what(p)}`;
    if (p.onTimeout === 'fail') throw new StepError(text);
    return { detail: text, data: { met: false } };
  },
});
