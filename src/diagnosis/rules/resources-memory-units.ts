// resources.memory-units: Memory request or limit with the wrong unit.

import { crashes, workloadKey } from '../crashes.js';
import { clip, containerStatuses, eventEvidence, eventsWithReason, newestFirst, statusEvidence } from '../facts.js';
import { formatBytes, quantityParts } from '../quantity.js';
import { defineRule } from '../rule.js';
import type { Container, Evidence } from '../types.js';

const MI = 2 ** 20;

// What the runtime says when a sandbox/container cannot even start inside the limit:
// docker era (seed 003) `running exec setns process for init caused \"signal: killed\"`,
// runc >= 1.1 `container init was OOM-killed (memory limit too low?)`.
const KILLED_AT_START = /running exec setns process for init caused \\*"signal: killed|container init was OOM-killed/;

interface BadValue {
  container: string;
  field: 'limits.memory' | 'requests.memory';
  value: string;
  bytes: number;
  suggested: string;
  why: string;
}

/** The value the author most likely meant: `1024m` → `1024Mi`, `4` → `4Gi`, `512` → `512Mi`. */
export function intendedMemory(number: number, suffix: string): string {
  if (suffix === 'm') return `${number}Mi`;
  if (number < 16) return Number.isInteger(number) ? `${number}Gi` : `${Math.round(number * 1024)}Mi`;
  return `${number}Mi`;
}

/** A memory quantity written with the wrong unit: lower-case `m` (milli-bytes) or no unit below 1Mi. */
export function badMemory(value: string | number): { bytes: number; suggested: string; why: string } | undefined {
  const parts = quantityParts(value);
  if (!parts) return undefined;
  if (parts.suffix === 'm') {
    return {
      bytes: parts.value,
      suggested: intendedMemory(parts.number, 'm'),
      why: `"m" means milli, so ${value} is ${formatBytes(parts.value)}; mebibytes are "Mi"`,
    };
  }
  if (parts.suffix === '' && parts.value < MI) {
    return {
      bytes: parts.value,
      suggested: intendedMemory(parts.number, ''),
      why: `a number without a unit counts bytes, so ${value} is ${formatBytes(parts.value)}`,
    };
  }
  return undefined;
}

function badValues(containers: { c: Container }[]): BadValue[] {
  const out: BadValue[] = [];
  for (const { c } of containers) {
    for (const field of ['limits.memory', 'requests.memory'] as const) {
      const raw = field === 'limits.memory' ? c.resources?.limits?.memory : c.resources?.requests?.memory;
      if (raw === undefined) continue;
      const bad = badMemory(raw);
      if (bad) out.push({ container: c.name, field, value: String(raw), ...bad });
    }
  }
  return out;
}

export const rule = defineRule({
  meta: {
    id: 'resources.memory-units',
    title: 'Memory request or limit with the wrong unit',
    category: 'resources',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 62,
    // A limit of a few bytes is why the sandbox is killed at start (sandbox.create-failed),
    // why the container is OOM-killed (crash.oomkilled) and why it "exits" (crash.app-exit);
    // a request of a few bytes makes the pod the kernel's and the kubelet's first victim.
    // Those findings on the same pod are symptoms of this one.
    supersedes: ['sandbox.create-failed', 'crash.oomkilled', 'crash.app-exit'],
    doc: 'A memory request or limit without a unit (`4` = 4 bytes) or with a lower-case `m` (`1024m` = 1.024 bytes) is far too small to start a sandbox: the runtime kills it at start ("running exec setns process for init caused \\"signal: killed\\"") and the kubelet keeps re-creating it ("Pod sandbox changed, it will be killed and re-created."). Suggests the intended value (seed 003).',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod?.spec) return null;
    const bad = badValues([...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])].map((c) => ({ c })));
    const podLevel = pod.spec.resources?.limits?.memory;
    const podBad = podLevel !== undefined ? badMemory(podLevel) : undefined;
    if (podBad) bad.push({ container: '(pod)', field: 'limits.memory', value: String(podLevel), ...podBad });
    if (bad.length === 0) return null;

    const evidence: Evidence[] = bad.map((b) => ({
      source: b.container === '(pod)' ? `pod.spec.resources.${b.field}` : `pod.spec.containers[${b.container}].resources.${b.field}`,
      text: `${b.value} (= ${formatBytes(b.bytes)})`,
    }));
    const sandboxChanged = newestFirst(eventsWithReason(snapshot, 'SandboxChanged'))[0];
    if (sandboxChanged) evidence.push(eventEvidence(sandboxChanged));
    const killedEvent = newestFirst(eventsWithReason(snapshot, 'FailedCreatePodSandBox', 'Failed', 'FailedSync')).find((e) =>
      KILLED_AT_START.test(e.message ?? ''),
    );
    if (killedEvent) evidence.push(eventEvidence(killedEvent));
    for (const s of containerStatuses(pod)) {
      for (const text of [s.status.state?.waiting?.message, s.status.state?.terminated?.message, s.status.lastState?.terminated?.message]) {
        if (text && KILLED_AT_START.test(text)) evidence.push(statusEvidence(s, 'state', clip(text)));
      }
    }
    const oom = crashes(snapshot).find((c) => c.term?.reason === 'OOMKilled');
    if (oom) evidence.push(statusEvidence(oom.s, oom.termField, `OOMKilled, exit code ${oom.term?.exitCode ?? '?'}, ${oom.restarts} restarts`));

    const limitBad = bad.some((b) => b.field === 'limits.memory');
    const failing = Boolean(sandboxChanged || killedEvent || oom) || crashes(snapshot).length > 0 || pod.status?.phase === 'Pending';
    const first = bad[0]!;
    const list = bad.map((b) => `${b.container === '(pod)' ? 'the pod' : `container "${b.container}"`} ${b.field}: ${b.value} (${b.why})`).join('; ');
    const effect = limitBad
      ? 'No process, not even the pod sandbox, can start within that: the runtime kills it as it starts and the kubelet keeps re-creating the sandbox.'
      : 'The scheduler reserves almost nothing for the pod, so its node gets overcommitted, and under memory pressure the kernel and the kubelet pick this pod first.';
    const seen = [
      sandboxChanged ? `"${sandboxChanged.message ?? ''}"` : '',
      killedEvent || evidence.some((e) => KILLED_AT_START.test(e.text)) ? 'the runtime killed the init process at start ("signal: killed")' : '',
      oom ? 'the container was OOMKilled' : '',
    ].filter(Boolean);

    return {
      severity: limitBad || failing ? 'error' : 'warning',
      title: `Memory ${first.field.split('.')[0] === 'limits' ? 'limit' : 'request'} ${first.value} of ${first.container === '(pod)' ? 'the pod' : `container ${first.container}`} is ${formatBytes(first.bytes)}: meant ${first.suggested}?`,
      cause: `Wrong memory unit: ${list}. ${effect}${seen.length > 0 ? ` Seen: ${seen.join('; ')}.` : ''}`,
      evidence,
      advice: [
        `Set the intended value${bad.length > 1 ? 's' : ''}: ${bad.map((b) => `${b.container === '(pod)' ? 'pod' : b.container} ${b.field}: ${b.suggested}`).join(', ')} (binary units Ki/Mi/Gi; a bare number is bytes, "m" is milli).`,
        'Change it in the workload template (Deployment/StatefulSet/Helm values), not the pod; the controller replaces the pods.',
      ],
      prevent: [
        'Reject memory quantities below 1Mi or with an "m" suffix at admission (ValidatingAdmissionPolicy / Kyverno / Gatekeeper) and in CI manifest checks.',
        'Give the namespace a LimitRange with a sensible minimum memory.',
      ],
      causeKey: `workload/${workloadKey(pod)}:memory-units`,
      params: {
        container: first.container,
        field: first.field,
        value: first.value,
        suggested: first.suggested,
        ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
      },
    };
  },
});
