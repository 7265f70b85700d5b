// The chat side of remediation. Plans are proposed by the worker with each diagnosis (the
// result's `offers`, src/remediation/offers.ts); chat reads a stored plan to show and approve it,
// and an approved plan becomes a `remediate.<cluster>` job that a worker runs
// (src/remediation/run-events.ts), whose events come back here as thread messages. Nothing here
// needs the cluster: the bot runs without Kubernetes credentials in the split deployment.
import { isPlanId, type Plan } from '../remediation/plan.js';
import type { Playbook } from '../remediation/schema.js';
import type { RunStore } from '../remediation/store.js';

/** What the chat flows need from the remediation side. */
export interface RemediationPort {
  playbook(id: string): Playbook | undefined;
  getPlan(planId: string): Promise<Plan | null>;
}

/** Plans read from the run store (Redis) the workers write them to. */
export function remediationPort(plans: Pick<RunStore, 'loadPlan'>, playbooks: readonly Playbook[]): RemediationPort {
  const byId = new Map(playbooks.map((p) => [p.id, p]));
  return {
    playbook: (id) => byId.get(id),
    getPlan: (planId) => (isPlanId(planId) ? plans.loadPlan(planId) : Promise.resolve(null)),
  };
}
