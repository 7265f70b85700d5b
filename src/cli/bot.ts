// `pod-doctor bot`: the chat edge. Its own HTTP server (src/http/) serves /healthz, /readyz, the
// Alertmanager webhook and the chat surfaces' routes (Slack over HTTP: /slack/events, a Bolt
// receiver, while Socket Mode dials out and adds none; Mattermost: /mattermost/command, /actions,
// /dialogs); /metrics is on a port of its own ($POD_DOCTOR_METRICS_PORT). It acknowledges,
// enqueues and posts; unless --no-worker it also runs a worker for its cluster in-process
// (diagnoses, and approved remediations).
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createAlertmanagerHandler } from '../alerts/http.js';
import { alertDestinationProblem } from '../alerts/routes.js';
import type { MattermostAdapter } from '../chat/adapters/mattermost/adapter.js';
import { mattermostIds } from '../chat/adapters/mattermost/ids.js';
import {
  ACTIONS_PATH,
  COMMAND_PATH,
  DIALOGS_PATH,
  mattermostActionsHandler,
  mattermostCommandHandler,
  mattermostDialogsHandler,
} from '../chat/adapters/mattermost/inbound.js';
import type { SlackAdapter } from '../chat/adapters/slack/adapter.js';
import { startSlackBot } from '../chat/adapters/slack/app.js';
import { slackIds } from '../chat/adapters/slack/ids.js';
import { SurfacesAdapter } from '../chat/adapters/surfaces.js';
import type { ChatContext } from '../chat/context.js';
import { postDigest } from '../chat/flows/digest.js';
import { type ChatMetrics, createChatMetrics } from '../chat/metrics.js';
import { type ChatRouter, createChatRouter } from '../chat/router.js';
import type { ChatAdapter } from '../chat/types.js';
import { type Config, SETTINGS } from '../config/schema.js';
import { PodDoctorError } from '../errors.js';
import { createHttpServer, type Route } from '../http/server.js';
import { JobQueues } from '../jobs/queues.js';
import { createLogger } from '../log.js';
import { createMetrics, metricsHandler } from '../metrics/metrics.js';
import { listenOps, registerReady, runCheck } from '../metrics/server.js';
import { type Connections, checkRedis, closeRedis, dropRedis, type RedisClient, redisConnections, redisUp } from '../redis/client.js';
import { loadScriptsOnReady } from '../redis/lua.js';
import { defaultPlaybookDir, loadPlaybooks } from '../remediation/load.js';
import { computeDigest, gatherDigest } from '../report/digest.js';
import { parseSchedule, startDigestPoster } from '../report/schedule.js';
import { embeddedWorkerDeadlineMs, shutdown, shutdownDeadlineMs, untilSignal } from '../shutdown.js';
import { startTracing, stopTracing } from '../tracing/start.js';
import { readChatStreams } from './chat-streams.js';
import { chatApprovers, composeChat, composeMattermostAdapter, composeSlackAdapter } from './compose.js';
import { CONFIG_OPTION, CONFIG_USAGE, chatIds, clusterOf, commandConfig, servedClusters } from './config.js';
import type { CliIo } from './io.js';
import { alertmanagerOptionsFromConfig, jobSettingsFromConfig } from './wiring.js';
import { startWorkerThread, type WorkerThread } from './worker-host.js';

/** A caller's pino level as a configured one (pino also knows custom levels). */
function logLevelOf(logger: Logger): Config['logLevel'] {
  const level = SETTINGS.logLevel.schema.safeParse(logger.level);
  return level.success ? level.data : 'info';
}

async function kubeVersionApi(kubeconfig: string | undefined, context: string | undefined) {
  const [k8s, { loadKubeConfig }] = await Promise.all([import('@kubernetes/client-node'), import('../collect/kube-source.js')]);
  return loadKubeConfig({ kubeconfig, context }).makeApiClient(k8s.VersionApi);
}

export const BOT_USAGE =
  'Usage: pod-doctor bot [--config FILE] [--no-worker] [--port N] [--metrics-port N] [--cluster NAME] [--kubeconfig FILE] ' +
  `[--context NAME] [--playbooks DIR]
  Serves Slack and/or Mattermost (/pod-doctor, buttons) and posts diagnoses in threads.
${CONFIG_USAGE}
  --no-worker         only the edge: another process runs \`pod-doctor worker\` for the cluster
  --port N            HTTP port (default: $PORT): /slack/events, /mattermost/*, /healthz, /readyz, /alertmanager
  --metrics-port N    operations port (default: $POD_DOCTOR_METRICS_PORT): /metrics, /healthz, /readyz
  --cluster NAME      cluster this bot serves, its default one with $POD_DOCTOR_CLUSTERS (default: $POD_DOCTOR_CLUSTER)
  --kubeconfig FILE   kubeconfig (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)
  --context NAME      kubeconfig context
  --playbooks DIR     playbook directory (default: $POD_DOCTOR_PLAYBOOK_DIR, then the package's playbooks/)
  Slack: $SLACK_BOT_TOKEN and, by $POD_DOCTOR_SLACK_MODE, $SLACK_SIGNING_SECRET (http) or $SLACK_APP_TOKEN (socket);
  $SLACK_API_URL for GovSlack or a test double. Mattermost ($POD_DOCTOR_CHAT_SURFACES=mattermost or slack,mattermost):
  $MATTERMOST_URL, $MATTERMOST_BOT_TOKEN, $MATTERMOST_COMMAND_TOKEN, $MATTERMOST_ACTION_SECRET, $POD_DOCTOR_PUBLIC_URL
  (docs/mattermost.md). Redis: $REDIS_URL.`;

export interface BotDeps {
  /** Resolves when the bot should stop (default: SIGTERM or SIGINT). */
  stopSignal?: Promise<unknown>;
  /** Called once the HTTP server listens. */
  onReady?: (info: { port: number; metricsPort: number; chat: ChatContext; router: ChatRouter }) => void;
  logger?: Logger;
}

/** Everything the served chat surfaces need (POD_DOCTOR_CHAT_SURFACES), reported at once. */
export function checkChatConfig(config: Config): void {
  const problems: string[] = [];
  if (config.chatSurfaces.includes('slack')) {
    if (!config.slackBotToken) problems.push('SLACK_BOT_TOKEN is not set');
    if (config.slackMode === 'http' && !config.slackSigningSecret)
      problems.push('SLACK_SIGNING_SECRET is not set (needed in HTTP mode; or set POD_DOCTOR_SLACK_MODE=socket with SLACK_APP_TOKEN)');
    if (config.slackMode === 'socket' && !config.slackAppToken) problems.push('SLACK_APP_TOKEN is not set (needed in Socket Mode)');
  }
  if (config.chatSurfaces.includes('mattermost')) {
    const needed = {
      mattermostUrl: config.mattermostUrl,
      mattermostBotToken: config.mattermostBotToken,
      mattermostActionSecret: config.mattermostActionSecret,
      publicUrl: config.publicUrl,
    };
    for (const [key, value] of Object.entries(needed) as [keyof typeof needed, unknown][])
      if (!value) problems.push(`${SETTINGS[key].env} is not set (needed to serve Mattermost)`);
    if (config.mattermostCommandTokens.length === 0) problems.push(`${SETTINGS.mattermostCommandTokens.env} is not set (needed to serve Mattermost)`);
  }
  const alertProblem = alertDestinationProblem(config);
  if (alertProblem) problems.push(alertProblem);
  if (problems.length > 0) throw new PodDoctorError('BAD_CONFIG', `invalid configuration:\n  ${problems.join('\n  ')}`);
}

function routeText(res: import('node:http').ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
}

/** What the bot's readiness depends on. */
interface ReadinessParts {
  redis: RedisClient;
  /** The Kubernetes API, when the in-process worker needs it. */
  kubernetes?: () => Promise<unknown>;
  /** The in-process worker thread, until it has started (it loads while the port already answers). */
  workerThread?: () => 'starting' | 'ok' | string;
  /** Socket Mode's link to Slack (the HTTP mode's Slack calls in). */
  slack?: () => string;
  streams: readonly (readonly [string, { health(): { ok: boolean; detail?: string } }])[];
}

/** The bot's readiness checks, a line each: what /readyz answers and pod_doctor_ready reports. */
function botReadiness(config: Config, parts: ReadinessParts) {
  return () => {
    // Ready when Redis and the Kubernetes API answer (the in-process worker proposes plans against live state).
    const check = async (name: string, probe: () => Promise<unknown>) => {
      const problem = await runCheck(probe);
      return { ok: problem === null, line: `${name}: ${problem ?? 'ok'}` };
    };
    // The webhook only starts with a destination for every alert (checkChatConfig); say where they go.
    const alertsLine = config.alertmanagerToken
      ? [
          {
            ok: true,
            line:
              `alertmanager: alerts go to ${config.alertChannel ? `channel ${config.alertChannel}` : 'the catch-all route'}` +
              `${config.alertRoutes.length ? ` (${config.alertRoutes.length} routes)` : ''}`,
          },
        ]
      : [];
    // A stream consumer that cannot read (NOGROUP after Redis lost its data, a broken
    // connection) means results or alert events are not reaching chat: not ready.
    const streams = parts.streams.map(([name, c]) => {
      const h = c.health();
      return { ok: h.ok, line: `${name} stream: ${h.ok ? 'ok' : h.detail}` };
    });
    const kubernetes = parts.kubernetes;
    const thread = parts.workerThread?.();
    const threadLine = thread === undefined ? [] : [{ ok: thread === 'ok', line: `worker thread: ${thread}` }];
    const slack = parts.slack?.();
    const slackLine = slack === undefined ? [] : [{ ok: slack === 'ok', line: `slack: ${slack}` }];
    return Promise.all([
      check('redis', () => checkRedis(parts.redis)),
      ...(kubernetes ? [check('kubernetes', kubernetes)] : []),
      ...threadLine,
      ...slackLine,
      ...streams,
      ...alertsLine,
    ]);
  };
}

/**
 * Health and readiness on the bot's public port (the kubelet's probes); /metrics only on its
 * metrics port, with the same two (operators' convention: scrapes never reach the port an
 * Ingress exposes to Slack). Its readiness is also pod_doctor_ready in `registry`.
 */
function opsRoutes(config: Config, parts: ReadinessParts & { registry: Registry }) {
  const checks = botReadiness(config, parts);
  const readiness = async () => {
    const results = await checks();
    return { ready: results.every((c) => c.ok), body: `${results.map((c) => c.line).join('\n')}\n` };
  };
  registerReady(parts.registry, async () => (await readiness()).ready);
  const routes: Route[] = [
    { method: 'GET', path: '/healthz', handler: (_req, res) => routeText(res, 200, 'ok\n') },
    {
      method: 'GET',
      path: '/readyz',
      handler: async (_req, res) => {
        const r = await readiness();
        routeText(res, r.ready ? 200 : 503, r.body);
      },
    },
  ];
  return { routes, readiness };
}

/** The bot's command line. */
function botFlags(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'no-worker': { type: 'boolean', default: false },
      port: { type: 'string' },
      'metrics-port': { type: 'string' },
      cluster: { type: 'string' },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      playbooks: { type: 'string' },
      ...CONFIG_OPTION,
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  return { ...values, noWorker: values['no-worker'], metricsPort: values['metrics-port'] };
}

/**
 * The in-process worker runs on its own thread: diagnoses use the second core, never the
 * event loop that acks and posts. It gets the bot's config object, not argv.
 */
function embeddedWorker(o: {
  config: Config;
  flags: ReturnType<typeof botFlags>;
  deps: BotDeps;
  cluster: string;
  kubeconfig: string | undefined;
  context: string | undefined;
  logger: Logger;
}) {
  const { config, flags, deps, kubeconfig, context } = o;
  return startWorkerThread({
    data: {
      options: {
        // A caller's logger (tests: silent) sets the thread's level too.
        config: { ...config, ...(flags.playbooks ? { playbookDir: flags.playbooks } : {}), ...(deps.logger ? { logLevel: logLevelOf(deps.logger) } : {}) },
        cluster: o.cluster,
        concurrency: config.workerConcurrency,
        port: config.metricsPort,
        ...(kubeconfig ? { kubeconfig } : {}),
        ...(context ? { context } : {}),
      },
    },
    logger: o.logger,
  });
}

/** The Alertmanager webhook, served on the bot's port when it has a token. */
function serveAlertmanager(config: Config, o: { queues: JobQueues; logger: Logger; registry: Registry; clusters: readonly string[] }) {
  if (!config.alertmanagerToken) {
    o.logger.info('ALERTMANAGER_TOKEN unset: the Alertmanager webhook is not served');
    return undefined;
  }
  const handler = createAlertmanagerHandler(alertmanagerOptionsFromConfig(config, o));
  return { handler, route: { method: 'POST', path: handler.path, handler } satisfies Route };
}

/**
 * Each step bounded: with Redis gone, a stream read, a quit or BullMQ's close would wait for a
 * reconnect that may never come, past the pod's grace period. Whatever is left undone is kept
 * in Redis for the next process (pending stream entries, job locks that lapse, parent updates).
 */
function stopBot(o: {
  logger: Logger;
  deadlineMs: number;
  bot: { stop(): Promise<unknown> };
  server: { close(): Promise<unknown> };
  ops: { close(): Promise<unknown> };
  /** The in-process worker thread, perhaps still starting. */
  workerThread: Promise<{ stop(): Promise<unknown> }> | undefined;
  streams: { stop(): Promise<unknown> };
  router: ChatRouter;
  stopParents: () => void;
  alertmanager: { close(): Promise<unknown> } | undefined;
  queues: JobQueues;
  connections: Connections;
}) {
  const { workerThread, alertmanager, deadlineMs } = o;
  return shutdown({
    logger: o.logger,
    deadlineMs,
    steps: [
      // New work stops first: Slack, Alertmanager and users retry what gets no answer. The
      // server lets a request in flight finish (a command being queued), then ends every socket.
      { name: 'stop serving', budgetMs: 4000, run: async () => Promise.all([o.bot.stop(), o.server.close()]) },
      // Its running jobs finish within the thread's own deadline (half of ours).
      ...(workerThread ? [{ name: 'worker thread', budgetMs: embeddedWorkerDeadlineMs(deadlineMs) + 2000, run: async () => (await workerThread).stop() }] : []),
      // Read until the thread is done: the results of its last jobs come by stream (what is
      // left unread stays in the stream for another reader).
      { name: 'stream consumers', budgetMs: 3000, needsRedis: true, run: () => o.streams.stop() },
      // Parents whose latest state waits for its turn (update pacing) are written before Redis closes.
      {
        name: 'parent updates',
        budgetMs: 8000,
        needsRedis: true,
        run: (ms: number) => Promise.all([...o.router.contexts.values()].map((c) => c.parents.settle(ms))).finally(o.stopParents),
      },
      ...(alertmanager ? [{ name: 'alertmanager intake', budgetMs: 2000, run: () => alertmanager.close() }] : []),
      // Scraped until here: the shutdown's last metrics are read while it drains.
      { name: 'metrics port', budgetMs: 1000, run: () => o.ops.close() },
      // The spans of the last deliveries are exported (a no-op with tracing off).
      { name: 'traces', budgetMs: 2000, run: () => stopTracing() },
      { name: 'queues', budgetMs: 2000, needsRedis: true, run: () => o.queues.close() },
      { name: 'redis', budgetMs: 2000, needsRedis: true, run: () => Promise.all(o.connections.all.map(closeRedis)) },
    ],
    hardStops: o.connections.all.map((c) => () => dropRedis(c)),
    redisUp: () => o.connections.all[0] !== undefined && redisUp(o.connections.all[0]),
  });
}

/** The digest, posted on its schedule by one replica (the first to take the slot's lock), when a channel is set. */
function startDigest(
  config: Config,
  o: { redis: RedisClient; prefix: string; clusters: readonly string[]; chat: ChatContext; logger: Logger },
): { stop(): void } | undefined {
  const channel = config.digestChannel;
  const schedule = parseSchedule(config.digestSchedule);
  if (!channel || !schedule) return undefined;
  return startDigestPoster({
    redis: o.redis,
    prefix: o.prefix,
    schedule,
    logger: o.logger.child({ component: 'digest' }),
    post: async ({ sinceMs, untilMs }) => {
      const input = await gatherDigest(o.redis, o.prefix, o.clusters, sinceMs, untilMs);
      await postDigest(o.chat, channel, computeDigest(input));
    },
  });
}

/** Slack's part of the bot (its routes, its link, its end), or nothing when Slack is not served. */
type ServedBot = Pick<Awaited<ReturnType<typeof startSlackBot>>, 'routes' | 'slack' | 'failed' | 'stop'>;
const NO_SLACK: ServedBot = { routes: [], slack: () => 'ok', failed: new Promise<Error>(() => undefined), stop: async () => undefined };

/** The chat surfaces the bot serves: their adapters, one adapter over all (by channel id), their approvers. */
function composeSurfaces(config: Config, parts: { redis: RedisClient; prefix: string; logger: Logger; metrics: ChatMetrics }) {
  const slack: SlackAdapter | undefined = config.chatSurfaces.includes('slack')
    ? composeSlackAdapter(config, { token: config.slackBotToken ?? '', redis: parts.redis, prefix: parts.prefix, logger: parts.logger, metrics: parts.metrics })
    : undefined;
  const mattermost: MattermostAdapter | undefined = config.chatSurfaces.includes('mattermost') ? composeMattermostAdapter(config, parts) : undefined;
  const served = [
    ...(slack ? [{ ids: slackIds, adapter: slack as ChatAdapter }] : []),
    ...(mattermost ? [{ ids: mattermostIds, adapter: mattermost as ChatAdapter }] : []),
  ];
  const adapter: ChatAdapter = served.length === 1 ? served[0]!.adapter : new SurfacesAdapter(served);
  const approvers = chatApprovers(config, { ...(slack ? { slack } : {}), ...(mattermost ? { mattermost } : {}) }, parts.logger, parts.metrics);
  // The bot token checked at start, not waited for: a wrong one is logged (posts will fail too).
  mattermost?.client.me().catch((err: unknown) => parts.logger.warn({ err }, 'Mattermost did not accept the bot token (GET /users/me)'));
  return { slack, mattermost, adapter, approvers };
}

/** Mattermost's slash command, button and dialog endpoints, for the bot's server. */
function mattermostRoutes(
  config: Config,
  o: { adapter: MattermostAdapter; chat: ChatContext; router: ChatRouter; logger: Logger; metrics: ChatMetrics },
): Route[] {
  const inbound = {
    adapter: o.adapter,
    chat: o.chat,
    router: o.router,
    logger: o.logger.child({ component: 'mattermost' }),
    metrics: o.metrics,
    commandTokens: config.mattermostCommandTokens,
    actionSecret: config.mattermostActionSecret ?? '',
    serverUrl: config.mattermostUrl ?? '',
    dialogsUrl: `${(config.publicUrl ?? '').replace(/\/+$/, '')}${DIALOGS_PATH}`,
  };
  return [
    { method: 'POST', path: COMMAND_PATH, handler: mattermostCommandHandler(inbound) },
    { method: 'POST', path: ACTIONS_PATH, handler: mattermostActionsHandler(inbound) },
    { method: 'POST', path: DIALOGS_PATH, handler: mattermostDialogsHandler(inbound) },
  ];
}

/** Where the chat surfaces are served, for the start line. */
function surfacesLine(config: Config, port: number): string {
  return config.chatSurfaces
    .map((s) =>
      s === 'mattermost' ? `Mattermost on :${port}${COMMAND_PATH}` : config.slackMode === 'http' ? `Slack on :${port}/slack/events` : 'Slack over Socket Mode',
    )
    .join(', ');
}

/** A chat context per served cluster, the default cluster's first; they share the adapter, Redis, the queues and the approvers. */
function composeClusters(
  config: Config,
  served: readonly string[],
  parts: Pick<Parameters<typeof composeChat>[1], 'adapter' | 'redis' | 'queues' | 'logger' | 'playbooks' | 'metrics' | 'approvers'>,
): ChatRouter {
  const { approvers } = parts;
  const [main, ...others] = served.map((cluster) =>
    composeChat(config, {
      ...parts,
      cluster,
      approvers,
      rootUpdateIntervalMs: config.rootUpdateSeconds * 1000,
      placeholderMs: config.threadPlaceholderMs,
      deliveryRetryMs: config.chatRetrySeconds * 1000,
      // Alert-started results go to their Alertmanager group's thread.
      alertGroups: {},
    }),
  );
  return createChatRouter(main!, others);
}

/**
 * What ends the bot: its stop signal, or its worker dying (or never starting) or Socket Mode
 * failing to connect at all (a bot that takes commands and never answers them, or gets none,
 * had better be restarted), or a kubeconfig that cannot be read (fatal, as it was before the
 * bot listened).
 */
function untilStop(
  stopSignal: Promise<unknown>,
  threadStart: Promise<WorkerThread> | undefined,
  version: Promise<unknown> | undefined,
  slackFailed: Promise<Error>,
): Promise<{ signal: unknown } | { err: unknown } | { slack: Error } | { fatal: unknown }> {
  const never = new Promise<never>(() => undefined);
  return Promise.race([
    stopSignal.then((signal) => ({ signal })),
    slackFailed.then((slack) => ({ slack })),
    threadStart
      ? threadStart.then(
          (t) => t.died.then((err) => ({ err })),
          (err: unknown) => ({ err }),
        )
      : never,
    version
      ? version.then(
          () => never,
          (fatal: unknown) => ({ fatal }),
        )
      : never,
  ]);
}

/** Slack, by its mode: over HTTP a route for the bot's server, in Socket Mode a connection out. */
function startSlack(config: Config, parts: { chat: ChatContext; router: ChatRouter; logger: Logger; metrics: ChatMetrics }) {
  return startSlackBot({
    mode: config.slackMode,
    botToken: config.slackBotToken ?? '',
    ...(config.slackSigningSecret ? { signingSecret: config.slackSigningSecret } : {}),
    ...(config.slackAppToken ? { appToken: config.slackAppToken } : {}),
    slackApiUrl: config.slackApiUrl,
    ...parts,
  });
}

function logStopping(logger: Logger, outcome: Awaited<ReturnType<typeof untilStop>>, deadlineMs: number): void {
  if ('err' in outcome) logger.error({ err: outcome.err, deadlineMs }, 'bot stopping: its worker thread ended');
  else if ('fatal' in outcome) logger.info({ deadlineMs }, 'bot stopping: no Kubernetes configuration');
  else if ('slack' in outcome) logger.error({ err: outcome.slack, deadlineMs }, 'bot stopping: Socket Mode could not connect to Slack');
  else logger.info({ signal: outcome.signal, deadlineMs }, 'bot stopping');
}

export async function botCommand(argv: string[], io: CliIo, deps: BotDeps = {}): Promise<number> {
  const began = performance.now();
  const flags = botFlags(argv);
  if (flags.help) {
    io.stdout.write(`${BOT_USAGE}\n`);
    return 0;
  }
  const config = commandConfig(io.env, flags.config, io.stderr);
  checkChatConfig(config);
  const cluster = clusterOf(flags.cluster, config);
  const served = servedClusters(cluster, config);
  const port = flags.port !== undefined ? Number(flags.port) : config.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new PodDoctorError('BAD_INPUT', `--port "${flags.port}" is not a port number`);
  const metricsPort = flags.metricsPort !== undefined ? Number(flags.metricsPort) : config.metricsPort;
  if (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65_535)
    throw new PodDoctorError('BAD_INPUT', `--metrics-port "${flags.metricsPort}" is not a port number`);
  const withWorker = !flags.noWorker;

  const logger = (deps.logger ?? createLogger({ level: config.logLevel })).child({ role: 'bot', cluster });
  const kubeconfig = flags.kubeconfig ?? config.kubeconfig;
  const context = flags.context ?? config.kubeContext;
  // The worker thread loads on the second core while this one does, and the port answers
  // (/readyz: `worker thread: starting`) without waiting for it: liveness probes pass from the start.
  const threadStart = withWorker ? embeddedWorker({ config, flags, deps, cluster, kubeconfig, context, logger }) : undefined;
  let workerThread: WorkerThread | undefined;
  let threadProblem: string | undefined;
  void threadStart?.then(
    (t) => (workerThread = t),
    (err: unknown) => (threadProblem = err instanceof Error ? err.message : String(err)),
  );
  // Off without an OTLP endpoint (nothing of the SDK is loaded then).
  await startTracing({ serviceName: 'pod-doctor-bot', settings: config, logger });

  // Connections: one for commands (fails fast), one per blocking stream reader (wait through reconnects).
  const connections = redisConnections(config, logger);
  const connect = connections.connect;
  const redis = connect('producer');
  // Redis's script cache filled as soon as it answers, not by the first burst's NOSCRIPT answers.
  loadScriptsOnReady(redis, (err) => logger.warn({ err: { message: (err as Error).message } }, 'redis scripts not loaded'));
  const settings = jobSettingsFromConfig(config);
  const queues = new JobQueues(redis, settings, logger);
  const metrics = createMetrics({ defaultMetrics: true });
  const chatMetrics = createChatMetrics(metrics.registry);
  metrics.watchQueues(queues, served);

  // The bot itself never calls the cluster: the worker diagnoses and proposes the fixes, plans
  // are read from Redis. Only the in-process worker (its own thread) needs the credentials.
  // Loaded only then: the Kubernetes client is most of a split bot's memory otherwise.
  // Loaded beside the rest, not waited for: only /readyz asks the API.
  const version = withWorker ? kubeVersionApi(kubeconfig, context) : undefined;
  version?.catch(() => undefined);
  // Playbooks are validated here: a bad file stops startup.
  const playbooks = await loadPlaybooks(flags.playbooks ?? config.playbookDir ?? defaultPlaybookDir(), { ids: chatIds(config) });

  const surfaces = composeSurfaces(config, { redis, prefix: settings.prefix, logger, metrics: chatMetrics });
  const { adapter, approvers } = surfaces;
  const router = composeClusters(config, served, { adapter, approvers, redis, queues, logger, playbooks, metrics: chatMetrics });
  const chat = router.main;
  // Parent updates left undone by a crash or a Redis outage are resumed now and after reconnects.
  const stops = [...router.contexts.values()].map((c) => c.parents.start(redis));
  const digest = startDigest(config, { redis, prefix: settings.prefix, clusters: served, chat, logger });
  const stopParents = () => {
    for (const stop of stops) stop();
    digest?.stop();
  };

  const streams = readChatStreams(router.contexts.values(), { connect, prefix: settings.prefix, logger });
  const { routes, readiness } = opsRoutes(config, {
    redis,
    ...(version ? { kubernetes: async () => (await version).getCode() } : {}),
    ...(threadStart ? { workerThread: () => threadProblem ?? (workerThread ? 'ok' : 'starting') } : {}),
    ...(surfaces.slack && config.slackMode === 'socket' ? { slack: () => bot?.slack() ?? 'connecting' } : {}),
    streams: streams.readers,
    registry: metrics.registry,
  });
  const ops = await listenOps({
    port: metricsPort,
    logger,
    metrics: metricsHandler(metrics.registry, threadStart ? async () => (workerThread ? workerThread.metrics() : []) : undefined),
    readiness,
  });
  const alertmanager = serveAlertmanager(config, { queues, logger, registry: metrics.registry, clusters: served });
  const mattermost = surfaces.mattermost ? mattermostRoutes(config, { adapter: surfaces.mattermost, chat, router, logger, metrics: chatMetrics }) : [];
  // Assigned below: the routes (readiness) are made before the app that serves them.
  let bot: ServedBot | undefined;
  bot = surfaces.slack ? await startSlack(config, { chat, router, logger, metrics: chatMetrics }) : NO_SLACK;
  // One server for every route; it listens now, nothing before it having waited on Redis or Slack.
  const server = createHttpServer({ logger });
  server.mount(...routes, ...(alertmanager ? [alertmanager.route] : []), ...bot.routes, ...mattermost);
  const boundPort = await server.listen(port);
  // How long after the command began the port answered (module loading aside).
  const listeningMs = Math.round(performance.now() - began);
  logger.info({ port: boundPort, metricsPort: ops.port, mode: config.slackMode, worker: withWorker, playbooks: playbooks.length, listeningMs }, 'bot started');
  io.stdout.write(
    `pod-doctor bot: cluster ${served.length > 1 ? `${cluster} (of ${served.join(', ')})` : cluster}, ${surfacesLine(config, boundPort)}, ` +
      `metrics on :${ops.port}, worker ${withWorker ? 'in-process (own thread)' : 'off'}, ${playbooks.length} playbooks (listening ${listeningMs} ` +
      `ms after start)\n`,
  );
  deps.onReady?.({ port: boundPort, metricsPort: ops.port, chat, router });

  const outcome = await untilStop(deps.stopSignal ?? untilSignal(), threadStart, version, bot.failed);
  const deadlineMs = shutdownDeadlineMs('bot', config.shutdownSeconds);
  logStopping(logger, outcome, deadlineMs);
  await stopBot({
    logger,
    deadlineMs,
    bot,
    server,
    ops,
    workerThread: threadStart,
    streams,
    router,
    stopParents,
    alertmanager: alertmanager?.handler,
    queues,
    connections,
  });
  if ('fatal' in outcome) throw outcome.fatal;
  return 'err' in outcome || 'slack' in outcome ? 1 : 0;
}
