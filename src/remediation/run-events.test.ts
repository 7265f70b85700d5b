import { describe, expect, it } from 'vitest';
import { silent } from '../../test/helpers/logger.js';
import type { Plan } from './plan.js';
import { type FixRecorder, remediateProcessor } from './run-events.js';
import type { RunResult } from './runner.js';

const plan = { id: 'pl_aaaaaaaaaaaaaaaa', playbook: { id: 'recreate-pod', title: 't' }, recurrence: 'crash.subpath-missing|Deployment web|node-1' } as Plan;
const result = (over: Partial<RunResult>): RunResult => ({ runId: plan.id, planId: plan.id, status: 'completed', steps: [], ...over });

async function run(r: RunResult, p: Plan | null = plan) {
  const recorded: [string | undefined, string][] = [];
  const record: FixRecorder = async (x, outcome) => {
    recorded.push([x.recurrence, outcome]);
  };
  const processor = remediateProcessor({ runPlan: async () => r, getPlan: async () => p }, { publish: async () => undefined }, 'prod', record);
  await processor({ v: 1, cluster: 'prod', proposalId: plan.id }, { jobId: 'j', logger: silent });
  return recorded;
}

const verification = (outcome: 'fixed' | 'not-fixed') => ({ outcome, remaining: [], findings: [], targetGone: false, expect: [], at: '' });

describe('remediateProcessor records the last fix', () => {
  it("under the plan's recurrence fingerprint, with the verification's outcome", async () => {
    expect(await run(result({ verification: verification('fixed') }))).toEqual([['crash.subpath-missing|Deployment web|node-1', 'fixed']]);
    expect(await run(result({ verification: verification('not-fixed') }))).toEqual([['crash.subpath-missing|Deployment web|node-1', 'not-fixed']]);
  });

  it('not for a run that was refused, reported again, or a plan without a fingerprint', async () => {
    expect(await run(result({ status: 'refused' }))).toEqual([]);
    expect(await run(result({ verification: verification('fixed'), alreadyRan: true }))).toEqual([]);
    expect(await run(result({ verification: verification('fixed') }), { ...plan, recurrence: undefined } as Plan)).toEqual([]);
  });
});
