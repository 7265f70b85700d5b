// readiness.failing: Running but not Ready: the readiness probe keeps failing.

import { escapeRe, mechanismRef } from '../crashes.js';
import { clip, containerStatuses, eventCount, eventEvidence, eventTime, formatDuration, isDeleting, newestFirst, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { probeSettings } from '../probe-spec.js';
import { currentReading } from '../readings.js';
import { defineRule } from '../rule.js';
import type { Container, Event, Evidence, FindingDraft, Said } from '../types.js';

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

const messages = {
  title: '{{container}} not Ready for {{since}}: {{failure}}',
  titleMechanism: '{{container}} not Ready for {{since}}: {{summary}}',
  mechanism: 'Its own log says why: {{explanation}}',
  decisiveLine: 'The decisive line ({{source}}): "{{line}}".',
  knob: '{{knob}}',
  failed: 'Container "{{container}}" is running but its readiness probe has failed {{count}} {{times}} (last {{lastAgo}} ago): "{{message}}".',
  notEndpoint: 'The pod has been Ready=False for {{since}}, so it is not an endpoint of Service {{services}} and receives no traffic through it.',
  notEndpoints: 'The pod has been Ready=False for {{since}}, so it is not an endpoint of Services {{services}} and receives no traffic through them.',
  noService: 'The pod has been Ready=False for {{since}}, so no Service sends it traffic.',
  neverRestarts: 'Readiness never restarts a container: it stays like this until the probe passes.',
  serverError:
    'The readiness endpoint answers {{status}}: the app says it is not ready, usually because a dependency it checks ' +
    "(database, cache, another service) is down or unreachable; read the app's logs for which one.",
  pathNotFound: 'The readiness path answers 404: fix readinessProbe.httpGet.path.',
  pathNotFoundNow: 'The readiness path answers 404: fix readinessProbe.httpGet.path (now {{path}}).',
  otherStatus: 'The readiness endpoint answers {{status}}.',
  connectionRefused: 'Nothing listens on the probed port: the app listens on another port or only on 127.0.0.1, or it never finished starting.',
  tooSlow:
    'The endpoint is slower than timeoutSeconds={{timeout}}: check CPU throttling and what the endpoint does; ' +
    'raise timeoutSeconds only if the slowness is expected.',
  askEndpoint:
    'Ask the endpoint yourself from inside the pod: kubectl exec -n {{namespace}} {{pod}} -c {{container}} -- wget -qO- ' +
    'http://127.0.0.1:{{port}}{{path}}; and read its logs.',
  askProbedEndpoint:
    'Ask the endpoint yourself from inside the pod: kubectl exec -n {{namespace}} {{pod}} -c {{container}} -- wget -qO- ' +
    '<the probed endpoint>; and read its logs.',
  prevent:
    "Keep readiness about this pod's ability to serve (not every downstream dependency), " +
    'and alert on Deployments whose available replicas stay below the desired count.',
} as const;
type Id = keyof typeof messages;

function probeAdvice(message: string, probe: NonNullable<Container['readinessProbe']> | undefined): Said<Id>[] {
  const out: Said<Id>[] = [];
  const status = /statuscode: (\d{3})/i.exec(message)?.[1];
  if (status?.startsWith('5')) out.push(msg('serverError', { status }));
  else if (status === '404') out.push(probe?.httpGet?.path ? msg('pathNotFoundNow', { path: probe.httpGet.path }) : msg('pathNotFound'));
  else if (status) out.push(msg('otherStatus', { status }));
  if (/connection refused/i.test(message)) out.push(msg('connectionRefused'));
  if (/deadline exceeded|Client\.Timeout|timed out|timeout/i.test(message)) out.push(msg('tooSlow', { timeout: probe?.timeoutSeconds ?? 1 }));
  return out;
}

export const rule = defineRule({
  meta: {
    id: 'readiness.failing',
    title: 'Running but not Ready: the readiness probe keeps failing',
    category: 'readiness',
    severity: 'warning',
    needs: ['pod', 'events', 'services', 'logs', 'access', 'dependencies'],
    priority: 26,
    doc:
      `A Running pod stays Ready=False for more than ${NOT_READY_THRESHOLD_SECONDS / 60} minutes with "Readiness probe failed" events ` +
      "(HTTP status, connection refused, timeout): it is taken out of its Services' endpoints and gets no traffic, and nothing restarts it. " +
      "Names the container, the probe and since when, and the Services that lose it; when the running container's own log has a line " +
      'the mechanism catalogue knows (a refused API call, an untrusted certificate, a dependency that does not answer), ' +
      'the finding names that mechanism and its knobs.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (pod?.status?.phase !== 'Running' || isDeleting(pod)) return null;
    const ready = pod.status.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'False') return null;
    const since = secondsSince(snapshot, ready.lastTransitionTime);
    if (since === undefined || since < NOT_READY_THRESHOLD_SECONDS) return null;
    const out: FindingDraft<Id>[] = [];
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
      const sinceText = formatDuration(since);
      // The probe says the app is not ready; the app's current log often says why.
      const reading = currentReading(snapshot, s);
      if (reading) evidence.push(...reading.evidence);
      const where = { namespace: pod.metadata?.namespace ?? '', pod: pod.metadata?.name ?? '', container: s.status.name };
      out.push({
        title: reading
          ? msg('titleMechanism', { container: s.status.name, since: sinceText, summary: reading.summary })
          : msg('title', {
              container: s.status.name,
              since: sinceText,
              failure: clip(message.replace(READINESS, 'readiness probe failed').replace(/^readiness probe failed: /, ''), 100),
            }),
        cause: [
          msg('failed', {
            container: s.status.name,
            count,
            times: count === 1 ? 'time' : 'times',
            lastAgo: formatDuration(lastAgo),
            message: clip(message, 300),
          }),
          services.length > 0
            ? msg(services.length > 1 ? 'notEndpoints' : 'notEndpoint', { since: sinceText, services: services.join(', ') })
            : msg('noService', { since: sinceText }),
          msg('neverRestarts'),
          reading && msg('mechanism', { explanation: reading.explanation }),
          reading && msg('decisiveLine', { source: reading.source, line: reading.line }),
        ],
        evidence,
        advice: [
          ...(reading?.knobs ?? []).map((knob) => msg('knob', { knob })),
          ...(reading ? [] : probeAdvice(message, probe)),
          probe?.httpGet ? msg('askEndpoint', { ...where, port: probe.httpGet.port, path: probe.httpGet.path ?? '/' }) : msg('askProbedEndpoint', where),
        ],
        prevent: [msg('prevent')],
        causeKey: `pod/${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}/${s.status.name}:readiness`,
        params: { container: s.status.name, failures: count, ...(services.length > 0 ? { services } : {}) },
        ...(reading ? { mechanism: mechanismRef(reading) } : {}),
      });
    }
    return out;
  },
});
