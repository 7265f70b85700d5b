// readiness.failing: Running but not Ready: the readiness probe keeps failing.

import { escapeRe } from '../crashes.js';
import { clip, containerStatuses, eventCount, eventEvidence, eventTime, formatDuration, isDeleting, newestFirst, secondsSince } from '../facts.js';
import { probeSettings } from '../probe-spec.js';
import { defineRule } from '../rule.js';
import type { Container, Event, Evidence, FindingDraft } from '../types.js';

// Running but not Ready: the kubelet's readiness probe keeps failing, so the pod is out of its
// Services' endpoints and gets no traffic, while nothing restarts it (readiness never kills).
// Kubelet wording (1.24+): `Readiness probe failed: Get "http://10.244.1.7:8080/ready": dial tcp
// 10.244.1.7:8080: connect: connection refused`, `Readiness probe failed: HTTP probe failed with
// statuscode: 503`, `... context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
// `Readiness probe errored: rpc error: ...` (exec probes), older `Readiness probe failed: Get
// http://10.1.2.3:8080/ready: net/http: request canceled (Client.Timeout exceeded ...)`.

/** Not Ready this long is no longer a slow start. */
export const NOT_READY_THRESHOLD_SECONDS = 300;
const READINESS = /^Readiness probe (?:failed|errored)/;

function probeAdvice(message: string, probe: NonNullable<Container['readinessProbe']> | undefined): string[] {
  const out: string[] = [];
  const status = /statuscode: (\d{3})/i.exec(message)?.[1];
  if (status?.startsWith('5'))
    out.push(
      `The readiness endpoint answers ${status}: the app says it is not ready, usually because a dependency it checks (database, cache, another service) is down or unreachable; read the app's logs for which one.`,
    );
  else if (status === '404')
    out.push(`The readiness path answers 404: fix readinessProbe.httpGet.path${probe?.httpGet?.path ? ` (now ${probe.httpGet.path})` : ''}.`);
  else if (status) out.push(`The readiness endpoint answers ${status}.`);
  if (/connection refused/i.test(message))
    out.push('Nothing listens on the probed port: the app listens on another port or only on 127.0.0.1, or it never finished starting.');
  if (/deadline exceeded|Client\.Timeout|timed out|timeout/i.test(message))
    out.push(
      `The endpoint is slower than timeoutSeconds=${probe?.timeoutSeconds ?? 1}: check CPU throttling and what the endpoint does; raise timeoutSeconds only if the slowness is expected.`,
    );
  return out;
}

export const rule = defineRule({
  meta: {
    id: 'readiness.failing',
    title: 'Running but not Ready: the readiness probe keeps failing',
    category: 'readiness',
    severity: 'warning',
    needs: ['pod', 'events', 'services'],
    priority: 26,
    doc: `A Running pod stays Ready=False for more than ${NOT_READY_THRESHOLD_SECONDS / 60} minutes with "Readiness probe failed" events (HTTP status, connection refused, timeout): it is taken out of its Services' endpoints and gets no traffic, and nothing restarts it. Names the container, the probe and since when, and the Services that lose it.`,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (pod?.status?.phase !== 'Running' || isDeleting(pod)) return null;
    const ready = pod.status.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'False') return null;
    const since = secondsSince(snapshot, ready.lastTransitionTime);
    if (since === undefined || since < NOT_READY_THRESHOLD_SECONDS) return null;
    const out: FindingDraft[] = [];
    for (const s of containerStatuses(pod)) {
      // Running and unready only: a crash-looping container belongs to the crash rules.
      if (s.init || s.status.ready || !s.status.state?.running) continue;
      const spec = pod.spec?.containers?.find((c) => c.name === s.status.name);
      const path = `spec.containers{${s.status.name}}`;
      const single = (pod.spec?.containers?.length ?? 0) === 1;
      const failures = newestFirst(snapshot.events).filter(
        (e: Event) =>
          e.reason === 'Unhealthy' &&
          READINESS.test(e.message ?? '') &&
          (e.involvedObject?.fieldPath ? e.involvedObject.fieldPath === path : single || new RegExp(`\\b${escapeRe(s.status.name)}\\b`).test(e.message ?? '')),
      );
      const last = failures[0];
      const lastAgo = last ? secondsSince(snapshot, eventTime(last)) : undefined;
      // Failures that stopped long ago explain nothing now (readiness gates, a stuck kubelet).
      if (!last || lastAgo === undefined || lastAgo > 600) continue;
      const probe = spec?.readinessProbe;
      const message = last.message ?? '';
      const count = failures.reduce((n, e) => n + eventCount(e), 0);
      const services = (snapshot.services ?? []).map((x) => x.metadata?.name ?? '').filter(Boolean);
      const evidence: Evidence[] = [
        eventEvidence(last),
        { source: 'pod.status.conditions[Ready]', text: `False since ${ready.lastTransitionTime ?? '?'}${ready.message ? `: ${ready.message}` : ''}` },
      ];
      if (probe) evidence.push({ source: `pod.spec.containers[${s.status.name}].readinessProbe`, text: probeSettings(probe) });
      if (services.length > 0) evidence.push({ source: 'services selecting the pod', text: services.join(', ') });
      out.push({
        title: `${s.status.name} not Ready for ${formatDuration(since)}: ${clip(message.replace(READINESS, 'readiness probe failed').replace(/^readiness probe failed: /, ''), 100)}`,
        cause:
          `Container "${s.status.name}" is running but its readiness probe has failed ${count} time${count === 1 ? '' : 's'} (last ${formatDuration(lastAgo)} ago): "${clip(message, 300)}". The pod has been Ready=False for ${formatDuration(since)}, ` +
          (services.length > 0
            ? `so it is not an endpoint of Service${services.length > 1 ? 's' : ''} ${services.join(', ')} and receives no traffic through ${services.length > 1 ? 'them' : 'it'}.`
            : 'so no Service sends it traffic.') +
          ' Readiness never restarts a container: it stays like this until the probe passes.',
        evidence,
        advice: [
          ...probeAdvice(message, probe),
          `Ask the endpoint yourself from inside the pod: kubectl exec -n ${pod.metadata?.namespace ?? ''} ${pod.metadata?.name ?? ''} -c ${s.status.name} -- wget -qO- ${probe?.httpGet ? `http://127.0.0.1:${probe.httpGet.port}${probe.httpGet.path ?? '/'}` : '<the probed endpoint>'}; and read its logs.`,
        ],
        prevent: [
          "Keep readiness about this pod's ability to serve (not every downstream dependency), and alert on Deployments whose available replicas stay below the desired count.",
        ],
        causeKey: `pod/${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}/${s.status.name}:readiness`,
        params: { container: s.status.name, failures: count, ...(services.length > 0 ? { services } : {}) },
      });
    }
    return out;
  },
});
