// `npm run demo`: the bot on its embedded default. A simulated cluster with the seed incidents
// (timestamps moved so they look live, node agents serving the seed nodes), real Redis, an
// in-process worker and the console chat: type `/pod-doctor ns/pod`, read the findings,
// `approve <n>`. The same flows as Slack (threads, approvals, expiry, once-only runs), and an
// Alertmanager group (`alert fire`: a thread, Silence/Mute, `alert resolve`). When stdin is not a
// terminal it takes a scripted tour of every seed incident and the alert group, and exits. It
// prints its Redis prefix and cluster, so `pod-doctor audit export` can read it while it runs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { withDeadline } from '../bounded.js';
import { ConsoleAdapter } from '../chat/adapters/console/adapter.js';
import { consoleIds } from '../chat/adapters/console/ids.js';
import { CONSOLE_HELP, type ConsoleChatOptions, handleConsoleLine, runConsoleChat } from '../chat/adapters/console/repl.js';
import { startDiagnosis } from '../chat/flows/requests.js';
import { ApproverPolicy } from '../chat/store/approvals.js';
import { createAgentLookup } from '../collect/agent-client.js';
import { KubeSource } from '../collect/kube-source.js';
import type { Config } from '../config/schema.js';
import { PodDoctorError } from '../errors.js';
import { JobQueues } from '../jobs/queues.js';
import { RedisStreamSink } from '../jobs/sink.js';
import { parseTarget } from '../kube/target.js';
import { createLogger } from '../log.js';
import { type RedisClient, redisConnections, redisFromUrl, redisOptionsFrom } from '../redis/client.js';
import { keyPattern } from '../redis/keys.js';
import { type ScenarioCluster, startScenarioCluster } from '../sim/cluster.js';
import { loadScenarios, type Scenario } from '../sim/scenarios.js';
import { SimSilences } from '../sim/silences.js';
import { readChatStreams } from './chat-streams.js';
import { composeChat } from './compose.js';
import { CONFIG_OPTION, commandConfig } from './config.js';
import { DEMO_ALERTNAME, type DemoAlerts, startDemoAlerts } from './demo-alerts.js';
import type { CliIo } from './io.js';
import { jobSettingsFromConfig } from './wiring.js';
import { startWorkerRole } from './worker-role.js';

export const SCENARIO_ROOT = fileURLToPath(new URL('../../test/fixtures/incidents', import.meta.url));

export const DEMO_USAGE = `Usage: pod-doctor demo [--all] [--dir DIR] [--script] [--user NAME] [--config FILE]
  A simulated cluster with the seed incidents and the console chat (needs Redis: $REDIS_URL).
  --all         every incident fixture, not only the seed incidents
  --dir DIR     scenario directory (default: test/fixtures/incidents)
  --script      take the scripted tour even on a terminal (the default when stdin is not one)
  --user NAME   who you are in the chat (default: $POD_DOCTOR_CONSOLE_USER, $USER, "operator")
  --config FILE YAML config file (default: $POD_DOCTOR_CONFIG): it applies as in production (policy, default
                namespaces, rule overrides, the API rate limit), on the simulated cluster`;

export interface DemoDeps {
  /** Console input (default: process.stdin). */
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
}

const CHANNEL = 'console';
const CLUSTER = 'demo';
/** The seed incident whose proposed fix the tour approves. */
const TOUR_FIX_TARGET = 'reports/report-6f7d8-xk2lq';

/** A Redis URL without its credentials, for printing. */
const maskRedisUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');

export function redisHelp(url: string, why: string): string {
  return [
    `pod-doctor demo needs Redis (queues, approvals, threads) at ${maskRedisUrl(url)} (REDIS_URL), and it did not answer: ${why}.`,
    'Start one, for example:',
    '  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
    '  (or: docker run -d --name pod-doctor-redis -p 127.0.0.1:6379:6379 redis:7)',
    'then run `npm run demo` again, or point REDIS_URL at a Redis you may use.',
  ].join('\n');
}

/** Ping Redis once without the reconnect loop; the reason it failed, or null. */
async function redisProblem(config: Config): Promise<string | null> {
  const probe = redisFromUrl(
    config.redisUrl,
    { ...redisOptionsFrom(config), lazyConnect: true, connectTimeout: 2000, retryStrategy: () => null, enableOfflineQueue: false },
    { role: 'producer' },
  );
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message || err.name : String(err);
  } finally {
    probe.disconnect();
  }
}

async function deleteKeys(redis: RedisClient, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keyPattern(prefix), 'COUNT', 1000);
    cursor = next;
    if (found.length > 0) await redis.del(...found);
  } while (cursor !== '0');
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The Redis the demo uses: the configured one, or, with no REDIS_URL given and nothing on the
 * default, a throwaway redis-server when one is installed. `exit` when there is none.
 */
async function demoRedis(config: Config, io: CliIo): Promise<{ config: Config; privateRedis: PrivateRedis | undefined } | { exit: number }> {
  let problem = await redisProblem(config);
  const privateRedis = problem && !io.env.REDIS_URL ? await startPrivateRedis() : undefined;
  if (privateRedis) {
    // Its own Redis, without the credentials or CA meant for the configured one.
    config = { ...config, redisUrl: privateRedis.url, redisUsername: undefined, redisPassword: undefined, redisCaFile: undefined };
    problem = await redisProblem(config);
    io.stdout.write(`pod-doctor demo: no Redis on 127.0.0.1:6379, using a private redis-server on ${privateRedis.url} (no persistence; stopped on exit).\n`);
  }
  if (problem) {
    await privateRedis?.stop();
    io.stderr.write(`${redisHelp(config.redisUrl, problem)}\n`);
    return { exit: 2 };
  }
  return { config, privateRedis };
}

/** The tour waits for each command's findings: `delivered` marks a job's result posted, `wait` resolves once it is. */
function deliveryWaiter() {
  const waiting = new Map<string, () => void>();
  const done = new Set<string>();
  return {
    delivered(jobId: string) {
      done.add(jobId);
      waiting.get(jobId)?.();
    },
    wait: (jobId: string, ms = 60_000) =>
      done.has(jobId)
        ? Promise.resolve()
        : withDeadline(
            ms,
            () => new Promise<void>((resolve) => waiting.set(jobId, resolve)),
            () => new Error(`no result for ${jobId} within ${ms} ms`),
          ),
  };
}

/**
 * The production wiring with the demo's settings: its cluster name and key prefix, no agent
 * token for node actions (restart a unit…: never run on this machine), the simulated cluster's
 * API and node agents (which answer the probes).
 */
function demoWiring(config: Config, cluster: ScenarioCluster, prefix: string, redis: RedisClient, logger: Logger) {
  const demoConfig: Config = { ...config, cluster: CLUSTER, redisPrefix: prefix, agentToken: undefined };
  const settings = { ...jobSettingsFromConfig(demoConfig), backoffMs: 200 };
  const queues = new JobQueues(redis, settings, logger);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(cluster.kubeconfig());
  const kube = new KubeSource(kc);
  const agent = createAgentLookup({ agentUrls: cluster.agentUrls, agentToken: cluster.agentToken, agentTimeoutMs: 10_000, transport: { plainHttp: true } });
  return { demoConfig, settings, queues, kube, agent };
}

const DEMO_OPTIONS = {
  all: { type: 'boolean', default: false },
  dir: { type: 'string' },
  script: { type: 'boolean', default: false },
  user: { type: 'string' },
  ...CONFIG_OPTION,
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export async function demoCommand(argv: string[], io: CliIo, deps: DemoDeps = {}): Promise<number> {
  const { values } = parseArgs({ args: argv, options: DEMO_OPTIONS });
  if (values.help) {
    io.stdout.write(`${DEMO_USAGE}\n`);
    return 0;
  }
  let config = commandConfig(io.env, values.config, io.stderr);
  const user = values.user ?? config.consoleUser ?? (io.env.USER && /^[A-Za-z0-9._-]{1,64}$/.test(io.env.USER) ? io.env.USER : 'operator');
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(user)) throw new PodDoctorError('BAD_INPUT', `--user "${user}": letters, digits, ".", "_" and "-" only`);
  const redisAt = await demoRedis(config, io);
  if ('exit' in redisAt) return redisAt.exit;
  config = redisAt.config;
  const { privateRedis } = redisAt;

  const input = deps.input ?? process.stdin;
  const interactive = Boolean(input.isTTY) && !values.script;
  const color = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;
  const logger = createLogger({ level: io.env.LOG_LEVEL ?? 'warn' }).child({ role: 'demo' });
  const scenarios: Scenario[] = (await loadScenarios(values.dir ?? SCENARIO_ROOT)).filter((s) => values.all || s.meta.seed !== undefined);
  const now = Date.now();
  const cluster = await startScenarioCluster(scenarios, { shiftMs: (s) => now - Date.parse(s.meta.now) });

  // A private key prefix: the demo never touches anything else in this Redis, and cleans up.
  const prefix = `${config.redisPrefix}-demo-${process.pid}-${randomBytes(3).toString('hex')}`;
  const connections = redisConnections(config, logger);
  const connect = connections.connect;
  const redis = connect('producer');
  const workerRedis = connect('worker');
  const { demoConfig, settings, queues, kube, agent } = demoWiring(config, cluster, prefix, redis, logger);

  const results = deliveryWaiter();
  // The worker role as `pod-doctor worker` runs it (rule overrides, the API rate limit, workload
  // alert expansion), its results written to the results stream like any worker's.
  const workers = await startWorkerRole({
    config: demoConfig,
    cluster: CLUSTER,
    connection: workerRedis,
    settings,
    queues,
    kube,
    agent,
    sink: new RedisStreamSink(workerRedis, settings.prefix, demoConfig.resultsMaxLen),
    concurrency: 4,
    logger,
  });
  const { playbooks } = workers;

  const adapter = new ConsoleAdapter({ out: io.stdout, color });
  // No Alertmanager here: the thread's Silence buttons reach a simulated one.
  const silences = new SimSilences((s) =>
    adapter.say(
      `  (simulated Alertmanager) silence ${s.id} ${s.expired ? 'expired' : `until ${s.input.endsAt.toISOString().slice(11, 16)} UTC`}: ` +
        s.input.matchers.map((m) => `${m.name}${m.isRegex ? '=~' : '='}"${m.value}"`).join(', '),
    ),
  );
  const chat = composeChat(demoConfig, {
    silences,
    // Alert results go to their Alertmanager group's thread, as in the bot.
    alertGroups: {},
    // A terminal has no chat.update limit: parents are redrawn at once.
    rootUpdateIntervalMs: 0,
    adapter,
    redis,
    queues,
    cluster: CLUSTER,
    logger,
    // The local user decides, through the same approval state machine (expiry, once-only).
    approvers: new ApproverPolicy({ approvers: [], ids: consoleIds, allowAll: true }),
    playbooks,
  });
  const targets = scenarios.map((s) => s.meta.target);
  const alerts = startDemoAlerts({
    queues,
    chat,
    cluster: CLUSTER,
    channel: CHANNEL,
    // The finalizer incident is the tour's fix: the alert group takes other pods.
    targets: scenarios.filter((s) => s.meta.target !== TOUR_FIX_TARGET).map((s) => parseTarget(s.meta.target)),
    logger,
    waitDelivered: results.wait,
  });
  // The bot's readers of the results, run-event and alert-group streams, as group `demo`.
  const streams = readChatStreams([chat], {
    connect,
    prefix,
    logger,
    group: 'demo',
    consumer: 'demo',
    blockMs: 300,
    onDelivered: (r) => results.delivered(r.jobId),
    onAlertEvent: (e) => alerts.observe(e),
  });
  const consoleChat: ConsoleChatOptions = { chat, adapter, user, channel: CHANNEL, list: () => targets, alerts };
  let code = 0;
  try {
    io.stdout.write(
      `pod-doctor demo: simulated cluster "${CLUSTER}" (${cluster.url}) with ${scenarios.length} incidents, ` +
        `${Object.keys(cluster.agentUrls).length} node agents, ${playbooks.length} playbooks; you are @${user}.\n${whereItKeeps(config.redisUrl, prefix)}`,
    );
    if (interactive) {
      io.stdout.write(`${CONSOLE_HELP}\n\n${whatToTry(targets, alerts)}`);
      await runConsoleChat({ ...consoleChat, input, output: io.stdout });
    } else {
      code = await tour(consoleChat, scenarios, results.wait, io, alerts);
    }
  } finally {
    await alerts.stop();
    await chat.parents.settle();
    await workers.drain();
    await workers.close();
    await streams.stop();
    await queues.close();
    await cluster.close();
    await deleteKeys(redis, prefix).catch(() => undefined);
    await Promise.all(connections.all.map((c) => c.quit().catch(() => c.disconnect())));
    await privateRedis?.stop();
  }
  return code;
}

/** Its Redis, key prefix and cluster, and the command that reads its audit trail while it runs. */
function whereItKeeps(redisUrl: string, prefix: string): string {
  const url = maskRedisUrl(redisUrl);
  return (
    `Redis ${url}, key prefix ${prefix} (removed on exit), cluster ${CLUSTER}. While the demo runs, its audit trail:\n` +
    `  REDIS_URL=${url} POD_DOCTOR_REDIS_PREFIX=${prefix} pod-doctor audit export --since 1h --cluster ${CLUSTER}\n`
  );
}

function whatToTry(targets: readonly string[], alerts: DemoAlerts): string {
  return (
    `Try one of these (type \`list\` to see them again):\n${targets.map((t) => `  /pod-doctor ${t}`).join('\n')}\n` +
    `Or an Alertmanager group: \`alert fire\` (${DEMO_ALERTNAME} on ${alerts.pods.join(', ')}), then \`silence <n> 1h\` or ` +
    `\`mute <n>\` on its thread, and \`alert resolve\`.\n`
  );
}

/** redis-server on a free loopback port, keeping nothing on disk; undefined if not installed. */
interface PrivateRedis {
  url: string;
  stop: () => Promise<void>;
}

async function startPrivateRedis(): Promise<PrivateRedis | undefined> {
  const port = await new Promise<number>((resolve, reject) => {
    const srv = createNetServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const started = await new Promise<boolean>((resolve) => {
    proc.once('error', () => resolve(false));
    proc.once('exit', () => resolve(false));
    setTimeout(() => resolve(true), 300);
  });
  if (!started) return undefined;
  // Even if the demo dies (closed pipe, uncaught error), its private Redis goes with it.
  const killOnExit = () => proc.kill('SIGTERM');
  process.once('exit', killOnExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      process.off('exit', killOnExit);
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** The scripted tour: every seed incident diagnosed in turn, one fix approved and run, then an Alertmanager group from firing to resolved. */
async function tour(
  consoleChat: ConsoleChatOptions,
  scenarios: Scenario[],
  waitDelivered: (jobId: string) => Promise<void>,
  io: CliIo,
  alerts: DemoAlerts,
): Promise<number> {
  const { chat: ctx, adapter, user } = consoleChat;
  io.stdout.write('No terminal on stdin: a scripted tour of the seed incidents (run `npm run demo` in a terminal to chat).\n');
  for (const s of scenarios) {
    io.stdout.write(`\n${'='.repeat(78)}\n${s.meta.seed ? `seed ${s.meta.seed}: ` : ''}${s.meta.title}\n${user}> /pod-doctor ${s.meta.target}\n`);
    const { jobId } = await startDiagnosis(ctx, { channel: consoleChat.channel ?? CHANNEL, user, target: parseTarget(s.meta.target) });
    await waitDelivered(jobId);
  }
  // Approve the first proposal of the finalizer incident: the fix runs against the simulated
  // cluster and the thread reports the verifying diagnosis.
  for (let n = 1; n < 1000; n++) {
    const approve = adapter.buttons(n).find((b) => b.action === 'approve');
    if (!approve) continue;
    const plan = await ctx.options.remediation?.getPlan(approve.value);
    if (plan?.playbook.id !== 'remove-finalizers') continue;
    io.stdout.write(
      `\n${'='.repeat(78)}\n` +
        `Approving the proposed fix for ${plan.target.kind === 'pod' ? `${plan.target.namespace}/${plan.target.name}` : plan.target.name}\n` +
        `${user}> approve ${n}\n`,
    );
    await handleConsoleLine(`approve ${n}`, consoleChat);
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && (await ctx.approvals.get(approve.value))?.status !== 'done') await sleep(100);
    break;
  }
  await alertTour(consoleChat, alerts, io);
  await ctx.parents.settle();
  io.stdout.write('\nTour finished.\n');
  return 0;
}

/** The number of the newest message offering `action` (an alert thread's note: mute, silence-1h…). */
function lastWithButton(adapter: ConsoleAdapter, action: string): number | undefined {
  let found: number | undefined;
  for (let n = 1; n < 1000; n++) if (adapter.buttons(n).some((b) => b.action === action)) found = n;
  return found;
}

/** An Alertmanager group in chat: it fires (one thread, its pods diagnosed), is silenced and muted from the thread, and resolves. */
async function alertTour(consoleChat: ConsoleChatOptions, alerts: DemoAlerts, io: CliIo): Promise<void> {
  if (alerts.pods.length === 0) return;
  const { adapter, user } = consoleChat;
  const rule = '='.repeat(78);
  io.stdout.write(`\n${rule}\nAlertmanager: ${DEMO_ALERTNAME} fires for ${alerts.pods.join(', ')} (one group: one thread)\n${user}> alert fire\n`);
  await handleConsoleLine('alert fire', consoleChat);
  const note = lastWithButton(adapter, 'mute');
  if (note !== undefined) {
    for (const line of [`silence ${note} 1h`, `mute ${note}`]) {
      io.stdout.write(`${user}> ${line}\n`);
      await handleConsoleLine(line, consoleChat);
    }
  }
  io.stdout.write(`\n${rule}\nAlertmanager: the pods are ready again, the group resolves\n${user}> alert resolve\n`);
  await handleConsoleLine('alert resolve', consoleChat);
}
