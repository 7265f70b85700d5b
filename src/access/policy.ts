// Who may see and fix what, as a platform team writes it in the config file (`policy:`):
//   channels    channel → the clusters and namespaces commands there may diagnose
//               (`#shop-oncall` → `prod-*` / `shop*`), and its default cluster and namespace;
//   usergroups  user group → the clusters and namespaces its members may diagnose;
//   approvals   namespaces → who may approve which playbooks, and which risks need two people.
// Everything here is pure: the chat flows ask, with the user's groups already resolved.
import { z } from 'zod';
import { ANY_IDS, approverIdSchema, type ChatIds, channelIdSchema, groupIdSchema } from './ids.js';

/** A name or a glob with `*` (any run of characters): `prod-*`, `shop*`, `*`. */
const Glob = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.*_-]+$/, 'letters, digits, ".", "_", "-" and "*" only');

const Scope = z.strictObject({
  clusters: z.array(Glob).min(1).default(['*']),
  namespaces: z.array(Glob).min(1).default(['*']),
});

/**
 * The policy's schema for a surface's ids (`ids`: its adapter's parser). `PolicySchema` takes
 * any surface's ids; the config loader checks them again with the configured surface's.
 */
export function policySchema(ids: ChatIds) {
  return z.strictObject({
    /** Channel id or `*` (every other channel). With entries, a channel matching none is refused. */
    channels: z
      .record(
        channelIdSchema(ids, true),
        Scope.extend({
          defaultCluster: z.string().min(1).optional(),
          defaultNamespace: z.string().min(1).optional(),
        }),
      )
      .default({}),
    /** User group id → scope. With entries, a user must also be in a group whose scope allows the target. */
    usergroups: z.record(groupIdSchema(ids), Scope).default({}),
    /** First match wins; a target no rule matches falls back to the global approvers. */
    approvals: z
      .array(
        z.strictObject({
          clusters: z.array(Glob).min(1).default(['*']),
          namespaces: z.array(Glob).min(1),
          playbooks: z.array(Glob).min(1).default(['*']),
          approvers: z.array(approverIdSchema(ids)).min(1),
          /** Risks (the playbook's `risk`) that need two different people. */
          twoPersonRisks: z.array(z.enum(['low', 'medium', 'high'])).default(['high']),
        }),
      )
      .default([]),
  });
}

export const PolicySchema = policySchema(ANY_IDS);

export type Policy = z.infer<typeof PolicySchema>;
export type PolicyInput = z.input<typeof PolicySchema>;
export type Risk = 'low' | 'medium' | 'high';

/** The place a command or a fix is about. A node target has no namespace. */
export interface Place {
  cluster: string;
  namespace?: string | undefined;
}

export function globMatch(glob: string, value: string): boolean {
  if (!glob.includes('*')) return glob === value;
  const re = new RegExp(`^${glob.split('*').map(escapeRegExp).join('.*')}$`);
  return re.test(value);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

function inScope(scope: { clusters: readonly string[]; namespaces: readonly string[] }, place: Place): boolean {
  if (!scope.clusters.some((g) => globMatch(g, place.cluster))) return false;
  // A node (no namespace) is cluster-wide: only a scope that allows every namespace covers it.
  if (place.namespace === undefined) return scope.namespaces.includes('*');
  return scope.namespaces.some((g) => globMatch(g, place.namespace!));
}

/** The channel's entry: its own, else `*`, else none. */
export function channelEntry(policy: Policy, channel: string): Policy['channels'][string] | undefined {
  return policy.channels[channel] ?? policy.channels['*'];
}

export type Verdict = { ok: true } | { ok: false; reason: string };

/**
 * May a command from `user` (member of `groups`) in `channel` diagnose `place`? Without entries
 * for channels (or user groups) that part does not restrict: an empty policy allows everything.
 */
export function mayDiagnose(policy: Policy, who: { channel: string; groups: readonly string[] }, place: Place): Verdict {
  const where = place.namespace === undefined ? `cluster ${place.cluster}` : `${place.cluster}/${place.namespace}`;
  if (Object.keys(policy.channels).length > 0) {
    const entry = channelEntry(policy, who.channel);
    if (!entry) return { ok: false, reason: 'this channel is not set up for pod-doctor' };
    if (!inScope(entry, place)) return { ok: false, reason: `this channel may not diagnose ${where}` };
  }
  const groups = Object.entries(policy.usergroups);
  if (groups.length > 0) {
    const mine = groups.filter(([id]) => who.groups.includes(id));
    if (mine.length === 0) return { ok: false, reason: 'you are in none of the user groups that may use pod-doctor' };
    if (!mine.some(([, scope]) => inScope(scope, place))) return { ok: false, reason: `none of your user groups may diagnose ${where}` };
  }
  return { ok: true };
}

/**
 * Whom to ask when `place` is refused: the channels listed for it (`*` aside) and the user groups
 * whose scope allows it. Empty lists where that part does not restrict.
 */
export function whoMayDiagnose(policy: Policy, place: Place): { channels: string[]; usergroups: string[] } {
  return {
    channels: Object.entries(policy.channels)
      .filter(([id, scope]) => id !== '*' && inScope(scope, place))
      .map(([id]) => id),
    usergroups: Object.entries(policy.usergroups)
      .filter(([, scope]) => inScope(scope, place))
      .map(([id]) => id),
  };
}

/** Who approves a playbook on `place`, and how many different people its risk needs; undefined: no rule, the global approvers apply. */
export function approvalRule(policy: Policy, place: Place, playbook: { id: string; risk: Risk }): { approvers: string[]; people: 1 | 2 } | undefined {
  const rule = policy.approvals.find(
    (r) =>
      r.clusters.some((g) => globMatch(g, place.cluster)) &&
      (place.namespace === undefined ? r.namespaces.includes('*') : r.namespaces.some((g) => globMatch(g, place.namespace!))) &&
      r.playbooks.some((g) => globMatch(g, playbook.id)),
  );
  if (!rule) return undefined;
  return { approvers: [...rule.approvers], people: rule.twoPersonRisks.includes(playbook.risk) ? 2 : 1 };
}
