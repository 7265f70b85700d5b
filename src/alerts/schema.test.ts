import { describe, expect, it } from 'vitest';
import { amAlert, payload, podAlert } from '../../test/helpers/alerts.js';
import { type AlertRoute, alertLabelsSetting, alertRoutesSetting, DEFAULT_LABELS, labelMapping } from '../config/alerts.js';
import { loadConfig } from '../config/schema.js';
import { channelFor } from './routes.js';
import { PAYLOAD_LIMITS, parseWebhookPayload, unquoteReceiver } from './schema.js';
import { clusterFromLabels, targetFromLabels } from './targets.js';

const without = (o: object, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

describe('webhook payload v4', () => {
  const base = payload([podAlert('prod', 'api-7d9f8c6b5-x2k4q')]);

  it.each([
    ['the classic v0.21–v0.31 payload', base],
    ['v0.20 without truncatedAlerts', without(base, 'truncatedAlerts')],
    ['v0.32 notification_reason', { ...base, notification_reason: 'new alerts added' }],
    ['v0.34 routeLabels', { ...base, routeLabels: { team: 'sre' } }],
    ['unknown extra fields', { ...base, somethingNew: { nested: [1, 2] }, alerts: [{ ...podAlert('prod', 'p'), extra: true }] }],
    ['a resolved alert with an end time', payload([podAlert('prod', 'p', { status: 'resolved' })])],
    ['times with an offset and no fraction', payload([amAlert({ startsAt: '2026-11-21T10:00:00+02:00' })])],
    ['empty annotations and generatorURL', payload([{ ...amAlert(), annotations: {}, generatorURL: '' }])],
  ])('accepts %s', (_name, body) => {
    const r = parseWebhookPayload(body);
    expect(r.ok, r.ok ? '' : r.reason).toBe(true);
  });

  it('keeps identity fields verbatim and fills defaults', () => {
    const r = parseWebhookPayload({ ...without(base, 'truncatedAlerts'), notification_reason: 'first notification' });
    if (!r.ok) throw new Error(r.reason);
    expect(r.payload.truncatedAlerts).toBe(0);
    expect(r.payload.notification_reason).toBe('first notification');
    expect(r.payload.alerts[0]?.startsAt).toBe('2026-11-21T09:45:30.123456789Z');
  });

  it.each([
    ['version 3', { ...base, version: '3' }, 'version'],
    ['version as a number', { ...base, version: 4 }, 'version'],
    ['no alerts', { ...base, alerts: [] }, 'alerts'],
    ['no groupKey', without(base, 'groupKey'), 'groupKey'],
    ['no receiver', without(base, 'receiver'), 'receiver'],
    ['status unknown', { ...base, status: 'pending' }, 'status'],
    ['alert without fingerprint', { ...base, alerts: [without(podAlert('a', 'b'), 'fingerprint')] }, 'alerts.0.fingerprint'],
    ['fingerprint with punctuation', { ...base, alerts: [{ ...podAlert('a', 'b'), fingerprint: '../../x' }] }, 'alerts.0.fingerprint'],
    ['startsAt not a time', { ...base, alerts: [{ ...podAlert('a', 'b'), startsAt: 'yesterday' }] }, 'alerts.0.startsAt'],
    ['label value a number', { ...base, alerts: [{ ...podAlert('a', 'b'), labels: { alertname: 'X', replicas: 3 } }] }, 'alerts.0.labels.replicas'],
    ['huge label value', { ...base, alerts: [podAlert('a', 'b', { labels: { big: 'x'.repeat(PAYLOAD_LIMITS.labelValue + 1) } })] }, 'alerts.0.labels.big'],
    ['too many alerts', { ...base, alerts: Array.from({ length: PAYLOAD_LIMITS.alerts + 1 }, () => podAlert('a', 'b')) }, 'alerts'],
    ['negative truncatedAlerts', { ...base, truncatedAlerts: -1 }, 'truncatedAlerts'],
    ['an array', [base], '(root)'],
  ])('rejects %s with the path in the reason', (_name, body, path) => {
    const r = parseWebhookPayload(body);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain(`${path}:`);
  });

  it('unquotes regexp.QuoteMeta receivers', () => {
    expect(unquoteReceiver('team\\.sre\\+pager')).toBe('team.sre+pager');
  });
});

describe('targets from labels', () => {
  const exported = labelMapping({ namespace: ['exported_namespace', 'namespace'], pod: ['exported_pod', 'kubernetes_pod_name', 'pod'] });

  it.each([
    [
      'KubePodCrashLooping',
      { namespace: 'prod', pod: 'api-7d9f8c6b5-x2k4q', container: 'api' },
      DEFAULT_LABELS,
      { kind: 'pod', target: { kind: 'pod', namespace: 'prod', name: 'api-7d9f8c6b5-x2k4q' } },
    ],
    [
      'KubeDeploymentReplicasMismatch',
      { namespace: 'shop', deployment: 'web', instance: '10.0.0.1:8443' },
      DEFAULT_LABELS,
      { kind: 'workload', workload: { kind: 'Deployment', namespace: 'shop', name: 'web' } },
    ],
    [
      'KubeStatefulSetReplicasMismatch',
      { namespace: 'db', statefulset: 'pg' },
      DEFAULT_LABELS,
      { kind: 'workload', workload: { kind: 'StatefulSet', namespace: 'db', name: 'pg' } },
    ],
    [
      'KubeDaemonSetRolloutStuck',
      { namespace: 'kube-system', daemonset: 'calico-node' },
      DEFAULT_LABELS,
      { kind: 'workload', workload: { kind: 'DaemonSet', namespace: 'kube-system', name: 'calico-node' } },
    ],
    [
      'KubeJobFailed (job is the scrape job)',
      { namespace: 'batch', job_name: 'nightly-28512345', job: 'kube-state-metrics' },
      DEFAULT_LABELS,
      { kind: 'workload', workload: { kind: 'Job', namespace: 'batch', name: 'nightly-28512345' } },
    ],
    [
      'KubeNodeNotReady',
      { node: 'ip-10-0-1-23.eu-west-1.compute.internal', condition: 'Ready' },
      DEFAULT_LABELS,
      { kind: 'node', target: { kind: 'node', name: 'ip-10-0-1-23.eu-west-1.compute.internal' } },
    ],
    [
      'exported_namespace wins over the scrape namespace',
      { namespace: 'monitoring', exported_namespace: 'shop', exported_pod: 'web-1' },
      exported,
      { kind: 'pod', target: { kind: 'pod', namespace: 'shop', name: 'web-1' } },
    ],
    [
      'kubernetes_pod_name',
      { namespace: 'shop', kubernetes_pod_name: 'web-2' },
      exported,
      { kind: 'pod', target: { kind: 'pod', namespace: 'shop', name: 'web-2' } },
    ],
    [
      'pod beats node',
      { namespace: 'shop', pod: 'web-3', node: 'node-1' },
      DEFAULT_LABELS,
      { kind: 'pod', target: { kind: 'pod', namespace: 'shop', name: 'web-3' } },
    ],
  ] as const)('%s', (_name, labels, mapping, expected) => {
    expect(targetFromLabels(labels as Record<string, string>, mapping)).toEqual(expected);
  });

  it.each([
    ['no labels at all (Watchdog)', { alertname: 'Watchdog' }, /no target labels/],
    ['pod without namespace', { pod: 'web-1' }, /without a namespace/],
    ['namespace only (KubeQuotaAlmostFull)', { namespace: 'shop', resource: 'cpu' }, /no target labels/],
    ['an invalid pod name', { namespace: 'shop', pod: 'Web_1' }, /not a pod name/],
    ['an invalid namespace', { namespace: 'Shop!', pod: 'web-1' }, /not a namespace name/],
    ['an invalid node name', { node: 'node 1' }, /not a node name/],
  ])('not diagnosable: %s', (_name, labels, reason) => {
    const t = targetFromLabels(labels as Record<string, string>);
    expect(t.kind).toBe('none');
    if (t.kind === 'none') expect(t.reason).toMatch(reason);
  });

  it('consults the cluster label only when configured', () => {
    const labels = { cluster: 'eu-1', namespace: 'a', pod: 'b' };
    expect(clusterFromLabels(labels, DEFAULT_LABELS, 'default', [])).toEqual({ cluster: 'default' });
    const m = labelMapping({ cluster: ['cluster'] });
    expect(clusterFromLabels(labels, m, 'default', ['eu-1'])).toEqual({ cluster: 'eu-1' });
    expect(clusterFromLabels(labels, m, 'default', [])).toEqual({ cluster: 'default', unknown: 'eu-1' });
    expect(clusterFromLabels({ namespace: 'a' }, m, 'default', ['eu-1'])).toEqual({ cluster: 'default' });
  });
});

describe('channel routes', () => {
  const routes: AlertRoute[] = [
    { receiver: 'team.sre', matchers: { severity: 'critical' }, channel: 'C0CRIT' },
    { matchers: { namespace: 'pay' }, channel: 'C0PAY' },
    { receiver: 'team.sre', channel: 'C0SRE' },
  ];
  it.each([
    ['receiver and matcher', 'team\\.sre', { severity: 'critical' }, 'C0CRIT'],
    ['label only', 'other', { namespace: 'pay' }, 'C0PAY'],
    ['receiver only (quoted on the wire)', 'team\\.sre', { severity: 'warning' }, 'C0SRE'],
    ['default', 'other', { namespace: 'shop' }, 'C0DEFAULT'],
  ])('%s', (_n, receiver, labels, channel) => {
    expect(channelFor({ receiver, labels }, routes, 'C0DEFAULT')).toBe(channel);
  });
  it('no route and no default: null', () => {
    expect(channelFor({ receiver: 'x', labels: {} }, [], undefined)).toBeNull();
  });
});

describe('settings', () => {
  it('have defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ alertmanagerPath: '/alertmanager', alertmanagerMaxBytes: 4 * 1024 * 1024, alertRoutes: [], alertMaxPods: 20 });
    expect(c.alertmanagerToken).toBeUndefined();
    expect(c.alertLabels).toEqual(DEFAULT_LABELS);
  });

  it('parse JSON label mappings and routes', () => {
    const c = loadConfig({
      ALERTMANAGER_TOKEN: 'a-long-enough-token-123',
      POD_DOCTOR_ALERT_LABELS: '{"namespace":["exported_namespace","namespace"],"pod":"kubernetes_pod_name"}',
      POD_DOCTOR_ALERT_ROUTES: '[{"receiver":"sre","matchers":{"severity":"critical"},"channel":"C0123"}]',
      POD_DOCTOR_ALERT_CHANNEL: 'C0ALERTS',
    });
    expect(c.alertLabels.namespace).toEqual(['exported_namespace', 'namespace']);
    expect(c.alertLabels.pod).toEqual(['kubernetes_pod_name']);
    expect(c.alertLabels.node).toEqual(['node']);
    expect(c.alertRoutes).toEqual([{ receiver: 'sre', matchers: { severity: 'critical' }, channel: 'C0123' }]);
  });

  it.each([
    ['POD_DOCTOR_ALERT_LABELS', '{"podname":"x"}'],
    ['POD_DOCTOR_ALERT_LABELS', 'not json'],
    ['POD_DOCTOR_ALERT_ROUTES', '[{"matchers":{}}]'],
    ['ALERTMANAGER_TOKEN', 'short'],
    ['POD_DOCTOR_ALERTMANAGER_PATH', 'alertmanager'],
  ])('reject a bad %s', (env, value) => {
    expect(() => loadConfig({ [env]: value })).toThrow(env);
  });

  it('setting parsers are usable on their own', () => {
    expect(alertLabelsSetting.parse('')).toEqual(DEFAULT_LABELS);
    expect(alertRoutesSetting.parse('[]')).toEqual([]);
  });
});
