// The controls of an Alertmanager group's thread: its Alertmanager silence (made from the thread
// by ./silences.ts) and its mute (the thread takes no new posts for a while; Alertmanager is not
// involved). Each is kept in Redis under the thread's id with a TTL that ends with it, so nothing
// has to clean up; the thread's alerts note (./alerts.ts) shows them with their buttons.
import { z } from 'zod';
import { SilenceMatcher, type SilencePort } from '../../alerts/silences.js';
import { keys } from '../../redis/keys.js';
import type { ChatContext } from '../context.js';
import { clock } from '../messages/messages.js';
import { type Button, type GroupAction, type Part, userRef } from '../types.js';

/** How long each Silence button silences. */
export const SILENCE_MS = { 'silence-1h': 3_600_000, 'silence-4h': 4 * 3_600_000, 'silence-24h': 24 * 3_600_000 } as const satisfies Partial<
  Record<GroupAction, number>
>;
export type SilenceAction = keyof typeof SILENCE_MS;
/** How long Mute keeps a thread quiet. */
export const MUTE_MS = 4 * 3_600_000;

export const SilenceRecord = z.object({
  id: z.string(),
  /** Who silenced (chat user id) and when; until when (ms). */
  by: z.string(),
  at: z.number(),
  until: z.number(),
  matchers: z.array(SilenceMatcher),
});
export type SilenceRecord = z.infer<typeof SilenceRecord>;

export const MuteRecord = z.object({ by: z.string(), until: z.number() });
export type MuteRecord = z.infer<typeof MuteRecord>;

/** The Alertmanager client of this bot (ChatOptions.silences); without it threads offer Mute only. */
export function silencePort(ctx: ChatContext): SilencePort | undefined {
  return ctx.options.silences;
}

type What = 'alert-silence' | 'alert-mute' | 'alert-common';
const keyOf = (ctx: ChatContext, what: What, threadId: string) => keys.chat(ctx.prefix, what, threadId);

async function read<T>(ctx: ChatContext, what: What, threadId: string, schema: z.ZodType<T>): Promise<T | null> {
  const raw = await ctx.redis.get(keyOf(ctx, what, threadId));
  if (!raw) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function currentSilence(ctx: ChatContext, threadId: string): Promise<SilenceRecord | null> {
  return read(ctx, 'alert-silence', threadId, SilenceRecord);
}

/** Kept until the silence ends (Alertmanager ends it then, whatever we do). */
export async function saveSilence(ctx: ChatContext, threadId: string, record: SilenceRecord): Promise<void> {
  const ttl = record.until - ctx.now();
  if (ttl > 0) await ctx.redis.set(keyOf(ctx, 'alert-silence', threadId), JSON.stringify(record), 'PX', ttl);
}

export async function clearSilence(ctx: ChatContext, threadId: string): Promise<void> {
  await ctx.redis.del(keyOf(ctx, 'alert-silence', threadId));
}

export function currentMute(ctx: ChatContext, threadId: string): Promise<MuteRecord | null> {
  return read(ctx, 'alert-mute', threadId, MuteRecord);
}

/** Mutes the thread unless it is muted already (false then). */
export async function saveMute(ctx: ChatContext, threadId: string, record: MuteRecord): Promise<boolean> {
  const ttl = record.until - ctx.now();
  if (ttl <= 0) return false;
  return (await ctx.redis.set(keyOf(ctx, 'alert-mute', threadId), JSON.stringify(record), 'PX', ttl, 'NX')) === 'OK';
}

export async function clearMute(ctx: ChatContext, threadId: string): Promise<boolean> {
  return (await ctx.redis.del(keyOf(ctx, 'alert-mute', threadId))) > 0;
}

export async function isMuted(ctx: ChatContext, threadId: string): Promise<boolean> {
  return (await ctx.redis.exists(keyOf(ctx, 'alert-mute', threadId))) === 1;
}

/** The group's common labels when it opened (only group-opened events carry them): matchers when it has no group labels. */
export async function saveCommonLabels(ctx: ChatContext, threadId: string, labels: Record<string, string>): Promise<void> {
  await ctx.redis.set(keyOf(ctx, 'alert-common', threadId), JSON.stringify(labels), 'EX', 30 * 86_400);
}

export function commonLabels(ctx: ChatContext, threadId: string): Promise<Record<string, string> | null> {
  return read(ctx, 'alert-common', threadId, z.record(z.string(), z.string()));
}

/**
 * What a silence of the group matches: its group labels (every alert of the group, now and later,
 * carries them: they are what Alertmanager grouped by). A group without any (a route without
 * `group_by`) falls back to the labels its alerts had in common when it opened, leaving out values
 * the intake clipped (they would match nothing). Null when there is nothing to match on.
 */
export function groupMatchers(groupLabels: Record<string, string>, common: Record<string, string> | null): SilenceMatcher[] | null {
  const grouped = Object.entries(groupLabels);
  const entries = grouped.length > 0 ? grouped : Object.entries(common ?? {}).filter(([, v]) => !(v.length === 256 && v.endsWith('…')));
  if (entries.length === 0) return null;
  return entries.sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => ({ name, value, isRegex: false, isEqual: true }));
}

/** `{alertname="KubePodCrashLooping", namespace="shop"}` */
export function matcherText(matchers: readonly SilenceMatcher[]): string {
  return `{${matchers.map((m) => `${m.name}${m.isEqual ? '' : '!'}${m.isRegex ? '=~' : '='}${JSON.stringify(m.value)}`).join(', ')}}`;
}

/** What the alerts note of thread `threadId` shows under its lines: silence and mute state, and their buttons. */
export async function controlParts(ctx: ChatContext, threadId: string): Promise<Part[]> {
  const [silence, mute] = await Promise.all([currentSilence(ctx, threadId), currentMute(ctx, threadId)]);
  const canSilence = silencePort(ctx) !== undefined;
  const state = [
    silence ? `Silenced in Alertmanager by ${userRef(silence.by)} until ${clock(silence.until)} (silence ${silence.id})` : '',
    mute ? `Thread muted by ${userRef(mute.by)} until ${clock(mute.until)}: new alerts and findings of the group are not posted here` : '',
  ].filter(Boolean);
  const button = (action: GroupAction, label: string): Button => ({ action, label, value: threadId });
  const buttons: Button[] = [
    ...(!canSilence
      ? []
      : silence
        ? [button('unsilence', 'Unsilence')]
        : [button('silence-1h', 'Silence 1h'), button('silence-4h', 'Silence 4h'), button('silence-24h', 'Silence 24h')]),
    mute ? button('unmute', 'Unmute') : button('mute', 'Mute 4h'),
    { action: 'writeup', label: 'Write-up', value: threadId },
  ];
  return [...(state.length ? [{ kind: 'context' as const, text: state.join(' · ') }] : []), { kind: 'actions', buttons }];
}
