// lifecycle.poststart-failed: postStart hook fails: the kubelet kills the container it started.

import { containerSpec, escapeRe } from '../crashes.js';
import { clip, containerStatuses, eventCount, eventEvidence, formatDuration, isDeleting, newestFirst, secondsSince, statusEvidence } from '../facts.js';
import { defineRule } from '../rule.js';
import type { Event, Evidence, FindingDraft } from '../types.js';

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

function hookOutcome(message: string): string {
  const exited = /exited with (\d+)/.exec(message)?.[1];
  const said = /message: "((?:[^"\\]|\\.)*)"/.exec(message)?.[1]?.replace(/\\n/g, ' ').trim();
  const error = /failed - error: (.*?)(?:, message: |$)/s.exec(message)?.[1];
  return [exited ? `the command exited with ${exited}` : error ? `error: ${clip(error, 200)}` : '', said ? `it printed "${clip(said, 200)}"` : '']
    .filter(Boolean)
    .join('; ');
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
    doc: 'FailedPostStartHook events ("Exec lifecycle hook (...) for Container ... failed - error: command ... exited with N", or an HTTP hook error) or the PostStartHookError state: the hook fails, so the kubelet kills and restarts the container although the app itself may be fine. The hanging variant is terminating.exec-hang.',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isDeleting(pod)) return null;
    const out: FindingDraft[] = [];
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
        title: `postStart hook of ${name} fails${outcome ? `: ${clip(outcome, 80)}` : ''}`,
        cause:
          `The postStart hook of container "${name}"${hookText ? ` (${hookText})` : ''} failed${times > 1 ? ` ${times} times` : ''}${lastAgo !== undefined ? `, last ${formatDuration(lastAgo)} ago` : ''}${outcome ? ` (${outcome})` : ''}. ` +
          'When a postStart hook fails the kubelet kills the container it has just started and restarts it with back-off, so the pod never becomes Ready even if the app is healthy.',
        evidence,
        advice: [
          hook?.exec
            ? `Run the hook by hand while the container runs: kubectl exec -n ${pod.metadata?.namespace ?? ''} ${pod.metadata?.name ?? ''} -c ${name} -- ${(hook.exec.command ?? []).join(' ')}; a missing binary exits 126/127, a shell script without its interpreter fails the same way.`
            : 'Call the hook endpoint by hand: postStart runs at the same time as the entrypoint, so an HTTP hook often hits an app that is not listening yet (connection refused).',
          'A postStart hook is not ordered before the app: move the work into the entrypoint or an init container, or make the hook wait and retry.',
        ],
        prevent: ['Keep lifecycle hooks short, idempotent and tolerant of an app that is still starting; test them in CI with the image.'],
        causeKey: `workload/${pod.metadata?.namespace ?? ''}/${name}:poststart`,
        params: { container: name, ...(hookText ? { hook: hookText } : {}) },
      });
    }
    return out;
  },
});
