// What the runner tells the audit trail (src/audit): the plan an entry is about, who approved
// it (named in the User-Agent of its writes), each proposed plan watched until it expires, and
// how each run ended.

import { approversOf } from '../audit/approvals.js';
import type { AuditEntry, AuditSubject } from '../audit/entry.js';
import { watchExpiry } from '../audit/expiry.js';
import { appendAudit, DEFAULT_AUDIT_RETENTION_MS } from '../audit/stream.js';
import type { RedisClient } from '../redis/client.js';
import type { Plan } from './plan.js';
import type { RunResult } from './results.js';

/** The audit subject of a plan; the pod's UID when the plan pins one (its `pod-uid-is` check). */
export function planSubject(plan: Pick<Plan, 'id' | 'playbook' | 'target' | 'preconditions'>): AuditSubject {
  const uid = plan.preconditions.find((c) => c.check === 'pod-uid-is')?.uid;
  return { planId: plan.id, playbook: plan.playbook.id, target: plan.target, ...(typeof uid === 'string' && uid ? { uid } : {}) };
}

export interface RunAudit {
  /** Who approved the plan in chat ([] when nobody is on record). */
  approvers(planId: string): Promise<string[]>;
  /** A plan just proposed: record its expiry if nobody decides in time. */
  proposed(plan: Plan): Promise<void>;
  /** How a run ended. */
  ran(entry: AuditEntry): Promise<void>;
}

export function redisRunAudit(redis: RedisClient, prefix: string, options: { retentionMs?: number } = {}): RunAudit {
  const retentionMs = options.retentionMs ?? DEFAULT_AUDIT_RETENTION_MS;
  return {
    approvers: (planId) => approversOf(redis, prefix, planId),
    proposed: (plan) => watchExpiry(redis, prefix, { cluster: plan.cluster, ...planSubject(plan), expiresAt: Date.parse(plan.expiresAt) }),
    ran: async (entry) => {
      await appendAudit(redis, prefix, entry, { retentionMs });
    },
  };
}

/** The run's outcome in audit words: its verification when it completed, else its status. */
export function runOutcome(result: Pick<RunResult, 'status' | 'verification'>): AuditEntry['outcome'] | undefined {
  switch (result.status) {
    case 'completed':
      return result.verification?.outcome === 'fixed' ? 'fixed' : 'not-fixed';
    case 'refused':
    case 'failed':
    case 'stopped':
      return result.status;
    default:
      return undefined;
  }
}
