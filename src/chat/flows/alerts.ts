// Alertmanager groups in chat: one thread per group (and episode: a group that resolved and
// fires again gets a new thread) in the channel its route picked. The parent summarises the
// group (alert counts, the root causes its diagnoses found, each with its pods listed
// compactly); the thread gets what changed (alerts added or resolved, workloads expanded) and
// the findings of each root cause once, with its approval prompt: a storm of hundreds of
// alerts behind one cause is one set of findings and one growing list of pods.
// Events arrive on the alert-groups stream (src/alerts/groups.ts) and diagnoses on the results
// stream, in any order: whichever comes first creates the thread, with the counts it knows.
// A group costs one message besides its findings: opening, resolving and truncation show on the
// parent; alerts added and workloads expanded go to one thread note that is edited in place.
// That note carries the thread's controls (./group-controls.ts, clicks in ./silences.ts): Silence
// in Alertmanager, and Mute, which keeps new notes and findings out of the thread for a while
// (the parent keeps counting, and what the note missed shows with its next edit after the mute).
import type { Logger } from 'pino';
import type { AlertGroupEvent } from '../../alerts/group-events.js';
import { primaryFinding } from '../../jobs/incidents.js';
import type { AlertRequester, DiagnoseResult } from '../../jobs/schemas.js';
import { formatTarget, type Target } from '../../kube/target.js';
import { keys } from '../../redis/keys.js';
import { lua, runScript } from '../../redis/lua.js';
import { streamIdBefore } from '../../redis/streams.js';
import type { ChatContext, ThreadState } from '../context.js';
import { type AlertGroupState, clock, compactSubjects, findingsMessage, type GroupCause, noteMessage, type PlanOffer } from '../messages/messages.js';
import type { ThreadRecord } from '../store/threads.js';
import type { ChatMessage, MessageRef } from '../types.js';
import { controlParts, isMuted, saveCommonLabels } from './group-controls.js';
import { deliverIncident } from './incidents.js';
import { offerMarks } from './not-a-problem.js';
import { earlierThreads, rememberPosted, renderParent } from './parents.js';
import { offersFor, postPrompts } from './prompts.js';

type GroupThread = ThreadRecord<ThreadState>;

const MAX_CAUSES = 50;

// KEYS: 1 the group's current episode (`<episode> <stream id of its group-opened>`). ARGV: 1
// episode, 2 the event's stream id, 3 ttl s. The newest group-opened names the episode: one
// replayed late must not send later results back to an older thread.
const EPISODE_FORWARD = lua(
  `local ms, seq = string.match(ARGV[2], '^(%d+)-(%d+)$')
local cur = redis.call('GET', KEYS[1])
local cms, cseq = string.match(cur or '', ' (%d+)-(%d+)$')
if ms and cms then
  ms, seq, cms, cseq = tonumber(ms), tonumber(seq), tonumber(cms), tonumber(cseq)
  if cms > ms or (cms == ms and cseq > seq) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'EX', ARGV[3])
return 1`,
  1,
);
const SUBJECTS_KEPT = 5;
/** Lines the thread's alerts note keeps (newest); older ones are counted. */
const NOTE_LINES = 12;

type NoteTone = 'pending' | 'ok' | 'warning' | 'neutral';

interface AlertsNote {
  ts?: string;
  lines: string[];
  dropped: number;
  /** Tone of the last line (the note is drawn again when its controls change). */
  tone?: NoteTone;
}

function emptyState(cluster: string, groupId: string, episode: number, now: string): AlertGroupState {
  return {
    cluster,
    groupId,
    episode,
    status: 'firing',
    groupLabels: {},
    byAlertname: {},
    alertnames: [],
    firing: 0,
    resolved: 0,
    notDiagnosable: 0,
    truncatedAlerts: 0,
    causes: [],
    healthy: 0,
    notFound: 0,
    failed: 0,
    since: now,
    updatedAt: now,
  };
}

/** The alert-group flow of a chat context (one per context: it keeps no state of its own). */
const flows = new WeakMap<ChatContext, AlertGroupChat>();

export function alertGroups(ctx: ChatContext): AlertGroupChat {
  let flow = flows.get(ctx);
  if (!flow) flows.set(ctx, (flow = new AlertGroupChat(ctx)));
  return flow;
}

export class AlertGroupChat {
  private readonly log: Logger;
  /** Channel for groups whose route named none (POD_DOCTOR_ALERT_CHANNEL, `alertChannel` in the config file). */
  private readonly fallbackChannel: string | undefined;
  /** Alerts listed per notification in the thread; the rest are counted. */
  private readonly listed: number;

  constructor(private readonly ctx: ChatContext) {
    this.log = ctx.log.child({ component: 'alert-groups' });
    this.fallbackChannel = ctx.options.incidentChannel;
    this.listed = ctx.options.alertGroups?.listed ?? 10;
  }

  private episodeKey(groupId: string): string {
    return keys.chat(this.ctx.prefix, 'alert-episode', this.ctx.cluster, groupId);
  }

  private async currentEpisode(groupId: string): Promise<number> {
    return Number((await this.ctx.redis.get(this.episodeKey(groupId)))?.split(' ')[0]) || 1;
  }

  private channelOf(channel: string | null | undefined): string | undefined {
    return channel ?? this.fallbackChannel;
  }

  /** The group's thread for `episode`, creating its parent if nobody has, opened with what `seed` knows. */
  private async thread(channel: string, groupId: string, episode: number, seed: Partial<AlertGroupState> = {}, replyFollows = false): Promise<GroupThread> {
    const scope = `alert-group:${groupId}:${episode}`;
    const { thread } = await this.ctx.threads.ensure(channel, scope, async () => {
      const state: ThreadState = { kind: 'alert-group', ...emptyState(this.ctx.cluster, groupId, episode, new Date().toISOString()), ...seed };
      return { ref: await this.ctx.adapter.postRoot(channel, renderParent(state), { key: `${this.ctx.cluster}:${scope}`, replyFollows }), state };
    });
    return thread;
  }

  private patch(thread: GroupThread, mutate: (s: AlertGroupState) => AlertGroupState): Promise<void> {
    return this.ctx.parents.patch(thread.id, (s) => (s.kind === 'alert-group' ? { kind: 'alert-group', ...mutate(s) } : s));
  }

  // ---- group events ----

  /**
   * One event of the alert-groups stream; `id` (the stream entry id) makes it idempotent and
   * orders it: events are handled in stream order, but one that failed (a Redis error) is claimed
   * again after newer ones, so the parent takes an event's counts and status only when it is
   * newer than the one it shows, and the group's current episode only moves forward.
   */
  async event(e: AlertGroupEvent, id: string): Promise<void> {
    const channel = this.channelOf(e.channel);
    if (!channel) {
      this.log.warn({ groupId: e.groupId, type: e.type }, 'alert group has no channel (no route, no POD_DOCTOR_ALERT_CHANNEL); not posted');
      return;
    }
    if (e.type === 'group-opened') {
      // A new episode: later results of this group go to its new thread.
      await runScript(this.ctx.redis, EPISODE_FORWARD, [this.episodeKey(e.groupId)], [e.episode, id, 30 * 86_400]);
    }
    const counts = e.type === 'targets-expanded' ? {} : { ...this.counts(e), eventId: id };
    const thread = await this.thread(channel, e.groupId, e.episode, counts);
    const parent: MessageRef = { channel: thread.channel, ts: thread.ts };
    if (e.type === 'group-opened') await saveCommonLabels(this.ctx, thread.id, e.commonLabels);
    // Older than what the parent shows: its line says so, or it would read as the latest news.
    const late = thread.state.kind === 'alert-group' && streamIdBefore(id, thread.state.eventId);
    // Diagnoses are on their way: the group's alert list waits for its first findings (at the
    // channel's limit the findings are what the on-call engineer waits for).
    const answer = expectedKey(e.groupId);
    if ((e.type === 'group-opened' || e.type === 'alerts-added') && e.summary.diagnosable > 0 && !answered(thread))
      this.ctx.expected.expect(channel, answer, HOLD_NOTE_MS);
    await this.ctx.deliveries.once(`${this.ctx.cluster}:alert-event:${id}:${channel}`, async () => {
      const note = this.note(e);
      const hold = () => this.ctx.expected.pendingFor(channel, answer);
      if (note) await this.appendNote(thread, parent, `${late ? '(delivered late) ' : ''}${note.text}`, note.tone, new Date(e.at), hold);
    });
    if (e.type === 'targets-expanded') return;
    const alertnames = (s: AlertGroupState) =>
      [...new Set([...(s.alertnames ?? []), ...Object.keys(e.summary.byAlertname).filter((n) => n !== '(other)')])].slice(0, 50);
    await this.patch(thread, (s) => {
      if (streamIdBefore(id, s.eventId)) {
        this.log.info({ groupId: e.groupId, type: e.type, entry: id, shown: s.eventId }, 'alert group event older than the parent; its counts not applied');
        return { ...s, alertnames: alertnames(s) };
      }
      return {
        ...s,
        ...counts,
        alertnames: alertnames(s),
        status: e.type === 'group-resolved' ? 'resolved' : e.type === 'group-opened' || e.type === 'alerts-added' ? 'firing' : s.status,
      };
    });
  }

  /** What the parent shows of a group event: its receiver, labels and alert counts. */
  private counts(e: Exclude<AlertGroupEvent, { type: 'targets-expanded' }>): Partial<AlertGroupState> {
    return {
      receiver: e.receiver,
      groupLabels: e.groupLabels,
      byAlertname: e.summary.byAlertname,
      alertnames: Object.keys(e.summary.byAlertname)
        .filter((n) => n !== '(other)')
        .slice(0, 50),
      firing: e.summary.firing,
      resolved: e.summary.resolved,
      notDiagnosable: e.summary.notDiagnosable,
      truncatedAlerts: e.summary.truncatedAlerts,
    };
  }

  private noteKey(threadId: string): string {
    return keys.chat(this.ctx.prefix, 'alert-note', threadId);
  }

  /**
   * The thread's one alerts note: created by the first line, then edited with each new line
   * (newest kept, older counted), so a storm of notifications is one message, not hundreds.
   * Group events are handled in stream order (one at a time), so read-modify-write is safe.
   * While the thread is muted lines are kept but not shown: the first edit after shows them.
   */
  private async appendNote(thread: GroupThread, parent: MessageRef, line: string, tone: NoteTone, at: Date, holdWhile?: () => boolean): Promise<void> {
    const key = this.noteKey(thread.id);
    const note = await this.readNote(thread.id);
    // The event's own time: a line handled late says when it happened.
    note.lines.push(`${clock(Number.isNaN(at.getTime()) ? new Date() : at)} ${line}`);
    note.tone = tone;
    if (note.lines.length > NOTE_LINES) {
      note.dropped += note.lines.length - NOTE_LINES;
      note.lines = note.lines.slice(-NOTE_LINES);
    }
    if (await isMuted(this.ctx, thread.id)) {
      this.log.debug({ threadId: thread.id }, 'thread muted: alerts note not updated');
    } else {
      const message = await this.renderNote(thread.id, note);
      if (note.ts) await this.ctx.adapter.update({ channel: parent.channel, ts: note.ts }, message);
      else
        note.ts = (
          await this.ctx.adapter.postInThread(parent, message, { key: `alert-note:${thread.id}`, editedLater: true, ...(holdWhile ? { holdWhile } : {}) })
        )[0]?.ts;
    }
    await this.ctx.redis.set(key, JSON.stringify(note), 'EX', 30 * 86_400);
  }

  private async readNote(threadId: string): Promise<AlertsNote> {
    const raw = await this.ctx.redis.get(this.noteKey(threadId));
    return raw ? (JSON.parse(raw) as AlertsNote) : { lines: [], dropped: 0 };
  }

  private async renderNote(threadId: string, note: AlertsNote): Promise<ChatMessage> {
    const text = `${note.dropped > 0 ? `(${note.dropped} earlier updates not shown)\n` : ''}${note.lines.join('\n')}`;
    return noteMessage(this.ctx.cluster, text, note.tone ?? 'neutral', await controlParts(this.ctx, threadId));
  }

  /**
   * Draw the alerts note of `thread` again (its controls changed: silenced, muted…). A group
   * event editing the note at the same moment may win with the controls it read; the next
   * edit shows the current ones.
   */
  async refreshNote(thread: Pick<GroupThread, 'id' | 'channel'>): Promise<void> {
    const note = await this.readNote(thread.id);
    if (!note.ts) return;
    await this.ctx.adapter.update({ channel: thread.channel, ts: note.ts }, await this.renderNote(thread.id, note));
  }

  private note(e: AlertGroupEvent): { text: string; tone: NoteTone } | null {
    const listed = this.listed;
    switch (e.type) {
      // Opening, resolving and truncation are shown on the parent (counts, status), not as notes.
      case 'group-opened':
      case 'group-resolved':
      case 'truncated':
        return null;
      case 'alerts-added': {
        const shown = e.alerts
          .slice(0, listed)
          .map((a) => `${a.alertname} ${a.target ? targetText(a.target) : '(no target)'}${a.summary ? `: ${a.summary}` : ''}`);
        const more = e.alerts.length - shown.length + e.omitted;
        const nd = e.notDiagnosable.slice(0, 5).map((n) => `${n.alertname}: ${n.reason}`);
        const parts = [
          e.alerts.length + e.omitted > 0
            ? `${e.alerts.length + e.omitted} alert${e.alerts.length + e.omitted === 1 ? '' : 's'} firing: ` +
              `${shown.join('; ')}${more > 0 ? ` and ${more} more` : ''}.`
            : '',
          e.notDiagnosable.length
            ? `Not diagnosable: ${nd.join('; ')}${e.notDiagnosable.length > nd.length ? ` and ${e.notDiagnosable.length - nd.length} more` : ''}.`
            : '',
        ].filter(Boolean);
        return parts.length ? { text: parts.join(' '), tone: 'warning' } : null;
      }
      case 'alerts-resolved': {
        const n = e.alerts.length + e.omitted;
        const cancelled = e.alerts.reduce((sum, a) => sum + a.cancelledJobs, 0);
        const shown = e.alerts.slice(0, listed).map((a) => `${a.alertname} ${a.target ? targetText(a.target) : ''}`.trim());
        return {
          text:
            `Resolved: ${n} alert${n === 1 ? '' : 's'} (${shown.join('; ')}${n > shown.length ? ` and ${n - shown.length} more` : ''})` +
            `${cancelled ? `; ${cancelled} queued diagnos${cancelled === 1 ? 'is' : 'es'} cancelled` : ''}.`,
          tone: 'ok',
        };
      }
      case 'targets-expanded': {
        const w = `${e.workload.kind} ${e.workload.namespace}/${e.workload.name}`;
        if (e.error) return { text: `${w} (${e.alertname}): could not list its pods: ${e.error}`, tone: 'warning' };
        if (e.pods.length === 0) return { text: `${w} (${e.alertname}): ${e.total} pods, none unhealthy now.`, tone: 'neutral' };
        return {
          text:
            `${w} (${e.alertname}): ${e.unhealthy} of ${e.total} pods unhealthy; ` +
            `diagnosing ${e.pods.map((p) => `${p.name} (${p.reason})`).join(', ')}` +
            `${e.unhealthy > e.pods.length ? ` (${e.unhealthy - e.pods.length} more unhealthy pods not diagnosed: POD_DOCTOR_ALERT_MAX_PODS)` : ''}.`,
          tone: 'pending',
        };
      }
    }
  }

  // ---- diagnosis results ----

  /** A result some alert asked for: into its group's thread, grouped by root cause. */
  async result(result: DiagnoseResult): Promise<void> {
    const alerts = result.requesters.filter((r): r is AlertRequester => r.kind === 'alert');
    const groups = new Map<string, { channel: string; groupId: string }>();
    for (const a of alerts) {
      const channel = this.channelOf(a.channel);
      if (!channel || !a.groupId) continue;
      groups.set(`${channel}|${a.groupId}`, { channel, groupId: a.groupId });
    }
    if (groups.size === 0) {
      // Older payloads without group ids: one thread per incident, as without the webhook.
      if (this.fallbackChannel) await deliverIncident(this.ctx, this.fallbackChannel, result, await offersFor(this.ctx, result));
      return;
    }
    const offers = await offersFor(this.ctx, result);
    // Before the group's own event arrives, the parent shows what the requesters say: which alerts fire.
    const byAlertname: Record<string, number> = {};
    for (const a of alerts) if (a.alertname) byAlertname[a.alertname] = (byAlertname[a.alertname] ?? 0) + 1;
    const seed: Partial<AlertGroupState> = { byAlertname, alertnames: Object.keys(byAlertname), firing: alerts.length };
    for (const g of groups.values()) {
      // Prompts in the channel wait for these findings; the group's alert list waits for them too.
      this.ctx.expected.expect(g.channel, expectedKey(g.groupId));
      try {
        // Opened by a diagnosis: its findings come right behind the parent (the channel keeps them the next turn).
        const thread = await this.thread(g.channel, g.groupId, await this.currentEpisode(g.groupId), seed, result.status === 'diagnosed');
        await this.ctx.deliveries.once(`${this.ctx.cluster}:${result.jobId}:alert-group:${thread.id}`, () => this.post(thread, result, offers));
      } finally {
        this.ctx.expected.arrived(g.channel, expectedKey(g.groupId));
      }
    }
  }

  /**
   * The findings of each root cause once per thread; later pods only grow its list. A muted
   * thread gets none, and does not count them as posted: a diagnosis of the cause after the mute posts them.
   */
  private async postFindings(thread: GroupThread, result: DiagnoseResult, offers: PlanOffer[], key: string): Promise<void> {
    const d = result.diagnosis;
    if (!d) return;
    if (await isMuted(this.ctx, thread.id)) {
      this.log.info({ jobId: result.jobId, threadId: thread.id, cause: key }, 'thread muted: findings not posted');
      return;
    }
    const incident = result.incident;
    const parent: MessageRef = { channel: thread.channel, ts: thread.ts };
    await this.ctx.deliveries.once(`${this.ctx.cluster}:alert-cause:${thread.id}:${key}`, async () => {
      await this.ctx.adapter.postInThread(
        parent,
        findingsMessage(d, {
          threadId: thread.id,
          offers,
          marks: await offerMarks(this.ctx, d, thread),
          ...(incident ? { incident } : {}),
          ...(result.recurrence ? { recurrence: result.recurrence, earlierThreads: await earlierThreads(this.ctx, thread.channel, result.recurrence) } : {}),
          note: `First diagnosis of this root cause in the group: ${formatTarget(d.target)}`,
        }),
        // What the on-call engineer waits for: ahead of other groups' parents and alert lists.
        { priority: 'answer', key: `alert-cause:${key}` },
      );
      await rememberPosted(this.ctx, thread, result);
      // Answered: the group's alert list and the channel's prompts (this one too) may go.
      if (thread.state.kind === 'alert-group') this.ctx.expected.arrived(thread.channel, expectedKey(thread.state.groupId));
      await postPrompts(this.ctx, parent, offers);
    });
  }

  private async post(thread: GroupThread, result: DiagnoseResult, offers: PlanOffer[]): Promise<void> {
    const d = result.diagnosis;
    const primary = d ? primaryFinding(d) : undefined;
    if (result.status !== 'diagnosed' || !d || !primary) {
      const kind = result.status === 'not-found' ? 'notFound' : result.status === 'failed' ? 'failed' : 'healthy';
      await this.patch(thread, (s) => ({ ...s, [kind]: s[kind] + 1 }));
      return;
    }
    const incident = result.incident;
    const key = incident?.id ?? `${primary.rule}|${primary.causeKey}`;
    await this.postFindings(thread, result, offers, key);
    const subject = primary.subject;
    await this.patch(thread, (s) => {
      const causes = [...s.causes];
      const i = causes.findIndex((c) => c.key === key);
      const current: GroupCause = i >= 0 ? causes[i]! : { key, title: primary.title, rule: primary.rule, severity: primary.severity, count: 0, subjects: [] };
      // The incident's count is exact and only grows, but results arrive in any order (an older
      // one carries a smaller count): keep the largest seen. Without an incident, count new subjects.
      const next = incident
        ? {
            ...current,
            subjects: incident.count >= current.count ? incident.subjects.slice(0, SUBJECTS_KEPT) : current.subjects,
            count: Math.max(current.count, incident.count),
          }
        : current.subjects.includes(subject)
          ? current
          : { ...current, subjects: [...current.subjects, subject].slice(0, SUBJECTS_KEPT), count: current.count + 1 };
      if (i >= 0) causes[i] = next;
      else if (causes.length < MAX_CAUSES) causes.push(next);
      return { ...s, causes };
    });
    this.log.info({ jobId: result.jobId, threadId: thread.id, cause: key, pods: compactSubjects([subject], 1) }, 'alert diagnosis posted');
  }
}

/** Whether a group's thread has heard from a diagnosis (findings, or a pod gone, failed or healthy). */
function answered(thread: GroupThread): boolean {
  const s = thread.state;
  return s.kind !== 'alert-group' || s.causes.length > 0 || s.notFound + s.failed + s.healthy > 0;
}

/**
 * How long a group's alert list waits for its first findings at most: a diagnosis usually answers
 * within seconds; a slower one lets the list go (it still comes after everything else queued).
 */
const HOLD_NOTE_MS = 5000;

/** The answer a channel expects for an alert group: its first findings. */
const expectedKey = (groupId: string) => `alert-group:${groupId}`;

function targetText(t: Target | { kind: 'workload'; workloadKind: string; namespace: string; name: string }): string {
  return t.kind === 'workload' ? `${t.workloadKind} ${t.namespace}/${t.name}` : formatTarget(t);
}
