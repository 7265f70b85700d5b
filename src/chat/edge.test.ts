// The chat edge as every surface enters it: one command, one click, one deny reason, each counted
// once under its surface, answered the same whichever surface it came from.
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecordingAdapter, testChat } from '../../test/helpers/chat.js';
import { closeJobsEnv, type JobsEnv, openJobsEnv } from '../../test/helpers/jobs.js';
import { silent } from '../../test/helpers/logger.js';
import { answerClick, answerCommand, answerDenyReason, type ChatEdge, type Surface } from './edge.js';
import { type ChatMetrics, createChatMetrics } from './metrics.js';

describe('the chat edge', () => {
  let env: JobsEnv;
  let metrics: ChatMetrics;
  let registry: Registry;
  let edge: ChatEdge;
  let adapter: RecordingAdapter;

  beforeEach(() => {
    env = openJobsEnv('edge');
    registry = new Registry();
    metrics = createChatMetrics(registry);
    adapter = new RecordingAdapter();
    edge = { chat: testChat({ adapter, redis: env.redis, queues: env.queues }, { metrics }), logger: silent, metrics };
  });
  afterEach(() => closeJobsEnv(env, undefined));

  const entries = async () =>
    Object.fromEntries(
      (await registry.getSingleMetric('pod_doctor_chat_inbound_total')!.get()).values.map((v) => [`${v.labels.surface}/${v.labels.kind}`, v.value]),
    );
  const respond = async () => undefined;

  it.each<Surface>(['slack', 'mattermost', 'console'])('answers a %s command the same, and counts it once under its surface', async (surface) => {
    const help = await answerCommand(edge, { surface, text: 'help', channel: 'C1', user: 'U1', respond });
    expect(help.ack.text).toMatch(/pod-doctor/);
    expect(help.follow).toBeUndefined();
    const bad = await answerCommand(edge, { surface, text: 'a/b c/d', channel: 'C1', user: 'U1', respond });
    expect(bad.ack.text).toMatch(/more than one target/);
    expect(await entries()).toEqual({ [`${surface}/command`]: 2 });
  });

  it('queues a diagnosis before it acknowledges one, and the thread follows', async () => {
    const answer = await answerCommand(edge, { surface: 'mattermost', text: 'shop/web-1', channel: 'C1', user: 'U1', respond });
    expect(answer.ack.text).toMatch(/Diagnosing shop\/web-1/);
    expect(answer.follow).toBeTypeOf('function');
    expect(await env.queues.diagnose('c1').getJobCounts('waiting', 'prioritized')).toSatisfy(
      (c: Record<string, number>) => (c.waiting ?? 0) + (c.prioritized ?? 0) === 1,
    );
  });

  it('sends a group button to the alert group flow and a decision to the decisions flow', async () => {
    const group = await answerClick(edge, { surface: 'slack', action: 'mute', value: 'no-such-thread', user: 'U1', channel: 'C1' });
    expect(group).toEqual({ kind: 'group', outcome: { kind: 'refused', reason: 'unknown-thread' } });
    const decision = await answerClick(edge, { surface: 'mattermost', action: 'approve', value: 'no-such-plan', user: 'U1', channel: 'C1' });
    expect(decision).toEqual({ kind: 'done' });
    await answerDenyReason(edge, 'slack', 'no-such-plan', 'U1', 'not now');
    expect(await entries()).toEqual({ 'slack/click': 1, 'mattermost/click': 1, 'slack/deny-reason': 1 });
  });
});
