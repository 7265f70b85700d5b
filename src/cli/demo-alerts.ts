// The demo's Alertmanager: one alert group (KubePodNotReady on a few of the seed incidents'
// pods) sent to the same intake the bot's webhook uses, its group events shown in the console
// chat by the bot's stream readers (cli/chat-streams.ts), which tell it what they showed. `fire` opens the group's thread and waits for the
// diagnoses of its pods; `resolve` sends the group's resolved notification and waits for the
// thread to say so. Silence and Mute are the thread's own buttons (`silence <n> 1h`, `mute <n>`).
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { AlertGroupEvent } from '../alerts/group-events.js';
import { AlertIntake } from '../alerts/intake.js';
import { WebhookPayload } from '../alerts/schema.js';
import type { ChatContext } from '../chat/context.js';
import type { JobQueues } from '../jobs/queues.js';
import type { Target } from '../kube/target.js';

export const DEMO_ALERTNAME = 'KubePodNotReady';
/** Pods alerted on at most: enough for a group, few enough for a readable thread. */
const MAX_PODS = 2;

export interface DemoAlertsOptions {
  queues: JobQueues;
  chat: ChatContext;
  cluster: string;
  channel: string;
  /** The seed incidents' targets: the pods among them are alerted on. */
  targets: readonly Target[];
  logger: Logger;
  /** Resolves once the diagnosis `jobId` is posted. */
  waitDelivered: (jobId: string) => Promise<void>;
}

export interface DemoAlerts {
  /** `namespace/pod` of each alerted pod. */
  readonly pods: readonly string[];
  /** Sends the group's firing notification; resolves once its thread shows the diagnoses. */
  fire(): Promise<void>;
  /** Sends the group's resolved notification; resolves once its thread says so. */
  resolve(): Promise<void>;
  /** An alert-group event the chat has shown (the chat's stream reader tells it). */
  observe(event: AlertGroupEvent): void;
  stop(): Promise<void>;
}

type EventType = 'group-opened' | 'alerts-added' | 'group-resolved' | 'alerts-resolved' | 'truncated' | 'targets-expanded';

/** Alertmanager's fingerprint is a hash of the label set; a stable 16-hex hash stands in for it. */
function fingerprintOf(labels: Record<string, string>): string {
  const text = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u00ff');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export function startDemoAlerts(o: DemoAlertsOptions): DemoAlerts {
  const pods = o.targets.flatMap((t) => (t.kind === 'pod' ? [t] : [])).slice(0, MAX_PODS);
  const intake = new AlertIntake({ queues: o.queues, cluster: o.cluster, defaultChannel: o.channel, logger: o.logger });
  // Handled events by type, and who waits for how many.
  const handled = new Map<EventType, number>();
  const waiters = new Set<() => void>();
  const handledAtLeast = (type: EventType, n: number, ms = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if ((handled.get(type) ?? 0) < n) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`the alert group's ${type} was not shown within ${ms} ms`));
      }, ms);
      waiters.add(check);
      check();
    });

  const groupKey = `{}/{alertname=~"KubePod.*"}:{alertname="${DEMO_ALERTNAME}"}`;
  let startsAt: string | undefined;
  const notification = (status: 'firing' | 'resolved') => {
    const now = new Date().toISOString();
    const alerts = pods.map((p) => {
      const labels = { alertname: DEMO_ALERTNAME, severity: 'warning', namespace: p.namespace, pod: p.name, job: 'kube-state-metrics' };
      return {
        status,
        labels,
        annotations: { summary: 'Pod has been in a non-ready state for more than 15 minutes.' },
        startsAt: startsAt ?? now,
        endsAt: status === 'resolved' ? now : '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.demo:9090/graph',
        fingerprint: fingerprintOf(labels),
      };
    });
    return WebhookPayload.parse({
      version: '4',
      receiver: 'pod-doctor',
      status,
      alerts,
      groupLabels: { alertname: DEMO_ALERTNAME },
      commonLabels: { alertname: DEMO_ALERTNAME, severity: 'warning', job: 'kube-state-metrics' },
      externalURL: 'http://alertmanager.demo:9093',
      groupKey,
    });
  };

  return {
    pods: pods.map((p) => `${p.namespace}/${p.name}`),
    async fire() {
      if (pods.length === 0) throw new Error('no pod among the loaded incidents to alert on');
      if (startsAt) throw new Error('the alert group is firing already (alert resolve first)');
      // A new episode after a resolve: Alertmanager gives a re-fired alert a new startsAt.
      startsAt = new Date().toISOString();
      const opened = handled.get('group-opened') ?? 0;
      const result = await intake.accept(notification('firing'));
      const jobIds = result.groups.flatMap((g) => g.events.flatMap((e) => (e.type === 'alerts-added' ? e.alerts.flatMap((a) => a.jobIds) : [])));
      await handledAtLeast('group-opened', opened + 1);
      await Promise.all(jobIds.map((id) => o.waitDelivered(id)));
    },
    async resolve() {
      if (!startsAt) throw new Error('the alert group is not firing (alert fire first)');
      const resolved = handled.get('group-resolved') ?? 0;
      await intake.accept(notification('resolved'));
      startsAt = undefined;
      await handledAtLeast('group-resolved', resolved + 1);
    },
    observe(event) {
      handled.set(event.type, (handled.get(event.type) ?? 0) + 1);
      for (const w of waiters) w();
    },
    async stop() {
      await intake.close();
    },
  };
}
