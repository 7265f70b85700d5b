// From a validated notification to queued work and group events: each alert gets its
// cluster, target and channel; alerts are split into groups per (cluster, channel) and each
// group is applied (src/alerts/groups.ts) with the job system doing the work. Resolves only
// once every job is in Redis, so the HTTP edge may answer 200 after it.
import type { Logger } from 'pino';
import { type AlertRoute, DEFAULT_LABELS, type LabelMapping } from '../config/alerts.js';
import { enqueueDiagnosis } from '../jobs/dedup.js';
import type { JobQueues } from '../jobs/queues.js';
import type { AlertRequester } from '../jobs/schemas.js';
import { cancelAlertJobs, EXPAND_MEMBER, markResolved } from './cancel.js';
import { DEFAULT_MAX_PODS, ExpansionQueues, enqueueExpansion } from './expand.js';
import { DEFAULT_GROUP_SETTINGS, type GroupOutcome, type GroupSettings, type GroupWork, type IncomingAlert, processGroup, type WorkContext } from './groups.js';
import { alertKeys } from './keys.js';
import { channelFor } from './routes.js';
import { unquoteReceiver, type WebhookPayload } from './schema.js';
import { clusterFromLabels, targetFromLabels } from './targets.js';

export interface AlertIntakeOptions {
  queues: JobQueues;
  /** Cluster of alerts without a (configured) cluster label. */
  cluster: string;
  /** Other clusters this deployment serves, picked by the `cluster` label role. */
  clusters?: readonly string[];
  labels?: LabelMapping;
  routes?: readonly AlertRoute[];
  defaultChannel?: string | undefined;
  maxPodsPerWorkload?: number;
  logger: Logger;
  group?: Partial<Omit<GroupSettings, 'prefix' | 'logger'>>;
}

export interface IntakeResult {
  alerts: number;
  groups: GroupOutcome[];
  added: number;
  repeats: number;
  resolved: number;
  notDiagnosable: number;
  jobs: number;
  cancelled: number;
}

const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

export class AlertIntake {
  readonly expansion: ExpansionQueues;
  private readonly labels: LabelMapping;
  private readonly settings: GroupSettings;

  constructor(private readonly options: AlertIntakeOptions) {
    const { queues } = options;
    this.expansion = new ExpansionQueues(queues.redis, queues.settings, options.logger);
    this.labels = options.labels ?? DEFAULT_LABELS;
    const ttlMs = options.group?.ttlMs ?? queues.settings.alertDedupMs;
    this.settings = {
      ...DEFAULT_GROUP_SETTINGS,
      ...options.group,
      ttlMs,
      resolvedKeepMs: Math.min(options.group?.resolvedKeepMs ?? DEFAULT_GROUP_SETTINGS.resolvedKeepMs, ttlMs),
      prefix: queues.prefix,
      logger: options.logger,
    };
  }

  async accept(payload: WebhookPayload): Promise<IntakeResult> {
    const { options } = this;
    const parts = new Map<string, { cluster: string; channel: string | null; alerts: IncomingAlert[] }>();
    for (const alert of payload.alerts) {
      const { cluster, unknown } = clusterFromLabels(alert.labels, this.labels, options.cluster, options.clusters ?? []);
      const target =
        unknown !== undefined
          ? { kind: 'none' as const, reason: `cluster ${JSON.stringify(unknown.slice(0, 63))} is not served by this pod-doctor` }
          : targetFromLabels(alert.labels, this.labels);
      const channel = channelFor({ receiver: payload.receiver, labels: alert.labels }, options.routes ?? [], options.defaultChannel);
      const key = `${cluster}\n${channel ?? ''}`;
      let part = parts.get(key);
      if (!part) parts.set(key, (part = { cluster, channel, alerts: [] }));
      part.alerts.push({ alert, target });
    }
    const groups = await Promise.all(
      [...parts.values()].map((part) =>
        processGroup(
          this.options.queues.redis,
          this.settings,
          {
            cluster: part.cluster,
            channel: part.channel,
            groupKey: payload.groupKey,
            receiver: unquoteReceiver(payload.receiver),
            groupLabels: payload.groupLabels,
            commonLabels: payload.commonLabels,
            externalURL: payload.externalURL,
            notificationReason: payload.notification_reason,
            truncatedAlerts: payload.truncatedAlerts,
            alerts: part.alerts,
          },
          this.work,
        ),
      ),
    );
    // Answer "accepted" only once a replica holds what this notification wrote (a failover
    // must not take back an acknowledged alert); ReplicationError makes the webhook answer 503.
    await Promise.all([...new Set([...parts.values()].map((p) => p.cluster))].map((c) => this.options.queues.confirmReplicated(c)));
    const sum = (f: (g: GroupOutcome) => number) => groups.reduce((n, g) => n + f(g), 0);
    return {
      alerts: payload.alerts.length,
      groups,
      added: sum((g) => g.added),
      repeats: sum((g) => g.repeats),
      resolved: sum((g) => g.resolved),
      notDiagnosable: sum((g) => g.notDiagnosable),
      jobs: sum((g) => g.jobs),
      cancelled: sum((g) => g.cancelled),
    };
  }

  private requester(alert: IncomingAlert['alert'], ctx: WorkContext): AlertRequester {
    const alertname = alert.labels.alertname;
    return {
      kind: 'alert',
      groupKey: clip(ctx.groupKey, 2048),
      fingerprint: alert.fingerprint,
      status: 'firing',
      startsAt: alert.startsAt,
      receiver: clip(ctx.receiver, 256),
      groupId: ctx.groupId,
      ...(ctx.channel ? { channel: ctx.channel } : {}),
      ...(alertname ? { alertname: clip(alertname, 256) } : {}),
    };
  }

  private readonly work: GroupWork = {
    start: async ({ alert, target }, ctx) => {
      const { queues } = this.options;
      const requester = this.requester(alert, ctx);
      const jobsKey = alertKeys.jobs(queues.prefix, ctx.cluster, alert.fingerprint, alert.startsAt);
      const remember = (member: string) => queues.redis.multi().sadd(jobsKey, member).pexpire(jobsKey, queues.settings.alertDedupMs).exec();
      if (target.kind === 'pod' || target.kind === 'node') {
        const { jobId } = await enqueueDiagnosis(queues, { cluster: ctx.cluster, target: target.target, reason: 'alert', requester });
        await remember(jobId);
        return { jobIds: [jobId] };
      }
      if (target.kind === 'workload') {
        const id = await enqueueExpansion(this.expansion, {
          cluster: ctx.cluster,
          workload: target.workload,
          requester,
          maxPods: this.options.maxPodsPerWorkload ?? DEFAULT_MAX_PODS,
        });
        await remember(`${EXPAND_MEMBER}${id}`);
        return { jobIds: [], expansionJobId: id };
      }
      return { jobIds: [] };
    },
    stop: async (fingerprint, startsAts, ctx) => {
      const { queues, logger } = this.options;
      let cancelled = 0;
      for (const startsAt of startsAts) {
        await markResolved(queues.redis, queues.prefix, ctx.cluster, fingerprint, startsAt, queues.settings.alertDedupMs);
        const outcome = await cancelAlertJobs({ queues, expandQueue: (c) => this.expansion.queue(c), logger }, ctx.cluster, fingerprint, startsAt);
        cancelled += outcome.cancelled;
      }
      return cancelled;
    },
  };

  async close(): Promise<void> {
    await this.expansion.close();
  }
}
