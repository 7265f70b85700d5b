// A plan's chat approval record as Redis holds it: one hash per plan (keys.chat(prefix,
// 'approval', planId)), written by the approval state machine (src/chat/store/approvals.ts, in
// Lua) and also read by the worker's audit (src/audit/approvals.ts). The list fields' format
// lives here once.

/** One approval as `approvals` holds it: `user@ms`, joined by commas, in the order they came. */
export interface ApprovalEntry {
  user: string;
  at: number;
}

/** The `approvals` field: a user id may hold no `@`, so the last one splits. */
export function parseApprovalEntries(field: string | undefined): ApprovalEntry[] {
  return (field ?? '')
    .split(',')
    .filter(Boolean)
    .map((e) => {
      const at = e.lastIndexOf('@');
      return { user: e.slice(0, Math.max(0, at)), at: Number(e.slice(at + 1)) };
    });
}
