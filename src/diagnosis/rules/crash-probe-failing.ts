// crash.probe-failing: Liveness probe keeps killing the container.

import { type Crash, containerEvents, crashEvidence, crashes, crashKey } from '../crashes.js';
import { clip, eventCount, eventEvidence, formatDuration, ms } from '../facts.js';
import { probeAction, probeSettings } from '../probe-spec.js';
import { defineRule } from '../rule.js';
import type { Container, Evidence, FindingDraft } from '../types.js';

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

/** What the probe failure message says about the cause, as advice. */
function failureAdvice(message: string, p: Probe | undefined, spec: Container | undefined): string[] {
  const out: string[] = [];
  const port = p ? probePort(p) : undefined;
  const declared = (spec?.ports ?? []).map((x) => x.containerPort);
  const named = (spec?.ports ?? []).map((x) => x.name).filter(Boolean);
  if (typeof port === 'number' && declared.length > 0 && !declared.includes(port)) {
    out.push(`The probe checks port ${port} but the container declares ${declared.join(', ')}: point the probe at the port the app listens on.`);
  } else if (typeof port === 'string' && !/^\d+$/.test(port) && !named.includes(port)) {
    out.push(`The probe uses the named port "${port}", which the container does not declare.`);
  }
  if (/connection refused/i.test(message)) {
    out.push(
      'Nothing was listening when the kubelet probed: the app is still starting (add a startupProbe or a longer initialDelaySeconds), listens on another port, or binds to 127.0.0.1 only.',
    );
  }
  const status = /statuscode: (\d{3})/i.exec(message)?.[1];
  if (status === '404')
    out.push(`The probe path answers 404: fix httpGet.path${p?.httpGet?.path ? ` (now ${p.httpGet.path})` : ''} to the app's health endpoint.`);
  else if (status?.startsWith('5'))
    out.push(
      `The health endpoint answers ${status}: the app reports itself unhealthy; a liveness check must not depend on databases or other services (use readiness for that).`,
    );
  if (/context deadline exceeded|Client\.Timeout|timeout|timed out/i.test(message)) {
    out.push(`The health endpoint is too slow for timeoutSeconds=${p?.timeoutSeconds ?? 1}: raise timeoutSeconds, and check for CPU throttling or GC pauses.`);
  }
  if (p?.exec && !/connection refused|statuscode|deadline/i.test(message)) {
    out.push('The exec probe command fails inside the container: run it by hand with kubectl exec to see why.');
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
    doc: 'Unhealthy "Liveness probe failed" (or startup probe) events followed by Killing "failed liveness probe, will be restarted": the kubelet restarts an app that may be alive but slow or probed wrongly. Shows the probe settings against how long the container ran.',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft[] = [];
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
          ? ` The last run lasted ${formatDuration(ran)}; the probe allows ${formatDuration(budget)} (initialDelaySeconds + periodSeconds × failureThreshold) before the kill${killedEarly ? ', so it was killed at the first chance, likely while still starting' : ''}.`
          : '';

      const advice = [
        ...failureAdvice(failMessage, probe, c.spec),
        ...(killedEarly && kind === 'liveness' && !c.spec?.startupProbe
          ? [`Add a startupProbe (e.g. failureThreshold × periodSeconds covering the slowest start) so liveness only starts once the app is up.`]
          : []),
        `Check the endpoint by hand while the container runs: kubectl exec -n ${pod?.metadata?.namespace ?? ''} ${pod?.metadata?.name ?? ''} -c ${c.name} -- <curl/wget> the probe target.`,
      ];
      return {
        severity: c.flapping ? ('warning' as const) : ('error' as const),
        title: `${kind === 'startup' ? 'Startup' : 'Liveness'} probe keeps killing container ${c.name}${probe ? ` (${probeAction(probe)})` : ''}`,
        cause: `The kubelet restarted "${c.name}" ${c.restarts} time${c.restarts === 1 ? '' : 's'} because its ${kind} probe failed${failures > 0 ? ` (${failures} failures seen)` : ''}: "${clip(failMessage.replace(PROBE_FAILED, ''), 300) || 'see events'}". ${probe ? `Probe: ${probeSettings(probe)}.` : 'The probe is not in the pod spec available here.'}${timing} The app was stopped from outside (exit code ${c.term?.exitCode ?? '?'}), it did not crash by itself.`,
        evidence,
        advice,
        prevent: [
          'Keep liveness probes cheap and local (no dependency checks), use readiness for traffic and a startupProbe for slow starts.',
          'Test probe settings under load: timeouts of 1s fail during GC pauses and CPU throttling.',
        ],
        causeKey: crashKey(pod, c, `${kind}-probe`),
        params: { container: c.name, probe: kind, restarts: c.restarts, ...(pod?.spec?.nodeName ? { node: pod.spec.nodeName } : {}) },
      };
    }
  },
});
