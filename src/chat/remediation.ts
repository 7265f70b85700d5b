// The chat side of remediation: findings get plans from the playbook runner (proposePlan);
// an approved plan becomes a `remediate.<cluster>` job that a worker runs
// (src/remediation/run-events.ts), whose events come back here as thread messages.
import type { Diagnosis, Finding } from '../diagnosis/types.js';
import type { Plan } from '../remediation/plan.js';
import type { Runner } from '../remediation/runner.js';
import type { Playbook } from '../remediation/schema.js';
/** What the chat flows need from the remediation side. */
export interface RemediationPort {
  playbook(id: string): Playbook | undefined;
  proposePlan(finding: Finding, diagnosis: Diagnosis): Promise<Plan>;
  getPlan(planId: string): Promise<Plan | null>;
}

export function remediationPort(runner: Pick<Runner, 'proposePlan' | 'getPlan'>, playbooks: readonly Playbook[]): RemediationPort {
  const byId = new Map(playbooks.map((p) => [p.id, p]));
  return {
    playbook: (id) => byId.get(id),
    proposePlan: (finding, diagnosis) => {
      const playbook = finding.playbook ? byId.get(finding.playbook) : undefined;
      if (!playbook) return Promise.reject(new Error(`no playbook ${finding.playbook ?? '(none)'} is installed`));
      return runner.proposePlan(finding, diagnosis, playbook);
    },
    getPlan: (planId) => runner.getPlan(planId),
  };
}
