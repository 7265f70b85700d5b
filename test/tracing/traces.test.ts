// Traces: one `/pod-doctor ns/pod` through the house (signed slash command into the bot, the job
// through real Redis to a worker in this process, the findings to the fake Slack) lands at a
// stand-in OTLP collector as one trace: chat.command → job.enqueue → job.diagnose → collect,
// rules; chat.post under job.diagnose. An Alertmanager notification roots its own trace, and its
// job carries the trace in its data. With no endpoint no SDK is loaded at all.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExpansionWorker } from '../../src/alerts/expand.js';
import { createAlertmanagerHandler, startAlertmanagerServer } from '../../src/alerts/http.js';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { PodDoctorError } from '../../src/errors.js';
import { DiagnoseJobSchema } from '../../src/jobs/schemas.js';
import { beginSpan, currentTrace, runIn, settle } from '../../src/tracing/spans.js';
import { flushTracing, startTracing, stopTracing } from '../../src/tracing/start.js';
import { buildInfo } from '../../src/version.js';
import { amAlert, payload, podAlert, postJson, TOKEN } from '../helpers/alerts.js';
import { startSplitDeployment, testBotEnv } from '../helpers/bot.js';
import { crashedPod } from '../helpers/factories.js';
import { type FakeSlack, messageText, postSigned, slashCommandBody } from '../helpers/fake-slack.js';
import { cleanup, closeJobsEnv, connect, memorySource, openJobsEnv, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { harness, lostNodeCluster, propose } from '../helpers/remediation.js';
import { type SlackSim, scenarioNow, startSlackSim } from '../helpers/slack-sim.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './otlp-receiver.js';

const SECRET = 'test-signing-secret-0123456789';
const CHANNEL = 'C0TRACE';
const POD = 'reports/report-6f7d8-xk2lq';
const SCENARIO = new URL('../fixtures/incidents/seed-003-finalizers', import.meta.url).pathname;

/** The one span of that name (several would be a wrong shape, not a detail). */
function only(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
}

describe('a slash command, traced end to end', () => {
  let receiver: OtlpReceiver;
  let rig: SlackSim | undefined;
  let slack: FakeSlack;
  const prefix = testPrefix('traces');
  const redis = connect();

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    rig = await startSlackSim(await scenarioNow(SCENARIO));
    slack = rig.slack;
  });

  afterAll(async () => {
    await receiver?.close();
    await rig?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
  });

  it('exports chat.command → job.enqueue → job.diagnose → collect, rules, chat.post as one trace', { timeout: 60_000 }, async () => {
    const env = testBotEnv(
      { slackApiUrl: slack.apiUrl, secret: SECRET, kubeconfig: rig!.kubeconfig, cluster: 'traces' },
      { POD_DOCTOR_REDIS_PREFIX: prefix, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    );
    const split = await startSplitDeployment(env);
    try {
      const res = await postSigned(split.bot.url, slashCommandBody({ text: POD, channel: CHANNEL }), SECRET);
      expect(res.status).toBe(200);
      await slack.waitFor(() => slack.roots(CHANNEL).find((m) => messageText(m).includes('finalizer')), 30_000);
    } finally {
      // Both roles stop gracefully: their last spans are exported on the way out.
      await split.stop();
    }
    const spans = await receiver.waitFor((all) => all.some((s) => s.name === 'chat.post'));

    const command = only(spans, 'chat.command');
    const trace = spans.filter((s) => s.traceId === command.traceId);
    const enqueue = only(trace, 'job.enqueue');
    const job = only(trace, 'job.diagnose');
    const collect = only(trace, 'collect');
    const rules = only(trace, 'rules');
    const post = only(trace, 'chat.post');

    expect(command.parentSpanId).toBeUndefined();
    expect(enqueue.parentSpanId).toBe(command.spanId);
    expect(job.parentSpanId).toBe(enqueue.spanId);
    expect(collect.parentSpanId).toBe(job.spanId);
    expect(rules.parentSpanId).toBe(job.spanId);
    expect(post.parentSpanId).toBe(job.spanId);

    // What each step was about: identifiers and counts.
    const [namespace, pod] = POD.split('/');
    for (const s of [command, enqueue, job, collect, rules, post]) {
      expect(s.attributes, s.name).toMatchObject({ 'k8s.cluster.name': 'traces', 'k8s.namespace.name': namespace, 'k8s.pod.name': pod });
    }
    const jobId = enqueue.attributes['pod_doctor.job.id'];
    expect(jobId).toEqual(expect.any(String));
    expect(job.attributes['pod_doctor.job.id']).toBe(jobId);
    expect(post.attributes['pod_doctor.job.id']).toBe(jobId);
    expect(job.attributes['pod_doctor.job.status']).toBe('diagnosed');
    expect(rules.attributes['pod_doctor.rules']).toBeGreaterThan(0);
    expect(rules.attributes['pod_doctor.finding.rules']).toEqual(expect.arrayContaining([expect.stringMatching(/finalizer/)]));
    expect(post.attributes['pod_doctor.finding.rules']).toEqual(rules.attributes['pod_doctor.finding.rules']);
    expect(command.resource).toMatchObject({ 'service.name': 'pod-doctor-bot', 'service.version': buildInfo().version });
    expect(trace.every((s) => s.status !== 2)).toBe(true);

    // Sent as OTLP/JSON, and never with a token or what was posted.
    expect(new Set(receiver.requests.map((r) => `${r.path} ${r.contentType}`))).toEqual(new Set(['/v1/traces application/json']));
    const sent = receiver.requests.map((r) => r.body).join('\n');
    expect(sent).not.toContain('xoxb-');
    expect(sent).not.toContain(SECRET);
    expect(sent).not.toMatch(/finalizers? (keep|block|hold)/i);
  });
});

describe('an Alertmanager notification', () => {
  it('roots its own trace, and its job carries the job.enqueue span in its data', { timeout: 30_000 }, async () => {
    const receiver = await startOtlpReceiver();
    const jobs = openJobsEnv('traces-alert');
    const handler = createAlertmanagerHandler({ queues: jobs.queues, logger: silent, cluster: 'traces', token: TOKEN, defaultChannel: 'C0ALERTS' });
    const server = await startAlertmanagerServer({ handler });
    expect(await startTracing({ serviceName: 'pod-doctor-bot', settings: { otlpEndpoint: receiver.url }, logger: silent })).toBe(true);
    try {
      const res = await postJson(`${server.url}${handler.path}`, payload([podAlert('shop', 'web-0')]));
      expect(res.status).toBe(200);
      await flushTracing();
      const spans = await receiver.waitFor((all) => all.some((s) => s.name === 'alert.receive') && all.some((s) => s.name === 'job.enqueue'));
      const receive = only(spans, 'alert.receive');
      const enqueue = only(spans, 'job.enqueue');
      expect(receive.parentSpanId).toBeUndefined();
      expect(enqueue.traceId).toBe(receive.traceId);
      expect(enqueue.parentSpanId).toBe(receive.spanId);
      expect(receive.attributes).toMatchObject({ 'pod_doctor.alerts': 1, 'pod_doctor.jobs': 1 });

      // What the worker will read: the W3C traceparent of job.enqueue, inside the job data.
      const jobId = String(enqueue.attributes['pod_doctor.job.id']);
      const job = await jobs.queues.diagnose('traces').getJob(jobId);
      const data = DiagnoseJobSchema.parse(job?.data);
      expect(data.trace?.traceparent).toBe(`00-${enqueue.traceId}-${enqueue.spanId}-01`);
    } finally {
      await stopTracing();
      await handler.close();
      await server.close();
      await closeJobsEnv(jobs, undefined);
      await receiver.close();
    }
  });
});

describe('a workload alert', () => {
  it("is expanded on the worker inside the notification's trace: alert.receive → alert.expand → job.enqueue per pod", { timeout: 30_000 }, async () => {
    const receiver = await startOtlpReceiver();
    const jobs = openJobsEnv('traces-expand');
    const handler = createAlertmanagerHandler({ queues: jobs.queues, logger: silent, cluster: 'traces', token: TOKEN, defaultChannel: 'C0ALERTS' });
    const server = await startAlertmanagerServer({ handler });
    const crashed = crashedPod({ exitCode: 137 });
    const objects: KubeObject[] = [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { replicas: 1, selector: { matchLabels: { app: 'web' } } },
      },
      {
        ...crashed,
        metadata: {
          ...crashed.metadata,
          name: 'web-abc-oom',
          namespace: 'shop',
          labels: { app: 'web' },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'u', controller: true }],
        },
      },
    ];
    expect(await startTracing({ serviceName: 'pod-doctor-bot', settings: { otlpEndpoint: receiver.url }, logger: silent })).toBe(true);
    const expander = startExpansionWorker({ connection: jobs.redis, cluster: 'traces', source: memorySource(objects), queues: jobs.queues, logger: silent });
    try {
      const alert = amAlert({ alertname: 'KubeDeploymentReplicasMismatch', labels: { namespace: 'shop', deployment: 'web' } });
      expect((await postJson(`${server.url}${handler.path}`, payload([alert]))).status).toBe(200);
      // The expansion runs on the worker a moment later: flush until its span has ended and been sent.
      for (let i = 0; i < 100 && !receiver.spans.some((s) => s.name === 'alert.expand'); i++) {
        await flushTracing();
        await new Promise((r) => setTimeout(r, 50));
      }
      const spans = await receiver.waitFor((all) => all.some((s) => s.name === 'alert.expand'));
      const receive = only(spans, 'alert.receive');
      const expand = only(spans, 'alert.expand');
      const enqueue = only(spans, 'job.enqueue');
      expect(expand.traceId).toBe(receive.traceId);
      expect(expand.parentSpanId).toBe(receive.spanId);
      expect(enqueue.traceId).toBe(receive.traceId);
      expect(enqueue.parentSpanId).toBe(expand.spanId);
      expect(expand.attributes).toMatchObject({ 'pod_doctor.workload': 'deployment/shop/web', 'pod_doctor.jobs': 1 });
      expect(enqueue.attributes).toMatchObject({ 'k8s.pod.name': 'web-abc-oom' });
    } finally {
      await expander.close();
      await stopTracing();
      await handler.close();
      await server.close();
      await closeJobsEnv(jobs, undefined);
      await receiver.close();
    }
  });
});

describe('a step that fails', () => {
  it('is an error span that says what failed by class or code, never with the message', async () => {
    const receiver = await startOtlpReceiver();
    expect(await startTracing({ serviceName: 'pod-doctor-worker', settings: { otlpTracesEndpoint: `${receiver.url}/v1/traces` }, logger: silent })).toBe(true);
    try {
      const job = beginSpan('job.diagnose', { parent: 'root' });
      const missing = new PodDoctorError('TARGET_NOT_FOUND', 'pod "shop/payroll-secret-7" not found');
      const collect = runIn(job.context, () => beginSpan('collect'));
      await expect(settle(collect, Promise.reject(missing))).rejects.toBe(missing);
      const rules = runIn(job.context, () => beginSpan('rules'));
      rules.end(new TypeError('cannot read "token" of undefined'));
      job.end();
      await flushTracing();
      const spans = await receiver.waitFor((all) => all.length === 3);
      expect(only(spans, 'collect')).toMatchObject({
        status: 2,
        attributes: { 'error.type': 'TARGET_NOT_FOUND' },
        parentSpanId: only(spans, 'job.diagnose').spanId,
      });
      expect(only(spans, 'rules')).toMatchObject({ status: 2, attributes: { 'error.type': 'TypeError' } });
      expect(only(spans, 'job.diagnose').status).toBe(0);
      const sent = receiver.requests.map((r) => r.body).join('\n');
      expect(sent).not.toContain('payroll-secret-7');
      expect(sent).not.toContain('cannot read');
    } finally {
      await stopTracing();
      await receiver.close();
    }
  });
});

describe('an approved playbook', () => {
  it('runs in a trace of its own, its verifying diagnosis (collect, rules) under playbook.run', { timeout: 30_000 }, async () => {
    const receiver = await startOtlpReceiver();
    const cluster = await lostNodeCluster();
    try {
      const h = harness(cluster);
      const { plan } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
      expect(await startTracing({ serviceName: 'pod-doctor-worker', settings: { otlpEndpoint: receiver.url }, logger: silent })).toBe(true);
      expect(await h.runner.runPlan(plan.id)).toMatchObject({ status: 'completed', verification: { outcome: 'fixed' } });
      await flushTracing();
      const spans = await receiver.waitFor((all) => all.some((s) => s.name === 'playbook.run'));
      const run = only(spans, 'playbook.run');
      expect(run.parentSpanId).toBeUndefined();
      expect(run.attributes).toMatchObject({ 'pod_doctor.playbook': 'force-delete-pod', 'pod_doctor.plan.id': plan.id, 'pod_doctor.run.status': 'completed' });
      // The verifying diagnosis finds the pod gone (collect ends there, no rules); nothing is a stray root.
      expect(spans.filter((s) => s.name === 'collect').length).toBeGreaterThan(0);
      for (const c of spans.filter((s) => s.name === 'collect' || s.name === 'rules')) expect(c.traceId, c.name).toBe(run.traceId);
      expect(spans.filter((s) => s.parentSpanId === undefined).map((s) => s.name)).toEqual(['playbook.run']);
    } finally {
      await stopTracing();
      await cluster.close();
      await receiver.close();
    }
  });
});

describe('the trace in a diagnose job', () => {
  const job = {
    v: 1,
    cluster: 'prod',
    target: { kind: 'pod', namespace: 'shop', name: 'web-0' },
    reason: 'slash',
    requestedAt: '2026-11-25T10:00:00Z',
  };
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  it('is optional: a job queued by an older release parses as before', () => {
    expect(DiagnoseJobSchema.parse(job)).toEqual(job);
  });

  it('is kept when it is a W3C traceparent, and dropped (the job still runs) when it is not', () => {
    expect(DiagnoseJobSchema.parse({ ...job, trace: { traceparent } }).trace).toEqual({ traceparent });
    for (const bad of [{ traceparent: 'not-one' }, { traceparent: traceparent.toUpperCase() }, 'x', 42]) {
      const parsed = DiagnoseJobSchema.safeParse({ ...job, trace: bad });
      expect(parsed.success, JSON.stringify(bad)).toBe(true);
      expect(parsed.data?.trace).toBeUndefined();
    }
  });
});

describe('tracing off (no endpoint)', () => {
  const run = promisify(execFile);
  const probe = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'module-probe.ts'), ...args], { timeout: 60_000 });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as { on: boolean; packages: string[] };
  };
  const SDK = ['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources', '@opentelemetry/context-async-hooks'];

  it('loads no SDK package in the bot or the worker: only the API', { timeout: 60_000 }, async () => {
    const off = await probe();
    expect(off.on).toBe(false);
    expect(off.packages.filter((p) => p !== '@opentelemetry/api')).toEqual([]);
  });

  it('loads the SDK once an endpoint is set (the probe above can fail)', { timeout: 60_000 }, async () => {
    const on = await probe('http://127.0.0.1:9');
    expect(on.on).toBe(true);
    expect(on.packages).toEqual(expect.arrayContaining(SDK));
  });

  it('sends nothing: spans are no-ops and no trace reaches a job', async () => {
    const receiver = await startOtlpReceiver();
    try {
      expect(await startTracing({ serviceName: 'pod-doctor-bot', settings: {}, logger: silent })).toBe(false);
      const command = beginSpan('chat.command', { parent: 'root' });
      const enqueue = runIn(command.context, () => beginSpan('job.enqueue'));
      expect(runIn(enqueue.context, () => currentTrace())).toBeUndefined();
      enqueue.end();
      command.end();
      await flushTracing();
      await stopTracing();
      expect(receiver.requests).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
