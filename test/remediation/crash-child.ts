// Child process of crash.test.ts: runs one stored plan with the Redis store and prints every
// run event as a JSON line, so the parent can SIGKILL it at a chosen point.
import * as k8s from '@kubernetes/client-node';
import { KubeSource } from '../../src/collect/kube-source.js';
import { redisFromUrl } from '../../src/redis/client.js';
import { createRunner } from '../../src/remediation/runner.js';
import { RedisRunStore } from '../../src/remediation/store.js';
import { silent } from '../helpers/logger.js';

const env = process.env as Record<string, string>;
const kc = new k8s.KubeConfig();
kc.loadFromFile(env.CHILD_KUBECONFIG ?? '');
const redis = redisFromUrl(env.CHILD_REDIS_URL ?? 'redis://127.0.0.1:6379', {}, { role: 'worker' });
const at = new Date(env.CHILD_NOW ?? '');
const runner = createRunner({
  cluster: 'test',
  kube: new KubeSource(kc),
  store: new RedisRunStore(redis, 'test', env.CHILD_PREFIX ?? '', 3600),
  now: () => at,
  lockMs: Number(env.CHILD_LOCK_MS ?? 400),
  logger: silent,
  onEvent: (e) => {
    process.stdout.write(`${JSON.stringify(e)}\n`);
  },
});
const result = await runner.runPlan(env.CHILD_PLAN_ID ?? '');
process.stdout.write(`${JSON.stringify({ type: 'result', result })}\n`);
await redis.quit();
