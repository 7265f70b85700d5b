// The access policy (src/access/policy.ts) applied in chat: who may ask for a diagnosis where
// (the channel's scope, and the person's Slack user groups resolved through the approver
// policy's cache), and who may approve a plan and how many people it needs where it runs.
// Without a policy nothing here restricts, and approvals are the global and playbook lists.
import { approvalRule, mayDiagnose, type Place, type Verdict, whoMayDiagnose } from '../access/policy.js';
import type { Target } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { formatTarget } from '../kube/target.js';
import type { Plan } from '../remediation/plan.js';
import type { ChatContext } from './context.js';
import { accessRefusedMessage, accessUnverifiedMessage, askWhom } from './messages/messages.js';
import { type ChatMessage, serviceName } from './types.js';

/** A diagnosis the access policy refused; the person was told privately already. */
export class AccessRefused extends PodDoctorError {
  constructor(
    readonly target: Target,
    readonly reason: string,
  ) {
    super('NOT_AUTHORIZED', `not allowed to diagnose ${formatTarget(target)}: ${reason}`);
    this.name = 'AccessRefused';
  }
}

/** What a target is about for the policy: a pod's or a namespace's namespace; a node is cluster-wide. */
export function placeOf(cluster: string, target: Target): Place {
  if (target.kind === 'pod') return { cluster, namespace: target.namespace };
  if (target.kind === 'namespace') return { cluster, namespace: target.name };
  return { cluster };
}

/** `c1/shop`, or `cluster c1` for a node. */
export function placeText(place: Place): string {
  return place.namespace === undefined ? `cluster ${place.cluster}` : `${place.cluster}/${place.namespace}`;
}

/**
 * The verdict without I/O, for a command's acknowledgement: the channel part always, the user
 * group part when every group the policy names is cached; undefined when that needs a lookup.
 */
export function diagnoseVerdictNow(ctx: ChatContext, who: { channel: string; user?: string }, target: Target): Verdict | undefined {
  const policy = ctx.options.policy;
  if (!policy) return { ok: true };
  const place = placeOf(ctx.cluster, target);
  const channelOnly = mayDiagnose({ ...policy, usergroups: {} }, { channel: who.channel, groups: [] }, place);
  const groupIds = Object.keys(policy.usergroups);
  if (!channelOnly.ok || groupIds.length === 0) return channelOnly;
  const groups = who.user === undefined ? undefined : ctx.options.approvers.cachedGroupsOf(who.user, groupIds);
  return groups && mayDiagnose(policy, { channel: who.channel, groups }, place);
}

/**
 * A diagnosis verdict in chat: the policy's, or `unresolved` when it turns on user groups that
 * could not be looked up (refused until they resolve: fail closed).
 */
export type DiagnoseVerdict = Verdict | { ok: false; reason: string; unresolved: string[]; service: string };

/**
 * May `user` in `channel` diagnose `target`? Their user groups are resolved (cached) when the
 * policy names any. A group that does not resolve counts against them only when it decides:
 * allowed through a group that did resolve, or refused even were they in it, the verdict stands.
 */
export async function diagnoseVerdict(ctx: ChatContext, who: { channel: string; user: string }, target: Target): Promise<DiagnoseVerdict> {
  const policy = ctx.options.policy;
  if (!policy) return { ok: true };
  const now = diagnoseVerdictNow(ctx, who, target);
  if (now) return now;
  const place = placeOf(ctx.cluster, target);
  const { groups, unresolved } = await ctx.options.approvers.groupsOf(who.user, Object.keys(policy.usergroups));
  const verdict = mayDiagnose(policy, { channel: who.channel, groups }, place);
  if (verdict.ok || unresolved.length === 0) return verdict;
  const evenIfIn = mayDiagnose(policy, { channel: who.channel, groups: [...groups, ...unresolved] }, place);
  if (!evenIfIn.ok) return evenIfIn;
  const service = groupService(ctx, who.channel);
  return { ok: false, reason: unresolvedReason(unresolved, service), unresolved, service };
}

/**
 * Who failed to answer a group lookup, by name: Mattermost for its channels, else Slack (the
 * console and the demo resolve Slack's groups).
 */
export function groupService(ctx: ChatContext, channel: string | undefined): string {
  const name = serviceName(ctx.adapter, channel);
  return name === 'Mattermost' ? name : 'Slack';
}

/** Why someone is refused while user groups do not resolve (said privately, with "try again"). */
export function unresolvedReason(groups: readonly string[], service = 'Slack'): string {
  const names = groups.map((g) => `user group ${g}`).join(' and ');
  return `${service} did not answer the lookup of ${names} just now, and your access depends on it`;
}

/** The private refusal of a diagnosis: the rule that refused it and whom to ask, or the groups that did not resolve and to retry. */
export function diagnoseRefusal(
  ctx: ChatContext,
  target: Target,
  verdict: { reason: string; unresolved?: string[]; service?: string },
  nothing = 'Nothing was queued.',
): ChatMessage {
  const what = `diagnose ${formatTarget(target)}`;
  if (verdict.unresolved)
    return accessUnverifiedMessage(ctx.cluster, { what, groups: verdict.unresolved, nothing, ...(verdict.service ? { service: verdict.service } : {}) });
  const ask = ctx.options.policy ? askWhom(whoMayDiagnose(ctx.options.policy, placeOf(ctx.cluster, target))) : '';
  return accessRefusedMessage(ctx.cluster, { what, why: sentence(verdict.reason), ask, nothing });
}

function sentence(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The access rule for a plan where it runs (the namespace's approvers, one or two people); undefined without one. */
export function planRule(ctx: ChatContext, plan: Pick<Plan, 'cluster' | 'target' | 'playbook' | 'risk'>) {
  const policy = ctx.options.policy;
  return policy ? approvalRule(policy, placeOf(plan.cluster, plan.target), { id: plan.playbook.id, risk: plan.risk }) : undefined;
}

/** Who may approve or deny a plan: the access rule's approvers, else the playbook's, else the global list. */
export function approversOf(ctx: ChatContext, plan: Pick<Plan, 'cluster' | 'target' | 'playbook' | 'risk' | 'approvers'>): readonly string[] {
  return ctx.options.approvers.listFor(planRule(ctx, plan)?.approvers ?? plan.approvers);
}

/**
 * How many people a plan needs and whether its requester is barred: what the plan asks (its
 * playbook and guards), raised, never lowered, by a two-person access rule, which also bars the
 * requester (the second person is someone else than who asked).
 */
export function approvalBar(
  ctx: ChatContext,
  plan: Pick<Plan, 'cluster' | 'target' | 'playbook' | 'risk'>,
  asked: 1 | 2,
): { required: 1 | 2; requireDifferent: boolean; twoPersonRule: boolean } {
  const twoPersonRule = planRule(ctx, plan)?.people === 2;
  return {
    required: twoPersonRule ? 2 : asked,
    requireDifferent: twoPersonRule || Boolean(ctx.options.requireDifferentApprover),
    twoPersonRule,
  };
}
