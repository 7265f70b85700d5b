// resources.memory-units: Memory request or limit with the wrong unit.

import { crashes, workloadKey } from '../crashes.js';
import { clip, containerStatuses, eventEvidence, eventsWithReason, newestFirst, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { formatBytes, quantityParts } from '../quantity.js';
import { defineRule } from '../rule.js';
import type { Container, Evidence, Said } from '../types.js';

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
  /** What is wrong: a lower-case `m` (milli) or no unit at all (bytes). */
  unit: 'milli' | 'bare';
}

/** The value the author most likely meant: `1024m` → `1024Mi`, `4` → `4Gi`, `512` → `512Mi`. */
export function intendedMemory(number: number, suffix: string): string {
  if (suffix === 'm') return `${number}Mi`;
  if (number < 16) return Number.isInteger(number) ? `${number}Gi` : `${Math.round(number * 1024)}Mi`;
  return `${number}Mi`;
}

/** A memory quantity written with the wrong unit: lower-case `m` (milli-bytes) or no unit below 1Mi. */
export function badMemory(value: string | number): { bytes: number; suggested: string; unit: 'milli' | 'bare' } | undefined {
  const parts = quantityParts(value);
  if (!parts) return undefined;
  if (parts.suffix === 'm') return { bytes: parts.value, suggested: intendedMemory(parts.number, 'm'), unit: 'milli' };
  if (parts.suffix === '' && parts.value < MI) return { bytes: parts.value, suggested: intendedMemory(parts.number, ''), unit: 'bare' };
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

const messages = {
  // {{kind}}: limit or request.
  titlePod: 'Memory {{kind}} {{value}} of the pod is {{bytes}}: meant {{suggested}}?',
  titleContainer: 'Memory {{kind}} {{value}} of container {{container}} is {{bytes}}: meant {{suggested}}?',
  wrongUnit: 'Wrong memory unit:',
  // One wrong value: who, then why; the why ends the list item with "; " or the sentence with ".".
  podValue: 'the pod {{field}}: {{value}}',
  containerValue: 'container "{{container}}" {{field}}: {{value}}',
  milliNext: '("m" means milli, so {{value}} is {{bytes}}; mebibytes are "Mi");',
  milliLast: '("m" means milli, so {{value}} is {{bytes}}; mebibytes are "Mi").',
  bareNext: '(a number without a unit counts bytes, so {{value}} is {{bytes}});',
  bareLast: '(a number without a unit counts bytes, so {{value}} is {{bytes}}).',
  limitEffect: 'No process, not even the pod sandbox, can start within that: the runtime kills it as it starts and the kubelet keeps re-creating the sandbox.',
  requestEffect:
    'The scheduler reserves almost nothing for the pod, so its node gets overcommitted, ' +
    'and under memory pressure the kernel and the kubelet pick this pod first.',
  // What was seen of it, in this order, "; " between items.
  seen: 'Seen:',
  sandboxChangedNext: '"{{message}}";',
  sandboxChangedLast: '"{{message}}".',
  killedAtStartNext: 'the runtime killed the init process at start ("signal: killed");',
  killedAtStartLast: 'the runtime killed the init process at start ("signal: killed").',
  oomKilled: 'the container was OOMKilled.',
  setValue: 'Set the intended value: {{values}} (binary units Ki/Mi/Gi; a bare number is bytes, "m" is milli).',
  setValues: 'Set the intended values: {{values}} (binary units Ki/Mi/Gi; a bare number is bytes, "m" is milli).',
  changeTemplate: 'Change it in the workload template (Deployment/StatefulSet/Helm values), not the pod; the controller replaces the pods.',
  rejectAtAdmission:
    'Reject memory quantities below 1Mi or with an "m" suffix at admission (ValidatingAdmissionPolicy / Kyverno / Gatekeeper) and in CI manifest checks.',
  limitRange: 'Give the namespace a LimitRange with a sensible minimum memory.',
} as const;
type Id = keyof typeof messages;

/** `container "web" limits.memory: 4 (a number without a unit counts bytes, so 4 is 4 B);`: the last one ends the sentence. */
function wrongValue(b: BadValue, last: boolean): Said<Id>[] {
  const data = { container: b.container, field: b.field, value: b.value, bytes: formatBytes(b.bytes) };
  const why = b.unit === 'milli' ? (last ? 'milliLast' : 'milliNext') : last ? 'bareLast' : 'bareNext';
  return [msg(b.container === '(pod)' ? 'podValue' : 'containerValue', data), msg(why, data)];
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
    doc:
      'A memory request or limit without a unit (`4` = 4 bytes) or with a lower-case `m` (`1024m` = 1.024 bytes) is far too small to start a sandbox: ' +
      'the runtime kills it at start ("running exec setns process for init caused \\"signal: killed\\"") ' +
      'and the kubelet keeps re-creating it ("Pod sandbox changed, it will be killed and re-created."). Suggests the intended value (seed 003).',
    messages,
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
    const killedAtStart = Boolean(killedEvent) || evidence.some((e) => KILLED_AT_START.test(e.text));
    // What was seen of it, "; " between items and "." after the last (the OOM kill, when seen, is always last).
    const seen: Said<Id>[] = [];
    if (sandboxChanged) seen.push(msg(killedAtStart || oom ? 'sandboxChangedNext' : 'sandboxChangedLast', { message: sandboxChanged.message ?? '' }));
    if (killedAtStart) seen.push(msg(oom ? 'killedAtStartNext' : 'killedAtStartLast'));
    if (oom) seen.push(msg('oomKilled'));
    const values = bad.map((b) => `${b.container === '(pod)' ? 'pod' : b.container} ${b.field}: ${b.suggested}`).join(', ');

    return {
      severity: limitBad || failing ? 'error' : 'warning',
      title: msg(first.container === '(pod)' ? 'titlePod' : 'titleContainer', {
        kind: first.field.split('.')[0] === 'limits' ? 'limit' : 'request',
        value: first.value,
        container: first.container,
        bytes: formatBytes(first.bytes),
        suggested: first.suggested,
      }),
      cause: [
        msg('wrongUnit'),
        ...bad.flatMap((b, i) => wrongValue(b, i === bad.length - 1)),
        msg(limitBad ? 'limitEffect' : 'requestEffect'),
        seen.length > 0 && msg('seen'),
        ...seen,
      ],
      evidence,
      advice: [msg(bad.length > 1 ? 'setValues' : 'setValue', { values }), msg('changeTemplate')],
      prevent: [msg('rejectAtAdmission'), msg('limitRange')],
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
