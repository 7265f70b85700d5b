// network.service-no-endpoints: A container cannot connect to a Service that has no ready endpoints.

import { type Crash, containerSpec, crashEvidence, crashes, crashLogs, crashReading, logEvidence, logSource, mechanismRef } from '../crashes.js';
import { clip, containerStatuses, formatDuration, isDeleting, type NamedStatus, secondsSince, statusEvidence } from '../facts.js';
import { findLines } from '../mechanisms/index.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { DependencyFact, Evidence, FindingDraft, LogTail, Said, Snapshot } from '../types.js';

// The container connects to a Service by name (or by the ClusterIP its client resolved) and fails:
// kube-proxy rejects connections to a ClusterIP without endpoints (`connection refused`, MySQL's
// `(111)`), with IPVS (or before Kubernetes 1.14) they time out, and a headless Service without a
// ready address has no DNS record. The Service exists, and its Endpoints list no ready address:
// its selector matches no pod (often all labels but one: a role no pod was given, a version no pod
// runs), or the pods it matches are not Ready. The app is a victim; the Service's pods are the cause.
// The collector (src/collect/access.ts) reads the Service, its Endpoints and, when no address is
// ready, the pods its selector matches or nearly matches.

/** A container that runs and keeps failing to connect for this long is waiting on it, not starting up. */
export const WAIT_SECONDS = 120;

const MECHANISMS = new Set(['dependency-refused', 'dependency-unreachable', 'dns-resolution']);

const messages = {
  title: '{{kind}} {{container}} cannot connect to {{host}}: Service {{service}} has no ready endpoints',
  refused: '{{kind}} "{{container}}" fails to connect to {{host}}: "{{line}}".',
  isService: '{{host}} is Service {{service}}, which has no ready endpoint, so kube-proxy rejects connections to it (with IPVS they time out instead).',
  isClusterIP:
    '{{host}} is the ClusterIP of Service {{service}}, which has no ready endpoint, so kube-proxy rejects connections to it (with IPVS they time out instead).',
  isHeadless: '{{host}} is the headless Service {{service}}, which has no ready address, so DNS has no record for it.',
  notReady: 'Its selector {{selector}} matches {{pods}}, and none is Ready, so no address is published.',
  notReadyCount: 'Its {{notReady}} {{addresses}} not ready: the pods it selects run but fail their readiness probe.',
  nearly: 'Its selector {{selector}} matches no pod: {{pods}} {{match}} every label of it but {{key}}, and {{have}} where the Service wants {{key}}={{want}}.',
  noMatch: 'Its selector {{selector}} matches no pod in namespace {{namespace}}: the pods it should select are not there, or their labels differ.',
  noAddress: 'It has no address at all: its selector {{selector}} matches no running pod.',
  noSelector: 'It has no selector: its Endpoints are written by hand or by another controller, and they list no ready address.',
  restarts: 'It has restarted {{restarts}} {{times}} and keeps failing until the Service has a ready endpoint.',
  waiting: 'It has been retrying for {{running}} and keeps failing until the Service has a ready endpoint.',
  fixLabels:
    'Make the labels agree: the pods that should serve {{service}} need {{key}}={{want}} (find what is meant to set it, e.g. a leader election, ' +
    'and why it did not), or the Service selector must name what the pods carry.',
  fixSelector: 'Deploy the pods the Service should select, or correct its selector: kubectl get pods -n {{namespace}} -l {{selector}} lists none.',
  fixReadiness: 'Make its pods Ready: kubectl describe pod -n {{namespace}} {{pod}} shows the failing readiness probe (or diagnose that pod).',
  fixManual: 'Write the Endpoints (or EndpointSlice) the Service should have, or give it a selector.',
  checkEndpoints: 'Check what it serves: kubectl get endpointslices -n {{namespace}} -l kubernetes.io/service-name={{name}}.',
  appRecovers: 'Nothing in {{container}} needs to change for this: it connects on its next try once {{service}} has a ready endpoint.',
  prevent:
    'Alert when a Service others depend on has no ready endpoint (kube-state-metrics reports endpoint addresses by readiness), ' +
    'and let clients retry with back-off instead of exiting.',
} as const;
type Id = keyof typeof messages;

/** No ready address: an Endpoints object with none, or none at all when the read did not fail. */
function withoutReadyAddress(snapshot: Snapshot, d: DependencyFact): boolean {
  if (!d.service) return false;
  if (d.endpoints) return d.endpoints.ready === 0;
  return d.endpoints === null && !snapshot.gaps.some((g) => g.check === `endpoints ${d.namespace}/${d.name}`);
}

interface Failing {
  status: NamedStatus;
  tail?: LogTail | undefined;
  texts: { lines?: string[]; text?: string; source: string }[];
  crash?: Crash;
  runningFor?: number;
}

/** Containers that fail now: crashed ones, and ones that have been running unready (an init container that waits) for a while. */
function failing(snapshot: Snapshot): Failing[] {
  const pod = snapshot.pod;
  const out: Failing[] = [];
  for (const c of crashes(snapshot)) {
    const tail = crashLogs(snapshot, c);
    const texts: Failing['texts'] = [];
    if (c.term?.message) texts.push({ text: c.term.message, source: `pod.status.${c.s.init ? 'initContainerStatuses' : 'containerStatuses'}[${c.name}]` });
    if (tail) texts.push({ lines: tail.lines, source: logSource(tail) });
    out.push({ status: c.s, tail, texts, crash: c });
  }
  for (const s of containerStatuses(pod)) {
    const running = s.status.state?.running;
    if (!running || s.status.ready || out.some((f) => f.status.status.name === s.status.name && f.status.init === s.init)) continue;
    // A native sidecar runs for the pod's whole life by design: only a waiting init container or an unready app container counts.
    if (s.init && containerSpec(pod, s.status.name, true)?.restartPolicy === 'Always') continue;
    const runningFor = secondsSince(snapshot, running.startedAt);
    if (runningFor === undefined || runningFor < WAIT_SECONDS) continue;
    const tail = (snapshot.logs ?? []).find((l) => l.container === s.status.name && !l.previous && l.lines.length > 0);
    if (tail) out.push({ status: s, tail, texts: [{ lines: tail.lines, source: logSource(tail) }], runningFor });
  }
  return out;
}

const quote = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/** What a pod carries for the label its Service's selector wants: `role=follower`, or `no role label`. */
const carries = (d: { key: string; have?: string }) => (d.have === undefined ? `no ${d.key} label` : `${d.key}=${d.have}`);

function list(names: string[], max = 3): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

export const rule = defineRule({
  meta: {
    id: 'network.service-no-endpoints',
    title: 'A container cannot connect to a Service that has no ready endpoints',
    category: 'network',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'dependencies'],
    priority: 60,
    supersedes: ['crash.app-exit', 'init.waiting-dependency', 'readiness.failing', 'crash.probe-failing'],
    doc:
      'A container (init or app, crash-looping or retrying) fails to connect to a Service its log or termination message names ' +
      "(`connection refused`, MySQL's `Can't connect to MySQL server on 'x' (111)`, a timeout under IPVS, or the ClusterIP its client resolved), " +
      'and that Service exists but its Endpoints list no ready address. Says why: its selector matches no pod (naming the label that differs ' +
      'on the pods that match all the others), the pods it matches are not Ready, or it has no selector.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const deps = snapshot.dependencies ?? [];
    if (!pod || isDeleting(pod) || deps.length === 0) return null;
    const namespace = pod.metadata?.namespace ?? '';
    const out: FindingDraft<Id>[] = [];
    for (const f of failing(snapshot)) {
      // The latest line that names a Service without a ready address: a refusal or a timeout, or (headless) a name that does not resolve.
      let hit: { line: string; d: DependencyFact } | undefined;
      for (const found of findLines(f.texts, MECHANISMS, 24)) {
        const host = found.groups.host?.replace(/^\[|\]$/g, '').toLowerCase();
        const d = host ? deps.find((x) => x.host.replace(/^\[|\]$/g, '').toLowerCase() === host) : undefined;
        if (!d?.service || !withoutReadyAddress(snapshot, d)) continue;
        if (found.mechanism === 'dns-resolution' && !d.service.headless) continue;
        hit = { line: found.line, d };
        break;
      }
      if (!hit) continue;
      const { d, line } = hit;
      const service = `${d.namespace}/${d.name}`;
      const name = f.status.status.name;
      const kind = f.status.init ? 'Init container' : 'Container';
      const matched = (d.pods ?? []).filter((p) => !p.differs);
      const nearly = (d.pods ?? []).filter((p) => p.differs);
      const selector = d.selector ? quote(d.selector) : '';
      // Why nothing is ready, from what the collector read: the pods it matches, those that nearly do, or the counts alone.
      let why: Said<Id>;
      let fix: Said<Id>;
      let reason: string;
      let differs: { key: string; want: string } | undefined;
      if (!d.selector) {
        why = msg('noSelector');
        fix = msg('fixManual');
        reason = 'no-selector';
      } else if (matched.length > 0) {
        why = msg('notReady', { selector, pods: list(matched.map((p) => `${p.name} (${p.phase ?? 'unknown'}, not Ready)`)) });
        fix = msg('fixReadiness', { namespace: d.namespace, pod: matched[0]!.name });
        reason = 'not-ready';
      } else if ((d.endpoints?.notReady ?? 0) > 0) {
        const n = d.endpoints?.notReady ?? 0;
        why = msg('notReadyCount', { notReady: n, addresses: n === 1 ? 'address is' : 'addresses are' });
        fix = msg('fixReadiness', { namespace: d.namespace, pod: '<pod>' });
        reason = 'not-ready';
      } else if (nearly.length > 0) {
        // The label most near-matches differ on: usually one (role, version, release) for all of them.
        const key = nearly
          .map((p) => p.differs!.key)
          .sort((a, b) => nearly.filter((p) => p.differs!.key === b).length - nearly.filter((p) => p.differs!.key === a).length)[0]!;
        const these = nearly.filter((p) => p.differs!.key === key);
        const want = these[0]!.differs!.want;
        const values = [...new Set(these.map((p) => carries(p.differs!)))];
        why = msg('nearly', {
          selector,
          pods: list(these.map((p) => p.name)),
          match: these.length === 1 ? 'matches' : 'match',
          key,
          want,
          have: `${these.length === 1 ? 'it carries' : 'they carry'} ${values.join(' or ')}`,
        });
        fix = msg('fixLabels', { service, key, want });
        reason = 'labels-differ';
        differs = { key, want };
      } else if (d.pods) {
        why = msg('noMatch', { selector, namespace: d.namespace });
        fix = msg('fixSelector', { namespace: d.namespace, selector });
        reason = 'no-match';
      } else {
        why = msg('noAddress', { selector });
        fix = msg('fixSelector', { namespace: d.namespace, selector });
        reason = 'no-address';
      }
      const host = d.host;
      const what = d.service?.headless
        ? msg('isHeadless', { host, service })
        : /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)
          ? msg('isClusterIP', { host, service })
          : msg('isService', { host, service });
      const c = f.crash;
      const evidence: Evidence[] = [
        ...(f.tail ? [{ source: logSource(f.tail), text: line }, logEvidence(f.tail, 6, 2)] : [{ source: `pod ${name}`, text: line }]),
        ...(c
          ? crashEvidence(snapshot, c)
          : [statusEvidence(f.status, 'state', `running since ${f.status.status.state?.running?.startedAt ?? '?'}, not ready`)]),
        {
          source: `Service ${service}`,
          text:
            `${d.selector ? `selector ${selector}` : 'no selector'}; ` +
            `endpoints: ${d.endpoints ? `${d.endpoints.ready} ready, ${d.endpoints.notReady} not ready` : 'no Endpoints object'}`,
        },
        ...(d.pods ?? []).slice(0, 5).map((p) => ({
          source: `pod ${d.namespace}/${p.name}`,
          text:
            `${p.phase ?? 'unknown phase'}, ${p.ready ? 'Ready' : 'not Ready'}` +
            (p.differs ? `; ${carries(p.differs)} (selector: ${p.differs.key}=${p.differs.want})` : ''),
        })),
      ];
      // The catalogue's reading, when it read the crash as this very class.
      const reading = c ? crashReading(snapshot, c) : undefined;
      const sameClass = reading && (reading.variant === 'service-without-endpoints' || reading.variant === 'no-ready-endpoints');
      out.push({
        title: msg('title', { kind, container: name, host, service }),
        cause: [
          msg('refused', { kind, container: name, host, line: clip(line, 300) }),
          what,
          why,
          c
            ? msg('restarts', { restarts: c.restarts, times: c.restarts === 1 ? 'time' : 'times' })
            : msg('waiting', { running: formatDuration(f.runningFor ?? 0) }),
        ],
        evidence,
        advice: [fix, msg('checkEndpoints', { namespace: d.namespace, name: d.name }), msg('appRecovers', { container: name, service })],
        prevent: [msg('prevent')],
        causeKey: `service/${service}:no-endpoints`,
        params: {
          container: name,
          service,
          host,
          reason,
          ...(differs ? { label: differs.key, want: differs.want } : {}),
          ...(namespace !== d.namespace ? { serviceNamespace: d.namespace } : {}),
        },
        ...(reading && sameClass ? { mechanism: mechanismRef(reading) } : {}),
      });
    }
    return out;
  },
});
