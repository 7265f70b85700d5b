// An Alertmanager storm into Slack under Slack's own limits: 120 pods of one group fire
// KubePodNotReady (several root causes), through the bot's webhook, diagnosed by its worker,
// posted to a fake Slack that enforces the documented per-method limits (chat.postMessage about
// 1/s per channel, chat.update about 50/min). Prints one JSON line last: Slack calls per method,
// 429s (goal 0), updates of the group's parent, messages in its thread, and how long until every
// pod was counted on the parent.
//   npm run bench:alerts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shiftTimes } from '../src/sim/scenarios.js';
import { startSim } from '../src/sim/server.js';
import { payload, podAlert, post, TOKEN } from '../test/helpers/alerts.js';
import { startTestBot } from '../test/helpers/bot.js';
import { NOW } from '../test/helpers/factories.js';
import { messageText, startFakeSlack } from '../test/helpers/fake-slack.js';
import { cleanup, connect, testPrefix } from '../test/helpers/jobs.js';
import { buildStormCluster } from './storm-cluster.js';

const PODS = Number(process.env.BENCH_PODS ?? 120);
const CHANNEL = 'C0STORM';
const say = (msg: string) => process.stderr.write(`bench:alerts: ${msg}\n`);

const slack = await startFakeSlack({ enforceLimits: true });
const cluster = buildStormCluster({ total: PODS + 40, broken: PODS, nodes: 6 });
const sim = await startSim({ objects: shiftTimes(cluster.objects, Math.round((Date.now() - Date.parse(NOW)) / 1000) * 1000) });
const dir = mkdtempSync(join(tmpdir(), 'pd-bench-alerts-'));
writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig());
const prefix = testPrefix('bench-alerts');
const redis = connect();
const bot = await startTestBot({
  SLACK_BOT_TOKEN: 'xoxb-bench',
  SLACK_SIGNING_SECRET: 'bench-signing-secret-0123456789',
  SLACK_API_URL: slack.apiUrl,
  PORT: '0',
  KUBECONFIG: join(dir, 'kubeconfig'),
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  POD_DOCTOR_REDIS_PREFIX: prefix,
  POD_DOCTOR_CLUSTER: 'storm',
  ALERTMANAGER_TOKEN: TOKEN,
  POD_DOCTOR_ALERT_CHANNEL: CHANNEL,
  POD_DOCTOR_API_RATE: '100000',
  POD_DOCTOR_API_BURST: '100000',
  LOG_LEVEL: 'silent',
});
try {
  const alerts = cluster.broken.map((b) => podAlert(b.target.namespace, b.target.name, { alertname: 'KubePodNotReady' }));
  const body = JSON.stringify(payload(alerts, { groupKey: '{}:{alertname="KubePodNotReady"}', groupLabels: { alertname: 'KubePodNotReady' } }));
  say(`${alerts.length} alerts of one group, ${new Set(cluster.broken.map((b) => b.cause)).size} root causes`);
  const started = performance.now();
  const res = await post(`${bot.url}/alertmanager`, body, { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` });
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  const root = await slack.waitFor(() => slack.roots(CHANNEL)[0], 60_000);
  // Every pod is counted on the parent once every diagnosis was grouped under its cause.
  const counted = () => {
    const text = messageText(slack.message(CHANNEL, root.ts)!);
    return [...text.matchAll(/(\d+) pods?:/g)].reduce((n, m) => n + Number(m[1]), 0);
  };
  await slack.waitFor(() => (counted() >= PODS ? true : undefined), 240_000);
  const drainMs = performance.now() - started;
  // Let the last paced parent update go out, then count.
  await new Promise((r) => setTimeout(r, 4000));
  const rootUpdates = slack.calls.filter((c) => c.method === 'chat.update' && c.args.ts === root.ts).length;
  console.log(
    JSON.stringify({
      pods: PODS,
      drain_s: Math.round(drainMs / 100) / 10,
      slack_calls: slack.callsByMethod(),
      slack_429: slack.throttled.length,
      root_updates: rootUpdates,
      thread_messages: slack.thread(CHANNEL, root.ts).length,
      slack_rejected: slack.rejected.length,
    }),
  );
} finally {
  await bot.stop();
  await slack.close();
  await sim.close();
  await cleanup(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
