// Every setting in one place: environment name, key in the config file, type, default and
// description. The README's configuration reference, the config file's schema and the deploy
// manifests' checks are derived from this table.
import { z } from 'zod';
import { ANY_IDS, approverIdSchema, type ChatIds, channelIdSchema } from '../access/ids.js';
import { PolicySchema, policySchema } from '../access/policy.js';
import { PodDoctorError } from '../errors.js';
import { labelSchema, subdomainSchema } from '../kube/names.js';
import { SHUTDOWN_DEFAULT_SECONDS, SHUTDOWN_SECONDS_RANGE } from '../shutdown.js';
import { AlertRoutes, alertLabelsFile, alertLabelsSetting, alertRoutesSetting } from './alerts.js';
import { byLine, type ConfigFileSource, closest, type ParsedConfigFile, parseConfigFile } from './file.js';
import { jsonSetting } from './json.js';
import type { SettingDef } from './setting.js';

export type { SettingDef } from './setting.js';

function setting<S extends z.ZodType>(def: SettingDef<S>): SettingDef<S> {
  return def;
}

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** POD_DOCTOR_SHUTDOWN_SECONDS (the agent checks the same bounds without zod: src/agent/cli.ts). */
export const shutdownSecondsSchema = () => z.coerce.number().int().min(SHUTDOWN_SECONDS_RANGE.min).max(SHUTDOWN_SECONDS_RANGE.max).optional();
const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(fallback);

type RuleOverride = { enabled?: boolean; severity?: 'critical' | 'error' | 'warning' | 'info' };

/** In the file: `crash.app-exit: off`, `image.pull-throttled: info`. */
const ruleOverridesFile = z
  .record(z.string().min(1), z.enum(['off', 'critical', 'error', 'warning', 'info']))
  .transform((m) => Object.fromEntries(Object.entries(m).map(([id, v]): [string, RuleOverride] => [id, v === 'off' ? { enabled: false } : { severity: v }])));

/** `id=off`, `id=warning` pairs separated by commas. */
const ruleOverrides = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const out: Record<string, RuleOverride> = {};
    for (const part of text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [id, value] = part.split('=') as [string, string | undefined];
      if (value === 'off') out[id] = { enabled: false };
      else if (value === 'critical' || value === 'error' || value === 'warning' || value === 'info') out[id] = { severity: value };
      else ctx.addIssue({ code: 'custom', message: `"${part}": expected <rule-id>=off|critical|error|warning|info` });
    }
    return out;
  });

/** Settings that hold chat ids: parsed with any surface's ids, then checked with the configured surface's (`LoadOptions.ids`). */
const idSettings = (ids: ChatIds) => ({
  approvers: z.array(approverIdSchema(ids)),
  /** Channel id (or `*`) → namespace. */
  defaultNamespaces: z.record(channelIdSchema(ids, true), labelSchema('expected a namespace name')),
  policy: policySchema(ids),
});
const ApproverIds = idSettings(ANY_IDS).approvers;
const NamespaceByChannel = idSettings(ANY_IDS).defaultNamespaces;

const commaList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Cluster names (DNS-1123 labels, as `cluster`), at least one, no repeats. */
const ClusterNames = z
  .array(labelSchema('expected cluster names (DNS-1123 labels)'))
  .min(1, 'expected at least one cluster')
  .refine((names) => new Set(names).size === names.length, 'a cluster is listed twice');

const EMPTY_POLICY = PolicySchema.parse({});

export const SETTINGS = {
  configFile: setting({
    env: 'POD_DOCTOR_CONFIG',
    schema: z.string().optional(),
    file: false,
    description:
      'Path of the YAML config file (`--config` overrides it): structured settings (alert routes, approvers, the access policy) and any other ' +
      'non-secret setting by its key. A variable set in the environment wins over the file. See docs/configuration.md.',
    roles: ['bot', 'worker', 'cli'],
  }),
  cluster: setting({
    env: 'POD_DOCTOR_CLUSTER',
    schema: labelSchema('expected a cluster name (a DNS-1123 label)').default('default'),
    description: 'Name of the cluster this process serves; queues and messages are keyed by it.',
    roles: ['bot', 'worker', 'cli'],
  }),
  clusters: setting({
    env: 'POD_DOCTOR_CLUSTERS',
    schema: z
      .string()
      .optional()
      .transform((v) => (v === undefined ? undefined : commaList(v)))
      .pipe(ClusterNames.optional()),
    file: ClusterNames.optional(),
    description:
      'Clusters one bot serves (comma-separated; a list in the file), each with its own workers (`pod-doctor worker --cluster NAME`). ' +
      "Commands name one as `prod-eu:shop/web`, else the channel's `defaultCluster` in the access policy, else `cluster`, which must be listed. " +
      'Unset: `cluster` only.',
    roles: ['bot'],
  }),
  kubeconfig: setting({
    env: 'KUBECONFIG',
    schema: z.string().optional(),
    description:
      'Path to a kubeconfig, or several joined with ":" (those that exist are read, as kubectl does). Unset: ~/.kube/config, else the in-cluster ' +
      'service account.',
    roles: ['worker', 'cli'],
  }),
  kubeContext: setting({
    env: 'POD_DOCTOR_KUBE_CONTEXT',
    schema: z.string().optional(),
    description: 'kubeconfig context to use (default: current-context).',
    roles: ['worker', 'cli'],
  }),
  apiTimeoutMs: setting({
    env: 'POD_DOCTOR_API_TIMEOUT_MS',
    schema: int(5000, 100, 120_000),
    description: 'Timeout of each Kubernetes API call while collecting facts (ms).',
    roles: ['worker', 'cli'],
  }),
  checkSecrets: setting({
    env: 'POD_DOCTOR_CHECK_SECRETS',
    schema: bool(false),
    description: 'Check that referenced Secrets and imagePullSecrets exist (metadata-only requests; needs the opt-in RBAC rule). Secret data is never read.',
    roles: ['worker', 'cli'],
  }),
  pendingGraceSeconds: setting({
    env: 'POD_DOCTOR_PENDING_GRACE_SECONDS',
    schema: int(60, 0, 86_400),
    description: 'A pod must be Pending this long before Pending rules report it.',
    roles: ['worker', 'cli'],
  }),
  changeWindowMinutes: setting({
    env: 'POD_DOCTOR_CHANGE_WINDOW_MINUTES',
    schema: int(120, 1, 10_080),
    description: 'How far before a failure "What changed" looks for rollouts, ConfigMap and Secret edits and node changes (minutes).',
    roles: ['worker', 'cli'],
  }),
  rules: setting({
    env: 'POD_DOCTOR_RULES',
    schema: ruleOverrides,
    file: ruleOverridesFile,
    description:
      'Per-rule overrides, e.g. `crash.app-exit=off,image.pull-throttled=info` (in the file: a map of rule id → off or a severity). Unknown ids are an error.',
    roles: ['worker', 'cli'],
  }),
  agentUrlTemplate: setting({
    env: 'POD_DOCTOR_AGENT_URL_TEMPLATE',
    schema: z.string().default('https://{hostIP}:9477'),
    description: 'Where the node agent of a node listens; `{hostIP}` and `{nodeName}` are filled in. `http://` only with POD_DOCTOR_AGENT_PLAIN_HTTP.',
    roles: ['worker', 'cli'],
  }),
  agentUrls: setting({
    env: 'POD_DOCTOR_AGENT_URLS',
    schema: z
      .string()
      .default('')
      .transform((s, ctx) => parseJsonMap(s, ctx)),
    file: z.record(z.string(), z.string()),
    description: 'JSON map node name → agent URL (in the file: a map); overrides the template (used by the simulated cluster).',
    roles: ['worker', 'cli'],
  }),
  agentToken: setting({
    env: 'POD_DOCTOR_AGENT_TOKEN',
    schema: z.string().optional(),
    description: 'Bearer token for the node agents (from a Secret). Unset: node checks are skipped.',
    secret: true,
    roles: ['worker', 'agent', 'cli'],
  }),
  nodeName: setting({
    env: 'NODE_NAME',
    schema: z.string().optional(),
    description: 'The node an agent runs on (the DaemonSet sets it from spec.nodeName); default: the host name.',
    roles: ['agent'],
  }),
  agentTimeoutMs: setting({
    env: 'POD_DOCTOR_AGENT_TIMEOUT_MS',
    schema: int(8000, 100, 120_000),
    description: 'Timeout of one node agent request (ms).',
    roles: ['worker', 'cli'],
  }),
  // Agent TLS (deploy/README.md, "Agent TLS"): the agent serves HTTPS, the worker checks it.
  agentTlsCert: setting({
    env: 'POD_DOCTOR_AGENT_TLS_CERT',
    schema: z.string().optional(),
    file: false,
    description: "The agent's certificate file (PEM, with its chain), e.g. from the Secret pod-doctor-agent-tls; re-read when it changes.",
    roles: ['agent'],
  }),
  agentTlsKey: setting({
    env: 'POD_DOCTOR_AGENT_TLS_KEY',
    schema: z.string().optional(),
    file: false,
    description: "The agent's private key file (PEM). The agent refuses to start without a certificate and key unless POD_DOCTOR_AGENT_PLAIN_HTTP is true.",
    roles: ['agent'],
  }),
  agentTlsCa: setting({
    env: 'POD_DOCTOR_AGENT_TLS_CA',
    schema: z.string().optional(),
    description: "CA bundle file (PEM) the agents' certificates are checked against (the Secret pod-doctor-agent-ca). Unset: the system's CAs.",
    roles: ['worker', 'cli'],
  }),
  agentTlsServerName: setting({
    env: 'POD_DOCTOR_AGENT_TLS_SERVER_NAME',
    schema: subdomainSchema('expected a DNS name').default('pod-doctor-agent.pod-doctor.svc'),
    description: "The DNS name every agent's certificate carries; checked instead of the node IP the agent is called on.",
    roles: ['worker', 'cli'],
  }),
  agentPlainHttp: setting({
    env: 'POD_DOCTOR_AGENT_PLAIN_HTTP',
    schema: bool(false),
    description:
      'Plain HTTP to and on the node agents (the token then crosses the network readable): the agent serves it, the worker allows `http://` agent URLs.',
    roles: ['worker', 'agent', 'cli'],
  }),
  // Jobs: Redis, queues, dedup, storm grouping, limits, metrics.
  redisUrl: setting({
    env: 'REDIS_URL',
    schema: z
      .string()
      .regex(/^rediss?:\/\//, 'expected redis:// or rediss://')
      .default('redis://127.0.0.1:6379'),
    description: 'Redis for queues, dedup, incidents and shared rate limits (`redis://` or `rediss://` for TLS; credentials may be in the URL).',
    secret: true,
    roles: ['bot', 'worker'],
  }),
  redisUsername: setting({
    env: 'REDIS_USERNAME',
    schema: z.string().optional(),
    description:
      'Redis ACL user, when REDIS_URL names none (the bundled Redis: `pod-doctor`). ' +
      'Applies to every node of a Sentinel setup or a Redis Cluster (the sentinels themselves: `sentinelUsername` in POD_DOCTOR_REDIS_OPTIONS).',
    // Half of the credentials: it lives in the Secret beside the password.
    secret: true,
    roles: ['bot', 'worker', 'cli'],
  }),
  redisPassword: setting({
    env: 'REDIS_PASSWORD',
    schema: z.string().optional(),
    description:
      "Redis password (the ACL user's, or `requirepass`), when REDIS_URL carries none: kept out of the URL, e.g. from the Secret's key of its own. " +
      'Applies to every node of a Sentinel setup or a Redis Cluster (the sentinels themselves: `sentinelPassword` in POD_DOCTOR_REDIS_OPTIONS).',
    secret: true,
    roles: ['bot', 'worker', 'cli'],
  }),
  redisCaFile: setting({
    env: 'POD_DOCTOR_REDIS_CA_FILE',
    schema: z.string().min(1).optional(),
    description: 'PEM file of the CA that signed the Redis server certificate, for `rediss://` (TLS) with a private CA; ' + "unset: the system's trusted CAs.",
    roles: ['bot', 'worker', 'cli'],
  }),
  redisOptions: setting({
    env: 'POD_DOCTOR_REDIS_OPTIONS',
    schema: z
      .string()
      .default('')
      .transform((s, ctx) => parseJsonObject(s, ctx)),
    description:
      'JSON passed through to ioredis: `{"sentinels":[{"host":"s1","port":26379}],"name":"mymaster"}` for Sentinel, ' +
      '`{"clusterNodes":[{"host":"r1","port":6379}]}` for Redis Cluster.',
    secret: true,
    roles: ['bot', 'worker'],
  }),
  redisPrefix: setting({
    env: 'POD_DOCTOR_REDIS_PREFIX',
    schema: z
      .string()
      .regex(/^[^\s:]+$/, 'no spaces or ":"')
      .default('pod-doctor'),
    description:
      'Prefix of every Redis key. ' +
      'Keys carry a Redis Cluster hash tag per Kubernetes cluster (`{pod-doctor:<cluster>}`: its queues, dedup, incidents, streams) ' +
      'and one for shared chat state (`{pod-doctor}`); braces given here are ignored.',
    roles: ['bot', 'worker'],
  }),
  redisWaitReplicas: setting({
    env: 'POD_DOCTOR_REDIS_WAIT_REPLICAS',
    schema: int(1, 0, 5),
    description:
      'Replicas that must confirm an enqueue (Redis `WAIT`) before the webhook answers 200 or a command is acknowledged as queued; ' +
      'otherwise 503 / "try again". ' +
      'Applies only when the primary has replicas (capped at those connected); 0 turns it off.',
    roles: ['bot'],
  }),
  redisWaitMs: setting({
    env: 'POD_DOCTOR_REDIS_WAIT_MS',
    schema: int(500, 10, 10_000),
    description: 'How long an enqueue waits for replicas to confirm (POD_DOCTOR_REDIS_WAIT_REPLICAS) before answering 503.',
    roles: ['bot'],
  }),
  redisCommandTimeoutMs: setting({
    env: 'POD_DOCTOR_REDIS_COMMAND_TIMEOUT_MS',
    schema: int(1000, 100, 60_000),
    description:
      'Deadline of every Redis command on a request path (a slash command, a click, the Alertmanager webhook): ' +
      'a Redis that is down or frozen gets the person a quick "try again" (the webhook a 503), never a hang. ' +
      'Stream readers and workers wait through outages instead.',
    roles: ['bot'],
  }),
  dedupWindowSeconds: setting({
    env: 'POD_DOCTOR_DEDUP_WINDOW_SECONDS',
    schema: int(120, 1, 86_400),
    description:
      'Requests for the same cluster and target within this many seconds of a queued or running diagnosis share it; every requester gets its result.',
    roles: ['bot', 'worker'],
  }),
  alertDedupSeconds: setting({
    env: 'POD_DOCTOR_ALERT_DEDUP_SECONDS',
    schema: int(86_400, 60, 7 * 86_400),
    description: 'How long an alert notification (fingerprint, status, startsAt) is remembered, so HA and group re-sends enqueue nothing.',
    roles: ['bot'],
  }),
  workerConcurrency: setting({
    env: 'POD_DOCTOR_WORKER_CONCURRENCY',
    schema: int(8, 1, 256),
    description: 'Diagnosis jobs one worker process runs at once.',
    roles: ['bot', 'worker'],
  }),
  remediateConcurrency: setting({
    env: 'POD_DOCTOR_REMEDIATE_CONCURRENCY',
    schema: int(1, 1, 64),
    description: 'Remediation jobs one worker process runs at once.',
    roles: ['bot', 'worker'],
  }),
  jobAttempts: setting({
    env: 'POD_DOCTOR_JOB_ATTEMPTS',
    schema: int(5, 1, 50),
    description: 'Attempts of a diagnosis job on transient errors (API 5xx, timeouts, unreachable cluster or agent); permanent errors are not retried.',
    roles: ['bot', 'worker'],
  }),
  jobBackoffMs: setting({
    env: 'POD_DOCTOR_JOB_BACKOFF_MS',
    schema: int(2000, 10, 600_000),
    description: 'First retry delay of a failed diagnosis (ms); doubles with each attempt.',
    roles: ['bot', 'worker'],
  }),
  jobLockMs: setting({
    env: 'POD_DOCTOR_JOB_LOCK_MS',
    schema: int(30_000, 500, 600_000),
    description: "Lock of a running job (ms), renewed at half; a killed worker's jobs are taken over once it lapses.",
    roles: ['bot', 'worker'],
  }),
  jobStalledCheckMs: setting({
    env: 'POD_DOCTOR_JOB_STALLED_CHECK_MS',
    schema: int(30_000, 200, 600_000),
    description: 'How often workers look for jobs whose worker died (ms).',
    roles: ['bot', 'worker'],
  }),
  incidentTtlSeconds: setting({
    env: 'POD_DOCTOR_INCIDENT_TTL_SECONDS',
    schema: int(21_600, 60, 30 * 86_400),
    description: 'An incident (pods sharing one root cause) is forgotten this long after its last new pod.',
    roles: ['worker'],
  }),
  recurrenceRetentionDays: setting({
    env: 'POD_DOCTOR_RECURRENCE_RETENTION_DAYS',
    schema: int(90, 1, 3650),
    description: 'How long an incident\'s fingerprint (cluster, root-cause rule, workload, node) is kept, so a repeat says "3rd time in 7 days".',
    roles: ['worker'],
  }),
  notAProblemDays: setting({
    env: 'POD_DOCTOR_NOT_A_PROBLEM_DAYS',
    schema: int(30, 1, 365),
    description:
      'How long a finding marked **Not a problem** in chat stays quiet for its workload (or pod) and rule; ' + 'after that the rule speaks about it again.',
    roles: ['bot'],
  }),
  apiRatePerSecond: setting({
    env: 'POD_DOCTOR_API_RATE',
    schema: z.coerce.number().positive().max(100_000).default(20),
    description: 'Kubernetes API requests per second across all workers of a cluster (token bucket in Redis).',
    roles: ['bot', 'worker'],
  }),
  apiBurst: setting({
    env: 'POD_DOCTOR_API_BURST',
    schema: int(40, 1, 100_000),
    description: 'Burst of Kubernetes API requests above the rate.',
    roles: ['bot', 'worker'],
  }),
  chatPostsPerSecond: setting({
    env: 'POD_DOCTOR_CHAT_POSTS_PER_SECOND',
    schema: z.coerce.number().positive().max(100).default(1),
    description: 'Chat messages per second per channel, shared by all processes (Slack allows about one).',
    roles: ['bot', 'worker'],
  }),
  chatBurst: setting({
    env: 'POD_DOCTOR_CHAT_BURST',
    schema: int(3, 1, 100),
    description: 'Chat messages a channel may receive at once before the rate applies.',
    roles: ['bot', 'worker'],
  }),
  chatRetrySeconds: setting({
    env: 'POD_DOCTOR_CHAT_RETRY_SECONDS',
    schema: int(300, 0, 86_400),
    description:
      "How long a result's messages are retried through Slack's transient errors (5xx, timeouts, invalid_auth, channel_not_found right after a " +
      'working post) before it is reported as not delivered.',
    roles: ['bot'],
  }),
  chatUpdatesPerMinute: setting({
    env: 'POD_DOCTOR_CHAT_UPDATES_PER_MINUTE',
    schema: int(45, 1, 1000),
    description:
      'chat.update calls per minute for the whole workspace (Slack allows about 50, Tier 3); parent messages coalesce their changes to stay within it.',
    roles: ['bot'],
  }),
  rootUpdateSeconds: setting({
    env: 'POD_DOCTOR_ROOT_UPDATE_SECONDS',
    schema: int(3, 0, 60),
    description: "At most one update of a thread's parent message this often (the latest state wins; the final state is always written).",
    roles: ['bot'],
  }),
  threadPlaceholderMs: setting({
    env: 'POD_DOCTOR_THREAD_PLACEHOLDER_MS',
    schema: int(2000, 0, 60_000),
    description:
      "A command's thread opens with its findings when they come within this many ms (one message, no update); " +
      'a slower diagnosis gets a "diagnosing…" parent first. 0: the parent at once.',
    roles: ['bot'],
  }),
  resultsMaxLen: setting({
    env: 'POD_DOCTOR_RESULTS_MAXLEN',
    schema: int(100_000, 1000, 10_000_000),
    description: 'Approximate length the results stream (worker → bot) is trimmed to.',
    roles: ['worker'],
  }),
  metricsPort: setting({
    env: 'POD_DOCTOR_METRICS_PORT',
    schema: int(9464, 0, 65_535),
    description: "`pod-doctor worker` and `pod-doctor bot` serve /metrics, /healthz and /readyz on this port, never on the bot's public one (0: a free one).",
    roles: ['bot', 'worker'],
  }),
  // Traces (src/tracing): the standard OpenTelemetry variables; neither set, no SDK is loaded.
  otlpEndpoint: setting({
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description:
      'OTLP/HTTP base URL of an OpenTelemetry collector (`/v1/traces` is appended): the bot and workers export the spans of each diagnosis ' +
      '(alert or command, job, collect, rules, chat post) there as JSON. Unset (and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT unset): tracing is off.',
    roles: ['bot', 'worker'],
  }),
  otlpTracesEndpoint: setting({
    env: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description: 'Full OTLP/HTTP URL for traces (e.g. `http://collector:4318/v1/traces`); wins over OTEL_EXPORTER_OTLP_ENDPOINT.',
    roles: ['bot', 'worker'],
  }),
  // Chat: the Slack bot and the console demo.
  slackBotToken: setting({
    env: 'SLACK_BOT_TOKEN',
    schema: z
      .string()
      .regex(/^xoxb-/, 'expected a bot token (xoxb-…)')
      .optional(),
    description: 'Slack bot token (xoxb-…). Required by `pod-doctor bot`.',
    secret: true,
    roles: ['bot'],
  }),
  slackSigningSecret: setting({
    env: 'SLACK_SIGNING_SECRET',
    schema: z.string().min(8).optional(),
    description: 'Slack signing secret: every HTTP request on /slack/events is verified with it (HMAC-SHA256, at most 5 minutes old). Required in HTTP mode.',
    secret: true,
    roles: ['bot'],
  }),
  slackAppToken: setting({
    env: 'SLACK_APP_TOKEN',
    schema: z
      .string()
      .regex(/^xapp-/, 'expected an app-level token (xapp-…)')
      .optional(),
    description: 'Slack app-level token (xapp-…, scope connections:write). Required in Socket Mode.',
    secret: true,
    roles: ['bot'],
  }),
  slackApiUrl: setting({
    env: 'SLACK_API_URL',
    schema: z.url({ protocol: /^https?$/ }).default('https://slack.com/api/'),
    description: 'Base URL of the Slack Web API (GovSlack: https://slack-gov.com/api/; tests: a local fake).',
    roles: ['bot'],
  }),
  slackMode: setting({
    env: 'POD_DOCTOR_SLACK_MODE',
    schema: z.enum(['http', 'socket']).default('http'),
    description:
      '`http`: Slack posts to /slack/events (needs SLACK_SIGNING_SECRET and a public URL). ' +
      '`socket`: Socket Mode over a WebSocket (needs SLACK_APP_TOKEN, no inbound traffic).',
    roles: ['bot'],
  }),
  chatSurfaces: setting({
    env: 'POD_DOCTOR_CHAT_SURFACES',
    schema: z
      .string()
      .default('slack')
      .transform((v) => [
        ...new Set(
          v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean),
        ),
      ])
      .pipe(z.array(z.enum(['slack', 'mattermost'])).min(1, 'name at least one surface: slack, mattermost')),
    description:
      'Chat surfaces the bot serves, comma-separated: `slack`, `mattermost` or both (one bot, one set of queues; each thread answers on the surface ' +
      'it was opened from). See docs/mattermost.md.',
    roles: ['bot'],
  }),
  mattermostUrl: setting({
    env: 'MATTERMOST_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description: 'Base URL of the Mattermost server (https://mattermost.example.com; tests: a local fake). Required when serving Mattermost.',
    roles: ['bot'],
  }),
  mattermostBotToken: setting({
    env: 'MATTERMOST_BOT_TOKEN',
    schema: z.string().min(8).optional(),
    description: "Access token of pod-doctor's Mattermost bot account (REST API v4, `Authorization: Bearer`). Required when serving Mattermost.",
    secret: true,
    roles: ['bot'],
  }),
  mattermostCommandTokens: setting({
    env: 'MATTERMOST_COMMAND_TOKEN',
    schema: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? '')
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().min(8, 'a slash command token has at least 8 characters'))),
    description:
      'Token(s) of the /pod-doctor slash command, comma-separated (one per team): a request to /mattermost/command without one of them is refused. ' +
      'Required when serving Mattermost.',
    secret: true,
    roles: ['bot'],
  }),
  mattermostActionSecret: setting({
    env: 'MATTERMOST_ACTION_SECRET',
    schema: z.string().min(32, 'at least 32 characters').optional(),
    description:
      "Key of the HMAC each button's context carries: Mattermost does not sign integration actions, so /mattermost/actions accepts only " +
      'contexts pod-doctor made. Required when serving Mattermost.',
    secret: true,
    roles: ['bot'],
  }),
  mattermostRequestsPerSecond: setting({
    env: 'MATTERMOST_REQUESTS_PER_SECOND',
    schema: z.coerce.number().positive().max(1000).default(10),
    description:
      "Mattermost API requests per second of the bot's token, shared by all bot processes (bursts of twice as many): " +
      "keep it at or under the server's rate limit (System Console → Rate Limiting; Mattermost's default is 10).",
    roles: ['bot'],
  }),
  publicUrl: setting({
    env: 'POD_DOCTOR_PUBLIC_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description: "The bot's URL as Mattermost reaches it (buttons post to <url>/mattermost/actions). Required when serving Mattermost.",
    roles: ['bot'],
  }),
  port: setting({
    env: 'PORT',
    schema: int(3000, 0, 65_535),
    description: '`pod-doctor bot` listens on this port: /slack/events (HTTP mode), /healthz, /readyz and the Alertmanager webhook (0: a free one).',
    roles: ['bot'],
  }),
  approvers: setting({
    env: 'POD_DOCTOR_APPROVERS',
    schema: z.string().default('').transform(commaList).pipe(ApproverIds),
    file: ApproverIds,
    description:
      'Who may approve or deny a playbook: comma-separated Slack user ids (U…/W…) and user-group ids (S…, members resolved with usergroups.users.list), ' +
      'Mattermost user ids and groups as group:<id> (docs/mattermost.md); ' +
      "in the file, a list. A playbook's own `approvers` and the policy's `approvals` (per namespace) override it. Empty: nobody may approve in chat.",
    roles: ['bot'],
  }),
  requireDifferentApprover: setting({
    env: 'POD_DOCTOR_REQUIRE_DIFFERENT_APPROVER',
    schema: bool(false),
    description: 'The person who asked for the diagnosis may not approve its fix.',
    roles: ['bot'],
  }),
  approvalTtlSeconds: setting({
    env: 'POD_DOCTOR_APPROVAL_TTL_SECONDS',
    schema: int(900, 30, 86_400),
    description: 'A proposed fix must be approved within this many seconds; then its buttons stop working and a new diagnosis makes a new proposal.',
    roles: ['bot', 'worker'],
  }),
  auditRetentionDays: setting({
    env: 'POD_DOCTOR_AUDIT_RETENTION_DAYS',
    schema: int(30, 1, 3650),
    description:
      'How long the audit trail (approvals, denials, expiries and runs; `pod-doctor audit export`) is kept in Redis; ' +
      'older entries are trimmed as new ones are appended.',
    roles: ['bot', 'worker'],
  }),
  usergroupCacheSeconds: setting({
    env: 'POD_DOCTOR_USERGROUP_CACHE_SECONDS',
    schema: int(60, 0, 3600),
    description:
      "How long the members of a user group (approvers, the policy's `usergroups`) are trusted once looked up, and never longer: " +
      'while Slack (or Mattermost) does not answer a lookup past it, everyone whose right depends on that group is refused and told to retry.',
    roles: ['bot'],
  }),
  defaultNamespaces: setting({
    env: 'POD_DOCTOR_DEFAULT_NAMESPACES',
    schema: z
      .string()
      .default('')
      .transform((s) => Object.fromEntries(commaList(s).map((x) => x.split('=').map((y) => y.trim()) as [string, string])))
      .pipe(NamespaceByChannel),
    file: NamespaceByChannel,
    description:
      'Namespace of `/pod-doctor <pod>` per channel: `C0123ABC=shop,C0456DEF=pay,*=default` (`*`: every other channel; in the file, a map). ' +
      'Unset: a namespace is always required.',
    roles: ['bot'],
  }),
  policy: setting({
    env: 'POD_DOCTOR_POLICY',
    schema: jsonSetting(PolicySchema, EMPTY_POLICY, 'a policy object: {channels?, usergroups?, approvals?}'),
    file: PolicySchema,
    description:
      'Who may diagnose and approve what: `channels` (channel id or `*` → clusters and namespaces it may diagnose, its default cluster and namespace), ' +
      '`usergroups` (user group → clusters and namespaces) and `approvals` (namespaces → approvers per playbook, risks that need two people). ' +
      'Best written in the config file (`policy:`); the variable takes the same as JSON. Unset: no restriction. See docs/configuration.md.',
    roles: ['bot'],
  }),
  consoleUser: setting({
    env: 'POD_DOCTOR_CONSOLE_USER',
    schema: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .optional(),
    description: 'Name of the local user in the console chat (`npm run demo`); default: $USER, else "operator".',
    roles: ['cli'],
  }),
  // Playbooks: remediation plans and runs.
  playbookDir: setting({
    env: 'POD_DOCTOR_PLAYBOOK_DIR',
    schema: z.string().optional(),
    description: 'Directory of playbook YAML files (default: the playbooks/ shipped with pod-doctor). Every file is validated at startup; a bad one stops it.',
    roles: ['bot', 'worker', 'cli'],
  }),
  planTtlSeconds: setting({
    env: 'POD_DOCTOR_PLAN_TTL_SECONDS',
    schema: int(3600, 60, 7 * 86_400),
    description: 'How long a proposed remediation plan can be approved and run; then it expires and a new diagnosis makes a new one.',
    roles: ['bot', 'worker'],
  }),
  runTtlSeconds: setting({
    env: 'POD_DOCTOR_RUN_TTL_SECONDS',
    schema: int(7 * 86_400, 3600, 90 * 86_400),
    description: 'How long a run\'s step record is kept in Redis (its "already ran" and crash-recovery memory).',
    roles: ['worker'],
  }),
  runLockMs: setting({
    env: 'POD_DOCTOR_RUN_LOCK_MS',
    schema: int(30_000, 1000, 600_000),
    description: "Lease of a run lock (ms), renewed at a third; a crashed runner's run can be resumed once it lapses.",
    roles: ['worker'],
  }),
  maxStepTimeoutSeconds: setting({
    env: 'POD_DOCTOR_MAX_STEP_TIMEOUT_SECONDS',
    schema: int(900, 10, 86_400),
    description: "Upper bound on any playbook step's time limit (steps have their own, shorter ones).",
    roles: ['worker', 'cli'],
  }),
  agentActionTimeoutMs: setting({
    env: 'POD_DOCTOR_AGENT_ACTION_TIMEOUT_MS',
    schema: int(120_000, 1000, 900_000),
    description: 'Timeout of one node agent action request (ms): unit restarts, unmounts, image removal and pulls.',
    roles: ['worker', 'cli'],
  }),
  // Alertmanager webhook: served by `pod-doctor bot` when ALERTMANAGER_TOKEN is set.
  alertmanagerToken: setting({
    env: 'ALERTMANAGER_TOKEN',
    schema: z.string().min(16, 'use at least 16 characters').max(4096).optional(),
    description: 'Bearer token Alertmanager sends (`http_config.authorization.credentials_file`). Unset: the Alertmanager webhook is not served.',
    secret: true,
    roles: ['bot'],
  }),
  alertmanagerUrl: setting({
    env: 'POD_DOCTOR_ALERTMANAGER_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description:
      "Alertmanager's API base URL (with its route prefix, if any), for Silence 1h/4h/24h and Unsilence in an alert group's thread. " +
      'Unset: group threads offer Mute only.',
    roles: ['bot'],
  }),
  alertmanagerApiToken: setting({
    env: 'POD_DOCTOR_ALERTMANAGER_API_TOKEN',
    schema: z.string().min(1).max(4096).optional(),
    description: 'Bearer token for the Alertmanager API calls that create and expire silences (not the webhook token).',
    secret: true,
    roles: ['bot'],
  }),
  alertmanagerPath: setting({
    env: 'POD_DOCTOR_ALERTMANAGER_PATH',
    schema: z
      .string()
      .regex(/^\/[A-Za-z0-9._~/-]*$/, 'expected an absolute URL path')
      .default('/alertmanager'),
    description: "Path of the Alertmanager webhook on the bot's HTTP server.",
    roles: ['bot'],
  }),
  alertmanagerMaxBytes: setting({
    env: 'POD_DOCTOR_ALERTMANAGER_MAX_BYTES',
    schema: int(4 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    description: 'Largest webhook body accepted (bytes); larger ones get 413. About 1 KiB per alert: pair it with `max_alerts` in alertmanager.yml.',
    roles: ['bot'],
  }),
  alertLabels: setting({
    env: 'POD_DOCTOR_ALERT_LABELS',
    schema: alertLabelsSetting,
    file: alertLabelsFile,
    description:
      'JSON: which alert labels name the target, per role (`cluster`, `namespace`, `pod`, `deployment`, `statefulset`, `daemonset`, `job`, `node`), ' +
      'first non-empty wins, e.g. `{"namespace":["exported_namespace","namespace"],"pod":["kubernetes_pod_name","pod"]}`. ' +
      'Defaults: kube-prometheus names (`job_name` for Jobs); `cluster` unset.',
    roles: ['bot'],
  }),
  alertRoutes: setting({
    env: 'POD_DOCTOR_ALERT_ROUTES',
    schema: alertRoutesSetting,
    file: AlertRoutes,
    description:
      'List of `{receiver?, matchers?: {label: value}, channel}` (JSON in the variable, a YAML list in the file): ' +
      'the first route matching an alert (receiver name and exact label values) picks the channel of its group thread.',
    roles: ['bot'],
  }),
  alertChannel: setting({
    env: 'POD_DOCTOR_ALERT_CHANNEL',
    deprecatedEnv: ['POD_DOCTOR_INCIDENT_CHANNEL'],
    schema: z
      .string()
      .regex(/^[#A-Za-z0-9._-]{1,80}$/, 'expected a channel id or name')
      .optional(),
    description:
      'Channel of alert threads (the Alertmanager group threads, and incident threads of alert-started diagnoses) when no alert route matches. ' +
      'Required with ALERTMANAGER_TOKEN unless the routes end with a catch-all (a route with only a channel): the bot refuses to start otherwise. ' +
      'Formerly also POD_DOCTOR_INCIDENT_CHANNEL, still read (deprecated).',
    roles: ['bot'],
  }),
  digestChannel: setting({
    env: 'POD_DOCTOR_DIGEST_CHANNEL',
    schema: z
      .string()
      .regex(/^[#A-Za-z0-9._-]{1,80}$/, 'expected a channel id or name')
      .optional(),
    description:
      'Channel of the digest (recurring causes, time to first finding and to a verified fix, fixes run and failed, noisiest workloads), ' +
      'posted by one bot replica on `digestSchedule`. Unset: no digest is posted (`pod-doctor digest` still prints it).',
    roles: ['bot'],
  }),
  digestSchedule: setting({
    env: 'POD_DOCTOR_DIGEST_SCHEDULE',
    schema: z
      .string()
      .regex(/^(daily|mon|tue|wed|thu|fri|sat|sun) ([01]\d|2[0-3]):([0-5]\d)$/, 'expected "<mon…sun|daily> HH:MM" (UTC), e.g. "mon 09:00"')
      .default('mon 09:00'),
    description: 'When the digest is posted (UTC): `mon 09:00` posts the week before every Monday 09:00, `daily 08:30` the day before.',
    roles: ['bot'],
  }),
  alertMaxPods: setting({
    env: 'POD_DOCTOR_ALERT_MAX_PODS',
    schema: int(20, 1, 500),
    description: 'Unhealthy pods diagnosed per workload alert (Deployment, StatefulSet, DaemonSet, Job).',
    roles: ['bot', 'worker'],
  }),
  shutdownSeconds: setting({
    env: 'POD_DOCTOR_SHUTDOWN_SECONDS',
    schema: shutdownSecondsSchema(),
    description:
      'Deadline of a graceful stop (SIGTERM), in seconds: new work stops, running jobs finish or are left for another worker (their lock lapses), ' +
      'pending work is flushed, then connections are dropped and the process exits. ' +
      "Keep it below the pod's terminationGracePeriodSeconds. " +
      `Unset: bot ${SHUTDOWN_DEFAULT_SECONDS.bot}, worker ${SHUTDOWN_DEFAULT_SECONDS.worker}, agent ${SHUTDOWN_DEFAULT_SECONDS.agent}; ` +
      "the bot's in-process worker gets half of the bot's.",
    roles: ['bot', 'worker', 'agent'],
  }),
  gitCommit: setting({
    env: 'POD_DOCTOR_GIT_COMMIT',
    schema: z.string().optional(),
    file: false,
    description: 'The commit this build came from (the image sets it from its GIT_COMMIT build argument); shown by `--version` and pod_doctor_build_info.',
    roles: ['bot', 'worker', 'agent', 'cli'],
  }),
  logLevel: setting({
    env: 'LOG_LEVEL',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    description: 'pino log level.',
    roles: ['bot', 'worker', 'agent', 'cli'],
  }),
} as const;

function parseJsonMap(text: string, ctx: z.RefinementCtx): Record<string, string> {
  if (!text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    const result = z.record(z.string(), z.string()).safeParse(parsed);
    if (result.success) return result.data;
  } catch {
    // fall through to the issue below
  }
  ctx.addIssue({ code: 'custom', message: 'expected a JSON object of strings' });
  return {};
}

/** A JSON object (pass-through options); empty means `{}`. */
function parseJsonObject(text: string, ctx: z.RefinementCtx): Record<string, unknown> {
  if (!text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    const result = z.record(z.string(), z.unknown()).safeParse(parsed);
    if (result.success) return result.data;
  } catch {
    // fall through to the issue below
  }
  ctx.addIssue({ code: 'custom', message: 'expected a JSON object' });
  return {};
}

type Settings = typeof SETTINGS;
export type Config = { [K in keyof Settings]: z.output<Settings[K]['schema']> };

export interface LoadOptions {
  /** The config file (`--config`, POD_DOCTOR_CONFIG) as read by the caller: it sets what the environment does not. */
  file?: ConfigFileSource;
  /** Told when a deprecated variable name is in use. */
  onNote?: (note: string) => void;
  /**
   * The chat surfaces' id parser: approvers, channels and user groups are checked with it (unset:
   * any surface's ids pass). A function picks it from the settings read (the surfaces served).
   */
  ids?: ChatIds | ((config: Config) => ChatIds);
}

/**
 * Every setting from its variable, else the config file, else its default, with every problem
 * of both reported at once (one BAD_CONFIG, a line each). A variable wins over the file, for a
 * structured setting too: it replaces the file's value whole (no merging).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, knownRuleIds?: readonly string[], options: LoadOptions = {}): Config {
  const file = options.file ? parseConfigFile(options.file, SETTINGS) : undefined;
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  /** The variable each setting came from, when one did. */
  const variables: Record<string, string> = {};
  for (const [key, def] of Object.entries(SETTINGS) as [keyof Settings, SettingDef][]) {
    const variable = variableOf(env, def, problems, options.onNote);
    if (!variable && file && key in file.values) {
      out[key] = file.values[key];
      continue;
    }
    if (variable) variables[key] = variable.name;
    const result = def.schema.safeParse(variable?.value);
    if (result.success) out[key] = result.data;
    else problems.push(`${variable?.name ?? def.env}: ${result.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (options.file) out.configFile = options.file.path;
  const fromFile = [...(file?.problems ?? [])];
  if (knownRuleIds) {
    const unknown = unknownRuleIds(out.rules as Config['rules'] | undefined, knownRuleIds, variables.rules, file);
    (variables.rules || !file ? problems : fromFile).push(...unknown);
  }
  // The surfaces served decide the ids; when they are themselves wrong, that is the problem said.
  const chatIds = typeof options.ids === 'function' ? (out.chatSurfaces === undefined ? undefined : options.ids(out as Config)) : options.ids;
  if (chatIds) {
    const ids = idProblems(chatIds, out, variables, file);
    problems.push(...ids.variables);
    fromFile.push(...ids.file);
  }
  // The file's in the order of its lines, then the variables'.
  const all = [...fromFile.sort(byLine), ...problems];
  if (all.length > 0) throw new PodDoctorError('BAD_CONFIG', `invalid configuration:\n  ${all.join('\n  ')}`);
  return out as Config;
}

/**
 * Ids the chat surface does not take (`ids`: its parser): in a variable's value, or in the file
 * as written, past its other problems (those any surface's ids give are reported already).
 */
function idProblems(
  ids: ChatIds,
  out: Record<string, unknown>,
  variables: Record<string, string>,
  file: ParsedConfigFile | undefined,
): { variables: string[]; file: string[] } {
  const found = { variables: [] as string[], file: [] as string[] };
  const any = idSettings(ANY_IDS);
  for (const [key, schema] of Object.entries(idSettings(ids)) as [keyof typeof any, z.ZodType][]) {
    if (variables[key] || !file || !(key in file.raw)) {
      if (out[key] === undefined) continue;
      for (const issue of schema.safeParse(out[key]).error?.issues ?? []) {
        // As jsonSetting says it: the policy variable is JSON, the others are lists.
        const where = key === 'policy' ? `${issue.path.join('.')}: ` : '';
        found.variables.push(`${variables[key] ?? SETTINGS[key].env}: ${where}${messageOf(issue)}`);
      }
      continue;
    }
    const said = (i: z.core.$ZodIssue) => `${i.path.join('.')}: ${messageOf(i)}`;
    const known = new Set((any[key].safeParse(file.raw[key]).error?.issues ?? []).map(said));
    for (const issue of schema.safeParse(file.raw[key]).error?.issues ?? []) {
      if (!known.has(said(issue))) found.file.push(file.problem([key, ...issue.path], messageOf(issue)));
    }
  }
  return found;
}

/** An issue's message; for a map key, what the key's schema said (not "Invalid key in record"). */
const messageOf = (issue: z.core.$ZodIssue) => (issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message);

/** The setting's variable (an empty one counts as unset, as in a shell's `FOO= cmd`), or a deprecated name of it. */
function variableOf(
  env: Record<string, string | undefined>,
  def: SettingDef,
  problems: string[],
  onNote: ((note: string) => void) | undefined,
): { name: string; value: string } | undefined {
  const read = (name: string) => (env[name] ? { name, value: env[name] } : undefined);
  const current = read(def.env);
  for (const name of def.deprecatedEnv ?? []) {
    const former = read(name);
    if (!former) continue;
    if (!current) {
      onNote?.(`${name} is deprecated: it is now ${def.env} (the same setting); rename it`);
      return former;
    }
    if (former.value === current.value) onNote?.(`${name} is deprecated and repeats ${def.env}: remove it`);
    else problems.push(`${name}: the deprecated name of ${def.env}, which is set to another value; keep ${def.env} only`);
  }
  return current;
}

function unknownRuleIds(
  rules: Config['rules'] | undefined,
  known: readonly string[],
  variable: string | undefined,
  file: ParsedConfigFile | undefined,
): string[] {
  const message = (id: string) => {
    const near = closest(id, known);
    return `unknown rule id "${id}"${near ? `; did you mean "${near}"?` : ''}`;
  };
  if (variable || !file) return Object.keys(rules ?? {}).flatMap((id) => (known.includes(id) ? [] : [`${variable ?? SETTINGS.rules.env}: ${message(id)}`]));
  // From the file as written: its other problems do not hide these.
  const written = file.raw.rules;
  const ids = written && typeof written === 'object' && !Array.isArray(written) ? Object.keys(written) : [];
  return ids.flatMap((id) => (known.includes(id) ? [] : [file.problem(['rules', id], message(id))]));
}
