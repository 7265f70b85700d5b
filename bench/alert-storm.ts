// An Alertmanager storm into Slack under Slack's own limits: 120 pods of one group fire
// KubePodNotReady (several root causes), through the bot's webhook, diagnosed by its worker,
// posted to a fake Slack that enforces the documented per-method limits (chat.postMessage about
// 1/s per channel, chat.update about 50/min). Prints one JSON line last: Slack calls per method,
// 429s (goal 0), updates of the group's parent, messages in its thread, and how long until every
// pod was counted on the parent.
//   npm run bench:alerts
// With BENCH_GROUPS=N (issue 34): N Alertmanager groups (one pod each, as Alertmanager sends them
// after group_wait) routed to the same channel, all at once. Prints per group the time from its
// notification to its first finding in its thread, `first_finding_p95_ms`, `floor_ms` (what the
// channel's limit implies for the findings alone: group k's finding is at best the 2k-th post, a
// parent and a finding per group, after the burst), `over_floor_p95_ms`, `slack_429` and the
// order of the channel's posts (R parent, F first finding, P prompt, N note).
//   BENCH_GROUPS=10 npm run bench:alerts
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

const GROUPS = Number(process.env.BENCH_GROUPS ?? 0);
const PODS = GROUPS > 0 ? GROUPS : Number(process.env.BENCH_PODS ?? 120);
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
const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** N groups, one pod each, into one channel at once: how soon each group's first finding comes. */
async function groupsMode(): Promise<void> {
  const groups = cluster.broken.slice(0, GROUPS).map((b, i) => ({ i, alertname: `PodBroken${i}`, target: b.target }));
  say(`${groups.length} alert groups in one channel, one pod each`);
  const sentAt = new Map<number, number>();
  await Promise.all(
    groups.map(async (g) => {
      const alert = podAlert(g.target.namespace, g.target.name, { alertname: g.alertname });
      const body = JSON.stringify(payload([alert], { groupKey: `{}:{alertname="${g.alertname}"}`, groupLabels: { alertname: g.alertname } }));
      sentAt.set(g.i, Date.now());
      const res = await post(`${bot.url}/alertmanager`, body, { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` });
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
    }),
  );
  const firstFinding = (g: (typeof groups)[number]) =>
    slack.messages.find(
      (m) =>
        m.channel === CHANNEL &&
        m.thread_ts &&
        messageText(m).includes(`First diagnosis of this root cause in the group: ${g.target.namespace}/${g.target.name}`),
    );
  await slack.waitFor(() => groups.every((g) => firstFinding(g)), 120_000);
  const findings = new Set(groups.map((g) => firstFinding(g)!.ts));
  const findingTs = (ts: string) => findings.has(ts);
  // The alert lists (and prompts) that follow each group's findings, for the post order.
  await slack
    .waitFor(
      () => slack.roots(CHANNEL).every((r) => slack.thread(CHANNEL, r.ts).length >= 2 && slack.thread(CHANNEL, r.ts).some((m) => !findingTs(m.ts))),
      60_000,
    )
    .catch(() => say('not every group got its alert list within 60 s'));
  const perGroup = groups.map((g) => ({ group: g.alertname, first_finding_ms: firstFinding(g)!.postedAt - sentAt.get(g.i)! }));
  const actual = perGroup.map((g) => g.first_finding_ms);
  const rate = Number(process.env.POD_DOCTOR_CHAT_POSTS_PER_SECOND ?? 1);
  const burst = Number(process.env.POD_DOCTOR_CHAT_BURST ?? 3);
  const floors = groups.map((_, k) => (Math.max(0, 2 * (k + 1) - burst) / rate) * 1000);
  const sortedActual = [...actual].sort((a, b) => a - b);
  const over = sortedActual.map((a, k) => a - floors[k]!);

  const order = slack.messages
    .filter((m) => m.channel === CHANNEL)
    .map((m) => (!m.thread_ts ? 'R' : findingTs(m.ts) ? 'F' : m.blocks.some((b) => b.type === 'actions') && /approv/i.test(messageText(m)) ? 'P' : 'N'))
    .join('');
  console.log(
    JSON.stringify({
      groups: GROUPS,
      first_finding_ms: perGroup,
      first_finding_p50_ms: pct(actual, 50),
      first_finding_p95_ms: pct(actual, 95),
      floor_ms: pct(floors, 95),
      over_floor_p95_ms: pct(over, 95),
      slack_429: slack.throttled.length,
      ...(slack.throttled.length > 0 ? { slack_429_calls: slack.throttled.map((t) => `${t.method} ${t.channel ?? ''}`) } : {}),
      post_order: order,
      slack_calls: slack.callsByMethod(),
      slack_rejected: slack.rejected.length,
    }),
  );
}

try {
  if (GROUPS > 0) await groupsMode();
  else await stormMode();
} finally {
  await bot.stop();
  await slack.close();
  await sim.close();
  await cleanup(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}

async function stormMode(): Promise<void> {
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
}
