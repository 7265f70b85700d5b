// init.waiting-dependency: Init container waits for a dependency.

import { containerSpec, logEvidence, mechanismRef } from '../crashes.js';
import { clip, containerStatuses, formatDuration, isDeleting, secondsSince, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { currentReading } from '../readings.js';
import { defineRule } from '../rule.js';
import type { Container, Evidence, FindingDraft } from '../types.js';

// An init container that runs (or keeps restarting) for a long time holds the whole pod in
// `Init:0/N`: typically a wait loop for a Service or DNS name (`until nslookup db; do sleep 2;
// done`, `wait-for-it db:5432`, `while ! nc -z db 5432`). Init containers that crash are the
// crash rules' (they read init containers too); this one is about waiting.

/** An init container running this long is waiting for something, not doing a quick setup step. */
export const INIT_WAIT_SECONDS = 300;

const WAIT_LOG = new RegExp(
  [
    "waiting for|wait(?:ing)? on|can't resolve|could not resolve|nslookup: can't|server can't find|NXDOMAIN|no such host",
    'Name or service not known|connection refused|Connection refused|timed out|not (?:yet )?(?:ready|available)|retrying|Operation timed out',
  ].join('|'),
  'i',
);

/** Host names (and ports) the command or its log mentions: what the container waits for. */
export function dependencyOf(spec: Container | undefined, lines: string[]): string | undefined {
  const text = [...(spec?.command ?? []), ...(spec?.args ?? [])].join(' ');
  const patterns = [
    /nslookup\s+([a-z0-9][a-z0-9.-]*)/i,
    /wait-for(?:-it)?(?:\.sh)?\s+(?:-t\s+\d+\s+)?([a-z0-9][a-z0-9.-]*(?::\d+)?)/i,
    /nc\s+(?:-\S+\s+)*([a-z0-9][a-z0-9.-]*)\s+(\d+)/i,
    /(?:curl|wget)\s+(?:-\S+\s+)*(?:https?:\/\/)?([a-z0-9][a-z0-9.-]*(?::\d+)?)/i,
    /pg_isready\s+(?:-\S+\s+)*-h\s+([a-z0-9][a-z0-9.-]*)/i,
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (m?.[1]) return m[2] ? `${m[1]}:${m[2]}` : m[1];
  }
  for (const line of [...lines].reverse()) {
    const m = /(?:waiting for|can't resolve|no such host|server can't find|lookup)\s+'?([a-z0-9][a-z0-9.-]*\.[a-z0-9.-]+|[a-z0-9-]+)'?/i.exec(line);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

const messages = {
  title: 'Init container {{container}} has been waiting {{running}} (Init:{{done}}/{{total}})',
  titleFor: 'Init container {{container}} has been waiting {{running}} for {{dependency}} (Init:{{done}}/{{total}})',
  blocks: 'The pod cannot start its app containers until init container "{{container}}" finishes, and it has been running for {{running}}.',
  blocksWaiting:
    'The pod cannot start its app containers until init container "{{container}}" finishes, ' +
    'and it has been running for {{running}}, apparently waiting for {{dependency}}.',
  lastLine: 'Its last log line: "{{lines}}".',
  lastLines: 'Its last log lines: "{{lines}}".',
  noLogs: 'It has written no log lines.',
  noAnswer: 'The dependency does not answer (missing Service, wrong name or namespace, or the dependency itself is down).',
  checkDependency:
    'Check that {{dependency}} exists and answers: kubectl get svc,endpoints -A | grep {{name}}; ' +
    'a Service in another namespace needs <name>.<namespace>.svc.',
  mechanism: 'What its log says: {{explanation}}',
  knob: '{{knob}}',
  seeLogs: 'See what it waits for: kubectl logs -n {{namespace}} {{pod}} -c {{container}}.',
  testDns:
    "If the dependency is up, test name resolution from the pod's namespace " +
    '(kubectl run -it --rm dns-test --image=busybox:1.36 -- nslookup <name>) and NetworkPolicies that may block it.',
  addTimeout: 'Give the wait loop a timeout so the pod fails visibly instead of waiting forever.',
  prevent: 'Prefer app-level retries over init-container wait loops, or bound them with a timeout and an activeDeadlineSeconds.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'init.waiting-dependency',
    title: 'Init container waits for a dependency',
    category: 'init',
    severity: 'warning',
    needs: ['pod', 'events', 'logs', 'access', 'dependencies'],
    priority: 34,
    doc:
      `An init container has been running for more than ${INIT_WAIT_SECONDS / 60} minutes ` +
      '(the pod shows Init:N/M and its app containers never start): usually a wait loop for a Service or DNS name that does not answer. ' +
      "Names the dependency from the command or the log, and quotes the init container's last log lines.",
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isDeleting(pod) || pod.status?.phase !== 'Pending') return null;
    const inits = pod.spec?.initContainers ?? [];
    const out: FindingDraft<Id>[] = [];
    for (const s of containerStatuses(pod)) {
      if (!s.init) continue;
      const running = s.status.state?.running;
      // A native sidecar (restartPolicy Always) runs for the pod's whole life by design.
      const spec = containerSpec(pod, s.status.name, true);
      if (!running || spec?.restartPolicy === 'Always') continue;
      const runningFor = secondsSince(snapshot, running.startedAt);
      if (runningFor === undefined || runningFor < INIT_WAIT_SECONDS) continue;
      const tail = (snapshot.logs ?? []).find((l) => l.container === s.status.name && !l.previous && l.lines.length > 0);
      const lines = tail?.lines ?? [];
      const dependency = dependencyOf(spec, lines);
      const done = (pod.status?.initContainerStatuses ?? []).filter((x) => x.state?.terminated?.exitCode === 0).length;
      const evidence: Evidence[] = [statusEvidence(s, 'state', `running since ${running.startedAt ?? '?'} (${formatDuration(runningFor)})`)];
      if (tail) evidence.push(logEvidence(tail, 8));
      if (spec?.command || spec?.args)
        evidence.push({ source: `pod.spec.initContainers[${s.status.name}]`, text: clip([...(spec.command ?? []), ...(spec.args ?? [])].join(' '), 400) });
      const waitingLog = lines.some((l) => WAIT_LOG.test(l));
      // Why the dependency does not answer, when its log has a line the catalogue knows (a name that does not resolve, a refusal).
      const reading = currentReading(snapshot, s);
      if (reading) evidence.push(...reading.evidence);
      const waited = { container: s.status.name, running: formatDuration(runningFor) };
      out.push({
        title: dependency ? msg('titleFor', { ...waited, dependency, done, total: inits.length }) : msg('title', { ...waited, done, total: inits.length }),
        cause: [
          dependency ? msg('blocksWaiting', { ...waited, dependency }) : msg('blocks', waited),
          lines.length > 0 ? msg(lines.length > 1 ? 'lastLines' : 'lastLine', { lines: clip(lines.slice(-3).join(' ⏎ '), 300) }) : msg('noLogs'),
          reading ? msg('mechanism', { explanation: reading.explanation }) : waitingLog || dependency ? msg('noAnswer') : undefined,
        ],
        evidence,
        advice: [
          ...(reading?.knobs ?? []).map((knob) => msg('knob', { knob })),
          dependency
            ? msg('checkDependency', { dependency, name: dependency.split(/[.:]/)[0] ?? '' })
            : msg('seeLogs', { namespace: pod.metadata?.namespace ?? '', pod: pod.metadata?.name ?? '', container: s.status.name }),
          msg('testDns'),
          msg('addTimeout'),
        ],
        prevent: [msg('prevent')],
        causeKey: `workload/${pod.metadata?.namespace ?? ''}/${s.status.name}:init-wait${dependency ? `:${dependency}` : ''}`,
        params: { container: s.status.name, ...(dependency ? { dependency } : {}) },
        ...(reading ? { mechanism: mechanismRef(reading) } : {}),
      });
    }
    return out;
  },
});
