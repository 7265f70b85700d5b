// What every role says about itself on /metrics: pod_doctor_build_info (the build it runs) and
// pod_doctor_ready (what /readyz answers, at scrape time). Then `pod-doctor worker` itself, on
// real Redis and the simulated cluster: its /metrics has both, its queues by cluster, and a
// remediation series for each playbook it loaded.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { workerCommand } from '../../src/cli/worker.js';
import { registerBuildInfo } from '../../src/metrics/build-info.js';
import { createMetrics, metricsHandler } from '../../src/metrics/metrics.js';
import { type OpsServer, registerReady, serveOps } from '../../src/metrics/server.js';
import { loadScenario } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { buildInfo } from '../../src/version.js';
import { cleanup, connect, REDIS_URL, testPrefix } from '../helpers/jobs.js';
import { metricValue } from './scrape.js';

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;

describe('pod_doctor_build_info', () => {
  it('is 1 with the version from package.json and the Node.js runtime in a role’s registry', async () => {
    const text = await createMetrics({ defaultMetrics: true }).registry.metrics();
    expect(metricValue(text, 'pod_doctor_build_info', { version: PACKAGE_VERSION, commit: buildInfo().commit, node: process.version })).toBe(1);
    expect(text.match(/^pod_doctor_build_info\{/gm)).toHaveLength(1);
  });

  it('is left out of the bot’s worker thread (no process metrics there), and registered on its own by the agent', async () => {
    expect(await createMetrics().registry.metrics()).not.toContain('pod_doctor_build_info');
    const registry = new Registry();
    registerBuildInfo(registry, buildInfo({ POD_DOCTOR_GIT_COMMIT: '0123abc' }));
    expect(metricValue(await registry.metrics(), 'pod_doctor_build_info', { version: PACKAGE_VERSION, commit: '0123abc', node: process.version })).toBe(1);
  });
});

describe('pod_doctor_ready', () => {
  let ops: OpsServer | undefined;
  afterEach(async () => {
    await ops?.close();
    ops = undefined;
  });

  it('says on /metrics what /readyz answers: 1 while every check passes, 0 when one fails or does not answer', async () => {
    const metrics = createMetrics();
    let kubernetes: 'up' | 'down' | 'hung' = 'up';
    let answer: () => void = () => undefined;
    const redis = connect();
    try {
      ops = await serveOps({
        port: 0,
        host: '127.0.0.1',
        registry: metrics.registry,
        readiness: {
          redis: () => redis.ping(),
          kubernetes: () =>
            kubernetes === 'up'
              ? Promise.resolve()
              : kubernetes === 'down'
                ? Promise.reject(new Error('connect ECONNREFUSED'))
                : new Promise<void>((resolve) => (answer = resolve)),
        },
      });
      const scrape = async () => {
        const res = await fetch(`${ops!.url}/metrics`);
        expect(res.status).toBe(200);
        return metricValue(await res.text(), 'pod_doctor_ready');
      };
      expect((await fetch(`${ops.url}/readyz`)).status).toBe(200);
      expect(await scrape()).toBe(1);

      kubernetes = 'down';
      expect((await fetch(`${ops.url}/readyz`)).status).toBe(503);
      expect(await scrape()).toBe(0);

      // A check that hangs: the scrape still answers, not ready.
      kubernetes = 'hung';
      expect(await scrape()).toBe(0);

      // Once it answers (the read still running is shared by scrapes meanwhile), ready again.
      kubernetes = 'up';
      answer();
      expect(await scrape()).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('stays the bot’s own answer when its worker thread’s registry is summed in, as does build_info', async () => {
    const bot = createMetrics({ defaultMetrics: true });
    registerReady(bot.registry, async () => true);
    // The thread counted a run; the bot's registry has the same counter, with no series.
    const thread = createMetrics();
    thread.remediationRuns.inc({ playbook: 'remove-finalizers', outcome: 'succeeded' });
    const server = http.createServer(metricsHandler(bot.registry, () => thread.registry.getMetricsAsJSON()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const text = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).text();
      expect(metricValue(text, 'pod_doctor_ready')).toBe(1);
      expect(metricValue(text, 'pod_doctor_build_info', { version: PACKAGE_VERSION, commit: buildInfo().commit, node: process.version })).toBe(1);
      expect(metricValue(text, 'pod_doctor_remediation_runs_total', { playbook: 'remove-finalizers', outcome: 'succeeded' })).toBe(1);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});

describe('pod-doctor worker /metrics', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-metrics-worker-'));
  const redis = connect();
  const prefix = testPrefix('metrics-worker');
  let sim: Sim;

  beforeAll(async () => {
    sim = await startSim({ objects: (await loadScenario(join(import.meta.dirname, '../fixtures/incidents/seed-003-finalizers'))).objects });
    writeFileSync(join(dir, 'kubeconfig'), sim.kubeconfig());
  });
  afterAll(async () => {
    await sim?.close();
    await cleanup(redis, prefix);
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has its build, its readiness, its cluster’s queues and a remediation series per playbook', { timeout: 30_000 }, async () => {
    const stdout = new PassThrough();
    let out = '';
    const port = new Promise<string>((resolve) =>
      stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /metrics on :(\d+)/.exec(out);
        if (m) resolve(m[1]!);
      }),
    );
    let stop!: (why: string) => void;
    const env = {
      REDIS_URL,
      KUBECONFIG: join(dir, 'kubeconfig'),
      POD_DOCTOR_CLUSTER: 'metrics-c1',
      POD_DOCTOR_REDIS_PREFIX: prefix,
      POD_DOCTOR_METRICS_PORT: '0',
      LOG_LEVEL: 'silent',
    };
    const exited = workerCommand([], { stdout, stderr: new PassThrough(), env }, { stopSignal: new Promise<string>((r) => (stop = r)) });
    try {
      const url = `http://127.0.0.1:${await Promise.race([port, exited.then((code) => Promise.reject(new Error(`worker exited ${code}`)))])}`;
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(metricValue(text, 'pod_doctor_ready')).toBe(1);
      expect(metricValue(text, 'pod_doctor_build_info', { version: PACKAGE_VERSION, commit: buildInfo().commit, node: process.version })).toBe(1);
      expect(metricValue(text, 'pod_doctor_queue_jobs', { k8s_cluster: 'metrics-c1', queue: 'diagnose.metrics-c1', state: 'waiting' })).toBe(0);
      expect(metricValue(text, 'pod_doctor_queue_oldest_waiting_seconds', { k8s_cluster: 'metrics-c1', queue: 'remediate.metrics-c1' })).toBe(0);
      expect(metricValue(text, 'pod_doctor_remediation_runs_total', { playbook: 'remove-finalizers', outcome: 'failed' })).toBe(0);
    } finally {
      stop('test');
      await exited.catch(() => undefined);
    }
  });
});
