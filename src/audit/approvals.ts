// Who approved a plan, read where the decision is made: the chat approval record that the
// approval state machine (src/chat/store/approvals.ts) writes in one Lua step before the plan is
// handed to a worker. Read-only, and only the fields audit needs: `status`, `expiresAt` (epoch
// ms), `required`, and `approvals` (src/redis/approval-hash.ts). The worker reads it to name the
// approvers in its User-Agent and to tell an approval that ran out from one that was decided.
import { parseApprovalEntries } from '../redis/approval-hash.js';
import type { RedisClient } from '../redis/client.js';
import { keys } from '../redis/keys.js';

export interface ApprovalView {
  status: string;
  expiresAt: number;
  required: number;
  /** Approvers in the order they approved. */
  approvers: string[];
}

export async function readApproval(redis: RedisClient, prefix: string, planId: string): Promise<ApprovalView | null> {
  const h = await redis.hgetall(keys.chat(prefix, 'approval', planId));
  if (!h.status) return null;
  const approvers = parseApprovalEntries(h.approvals)
    .map((e) => e.user)
    .filter(Boolean);
  return { status: h.status, expiresAt: Number(h.expiresAt), required: Number(h.required ?? 1), approvers };
}

/** The approvers of a plan that was approved (or is running or done); [] otherwise. */
export async function approversOf(redis: RedisClient, prefix: string, planId: string): Promise<string[]> {
  const a = await readApproval(redis, prefix, planId);
  return a && ['approved', 'running', 'done'].includes(a.status) ? a.approvers : [];
}
