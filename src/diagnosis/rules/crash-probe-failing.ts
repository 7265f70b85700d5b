// crash.probe-failing: Liveness probe keeps killing the container.

import { type Crash, containerEvents, crashEvidence, crashes, crashKey } from '../crashes.js';
import { clip, eventCount, eventEvidence, formatDuration, ms } from '../facts.js';
import { msg } from '../messages.js';
import { probeAction, probeSettings } from '../probe-spec.js';
import { defineRule } from '../rule.js';
import type { Container, Evidence, FindingDraft, Said } from '../types.js';

type Probe = NonNullable<Container['livenessProbe']>;
type ProbeKind = 'liveness' | 'startup';

// Kubelet's kill reasons: `Container web failed liveness probe, will be restarted` (current)
// and `Killing container with id docker://web:Container failed liveness probe.. Container
// will be killed and recreated.` (<= 1.13).
const KILLED_BY_PROBE = /failed (liveness|startup) probe/i;
const PROBE_FAILED = /^(Liveness|Startup) probe failed: /;

function probePort(p: Probe): string | number | undefined {
  return p.httpGet?.port ?? p.tcpSocket?.port ?? p.grpc?.port;
}

const messages = {
  title: '{{probeKind}} probe keeps killing container {{container}}',
  titleAction: '{{probeKind}} probe keeps killing container {{container}} ({{action}})',
  restarted: 'The kubelet restarted "{{container}}" {{restarts}} {{times}} because its {{kind}} probe failed: "{{message}}".',
  restartedSeen: 'The kubelet restarted "{{container}}" {{restarts}} {{times}} because its {{kind}} probe failed ({{failures}} failures seen): "{{message}}".',
  probeSettings: 'Probe: {{settings}}.',
  probeUnknown: 'The probe is not in the pod spec available here.',
  timing: 'The last run lasted {{ran}}; the probe allows {{budget}} (initialDelaySeconds + periodSeconds × failureThreshold) before the kill.',
  timingEarly:
    'The last run lasted {{ran}}; the probe allows {{budget}} (initialDelaySeconds + periodSeconds × failureThreshold) before the kill, ' +
    'so it was killed at the first chance, likely while still starting.',
  stoppedFromOutside: 'The app was stopped from outside (exit code {{exitCode}}), it did not crash by itself.',
  wrongPort: 'The probe checks port {{port}} but the container declares {{declared}}: point the probe at the port the app listens on.',
  undeclaredNamedPort: 'The probe uses the named port "{{port}}", which the container does not declare.',
  connectionRefused:
    'Nothing was listening when the kubelet probed: the app is still starting (add a startupProbe or a longer initialDelaySeconds), ' +
    'listens on another port, or binds to 127.0.0.1 only.',
  pathNotFound: "The probe path answers 404: fix httpGet.path to the app's health endpoint.",
  pathNotFoundNow: "The probe path answers 404: fix httpGet.path (now {{path}}) to the app's health endpoint.",
  serverError:
    'The health endpoint answers {{status}}: the app reports itself unhealthy; ' +
    'a liveness check must not depend on databases or other services (use readiness for that).',
  tooSlow: 'The health endpoint is too slow for timeoutSeconds={{timeout}}: raise timeoutSeconds, and check for CPU throttling or GC pauses.',
  execFails: 'The exec probe command fails inside the container: run it by hand with kubectl exec to see why.',
  addStartupProbe: 'Add a startupProbe (e.g. failureThreshold × periodSeconds covering the slowest start) so liveness only starts once the app is up.',
  checkByHand: 'Check the endpoint by hand while the container runs: kubectl exec -n {{namespace}} {{pod}} -c {{container}} -- <curl/wget> the probe target.',
  preventCheap: 'Keep liveness probes cheap and local (no dependency checks), use readiness for traffic and a startupProbe for slow starts.',
  preventLoad: 'Test probe settings under load: timeouts of 1s fail during GC pauses and CPU throttling.',
} as const;
type Id = keyof typeof messages;

/** What the probe failure message says about the cause, as advice. */
function failureAdvice(message: string, p: Probe | undefined, spec: Container | undefined): Said<Id>[] {
  const out: Said<Id>[] = [];
  const port = p ? probePort(p) : undefined;
  const declared = (spec?.ports ?? []).map((x) => x.containerPort);
  const named = (spec?.ports ?? []).map((x) => x.name).filter(Boolean);
  if (typeof port === 'number' && declared.length > 0 && !declared.includes(port)) {
    out.push(msg('wrongPort', { port, declared: declared.join(', ') }));
  } else if (typeof port === 'string' && !/^\d+$/.test(port) && !named.includes(port)) {
    out.push(msg('undeclaredNamedPort', { port }));
  }
  if (/connection refused/i.test(message)) {
    out.push(msg('connectionRefused'));
  }
  const status = /statuscode: (\d{3})/i.exec(message)?.[1];
  if (status === '404') out.push(p?.httpGet?.path ? msg('pathNotFoundNow', { path: p.httpGet.path }) : msg('pathNotFound'));
  else if (status?.startsWith('5')) out.push(msg('serverError', { status }));
  if (/context deadline exceeded|Client\.Timeout|timeout|timed out/i.test(message)) {
    out.push(msg('tooSlow', { timeout: p?.timeoutSeconds ?? 1 }));
  }
  if (p?.exec && !/connection refused|statuscode|deadline/i.test(message)) {
    out.push(msg('execFails'));
  }
  return out;
}

export const rule = defineRule({
  meta: {
    id: 'crash.probe-failing',
    title: 'Liveness probe keeps killing the container',
    category: 'crash',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 48,
    // The restarts come from the kubelet acting on the probe, not from the app exiting.
    supersedes: ['crash.app-exit'],
    doc:
      'Unhealthy "Liveness probe failed" (or startup probe) events followed by Killing "failed liveness probe, will be restarted": ' +
      'the kubelet restarts an app that may be alive but slow or probed wrongly. Shows the probe settings against how long the container ran.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft<Id>[] = [];
    for (const c of crashes(snapshot)) {
      const killing = containerEvents(snapshot, c, ['Killing']).filter((e) => KILLED_BY_PROBE.test(e.message ?? ''));
      const unhealthy = containerEvents(snapshot, c, ['Unhealthy']).filter((e) => PROBE_FAILED.test(e.message ?? ''));
      const signalled = c.term?.exitCode === 137 || c.term?.exitCode === 143;
      const killedByProbe = killing.length > 0 || (unhealthy.some((e) => /^(Liveness|Startup)/.test(e.message ?? '')) && signalled);
      if (!killedByProbe) continue;
      out.push(finding(c, killing, unhealthy));
    }
    return out;

    function finding(c: Crash, killing: typeof snapshot.events, unhealthy: typeof snapshot.events) {
      const kindText = (
        KILLED_BY_PROBE.exec(killing[0]?.message ?? '')?.[1] ??
        PROBE_FAILED.exec(unhealthy[0]?.message ?? '')?.[1] ??
        'liveness'
      ).toLowerCase();
      const kind: ProbeKind = kindText === 'startup' ? 'startup' : 'liveness';
      const probe = kind === 'startup' ? c.spec?.startupProbe : c.spec?.livenessProbe;
      const failMessage = unhealthy.find((e) => e.message?.toLowerCase().startsWith(kind))?.message ?? unhealthy[0]?.message ?? '';
      const failures = unhealthy.reduce((n, e) => n + eventCount(e), 0);

      const evidence: Evidence[] = [];
      const u = unhealthy.find((e) => e.message === failMessage);
      if (u) evidence.push(eventEvidence(u));
      if (killing[0]) evidence.push(eventEvidence(killing[0]));
      evidence.push(...crashEvidence(snapshot, c));
      if (probe) evidence.push({ source: `pod.spec.containers[${c.name}].${kind}Probe`, text: probeSettings(probe) });

      // How long the container lived against the probe's budget: killed at the first chance
      // means the app is slower to start than the probe allows.
      const startedMs = ms(c.term?.startedAt);
      const finishedMs = ms(c.term?.finishedAt);
      const ran = startedMs !== undefined && finishedMs !== undefined ? (finishedMs - startedMs) / 1000 : undefined;
      const budget = probe ? (probe.initialDelaySeconds ?? 0) + (probe.periodSeconds ?? 10) * (probe.failureThreshold ?? 3) : undefined;
      const killedEarly = ran !== undefined && budget !== undefined && ran > 0 && ran <= budget + (probe?.periodSeconds ?? 10) * 1.5;
      const timing =
        ran !== undefined && ran > 0 && budget !== undefined
          ? msg(killedEarly ? 'timingEarly' : 'timing', { ran: formatDuration(ran), budget: formatDuration(budget) })
          : undefined;

      const advice = [
        ...failureAdvice(failMessage, probe, c.spec),
        killedEarly && kind === 'liveness' && !c.spec?.startupProbe && msg('addStartupProbe'),
        msg('checkByHand', { namespace: pod?.metadata?.namespace ?? '', pod: pod?.metadata?.name ?? '', container: c.name }),
      ];
      const restarted = {
        container: c.name,
        restarts: c.restarts,
        times: c.restarts === 1 ? 'time' : 'times',
        kind,
        message: clip(failMessage.replace(PROBE_FAILED, ''), 300) || 'see events',
      };
      const titleData = { probeKind: kind === 'startup' ? 'Startup' : 'Liveness', container: c.name };
      return {
        severity: c.flapping ? ('warning' as const) : ('error' as const),
        title: probe ? msg('titleAction', { ...titleData, action: probeAction(probe) }) : msg('title', titleData),
        cause: [
          failures > 0 ? msg('restartedSeen', { ...restarted, failures }) : msg('restarted', restarted),
          probe ? msg('probeSettings', { settings: probeSettings(probe) }) : msg('probeUnknown'),
          timing,
          msg('stoppedFromOutside', { exitCode: c.term?.exitCode ?? '?' }),
        ],
        evidence,
        advice,
        prevent: [msg('preventCheap'), msg('preventLoad')],
        causeKey: crashKey(pod, c, `${kind}-probe`),
        params: { container: c.name, probe: kind, restarts: c.restarts, ...(pod?.spec?.nodeName ? { node: pod.spec.nodeName } : {}) },
      };
    }
  },
});
