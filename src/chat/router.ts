// One bot, several clusters: a chat context per served cluster (cli/compose.ts builds each; they
// share the adapter, Redis, the queues and the approvers), and how a command or a click finds its
// own. With several clusters, a command names its cluster as `prod-eu:shop/web` (chat syntax: the target after the colon
// is parsed as ever), else the channel's `defaultCluster` in the access policy, else the bot's
// default cluster. A click finds the cluster in what it points at: the plan's approval record or
// the thread's state (every context's stores share one prefix, so any context reads them).
import { channelEntry } from '../access/policy.js';
import { DNS1123_LABEL } from '../kube/names.js';
import { isPlanId } from '../remediation/plan.js';
import type { ChatContext } from './context.js';
import { noteMessage } from './messages/messages.js';
import { readMarkOffer } from './store/marks.js';
import type { ChatMessage } from './types.js';

export interface ChatRouter {
  /** The bot's default cluster's context (POD_DOCTOR_CLUSTER). */
  readonly main: ChatContext;
  /** Every served cluster's context, by cluster name (the default's included). */
  readonly contexts: ReadonlyMap<string, ChatContext>;
}

export function createChatRouter(main: ChatContext, others: readonly ChatContext[] = []): ChatRouter {
  return { main, contexts: new Map([main, ...others].map((c) => [c.cluster, c])) };
}

/** A bot that serves one cluster (single-cluster callers, the console). */
export const singleCluster = (ctx: ChatContext): ChatRouter => createChatRouter(ctx);

export const servedList = (router: ChatRouter): string => [...router.contexts.keys()].join(', ');

export type CommandRoute = { kind: 'cluster'; ctx: ChatContext; text: string } | { kind: 'unknown'; ctx: ChatContext; message: ChatMessage };

/** `prod-eu:` at the start of a command (a DNS-1123 label and a colon). */
const PREFIX = new RegExp(`^(${DNS1123_LABEL}):(?=\\S)`);

/** The context a command text is for, and the text without its cluster prefix (no I/O). */
export function routeCommand(router: ChatRouter, text: string, channel: string): CommandRoute {
  // One cluster: commands read as they always have (no prefix, no channel default cluster).
  if (router.contexts.size === 1) return { kind: 'cluster', ctx: router.main, text };
  const trimmed = text.trim();
  const named = PREFIX.exec(trimmed);
  const policy = router.main.options.policy;
  const cluster = named?.[1] ?? (policy ? channelEntry(policy, channel)?.defaultCluster : undefined) ?? router.main.cluster;
  const ctx = router.contexts.get(cluster);
  if (ctx) return { kind: 'cluster', ctx, text: named ? trimmed.slice(named[0].length) : text };
  const how = named ? `There is no cluster "${cluster}" here` : `This channel's default cluster "${cluster}" (access policy) is not served here`;
  return {
    kind: 'unknown',
    ctx: router.main,
    message: noteMessage(
      router.main.cluster,
      `${how}: this bot serves ${servedList(router)}. Name one as <cluster>:<namespace>/<pod>; nothing was queued.`,
      'warning',
    ),
  };
}

/** The context of the plan a button decides (approve, deny, a denial's reason); the default when unknown (it answers "unknown or expired"). */
export async function contextForPlan(router: ChatRouter, planId: string): Promise<ChatContext> {
  if (router.contexts.size === 1 || !isPlanId(planId)) return router.main;
  const record = await router.main.approvals.get(planId);
  return (record && router.contexts.get(record.cluster)) || router.main;
}

/** The context of the thread a button belongs to (re-run, silence, mute); the default when unknown. */
export async function contextForThread(router: ChatRouter, threadId: string): Promise<ChatContext> {
  if (router.contexts.size === 1 || !/^[A-Za-z0-9_-]{1,32}$/.test(threadId)) return router.main;
  const thread = await router.main.threads.get(threadId);
  return (thread && router.contexts.get(thread.state.cluster)) || router.main;
}

/** The context of a Not a problem button: the cluster its finding was found in; the default when unknown. */
export async function contextForMark(router: ChatRouter, markId: string): Promise<ChatContext> {
  if (router.contexts.size === 1) return router.main;
  const offer = await readMarkOffer(router.main.redis, router.main.prefix, markId);
  return (offer && router.contexts.get(offer.cluster)) || router.main;
}

/** The context of a decision button: re-run and write-up point at a thread, approve and deny at a plan. */
export function contextForClick(router: ChatRouter, action: string, value: string): Promise<ChatContext> {
  if (action === 'not-a-problem') return contextForMark(router, value);
  return action === 'rerun' || action === 'writeup' ? contextForThread(router, value) : contextForPlan(router, value);
}
