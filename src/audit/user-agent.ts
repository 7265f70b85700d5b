// The User-Agent of a plan's writes: `pod-doctor/<version> (plan=<id>; approvedBy=<u1>,<u2>)`.
// The API server's audit log records it with every request, so a change made by the worker's
// service account still names the people who approved it.
import { USER_AGENT } from '../collect/kube-source.js';

/** Header-safe: ids keep letters, digits and `._@-`; anything else becomes `_`. */
const token = (s: string) => s.replace(/[^A-Za-z0-9._@-]/g, '_').slice(0, 128);

/**
 * `approvers` undefined: nobody approved in chat (`pod-doctor playbook run`, the operator's own
 * credentials name them); empty: a chat plan whose approvers are not on record (`unknown`).
 */
export function planUserAgent(planId: string, approvers?: readonly string[]): string {
  const who = approvers === undefined ? '' : `; approvedBy=${approvers.length ? approvers.map(token).join(',') : 'unknown'}`;
  return `${USER_AGENT} (plan=${token(planId)}${who})`;
}
