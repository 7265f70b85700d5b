import { describe, expect, it } from 'vitest';
import { event, ownerFact, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { Snapshot, WebhookFact } from '../types.js';
import { rule as rejected } from './admission-rejected.js';
import { parseUnavailable, rule } from './admission-webhook-unavailable.js';
import { RULES } from './index.js';

const rsObject = { metadata: { name: 'web-7d9f8c6b5', namespace: 'shop' }, spec: { replicas: 3 }, status: { replicas: 0 } };
const rs = (message: string, lastSeenAgo = 30) => {
  const o = ownerFact('ReplicaSet', 'web-7d9f8c6b5', rsObject);
  o.events = [event(o.object!, { reason: 'FailedCreate', count: 17, lastSeenAgo, component: 'replicaset-controller', message })];
  return o;
};
const NO_ENDPOINTS =
  'Error creating: Internal error occurred: failed calling webhook "mpod.kb.io": failed to call webhook: ' +
  'Post "https://webhook-service.system.svc:443/mutate-v1-pod?timeout=10s": no endpoints available for service "webhook-service"';
const TIMEOUT =
  'Error creating: Internal error occurred: failed calling webhook "namespace.sidecar-injector.istio.io": failed to call webhook: ' +
  'Post "https://istiod.istio-system.svc:443/inject?timeout=10s": dial tcp 10.0.27.245:15017: i/o timeout';
const webhook: WebhookFact = {
  configuration: 'MutatingWebhookConfiguration/mutating-webhook-configuration',
  name: 'mpod.kb.io',
  failurePolicy: 'Fail',
  service: { namespace: 'system', name: 'webhook-service', path: '/mutate-v1-pod' },
  serviceExists: true,
  endpoints: { ready: 0, notReady: 1 },
};
const missing = (owners: Snapshot['owners'], more: Partial<Snapshot> = {}): Snapshot =>
  snapshot(undefined, {
    target: { kind: 'pod', namespace: 'shop', name: 'web-7d9f8c6b5-x2k4q' },
    missingPod: { name: 'web-7d9f8c6b5-x2k4q' },
    owners,
    ...more,
  });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (denied vs unavailable): the webhook answered and denied the pod (admission.rejected)',
      snapshot: missing([
        rs('Error creating: admission webhook "validation.gatekeeper.sh" denied the request: [must-have-owner] you must provide labels: {"owner"}'),
      ]),
    },
    {
      name: 'a refusal an hour ago, owner without status (history)',
      snapshot: snapshot(pod(), { owners: [{ ...rs(NO_ENDPOINTS, 3600), object: undefined }] }),
    },
  ],
  invalid: [
    {
      name: 'no endpoints for the webhook Service (controller pod not Ready), with the webhook read back',
      snapshot: missing([rs(NO_ENDPOINTS)], { webhooks: [webhook] }),
      expect: {
        severity: 'error',
        playbook: null,
        params: { webhook: 'mpod.kb.io', why: 'no-endpoints', service: 'system/webhook-service' },
        said: [
          { id: 'detailSeen', data: { detail: /no endpoints available for service "webhook-service"/ } },
          { id: 'state', data: { state: /0 ready addresses, 1 not ready/ } },
        ],
      },
    },
    {
      name: 'istiod unreachable (i/o timeout)',
      snapshot: missing([rs(TIMEOUT)]),
      expect: { params: { why: 'timeout' }, said: [{ id: 'detailSeen', data: { detail: /dial tcp 10.0.27.245:15017: i\/o timeout/ } }] },
    },
  ],
});

describe('admission.webhook-unavailable', () => {
  it('reads why the call failed', () => {
    expect(parseUnavailable(NO_ENDPOINTS)?.why).toBe('no-endpoints');
    expect(parseUnavailable(TIMEOUT)?.why).toBe('timeout');
    expect(
      parseUnavailable(
        'failed calling webhook "x": failed to call webhook: Post "https://a.b.svc:443/?timeout=10s": ' +
          'tls: failed to verify certificate: x509: certificate signed by unknown authority',
      )?.why,
    ).toBe('tls');
    expect(parseUnavailable('admission webhook "x" denied the request: no')).toBeUndefined();
  });
  it('is not admission.rejected, and ranks first for a pod that was never created', () => {
    const s = missing([rs(NO_ENDPOINTS)], { webhooks: [webhook] });
    expect(rejected.check(s, { pendingGraceSeconds: 60, changeWindowSeconds: 7200 })).toBeNull();
    expect(diagnose(s, { rules: RULES }).findings[0]?.rule).toBe('admission.webhook-unavailable');
  });
});
