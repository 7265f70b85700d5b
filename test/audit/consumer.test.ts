// The worker's audit reader on a real Redis, in front of a recording stand-in for the API: each
// entry becomes one Event (UID looked up when the entry has none), an answer that retrying cannot
// change is logged and acknowledged, a server error is retried, and unanswered approvals are
// swept into expiry entries and Events.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_EVENTS_GROUP, type AuditKube, startAuditEvents } from '../../src/audit/consumer.js';
import { watchExpiry } from '../../src/audit/expiry.js';
import { auditKey, recordDecision } from '../../src/audit/stream.js';
import { ApprovalStore } from '../../src/chat/store/approvals.js';
import type { RedisClient } from '../../src/redis/client.js';
import type { StreamConsumer } from '../../src/redis/streams.js';
import { cleanup, connect, eventually, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';

const CLUSTER = 'reader';
const subject = { planId: 'pl_AbCdEfGhIjKlMnOp', playbook: 'recreate-pod', target: { kind: 'pod', namespace: 'shop', name: 'web-0' } } as const;

/** Records the Events asked for; answers each call with the next queued failure, if any. */
function standIn(failures: number[] = []) {
  const created: k8s.CoreV1Event[] = [];
  const kube: AuditKube = {
    core: {
      createNamespacedEvent: async (req: { namespace: string; body: k8s.CoreV1Event }) => {
        const code = failures.shift();
        if (code) throw new k8s.ApiException(code, `HTTP ${code}`, { message: `refused with ${code}` }, {});
        created.push(req.body);
        return req.body;
      },
    } as AuditKube['core'],
    getPod: async (ns, name) => (ns === 'shop' && name === 'web-0' ? { metadata: { uid: 'live-uid' } } : null),
    getNode: async () => null,
    getNamespace: async () => null,
  };
  return { kube, created };
}

describe('audit reader (worker role)', () => {
  let redis: RedisClient;
  let reader: RedisClient;
  let prefix: string;
  let consumer: StreamConsumer | undefined;

  beforeEach(() => {
    redis = connect();
    reader = connect();
    prefix = testPrefix('audit-reader');
  });
  afterEach(async () => {
    await consumer?.stop();
    consumer = undefined;
    await cleanup(redis, prefix);
    redis.disconnect();
    reader.disconnect();
  });

  const start = (kube: AuditKube, extra: { sweepEveryMs?: number; claimIdleMs?: number } = {}) =>
    (consumer = startAuditEvents({ redis: reader, prefix, cluster: CLUSTER, kube, logger: silent, blockMs: 100, sweepEveryMs: 0, ...extra }));

  const pending = async () => {
    const summary = (await redis.xpending(auditKey(prefix, CLUSTER), AUDIT_EVENTS_GROUP)) as [number, ...unknown[]];
    return Number(summary[0]);
  };

  it('writes one Event per entry, with the live UID when the entry has none, and acknowledges it', async () => {
    const { kube, created } = standIn();
    start(kube);
    await recordDecision(redis, prefix, { cluster: CLUSTER, kind: 'approval', ...subject, actors: ['U0ALICE'], outcome: 'approved' });
    await recordDecision(redis, prefix, { cluster: CLUSTER, kind: 'denial', ...subject, uid: 'plan-uid', actors: ['U0BOB'], outcome: 'denied' });
    await eventually(async () => created.length >= 2);
    expect(created.map((e) => `${e.action} ${e.type} ${e.involvedObject.uid}`)).toEqual(['Approve Normal live-uid', 'Deny Warning plan-uid']);
    expect(new Set(created.map((e) => e.metadata?.name)).size).toBe(2);
    await eventually(async () => (await pending()) === 0);
  });

  it('acknowledges an entry the API server refuses for good (403), and retries one it failed to answer (500)', async () => {
    const { kube, created } = standIn([403, 500]);
    start(kube, { claimIdleMs: 200 });
    await recordDecision(redis, prefix, { cluster: CLUSTER, kind: 'denial', ...subject, actors: ['U0BOB'], outcome: 'denied', reason: 'forbidden one' });
    await recordDecision(redis, prefix, { cluster: CLUSTER, kind: 'denial', ...subject, actors: ['U0CAROL'], outcome: 'denied', reason: 'retried one' });
    const events = await eventually(async () => (created.length >= 1 ? created : undefined), 10_000);
    expect(events.map((e) => e.message)).toEqual([expect.stringContaining('retried one')]);
    await eventually(async () => (await pending()) === 0, 10_000);
    expect(created).toHaveLength(1);
  });

  it('sweeps approvals that ran out unanswered into expiry entries, and their Events', async () => {
    const { kube, created } = standIn();
    const store = new ApprovalStore(redis, prefix);
    const expiresAt = Date.now() - 1000;
    await store.create({ planId: subject.planId, cluster: CLUSTER, required: 1, requireDifferent: false, expiresAt });
    await watchExpiry(redis, prefix, { cluster: CLUSTER, ...subject, expiresAt });
    start(kube, { sweepEveryMs: 50 });
    const events = await eventually(async () => (created.length >= 1 ? created : undefined));
    expect(events[0]).toMatchObject({ action: 'Expire', type: 'Warning', reason: 'PodDoctorRemediation' });
    expect(events[0]?.message).toContain(`${subject.planId} (recreate-pod) expired without approval`);
    await new Promise((r) => setTimeout(r, 200));
    expect(created).toHaveLength(1);
  });
});
