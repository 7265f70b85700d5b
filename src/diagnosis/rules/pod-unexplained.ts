// pod.unexplained: Pod is unhealthy and no rule explains why.

import { mechanismRef } from '../crashes.js';
import { clip, containerStatuses, eventEvidence, eventTime, formatDuration, isDeleting, ms, newestFirst, secondsSince, statusEvidence } from '../facts.js';
import { msg, renderProse } from '../messages.js';
import { ownerCounts, ownerSatisfied, troubleConditions } from '../owners.js';
import { currentReading } from '../readings.js';
import { defineRule } from '../rule.js';
import type { Event, Evidence, FindingDraft, MessageData, OwnerFact, Pod, Snapshot } from '../types.js';

// The answer for a pod that is visibly broken in a way no rule knows. An empty answer reads as
// "healthy" in chat, which is the worst thing to tell an SRE at 3 a.m.; this says plainly that
// no rule matched and quotes what the cluster shows, so the human starts from the facts.

/** Creating containers (image pull, volume mounts) this long is normal. */
const CREATING_GRACE_SECONDS = 180;
/** Running but not Ready this long is not a slow start any more. */
const NOT_READY_SECONDS = 300;
/** Restarts and Warning events within this window count. */
const RECENT_SECONDS = 3600;
/** Waiting reasons that are part of a normal start. */
const STARTING = new Set(['ContainerCreating', 'PodInitializing']);

const messages = {
  // The signs of trouble: phrases that the title quotes and the cause lists (joined by `; `, both clipped).
  signPhase: 'phase {{phase}}',
  signPhaseWhy: 'phase {{phase}} ({{why}})',
  signNotScheduled: 'not scheduled for {{duration}}',
  signWaiting: '{{container}} waiting: {{reason}}',
  signWaitingFor: '{{container}} waiting: {{reason}} for {{duration}}',
  signTerminated: '{{container}} terminated: {{reason}} (exit {{exitCode}})',
  signRestartedOnce: '{{container}} restarted {{count}} time, last {{ago}} ago ({{reason}} {{exitCode}})',
  signRestarted: '{{container}} restarted {{count}} times, last {{ago}} ago ({{reason}} {{exitCode}})',
  signDisrupted: 'disrupted: {{reason}}',
  signNotReady: 'Running but not Ready for {{duration}}',
  warningEvent: '{{count}} Warning event in the last hour',
  warningEvents: '{{count}} Warning events in the last hour',
  reasonEvents: '{{reason}} events',
  readyNowTitle: '{{pod}} is Ready now; earlier trouble ({{what}})',
  mechanismTitle: '{{pod}} is unhealthy ({{what}}): {{summary}}',
  mechanism: "Container {{container}}'s own log says why: {{explanation}}",
  decisiveLine: 'The decisive line ({{source}}): "{{line}}".',
  knob: '{{knob}}',
  unhealthyTitle: '{{pod}} is unhealthy ({{what}}); no rule matched',
  readyNow: 'The pod runs and is Ready now. Earlier: {{summary}}. Nothing needs doing unless it repeats; the evidence below is what the cluster reports.',
  unhealthy:
    "The pod is unhealthy: {{summary}}. None of pod-doctor's rules recognises this, so it cannot name a root cause; " +
    'the evidence below is exactly what the cluster reports.',
  checksMissed: 'Some checks could not run ({{checks}}), which may be why.',
  describePod: 'Read the quoted reasons and messages first: `kubectl describe pod -n {{namespace}} {{name}}` shows the same events in order.',
  previousLogs: 'For containers that restarted or exited: `kubectl logs -n {{namespace}} {{name}} -c <container> --previous`.',
  addRule: "If this is a failure mode pod-doctor should know, add a rule for it (src/diagnosis/rules/) with this pod's events as its fixture.",
  missingShortTitle: '{{pod}} does not exist: {{owner}} cannot create all its pods; no rule matched',
  missingTroubleTitle: '{{pod}} does not exist: {{owner}} reports trouble; no rule matched',
  missingReplacedTitle: '{{pod}} does not exist: {{owner}} has all its pods (it was replaced or scaled away)',
  noPod: 'There is no pod {{namespace}}/{{pod}}; its name points at {{owners}}.',
  noPodCounts: 'There is no pod {{namespace}}/{{pod}}; its name points at {{owners}} ({{counts}}).',
  noPodSatisfied: 'There is no pod {{namespace}}/{{pod}}; its name points at {{owners}}, which has the pods it wants.',
  noPodSatisfiedCounts: 'There is no pod {{namespace}}/{{pod}}; its name points at {{owners}} ({{counts}}), which has the pods it wants.',
  ownerStuck: "The owner's conditions and events below say what stops it; none of pod-doctor's rules recognises them.",
  replaced: 'The pod was replaced (a rollout, an eviction, a node drain) or scaled away; diagnose one of the current pods instead.',
  describeOwner: '`kubectl describe {{kind}} -n {{namespace}} {{name}}` shows the same conditions and events in order.',
  listPods: '`kubectl get pods -n {{namespace}}` lists the pods it has now.',
} as const;

type Id = keyof typeof messages;

/**
 * A sign's phrase, rendered here rather than by the engine: the title and the cause quote signs
 * clipped, and the cause key keeps the first one's words.
 */
function phrase(id: Id, data?: MessageData): string {
  return renderProse(messages, msg(id, data));
}

interface Sign {
  /** One line for the cause. */
  text: string;
  evidence?: Evidence;
  /** History, not the present: a restart of a container that runs and is Ready again. */
  past?: boolean;
}

/** Restarts this many or more within RESTARTS_RECENT_SECONDS are a loop, even while it is up. */
const RESTART_LOOP = 3;
const RESTARTS_RECENT_SECONDS = 900;

/** Seconds since the pod was created (scheduling counts) or, with `started`, since the kubelet took it. */
function ageOf(snapshot: Snapshot, pod: Pod, started = false): number | undefined {
  const created = pod.metadata?.creationTimestamp;
  return secondsSince(snapshot, started ? (pod.status?.startTime ?? created) : (created ?? pod.status?.startTime));
}

function readyCondition(pod: Pod) {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

/** What makes this pod unhealthy now; empty for a healthy, finished or still-starting pod. */
export function unhealthySigns(snapshot: Snapshot, pod: Pod, pendingGraceSeconds: number): Sign[] {
  const signs: Sign[] = [];
  const phase = pod.status?.phase;
  const age = ageOf(snapshot, pod);
  const onNode = ageOf(snapshot, pod, true);
  if (phase === 'Failed' || phase === 'Unknown') {
    const why = [pod.status?.reason, pod.status?.message].filter(Boolean).join(': ');
    signs.push({
      text: why ? phrase('signPhaseWhy', { phase, why: clip(why, 200) }) : phrase('signPhase', { phase }),
      evidence: { source: 'pod.status.phase', text: `${phase}${why ? `: ${clip(why)}` : ''}` },
    });
  }
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (phase === 'Pending' && !pod.spec?.nodeName && (age ?? 0) > pendingGraceSeconds) {
    signs.push({
      text: phrase('signNotScheduled', { duration: formatDuration(age ?? 0) }),
      evidence: {
        source: 'pod.status.conditions[PodScheduled]',
        text: [scheduled?.reason, scheduled?.message].filter(Boolean).join(': ') || 'no PodScheduled condition',
      },
    });
  }
  for (const s of containerStatuses(pod)) {
    const waiting = s.status.state?.waiting;
    const what = `${s.init ? 'init container' : 'container'} ${s.status.name}`;
    if (waiting?.reason && (!STARTING.has(waiting.reason) || (onNode ?? 0) > CREATING_GRACE_SECONDS)) {
      signs.push({
        text: !STARTING.has(waiting.reason)
          ? phrase('signWaiting', { container: what, reason: waiting.reason })
          : phrase('signWaitingFor', { container: what, reason: waiting.reason, duration: formatDuration(onNode ?? 0) }),
        evidence: statusEvidence(s, 'state', `waiting: ${waiting.reason}${waiting.message ? `: ${clip(waiting.message)}` : ''}`),
      });
    }
    const term = s.status.state?.terminated;
    // A terminated init container with exit 0 is done, and so is any container of a finished pod.
    if (term && term.exitCode !== 0 && phase !== 'Succeeded') {
      signs.push({
        text: phrase('signTerminated', { container: what, reason: term.reason ?? 'Error', exitCode: String(term.exitCode) }),
        evidence: statusEvidence(
          s,
          'state',
          `terminated: ${term.reason ?? 'Error'}, exit code ${term.exitCode}${term.message ? `: ${clip(term.message)}` : ''}`,
        ),
      });
    }
    const last = s.status.lastState?.terminated;
    const lastAgo = secondsSince(snapshot, last?.finishedAt);
    if ((s.status.restartCount ?? 0) > 0 && last && lastAgo !== undefined && lastAgo <= RECENT_SECONDS) {
      // Up and Ready again after a restart or two is over; a restart loop is not, even between crashes.
      const over =
        Boolean(s.status.state?.running) && s.status.ready !== false && !((s.status.restartCount ?? 0) >= RESTART_LOOP && lastAgo <= RESTARTS_RECENT_SECONDS);
      signs.push({
        past: over,
        text: phrase(s.status.restartCount === 1 ? 'signRestartedOnce' : 'signRestarted', {
          container: what,
          count: String(s.status.restartCount),
          ago: formatDuration(lastAgo),
          reason: last.reason ?? 'exit',
          exitCode: String(last.exitCode),
        }),
        evidence: statusEvidence(
          s,
          'lastState',
          `terminated: ${last.reason ?? 'Error'}, exit code ${last.exitCode}, finished ${last.finishedAt}${last.message ? `: ${clip(last.message)}` : ''}`,
        ),
      });
    }
  }
  // 1.26+: why the pod is being disrupted (preemption, eviction, node shutdown, taint manager).
  const disruption = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
  if (disruption && signs.length > 0) {
    signs.push({
      text: phrase('signDisrupted', { reason: disruption.reason ?? 'DisruptionTarget' }),
      evidence: { source: 'pod.status.conditions[DisruptionTarget]', text: [disruption.reason, disruption.message].filter(Boolean).join(': ') },
    });
  }
  const ready = readyCondition(pod);
  const notReadyFor = ready?.status === 'False' ? secondsSince(snapshot, ready.lastTransitionTime) : undefined;
  if (phase === 'Running' && notReadyFor !== undefined && notReadyFor > NOT_READY_SECONDS) {
    signs.push({
      text: phrase('signNotReady', { duration: formatDuration(notReadyFor) }),
      evidence: { source: 'pod.status.conditions[Ready]', text: [ready?.reason, ready?.message].filter(Boolean).join(': ') || 'False' },
    });
  }
  return signs;
}

/**
 * Warning events still relevant: seen in the last hour and, for a Ready pod, after it became
 * Ready (probe failures during a rollout's start are history once the pod is Ready).
 */
export function recentWarnings(snapshot: Snapshot, pod: Pod): Event[] {
  const ready = readyCondition(pod);
  const readySince = ready?.status === 'True' ? ms(ready.lastTransitionTime) : undefined;
  const seen = new Set<string>();
  return newestFirst(snapshot.events).filter((e) => {
    if (e.type !== 'Warning') return false;
    const ago = secondsSince(snapshot, eventTime(e));
    if (ago === undefined || ago > RECENT_SECONDS) return false;
    if (readySince !== undefined && (ms(eventTime(e)) ?? 0) <= readySince + 5000) return false;
    const key = `${e.reason}|${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A pod that does not exist, seen through its owner: stuck (wants more pods than it has, a
 * condition or recent warnings say why not) is a warning that quotes the owner; an owner with all
 * its pods means the pod was replaced or scaled away, which is worth saying but not an alarm.
 */
function missingPod(snapshot: Snapshot): FindingDraft<Id> | null {
  const missing = snapshot.missingPod;
  const owners = snapshot.owners ?? [];
  const owner = owners[0];
  if (!missing || !owner || snapshot.target.kind !== 'pod') return null;
  const ns = snapshot.target.namespace;
  const label = (o: OwnerFact) => `${o.kind} ${o.name}`;
  const conditions = owners.flatMap((o) => troubleConditions(o).map((c) => ({ o, c })));
  const warnings = owners.flatMap((o) =>
    newestFirst(o.events)
      .filter((e) => e.type === 'Warning' && (secondsSince(snapshot, eventTime(e)) ?? Infinity) <= RECENT_SECONDS)
      .map((e) => ({ o, e })),
  );
  const short = owners.filter((o) => ownerSatisfied(o.object) === false);
  const stuck = short.length > 0 || conditions.length > 0 || warnings.length > 0;
  const counts = ownerCounts(owner.object);
  const evidence: Evidence[] = [
    ...conditions.slice(0, 3).map(({ o, c }) => ({
      source: `${label(o)} status.conditions[${c.type}]`,
      text: [c.reason, c.message ? clip(c.message) : undefined].filter(Boolean).join(': '),
    })),
    ...warnings.slice(0, 4).map(({ o, e }) => ({ ...eventEvidence(e), source: `${eventEvidence(e).source} on ${label(o)}`, text: clip(e.message ?? '') })),
  ];
  if (counts) evidence.push({ source: `${label(owner)} status`, text: counts });
  const podEvents = newestFirst(snapshot.events).slice(0, 2);
  for (const e of podEvents) evidence.push({ ...eventEvidence(e), source: `${eventEvidence(e).source} (the deleted pod)`, text: clip(e.message ?? '') });
  return {
    ...(stuck ? {} : { severity: 'info' as const }),
    title: msg(stuck ? (short.length > 0 ? 'missingShortTitle' : 'missingTroubleTitle') : 'missingReplacedTitle', {
      pod: missing.name,
      owner: label(owner),
    }),
    cause: [
      msg(stuck ? (counts ? 'noPodCounts' : 'noPod') : counts ? 'noPodSatisfiedCounts' : 'noPodSatisfied', {
        namespace: ns,
        pod: missing.name,
        owners: owners.map(label).join(' of '),
        counts,
      }),
      msg(stuck ? 'ownerStuck' : 'replaced'),
    ],
    evidence: evidence.length > 0 ? evidence : [{ source: `${label(owner)}`, text: 'exists; no pod of this name' }],
    advice: [msg('describeOwner', { kind: owner.kind.toLowerCase(), namespace: ns, name: owner.name }), msg('listPods', { namespace: ns })],
    causeKey: `pod/${ns}/${missing.name}:missing`,
    params: { owner: label(owner) },
  };
}

export const rule = defineRule({
  meta: {
    id: 'pod.unexplained',
    title: 'Pod is unhealthy and no rule explains why',
    category: 'pod',
    severity: 'warning',
    needs: ['pod', 'events', 'logs', 'access', 'dependencies'],
    priority: 1,
    fallback: true,
    doc:
      'The catch-all: the pod is visibly unhealthy (a waiting reason past a short grace, phase Failed/Unknown, not Ready for minutes, ' +
      'restarts or Warning events in the last hour) but no specific rule matched. ' +
      'Quotes the waiting/terminated reasons and the recent Warning events and says plainly that no rule matched, so a broken pod never gets an empty answer.',
    messages,
  },
  check(snapshot, ctx) {
    if (snapshot.missingPod) return missingPod(snapshot);
    const pod = snapshot.pod;
    if (!pod || snapshot.target.kind !== 'pod') return null;
    // Being deleted: within the grace period that is normal, past it the terminating rules speak.
    if (isDeleting(pod) || pod.status?.phase === 'Succeeded') return null;
    const signs = unhealthySigns(snapshot, pod, ctx.pendingGraceSeconds);
    const now = signs.filter((sign) => !sign.past);
    // A pod still starting (Pending within its grace) has Warning events on the way up
    // (FailedScheduling while the autoscaler adds a node): they count once the grace is over.
    const age = ageOf(snapshot, pod) ?? Infinity;
    const starting = pod.status?.phase === 'Pending' && age <= Math.max(ctx.pendingGraceSeconds, CREATING_GRACE_SECONDS);
    const warnings = starting ? [] : recentWarnings(snapshot, pod);
    if (signs.length === 0 && warnings.length === 0) return null;
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const summary =
      signs.length > 0 ? signs.map((s) => s.text).join('; ') : phrase(warnings.length === 1 ? 'warningEvent' : 'warningEvents', { count: warnings.length });
    const evidence: Evidence[] = [
      ...signs.flatMap((s) => (s.evidence ? [s.evidence] : [])),
      ...warnings.slice(0, 5).map((e) => ({ ...eventEvidence(e), text: clip(e.message ?? '') })),
    ];
    const missed = snapshot.gaps.map((g) => g.check);
    const firstReason = signs[0]?.text.replace(/ for .*$/, '') ?? warnings[0]?.reason ?? 'warnings';
    // Unhealthy now is a warning; a restart that is over or warnings on a pod that is Ready are history.
    const healthyNow = now.length === 0 && readyCondition(pod)?.status === 'True';
    const events = phrase('reasonEvents', { reason: warnings[0]?.reason ?? 'Warning' });
    // A container that runs without being Ready may say why in its own log (the mechanism catalogue reads it).
    const unready = healthyNow ? [] : containerStatuses(pod).filter((s) => s.status.state?.running && !s.status.ready);
    const found = unready.map((s) => ({ s, reading: currentReading(snapshot, s) })).find((x) => x.reading);
    const reading = found?.reading;
    if (reading) evidence.push(...reading.evidence);
    return {
      ...(healthyNow ? { severity: 'info' as const } : {}),
      title: healthyNow
        ? msg('readyNowTitle', { pod: name, what: clip(signs[0]?.text ?? events, 90) })
        : reading
          ? msg('mechanismTitle', { pod: name, what: clip(now[0]?.text ?? events, 90), summary: reading.summary })
          : msg('unhealthyTitle', { pod: name, what: clip(now[0]?.text ?? events, 90) }),
      cause: healthyNow
        ? msg('readyNow', { summary: clip(summary, 500) })
        : [
            msg('unhealthy', { summary: clip(summary, 500) }),
            found && reading && msg('mechanism', { container: found.s.status.name, explanation: reading.explanation }),
            reading && msg('decisiveLine', { source: reading.source, line: reading.line }),
            missed.length > 0 && msg('checksMissed', { checks: missed.join(', ') }),
          ],
      evidence,
      advice: [
        ...(reading?.knobs ?? []).map((knob) => msg('knob', { knob })),
        msg('describePod', { namespace: ns, name }),
        msg('previousLogs', { namespace: ns, name }),
        !reading && msg('addRule'),
      ],
      causeKey: `pod/${ns}/${name}:unexplained:${firstReason}`,
      params: { signs: signs.length, warnings: warnings.length },
      ...(reading ? { mechanism: mechanismRef(reading) } : {}),
    };
  },
});
