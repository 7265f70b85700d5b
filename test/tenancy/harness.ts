// The tenancy tests' bench: a chat context on real Redis with an access policy, user groups that
// resolve like Slack's (counted, so a test sees the lookups), a recording adapter, plans kept in
// memory behind the remediation port, and the queues' job counts (what "nothing changed" means).
import { type PolicyInput, PolicySchema } from '../../src/access/policy.js';
import { slackIds } from '../../src/chat/adapters/slack/ids.js';
import { type ChatContext, createChatContext } from '../../src/chat/context.js';
import type { ChatMetrics } from '../../src/chat/metrics.js';
import { ApproverPolicy, type ApproverPolicyOptions } from '../../src/chat/store/approvals.js';
import type { Finding, Target } from '../../src/diagnosis/types.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import type { DiagnoseResult } from '../../src/jobs/schemas.js';
import { formatTarget } from '../../src/kube/target.js';
import type { RedisClient } from '../../src/redis/client.js';
import type { Plan } from '../../src/remediation/plan.js';
import { RecordingAdapter } from '../helpers/chat.js';
import { cleanup, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

export const CLUSTER = 'prod-eu';

export interface Bench {
  chat: ChatContext;
  adapter: RecordingAdapter;
  queues: JobQueues;
  plans: Map<string, Plan>;
  /** User group ids looked up (each a Slack usergroups.users.list call). */
  lookups: string[];
  /** Jobs in the diagnose and remediate queues, any state. */
  counts(): Promise<{ diagnose: number; remediate: number }>;
  close(): Promise<void>;
}

export function openBench(
  redis: RedisClient,
  o: {
    policy: PolicyInput;
    groups: Record<string, string[]>;
    approvers?: string[];
    defaultNamespaces?: Record<string, string>;
    /** User groups resolved elsewhere (the fake Slack's Web API) instead of from `groups`; the cache's clock, logger and metrics. */
    lookup?: Pick<ApproverPolicyOptions, 'resolveGroup' | 'now' | 'logger' | 'metrics'>;
    metrics?: ChatMetrics;
  },
): Bench {
  const prefix = testPrefix('tenancy');
  const queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
  const adapter = new RecordingAdapter();
  const plans = new Map<string, Plan>();
  const lookups: string[] = [];
  const approvers = new ApproverPolicy({
    approvers: o.approvers ?? [],
    ids: slackIds,
    resolveGroup: async (g) => {
      lookups.push(g);
      return o.lookup?.resolveGroup ? o.lookup.resolveGroup(g) : (o.groups[g] ?? []);
    },
    cacheMs: 60_000,
    ...(o.lookup?.now ? { now: o.lookup.now } : {}),
    ...(o.lookup?.logger ? { logger: o.lookup.logger } : {}),
    ...(o.lookup?.metrics ? { metrics: o.lookup.metrics } : {}),
  });
  const chat = createChatContext({
    adapter,
    redis,
    queues,
    cluster: CLUSTER,
    logger: silent,
    approvers,
    policy: PolicySchema.parse(o.policy),
    ...(o.defaultNamespaces ? { defaultNamespaces: o.defaultNamespaces } : {}),
    ...(o.metrics ? { metrics: o.metrics } : {}),
    remediation: { playbook: () => undefined, getPlan: async (id) => plans.get(id) ?? null },
    rootUpdateIntervalMs: 0,
    placeholderMs: 0,
  });
  const count = async (q: { getJobCounts(...types: string[]): Promise<Record<string, number>> }) =>
    Object.values(await q.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized', 'paused')).reduce((a, b) => a + b, 0);
  return {
    chat,
    adapter,
    queues,
    plans,
    lookups,
    counts: async () => ({ diagnose: await count(queues.diagnose(CLUSTER)), remediate: await count(queues.remediate(CLUSTER)) }),
    close: async () => {
      await chat.parents.settle();
      await queues.close();
      await cleanup(redis, prefix);
    },
  };
}

let seq = 0;

/** A stored plan for `playbook` on a pod (what the worker proposes and the bot reads). */
export function plan(target: Extract<Target, { kind: 'pod' }>, playbook: string, patch: Partial<Plan> = {}): Plan {
  const id = `pl_tenancy${String(++seq).padStart(9, '0')}`;
  const now = Date.now();
  return {
    v: 1,
    id,
    cluster: CLUSTER,
    playbook: { id: playbook, title: `Run ${playbook}` },
    target,
    finding: {
      rule: 'image.auth',
      fingerprint: `fp-${id}`,
      subject: `pod/${target.namespace}/${target.name}`,
      causeKey: 'k',
      title: 'Image pull unauthorized',
      severity: 'error',
    },
    params: {},
    summary: `${playbook} on ${formatTarget(target)}`,
    warnings: [],
    dryRun: [`1. ${playbook} ${formatTarget(target)}`],
    risk: 'medium',
    approvals: 1,
    preconditions: [],
    steps: [],
    verify: [],
    expect: [],
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 3_600_000).toISOString(),
    ...patch,
  };
}

/** A command's result with its findings and the plans offered for them, as the worker sends it. */
export function result(jobId: string, requester: { user: string; channel: string }, target: Target, plans: Plan[] = []): DiagnoseResult {
  const findings: Finding[] = plans.map((p) => ({
    rule: p.finding.rule,
    severity: 'error',
    title: p.finding.title,
    cause: 'The registry answered 401.',
    evidence: [{ source: 'event Failed', text: 'failed to authorize: 401 Unauthorized' }],
    advice: [],
    prevent: [],
    playbook: p.playbook.id,
    subject: p.finding.subject,
    causeKey: p.finding.causeKey,
    fingerprint: p.finding.fingerprint,
    params: {},
    merged: [],
  }));
  return {
    job: { v: 1, cluster: CLUSTER, target, reason: 'slash', requestedAt: new Date().toISOString() },
    jobId,
    status: 'diagnosed',
    diagnosis: { target, cluster: CLUSTER, findings, skipped: [], ruleErrors: [], at: new Date().toISOString() },
    requesters: [{ kind: 'slack', ...requester }],
    offers: plans.map((p) => ({
      fingerprint: p.finding.fingerprint,
      playbook: p.playbook.id,
      planId: p.id,
      approvals: p.approvals,
      risk: p.risk,
      expiresAt: p.expiresAt,
    })),
  };
}
