// Alertmanager webhook payloads as kube-prometheus renders them (reference: kubernetes-facts
// §5.3 and §6.6), plus a tiny HTTP client for the handler tests.
import { createHash } from 'node:crypto';
import { request } from 'node:http';

export const TOKEN = 'test-token-0123456789abcdef';

export interface AlertInit {
  alertname?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  status?: 'firing' | 'resolved';
  startsAt?: string;
  endsAt?: string;
  fingerprint?: string;
}

/** Alertmanager's fingerprint is a hash of the label set; any stable 16-hex hash will do here. */
export function fingerprintOf(labels: Record<string, string>): string {
  const text = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u00ff');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export interface AmAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL: string;
  fingerprint: string;
}

export function amAlert(init: AlertInit = {}): AmAlert {
  const labels: Record<string, string> = {
    alertname: init.alertname ?? 'KubePodCrashLooping',
    severity: 'warning',
    prometheus: 'monitoring/k8s',
    job: 'kube-state-metrics',
    ...init.labels,
  };
  const status = init.status ?? 'firing';
  return {
    status,
    labels,
    annotations: {
      summary: 'Pod is crash looping.',
      runbook_url: 'https://runbooks.prometheus-operator.dev/runbooks/kubernetes/kubepodcrashlooping',
      ...init.annotations,
    },
    startsAt: init.startsAt ?? '2026-11-21T09:45:30.123456789Z',
    endsAt: init.endsAt ?? (status === 'firing' ? '0001-01-01T00:00:00Z' : '2026-11-21T10:05:00Z'),
    generatorURL: 'http://prometheus-k8s-0:9090/graph?g0.expr=max_over_time%28kube_pod_container_status_waiting_reason%5B5m%5D%29&g0.tab=1',
    fingerprint: init.fingerprint ?? fingerprintOf(labels),
  };
}

export function podAlert(namespace: string, pod: string, init: AlertInit = {}): AmAlert {
  return amAlert({ ...init, labels: { namespace, pod, container: 'web', reason: 'CrashLoopBackOff', instance: '10.244.1.12:8443', ...init.labels } });
}

export function payload(alerts: AmAlert[], patch: Record<string, unknown> = {}) {
  const firing = alerts.some((a) => a.status === 'firing');
  return {
    receiver: 'pod-doctor',
    status: firing ? 'firing' : 'resolved',
    alerts,
    groupLabels: { namespace: alerts[0]?.labels.namespace ?? '' },
    commonLabels: { prometheus: 'monitoring/k8s' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager-main-0:9093',
    version: '4',
    groupKey: `{}:{namespace="${alerts[0]?.labels.namespace ?? ''}"}`,
    truncatedAlerts: 0,
    ...patch,
  };
}

export interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** POST raw bytes; `headers` replace the defaults (JSON + bearer) when given. */
export function post(url: string, body: string | Buffer, headers: Record<string, string> | undefined = undefined, method = 'POST'): Promise<Reply> {
  const data = typeof body === 'string' ? Buffer.from(body) : body;
  const h = headers ?? { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...h, 'content-length': String(data.length) }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

export function postJson(url: string, value: unknown, token = TOKEN): Promise<Reply> {
  return post(url, JSON.stringify(value), { 'content-type': 'application/json', authorization: `Bearer ${token}` });
}
