// admission.webhook-unavailable: Pods cannot be created: an admission webhook does not answer.

import { clip, formatDuration, isFinished, namespaceOf } from '../facts.js';
import { msg } from '../messages.js';
import { ownerRefusals } from '../owners.js';
import { defineRule } from '../rule.js';
import type { FindingDraft, WebhookFact } from '../types.js';

// An admission webhook with failurePolicy Fail that cannot be called refuses every pod it matches.
// The API server's words (`Internal error occurred: failed calling webhook "<name>": failed to call
// webhook: Post "https://<svc>.<ns>.svc:443/<path>?timeout=10s": <why>`):
//   no endpoints available for service "<svc>"       the webhook's pods are not Ready (or absent)
//   dial tcp <ip>:<port>: connect: connection refused  the pods run but do not listen yet
//   dial tcp ...: i/o timeout / context deadline exceeded   a network policy or firewall to the pods
//   tls: failed to verify certificate: x509: ...     the caBundle does not match the serving cert
//   service "<svc>" not found                         the webhook outlived its service (an uninstall)
// A webhook that answers and *denies* is admission.rejected's: the policy decided, not an outage.

type Why = 'no-endpoints' | 'refused' | 'timeout' | 'tls' | 'service-missing' | 'other';

interface Unavailable {
  webhook: string;
  why: Why;
  detail: string;
}

export function parseUnavailable(message: string): Unavailable | undefined {
  const m = /failed calling webhook "([^"]+)": (.*)$/s.exec(message);
  if (!m?.[1]) return undefined;
  const detail = m[2] ?? '';
  const why: Why = /no endpoints available for service/.test(detail)
    ? 'no-endpoints'
    : /service "[^"]+" not found/.test(detail)
      ? 'service-missing'
      : /connection refused/.test(detail)
        ? 'refused'
        : /x509|tls:|certificate/.test(detail)
          ? 'tls'
          : /i\/o timeout|deadline exceeded|Client\.Timeout|timed out/.test(detail)
            ? 'timeout'
            : 'other';
  return { webhook: m[1], why, detail };
}

const messages = {
  noAnswerTitle: '{{who}} cannot create pods: webhook {{webhook}} does not answer',
  refused: 'The API server refuses to create the pod because it cannot call the admission webhook {{webhook}}:',
  refusedFor: 'The API server refuses to create the pod for {{owner}} because it cannot call the admission webhook {{webhook}}:',
  whyNoEndpoints: 'its Service has no ready endpoints: the webhook pods are not running or not Ready',
  whyRefused: 'its pods refuse the connection: they run but do not listen (starting, crash-looping, wrong port)',
  whyTimeout: 'the call times out: the API server cannot reach the pods (a NetworkPolicy, a firewall between control plane and nodes, or the pods hang)',
  whyTls: 'TLS fails: the caBundle of the webhook configuration does not match the certificate the webhook serves',
  whyServiceMissing: 'its Service does not exist: the webhook configuration outlived an uninstall',
  whyOther: 'the call fails',
  detail: '("{{detail}}").',
  detailSeen: '("{{detail}}"), last seen {{age}} ago.',
  state: '{{state}}.',
  blocksEverything: 'With failurePolicy Fail an unreachable webhook blocks every pod it matches, in every namespace it selects.',
  bringBackService: 'Bring the webhook back: `kubectl get pods,endpoints -n {{namespace}} ` for {{service}} (its pods must be Ready), and read their logs.',
  bringBack: 'Bring the webhook back: find the pods that serve it and make them Ready.',
  reinjectCa: "Re-inject the CA (cert-manager's ca-injector, or the chart's job) so the caBundle of {{configuration}} matches the serving certificate.",
  deleteOrScope:
    'If the webhook is gone for good (uninstalled), delete {{configuration}}; ' +
    'to keep it but stop the outage, exclude {{namespace}} or system namespaces with a namespaceSelector, ' +
    'or set failurePolicy Ignore (a policy decision, not a default).',
  retry: 'The controllers retry by themselves once the webhook answers.',
  preventOutage:
    'Run webhook servers with several replicas and a PodDisruptionBudget, scope their namespaceSelector narrowly, ' +
    'and alert on apiserver_admission_webhook_rejection_count{rejection_code="0"}.',
} as const;

type Id = keyof typeof messages;

const WHY_TEXT: Record<Why, Id> = {
  'no-endpoints': 'whyNoEndpoints',
  refused: 'whyRefused',
  timeout: 'whyTimeout',
  tls: 'whyTls',
  'service-missing': 'whyServiceMissing',
  other: 'whyOther',
};

/** The webhook configuration and the state of its Service: evidence, quoted again in the cause. */
function serviceState(w: WebhookFact | undefined): string {
  if (!w) return '';
  const svc = w.service ? `${w.service.namespace}/${w.service.name}` : (w.url ?? '');
  const parts = [`${w.configuration} (failurePolicy ${w.failurePolicy ?? 'Fail'})`];
  if (w.serviceExists === false) parts.push(`Service ${svc} does not exist`);
  else if (w.endpoints === null) parts.push(`Service ${svc} has no Endpoints object`);
  else if (w.endpoints)
    parts.push(`Service ${svc}: ${w.endpoints.ready} ready address${w.endpoints.ready === 1 ? '' : 'es'}, ${w.endpoints.notReady} not ready`);
  else if (svc) parts.push(`calls ${svc}`);
  return parts.join('; ');
}

export const rule = defineRule({
  meta: {
    id: 'admission.webhook-unavailable',
    title: 'Pods cannot be created: an admission webhook does not answer',
    category: 'admission',
    severity: 'error',
    needs: ['pod', 'events', 'owners', 'webhooks'],
    priority: 59,
    doc:
      'The owner\'s FailedCreate (or ReplicaFailure) says `failed calling webhook "X"`: the API server cannot call a webhook whose failurePolicy is Fail, ' +
      'so it refuses every pod the webhook matches (no endpoints available, connection refused, i/o timeout, a TLS/caBundle mismatch, ' +
      'a Service that no longer exists). Reads the webhook configuration and whether its Service has ready endpoints. ' +
      'A webhook that answers and denies is admission.rejected.',
    messages,
  },
  check(snapshot) {
    if (isFinished(snapshot.pod)) return null;
    const hits = ownerRefusals(snapshot, parseUnavailable);
    if (hits.length === 0) return null;
    const ns = namespaceOf(snapshot);
    const out: FindingDraft<Id>[] = [];
    for (const name of [...new Set(hits.map((h) => h.rejection.webhook))]) {
      const group = hits.filter((h) => h.rejection.webhook === name);
      const first = group[0]!;
      const fact = snapshot.webhooks?.find((w) => w.name === name);
      const owner = group.find((h) => h.owner && h.owner.kind !== 'Deployment')?.owner ?? first.owner;
      const age = Math.min(...group.map((h) => h.ageSeconds ?? Infinity));
      const state = serviceState(fact);
      const svc = fact?.service ? `${fact.service.namespace}/${fact.service.name}` : undefined;
      const evidence = group.slice(0, 3).map((h) => h.evidence);
      if (state) evidence.push({ source: `webhook ${name}`, text: state });
      out.push({
        severity: snapshot.pod ? 'warning' : 'error',
        title: msg('noAnswerTitle', { who: owner ? `${owner.kind} ${owner.name}` : 'Pod', webhook: name }),
        cause: [
          owner ? msg('refusedFor', { owner: `${owner.kind} ${owner.name}`, webhook: name }) : msg('refused', { webhook: name }),
          msg(WHY_TEXT[first.rejection.why]),
          Number.isFinite(age)
            ? msg('detailSeen', { detail: clip(first.rejection.detail, 300), age: formatDuration(age) })
            : msg('detail', { detail: clip(first.rejection.detail, 300) }),
          state !== '' && msg('state', { state }),
          msg('blocksEverything'),
        ],
        evidence,
        advice: [
          svc ? msg('bringBackService', { namespace: fact?.service?.namespace ?? '', service: svc }) : msg('bringBack'),
          first.rejection.why === 'tls'
            ? msg('reinjectCa', { configuration: fact?.configuration ?? 'the configuration' })
            : msg('deleteOrScope', { configuration: fact?.configuration ?? 'its webhook configuration', namespace: ns }),
          msg('retry'),
        ],
        prevent: [msg('preventOutage')],
        causeKey: `webhook:${name}:unavailable`,
        params: {
          webhook: name,
          why: first.rejection.why,
          namespace: ns,
          ...(svc ? { service: svc } : {}),
          ...(owner ? { ownerKind: owner.kind, ownerName: owner.name } : {}),
        },
      });
    }
    return out;
  },
});
