// Diagnose the target again mid-playbook and report what it finds; with `requireGone`, stop
// the run when one of those rules still reports (the next steps would be pointless or unsafe).
import { z } from 'zod';
import { ruleIdSchema } from '../schema.js';
import { defineAction, StepError } from './types.js';

const params = z.object({ requireGone: z.array(ruleIdSchema).default([]) });

export const action = defineAction({
  kind: 'rediagnose',
  summary: 'Diagnose the target again (optionally stop when given rules still report)',
  params,
  destructive: false,
  timeoutMs: 60_000,
  describe: (p) => [`diagnose the target again${p.requireGone.length ? `; stop unless ${p.requireGone.join(', ')} no longer report` : ''}`],
  async run(ctx, p) {
    let findings;
    try {
      const d = await ctx.diagnose();
      if (d.missing) return { detail: 'the target no longer exists', data: { findings: [] } };
      findings = d.findings;
    } catch (err) {
      if ((err as { code?: string }).code === 'TARGET_NOT_FOUND') return { detail: 'the target no longer exists', data: { findings: [] } };
      throw err;
    }
    const rules = findings.map((f) => f.rule);
    const still = p.requireGone.filter((r) => findings.some((f) => f.rule === r || f.merged.includes(r)));
    if (still.length > 0) throw new StepError(`still reported: ${still.join(', ')}`);
    return { detail: rules.length ? `findings now: ${rules.join(', ')}` : 'no findings', data: { findings: rules } };
  },
});
