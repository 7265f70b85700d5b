// Clicks on an Alertmanager group thread's controls (./group-controls.ts, shown on the thread's
// alerts note): Silence 1h/4h/24h creates an Alertmanager silence of the group (API v2, through
// ChatOptions.silences) with the clicker as its author and a link back to the thread, Unsilence
// expires it; Mute keeps new notes and findings out of the thread for a while, without
// Alertmanager. Anyone in the thread's channel may click; a click from anywhere else is refused,
// logged and said in the thread. Every outcome is said in the thread (who, until when, which
// silence) and on the note's buttons.
import { randomUUID } from 'node:crypto';
import { SilenceError, type SilencePort } from '../../alerts/silences.js';
import { keys } from '../../redis/keys.js';
import { releaseLock } from '../../redis/lua.js';
import { type ChatContext, type ThreadState, tell } from '../context.js';
import { clock, noteMessage } from '../messages/messages.js';
import type { ThreadRecord } from '../store/threads.js';
import { type GroupAction, type MessageRef, serviceName, type Tone, userRef } from '../types.js';
import { alertGroups } from './alerts.js';
import {
  clearMute,
  clearSilence,
  commonLabels,
  currentMute,
  currentSilence,
  groupMatchers,
  MUTE_MS,
  matcherText,
  SILENCE_MS,
  type SilenceAction,
  type SilenceRecord,
  saveMute,
  saveSilence,
  silencePort,
} from './group-controls.js';

export interface GroupActionInput {
  action: GroupAction;
  /** The button's value: the thread id (looked up, never trusted for anything else). */
  value: string;
  /** Chat user id, and their name when the medium tells it (the silence's author). */
  user: string;
  userName?: string;
  /** The channel the click came from: it must be the thread's. */
  channel?: string;
  /** A link to a message when the medium can make one (Slack: chat.getPermalink). */
  permalink?: (ref: MessageRef) => Promise<string | undefined>;
}

export interface GroupActionOptions {
  /** Default: ChatOptions.silences. */
  silences?: SilencePort;
  /** How long Mute lasts (default MUTE_MS; tests shorten it). */
  muteMs?: number;
}

export type GroupActionOutcome =
  | { kind: 'silenced'; silenceId: string; until: number }
  | { kind: 'unsilenced'; silenceId: string }
  | { kind: 'muted'; until: number }
  | { kind: 'unmuted' }
  | { kind: 'refused'; reason: 'unknown-thread' | 'other-channel' | 'not-configured' | 'busy' | 'no-matchers' | 'already' | 'not-active' | 'alertmanager' };

type AlertThread = ThreadRecord<Extract<ThreadState, { kind: 'alert-group' }>>;

// KEYS: 1 lock. ARGV: 1 token. Release the lock only if this click still holds it.
/** Longer than an Alertmanager call may take (its deadline is 10 s). */
const LOCK_MS = 30_000;

/** A click on a group thread's control, acknowledged already. */
export async function groupAction(ctx: ChatContext, input: GroupActionInput, options: GroupActionOptions = {}): Promise<GroupActionOutcome> {
  const log = ctx.log.child({ component: 'silences', action: input.action, user: input.user, threadId: input.value });
  const found = await ctx.threads.get(input.value);
  if (found?.state?.kind !== 'alert-group') {
    log.info('group action refused: unknown or expired thread');
    await tell(ctx, input.channel, input.user, 'This alert thread is unknown or has expired; nothing was changed.');
    return { kind: 'refused', reason: 'unknown-thread' };
  }
  const thread: AlertThread = { ...found, state: found.state };
  const parent: MessageRef = { channel: thread.channel, ts: thread.ts };
  if (input.channel !== thread.channel) {
    // The buttons live in the thread's channel; a click from elsewhere (a forged or forwarded payload) decides nothing.
    log.warn({ channel: input.channel ?? null, threadChannel: thread.channel }, 'group action refused: click from outside the thread channel');
    await tell(ctx, input.channel, input.user, "Only people in the alert thread's channel may silence or mute it; nothing was changed.");
    await say(
      ctx,
      parent,
      `${userRef(input.user)} tried to ${input.action.replace(/-.*/, '')} this group from another channel; refused, nothing was changed.`,
      'warning',
    );
    return { kind: 'refused', reason: 'other-channel' };
  }
  const port = options.silences ?? silencePort(ctx);
  const action = input.action;
  switch (action) {
    case 'silence-1h':
    case 'silence-4h':
    case 'silence-24h':
      return locked(ctx, thread, input, () => silence(ctx, thread, input, action, port));
    case 'unsilence':
      return locked(ctx, thread, input, () => unsilence(ctx, thread, input, port));
    case 'mute':
      return mute(ctx, thread, input, options.muteMs ?? MUTE_MS);
    case 'unmute':
      return unmute(ctx, thread, input);
  }
}

/** A note in the thread; a failure is logged (the click was acknowledged, its effect is done). */
async function say(ctx: ChatContext, parent: MessageRef, text: string, tone: Tone): Promise<void> {
  await ctx.adapter.postInThread(parent, noteMessage(ctx.cluster, text, tone)).catch((err: unknown) => ctx.log.warn({ err }, 'thread note failed'));
}

/** The alerts note with the controls as they are now; a failure is logged (what the click did is done and said). */
async function redraw(ctx: ChatContext, thread: AlertThread): Promise<void> {
  await alertGroups(ctx)
    .refreshNote(thread)
    .catch((err: unknown) => ctx.log.warn({ err, threadId: thread.id }, 'alerts note not redrawn'));
}

/** Silence and unsilence of one thread, one click at a time (two people clicking make one silence). */
async function locked(ctx: ChatContext, thread: AlertThread, input: GroupActionInput, work: () => Promise<GroupActionOutcome>): Promise<GroupActionOutcome> {
  const lock = keys.chat(ctx.prefix, 'alert-silence-lock', thread.id);
  const token = randomUUID();
  if ((await ctx.redis.set(lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK') {
    await tell(ctx, input.channel, input.user, 'Someone is changing the silence of this group right now; look at the thread in a moment.', 'neutral');
    return { kind: 'refused', reason: 'busy' };
  }
  try {
    return await work();
  } finally {
    await releaseLock(ctx.redis, lock, token);
  }
}

/** Where the silence's comment points: the thread's permalink, else its channel and ts. */
async function threadLink(ctx: ChatContext, thread: AlertThread, input: GroupActionInput): Promise<string> {
  const ref = { channel: thread.channel, ts: thread.ts };
  const link = await input.permalink?.(ref).catch((err: unknown) => {
    ctx.log.debug({ err, threadId: thread.id }, 'no permalink for the thread');
    return undefined;
  });
  return link ?? `${serviceName(ctx.adapter, thread.channel)} channel ${thread.channel}, thread ${thread.ts}`;
}

async function silence(
  ctx: ChatContext,
  thread: AlertThread,
  input: GroupActionInput,
  action: SilenceAction,
  port: SilencePort | undefined,
): Promise<GroupActionOutcome> {
  const log = ctx.log.child({ component: 'silences', user: input.user, threadId: thread.id });
  const parent = { channel: thread.channel, ts: thread.ts };
  if (!port) {
    await tell(ctx, input.channel, input.user, 'This bot has no Alertmanager to silence in (POD_DOCTOR_ALERTMANAGER_URL); Mute keeps the thread quiet.');
    return { kind: 'refused', reason: 'not-configured' };
  }
  const current = await currentSilence(ctx, thread.id);
  if (current) {
    await tell(
      ctx,
      input.channel,
      input.user,
      `Already silenced by ${userRef(current.by)} until ${clock(current.until)} (silence ${current.id}).`,
      'neutral',
      parent,
    );
    await redraw(ctx, thread);
    return { kind: 'refused', reason: 'already' };
  }
  const matchers = groupMatchers(thread.state.groupLabels ?? {}, await commonLabels(ctx, thread.id));
  if (!matchers) {
    await tell(ctx, input.channel, input.user, 'This group has no labels to match a silence on; silence it in Alertmanager itself.', 'warning', parent);
    return { kind: 'refused', reason: 'no-matchers' };
  }
  const ms = SILENCE_MS[action];
  const hours = `${ms / 3_600_000}h`;
  const now = ctx.now();
  const createdBy = input.userName && input.userName !== input.user ? `${input.userName} (${input.user})` : input.user;
  const comment = `Silenced for ${hours} from pod-doctor (cluster ${ctx.cluster}) by ${createdBy}: ${await threadLink(ctx, thread, input)}`;
  let id: string;
  try {
    id = (await port.create({ matchers, startsAt: new Date(now), endsAt: new Date(now + ms), createdBy, comment })).id;
  } catch (err) {
    log.warn({ err, matchers }, 'silence refused or failed');
    const why = err instanceof SilenceError ? err.message : 'Alertmanager call failed';
    await tell(ctx, input.channel, input.user, `Could not silence this group: ${why}. Nothing was silenced.`, 'error', parent);
    return { kind: 'refused', reason: 'alertmanager' };
  }
  const record: SilenceRecord = { id, by: input.user, at: now, until: now + ms, matchers };
  await saveSilence(ctx, thread.id, record);
  log.info({ silenceId: id, matchers, until: new Date(record.until).toISOString(), channel: input.channel }, 'group silenced in Alertmanager');
  await say(
    ctx,
    parent,
    `${userRef(input.user)} silenced this group in Alertmanager for ${hours}, until ${clock(record.until)} ` +
      `(silence ${id}): alerts matching ${matcherText(matchers)} notify nobody meanwhile.`,
    'info',
  );
  await redraw(ctx, thread);
  return { kind: 'silenced', silenceId: id, until: record.until };
}

async function unsilence(ctx: ChatContext, thread: AlertThread, input: GroupActionInput, port: SilencePort | undefined): Promise<GroupActionOutcome> {
  const log = ctx.log.child({ component: 'silences', user: input.user, threadId: thread.id });
  const parent = { channel: thread.channel, ts: thread.ts };
  const current = await currentSilence(ctx, thread.id);
  if (!current || !port) {
    await tell(ctx, input.channel, input.user, 'This group has no silence from this thread any more (it ended, or was expired).', 'neutral', parent);
    await redraw(ctx, thread);
    return { kind: 'refused', reason: !port ? 'not-configured' : 'not-active' };
  }
  let outcome: Awaited<ReturnType<SilencePort['expire']>>;
  try {
    outcome = await port.expire(current.id);
  } catch (err) {
    log.warn({ err, silenceId: current.id }, 'expiring the silence failed');
    const why = err instanceof SilenceError ? err.message : 'Alertmanager call failed';
    await tell(ctx, input.channel, input.user, `Could not expire silence ${current.id}: ${why}. It is still active.`, 'error', parent);
    return { kind: 'refused', reason: 'alertmanager' };
  }
  await clearSilence(ctx, thread.id);
  log.info({ silenceId: current.id, outcome, channel: input.channel }, 'group silence expired');
  await say(
    ctx,
    parent,
    `${userRef(input.user)} expired silence ${current.id} (set by ${userRef(current.by)}, until ${clock(current.until)})` +
      `${outcome === 'not-found' ? ', which Alertmanager no longer knew' : ''}: the group notifies again.`,
    'info',
  );
  await redraw(ctx, thread);
  return { kind: 'unsilenced', silenceId: current.id };
}

async function mute(ctx: ChatContext, thread: AlertThread, input: GroupActionInput, ms: number): Promise<GroupActionOutcome> {
  const parent = { channel: thread.channel, ts: thread.ts };
  const until = ctx.now() + ms;
  if (!(await saveMute(ctx, thread.id, { by: input.user, until }))) {
    const current = await currentMute(ctx, thread.id);
    await tell(ctx, input.channel, input.user, `Already muted${current ? ` by ${userRef(current.by)} until ${clock(current.until)}` : ''}.`, 'neutral', parent);
    await redraw(ctx, thread);
    return { kind: 'refused', reason: 'already' };
  }
  ctx.log.info({ component: 'silences', user: input.user, threadId: thread.id, until: new Date(until).toISOString() }, 'group thread muted');
  await say(
    ctx,
    parent,
    `${userRef(input.user)} muted this thread until ${clock(until)}: new alerts and findings of the group are not posted here meanwhile ` +
      '(the parent keeps counting; Alertmanager is unchanged).',
    'info',
  );
  await redraw(ctx, thread);
  return { kind: 'muted', until };
}

async function unmute(ctx: ChatContext, thread: AlertThread, input: GroupActionInput): Promise<GroupActionOutcome> {
  const parent = { channel: thread.channel, ts: thread.ts };
  if (!(await clearMute(ctx, thread.id))) {
    await tell(ctx, input.channel, input.user, 'This thread is not muted (any more).', 'neutral', parent);
    await redraw(ctx, thread);
    return { kind: 'refused', reason: 'not-active' };
  }
  ctx.log.info({ component: 'silences', user: input.user, threadId: thread.id }, 'group thread unmuted');
  await say(ctx, parent, `${userRef(input.user)} unmuted this thread: new alerts and findings of the group are posted here again.`, 'info');
  await redraw(ctx, thread);
  return { kind: 'unmuted' };
}
