// A runner process killed with SIGKILL between two steps, then a new runner on the same plan:
// the finished destructive step (a force delete) is not sent again, the rest completes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import type { RedisClient } from '../../src/redis/client.js';
import { playbookSchema } from '../../src/remediation/schema.js';
import { ago, lostNode, pod } from '../helpers/factories.js';
import { type Cluster, cleanup, harness, objectsCluster, REDIS_URL, redis, redisStore, testPrefix } from '../helpers/remediation.js';

const NOW = '2026-11-21T10:00:00Z';
let client: RedisClient;
let cluster: Cluster;
let proxy: Server;
let dir: string;
const prefix = testPrefix('sigkill');
const deletes: string[] = [];

beforeAll(async () => {
  client = redis();
  const p = pod({ metadata: { name: 'web-1', namespace: 'shop', deletionTimestamp: ago(900), deletionGracePeriodSeconds: 30 }, spec: { nodeName: 'node-9' } });
  cluster = await objectsCluster([lostNode('node-9', 1200), p] as KubeObject[], 'shop/web-1', NOW);
  // A pass-through proxy in front of the sim that counts DELETEs of the pod.
  const target = new URL(cluster.sim.url);
  proxy = createServer((req, res) => {
    if (req.method === 'DELETE' && req.url?.startsWith('/api/v1/namespaces/shop/pods/web-1')) deletes.push(req.url);
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  dir = mkdtempSync(join(tmpdir(), 'pd-crash-'));
  writeFileSync(join(dir, 'kubeconfig'), cluster.sim.kubeconfig().replace(cluster.sim.url, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`));
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await cluster.close();
  await cleanup(client, prefix);
  await client.quit();
  rmSync(dir, { recursive: true, force: true });
});

it('SIGKILL between a force delete and the next step: the resumed run does not delete again', async () => {
  const store = redisStore(client, prefix);
  const h = harness(cluster, { store, deps: { lockMs: 400 } });
  const diagnosis = await h.diagnose();
  const finding = diagnosis.findings.find((f) => f.rule === 'terminating.node-lost')!;
  const book = playbookSchema.parse({
    id: 'force-then-wait',
    title: 'Force delete, then a long wait',
    summary: 'Force delete {namespace}/{pod}, then wait.',
    matches: ['terminating.node-lost'],
    risk: 'high',
    approvals: 1,
    params: {
      namespace: { type: 'string', from: 'target', field: 'namespace' },
      pod: { type: 'string', from: 'target', field: 'name' },
      uid: { type: 'string', from: 'live', value: 'pod.uid' },
    },
    preconditions: [{ check: 'pod-uid-is' }, { check: 'pod-still-terminating' }],
    steps: [{ action: 'force-delete' }, { action: 'wait', with: { seconds: 60 } }],
    verify: ['terminating.node-lost'],
  });
  const plan = await h.runner.proposePlan(finding, diagnosis, book);

  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'crash-child.ts')], {
    env: {
      ...process.env,
      CHILD_KUBECONFIG: join(dir, 'kubeconfig'),
      CHILD_REDIS_URL: REDIS_URL,
      CHILD_PREFIX: prefix,
      CHILD_PLAN_ID: plan.id,
      CHILD_NOW: NOW,
      CHILD_LOCK_MS: '400',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen: string[] = [];
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  for await (const line of createInterface({ input: child.stdout })) {
    const e = JSON.parse(line) as { type: string; index?: number };
    seen.push(`${e.type}${e.index !== undefined ? ` ${e.index}` : ''}`);
    // Step 1 (the force delete) is recorded done and step 2 is running: kill the process.
    if (e.type === 'step-started' && e.index === 1) {
      child.kill('SIGKILL');
      break;
    }
  }
  expect(await exited).toBe('SIGKILL');
  expect(seen).toEqual(['run-started', 'step-started 0', 'step-finished 0', 'step-started 1']);
  expect(deletes).toHaveLength(1);
  expect((await store.readRun(plan.id))?.steps.map((s) => s.state)).toEqual(['done', 'running']);

  // A new runner takes the plan over once the dead one's lease lapses.
  let result = await h.runner.runPlan(plan.id);
  for (let i = 0; result.status === 'busy' && i < 40; i++) {
    await new Promise((r) => setTimeout(r, 50));
    result = await h.runner.runPlan(plan.id);
  }
  expect(result.status, JSON.stringify(result)).toBe('completed');
  expect(deletes).toHaveLength(1);
  expect(h.events.find((e) => e.type === 'run-started')).toMatchObject({ resumed: true });
  expect(h.events.filter((e) => e.type === 'step-started').map((e) => (e as { index: number }).index)).toEqual([1]);
  expect(result.verification).toMatchObject({ outcome: 'fixed', targetGone: true });
}, 60_000);
