// lifecycle.poststart-failed: postStart hook fails: the kubelet kills the container it started.

import { containerSpec, escapeRe } from '../crashes.js';
import { clip, containerStatuses, eventCount, eventEvidence, formatDuration, isDeleting, newestFirst, secondsSince, statusEvidence } from '../facts.js';
import { msg, renderProse } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Event, Evidence, FindingDraft, Said } from '../types.js';

// A postStart hook that fails: the kubelet kills the container it just started and restarts it,
// so the pod crash-loops although the app itself is fine. Kubelet wording (1.24+):
//   FailedPostStartHook  Exec lifecycle hook ([/bin/sh -c /app/warmup.sh]) for Container "web" in Pod
//     "web-7d9f_shop(uid)" failed - error: command '/bin/sh -c /app/warmup.sh' exited with 1: , message: "..."
//   FailedPostStartHook  HTTP lifecycle hook (/warmup) for Container "web" in Pod "..." failed - error:
//     Get "http://10.244.1.5:8080/warmup": dial tcp 10.244.1.5:8080: connect: connection refused, message: ""
//   waiting PostStartHookError (older kubelets put the hook's error in the waiting message:
//     `PostStartHookError: command '/bin/sh -c ...' exited with 126: `).
// A hook that never returns is the other variant (terminating.exec-hang, seed 002).

const HOOK_CONTAINER = /for Container "([^"]+)"/;

const messages = {
  title: 'postStart hook of {{container}} fails',
  titleOutcome: 'postStart hook of {{container}} fails: {{outcome}}',
  // What the hook's failure says, as one phrase (the title clips it, the cause quotes it whole).
  exited: 'the command exited with {{code}}',
  exitedPrinted: 'the command exited with {{code}}; it printed "{{said}}"',
  error: 'error: {{error}}',
  errorPrinted: 'error: {{error}}; it printed "{{said}}"',
  printed: 'it printed "{{said}}"',
  // The cause's first sentence: the hook, then how often and when it failed, and its outcome.
  hookOf: 'The postStart hook of container "{{container}}"',
  hookOfWith: 'The postStart hook of container "{{container}}" ({{hook}})',
  failed: 'failed.',
  failedAgo: 'failed, last {{ago}} ago.',
  failedTimes: 'failed {{times}} times.',
  failedTimesAgo: 'failed {{times}} times, last {{ago}} ago.',
  failedOutcome: 'failed ({{outcome}}).',
  failedAgoOutcome: 'failed, last {{ago}} ago ({{outcome}}).',
  failedTimesOutcome: 'failed {{times}} times ({{outcome}}).',
  failedTimesAgoOutcome: 'failed {{times}} times, last {{ago}} ago ({{outcome}}).',
  killsContainer:
    'When a postStart hook fails the kubelet kills the container it has just started and restarts it with back-off, ' +
    'so the pod never becomes Ready even if the app is healthy.',
  runByHand:
    'Run the hook by hand while the container runs: kubectl exec -n {{namespace}} {{pod}} -c {{container}} -- {{command}}; ' +
    'a missing binary exits 126/127, a shell script without its interpreter fails the same way.',
  callByHand:
    'Call the hook endpoint by hand: postStart runs at the same time as the entrypoint, ' +
    'so an HTTP hook often hits an app that is not listening yet (connection refused).',
  notOrdered: 'A postStart hook is not ordered before the app: move the work into the entrypoint or an init container, or make the hook wait and retry.',
  prevent: 'Keep lifecycle hooks short, idempotent and tolerant of an app that is still starting; test them in CI with the image.',
} as const;
type Id = keyof typeof messages;

/** The hook's outcome as one phrase, rendered here because the title clips it; empty when the message says nothing. */
function hookOutcome(message: string): string {
  const exited = /exited with (\d+)/.exec(message)?.[1];
  const said = /message: "((?:[^"\\]|\\.)*)"/.exec(message)?.[1]?.replace(/\\n/g, ' ').trim();
  const error = /failed - error: (.*?)(?:, message: |$)/s.exec(message)?.[1];
  const printed = said ? clip(said, 200) : undefined;
  const outcome = exited
    ? printed !== undefined
      ? msg('exitedPrinted', { code: exited, said: printed })
      : msg('exited', { code: exited })
    : error
      ? printed !== undefined
        ? msg('errorPrinted', { error: clip(error, 200), said: printed })
        : msg('error', { error: clip(error, 200) })
      : printed !== undefined
        ? msg('printed', { said: printed })
        : undefined;
  return outcome ? renderProse(messages, outcome) : '';
}

/** The cause's "failed …" clause, by what is known: the count, the last time, the outcome. */
function failedClause(times: number, ago: string | undefined, outcome: string): Said<Id> {
  const many = times > 1;
  if (outcome) {
    if (ago !== undefined) return many ? msg('failedTimesAgoOutcome', { times, ago, outcome }) : msg('failedAgoOutcome', { ago, outcome });
    return many ? msg('failedTimesOutcome', { times, outcome }) : msg('failedOutcome', { outcome });
  }
  if (ago !== undefined) return many ? msg('failedTimesAgo', { times, ago }) : msg('failedAgo', { ago });
  return many ? msg('failedTimes', { times }) : msg('failed');
}

export const rule = defineRule({
  meta: {
    id: 'lifecycle.poststart-failed',
    title: 'postStart hook fails: the kubelet kills the container it started',
    category: 'lifecycle',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 50,
    supersedes: ['crash.app-exit'],
    doc:
      'FailedPostStartHook events ("Exec lifecycle hook (...) for Container ... failed - error: command ... exited with N", or an HTTP hook error) ' +
      'or the PostStartHookError state: the hook fails, so the kubelet kills and restarts the container although the app itself may be fine. ' +
      'The hanging variant is terminating.exec-hang.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isDeleting(pod)) return null;
    const out: FindingDraft<Id>[] = [];
    const hookEvents = newestFirst(snapshot.events).filter((e) => e.reason === 'FailedPostStartHook');
    for (const s of containerStatuses(pod)) {
      const name = s.status.name;
      const path = `spec.${s.init ? 'initContainers' : 'containers'}{${name}}`;
      const mine = hookEvents.filter((e: Event) =>
        e.involvedObject?.fieldPath
          ? e.involvedObject.fieldPath === path
          : HOOK_CONTAINER.exec(e.message ?? '')?.[1] === name || new RegExp(`\\b${escapeRe(name)}\\b`).test(e.message ?? ''),
      );
      const waiting = s.status.state?.waiting;
      const inState = waiting?.reason === 'PostStartHookError';
      const last = mine[0];
      const lastAgo = last ? secondsSince(snapshot, last.lastTimestamp ?? last.eventTime ?? undefined) : undefined;
      // Old failures of a container that runs and is ready now are history.
      if (!inState && (!last || (s.status.ready && (lastAgo ?? Infinity) > 600) || (lastAgo ?? Infinity) > 3600)) continue;
      const message = last?.message ?? waiting?.message ?? '';
      const spec = containerSpec(pod, name, s.init);
      const hook = spec?.lifecycle?.postStart;
      const hookText = hook?.exec
        ? `exec ${JSON.stringify(hook.exec.command ?? [])}`
        : hook?.httpGet
          ? `httpGet ${hook.httpGet.path ?? '/'} on port ${hook.httpGet.port}`
          : hook?.sleep
            ? `sleep ${hook.sleep.seconds}s`
            : undefined;
      const evidence: Evidence[] = [];
      if (last) evidence.push(eventEvidence(last));
      if (inState) evidence.push(statusEvidence(s, 'state', `PostStartHookError${waiting?.message ? `: ${clip(waiting.message)}` : ''}`));
      if (hookText) evidence.push({ source: `pod.spec.${s.init ? 'initContainers' : 'containers'}[${name}].lifecycle.postStart`, text: hookText });
      const outcome = hookOutcome(message);
      const times = mine.reduce((n, e) => n + eventCount(e), 0);
      out.push({
        title: outcome ? msg('titleOutcome', { container: name, outcome: clip(outcome, 80) }) : msg('title', { container: name }),
        cause: [
          hookText ? msg('hookOfWith', { container: name, hook: hookText }) : msg('hookOf', { container: name }),
          failedClause(times, lastAgo !== undefined ? formatDuration(lastAgo) : undefined, outcome),
          msg('killsContainer'),
        ],
        evidence,
        advice: [
          hook?.exec
            ? msg('runByHand', {
                namespace: pod.metadata?.namespace ?? '',
                pod: pod.metadata?.name ?? '',
                container: name,
                command: (hook.exec.command ?? []).join(' '),
              })
            : msg('callByHand'),
          msg('notOrdered'),
        ],
        prevent: [msg('prevent')],
        causeKey: `workload/${pod.metadata?.namespace ?? ''}/${name}:poststart`,
        params: { container: name, ...(hookText ? { hook: hookText } : {}) },
      });
    }
    return out;
  },
});
