// The fixes proposed with a diagnosis, by the worker: a plan for each of the top findings that
// name an installed playbook, resolved against the live cluster (the worker holds the cluster
// credentials) and stored under its id. The result carries the offers; chat only renders them
// and records approvals, so the bot needs no Kubernetes access.
import type { Logger } from 'pino';
import type { Diagnosis } from '../diagnosis/types.js';
import type { PlanOffer } from '../jobs/schemas.js';
import type { Runner } from './runner.js';
import type { Playbook } from './schema.js';

export interface OfferOptions {
  runner: Pick<Runner, 'proposePlan'>;
  playbooks: readonly Playbook[];
  /** Findings with a playbook that get an offer, top first (default 3). */
  max?: number;
  logger?: Logger;
}

/** `since`: when the diagnosis was asked for (see Runner.proposePlan). */
export type ProposeOffers = (diagnosis: Diagnosis, context?: { jobId?: string; since?: number }) => Promise<PlanOffer[]>;

export function offerProposer(options: OfferOptions): ProposeOffers {
  const byId = new Map(options.playbooks.map((p) => [p.id, p]));
  return async (diagnosis, context = {}) => {
    const offers: PlanOffer[] = [];
    for (const f of diagnosis.findings.filter((x) => x.playbook).slice(0, options.max ?? 3)) {
      const id = f.playbook!;
      const playbook = byId.get(id);
      if (!playbook) {
        offers.push({ fingerprint: f.fingerprint, playbook: id, notOffered: 'this playbook is not installed' });
        continue;
      }
      try {
        const plan = await options.runner.proposePlan(f, diagnosis, playbook, context.since === undefined ? {} : { since: context.since });
        offers.push({ fingerprint: f.fingerprint, playbook: id, planId: plan.id, approvals: plan.approvals, risk: plan.risk, expiresAt: plan.expiresAt });
        options.logger?.info({ jobId: context.jobId, planId: plan.id, playbook: id, rule: f.rule, approvals: plan.approvals, risk: plan.risk }, 'fix proposed');
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        offers.push({ fingerprint: f.fingerprint, playbook: id, notOffered: why.length > 300 ? `${why.slice(0, 300)}…` : why });
        options.logger?.info({ jobId: context.jobId, playbook: id, rule: f.rule, reason: why }, 'fix not proposed');
      }
    }
    return offers;
  };
}
