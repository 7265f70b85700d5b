// The worker's side of the audit trail: reads its cluster's audit stream with one consumer group
// (`kube-events`) shared by every worker of the cluster, writes each entry's Event on the target,
// and now and then records the approvals that expired unanswered. Decisions come from the bot,
// runs from the workers themselves: one path to the API server for all of them.
import { hostname } from 'node:os';
import type * as k8s from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { Target } from '../kube/target.js';
import type { RedisClient } from '../redis/client.js';
import { consumeStream, type StreamConsumer } from '../redis/streams.js';
import type { AuditEntry } from './entry.js';
import { writeAuditEvent } from './events.js';
import { sweepExpired } from './expiry.js';
import { auditKey, DEFAULT_AUDIT_RETENTION_MS, decodeAudit } from './stream.js';

/** What the consumer needs of KubeSource: Event writes, and the target's UID when the entry has none. */
export interface AuditKube {
  core: Pick<k8s.CoreV1Api, 'createNamespacedEvent'>;
  getPod(namespace: string, name: string): Promise<{ metadata?: { uid?: string } } | null>;
  getNode(name: string): Promise<{ metadata?: { uid?: string } } | null>;
  getNamespace(name: string): Promise<{ metadata?: { uid?: string } } | null>;
}

export interface AuditEventsOptions {
  /** A dedicated connection: XREADGROUP blocks it. */
  redis: RedisClient;
  prefix: string;
  cluster: string;
  kube: AuditKube;
  logger?: Logger;
  /** How often expired approvals are looked for (default 30 s; 0 turns it off). */
  sweepEveryMs?: number;
  retentionMs?: number;
  consumer?: string;
  claimIdleMs?: number;
  blockMs?: number;
}

export const AUDIT_EVENTS_GROUP = 'kube-events';

async function uidOf(kube: AuditKube, target: Target): Promise<string | undefined> {
  const obj =
    target.kind === 'pod'
      ? await kube.getPod(target.namespace, target.name)
      : target.kind === 'node'
        ? await kube.getNode(target.name)
        : await kube.getNamespace(target.name);
  return obj?.metadata?.uid;
}

export function startAuditEvents(options: AuditEventsOptions): StreamConsumer {
  const { redis, prefix, cluster, kube, logger } = options;
  const log = logger?.child({ component: 'audit-events', cluster });
  const instance = hostname();

  const handle = async (entry: AuditEntry, id: string) => {
    // A target already gone (a deleted pod) still gets its Event, without a UID.
    const uid = entry.uid ?? (await uidOf(kube, entry.target).catch(() => undefined));
    const written = await writeAuditEvent(kube.core, uid ? { ...entry, uid } : entry, id, instance);
    if (written.result === 'refused') log?.warn({ entry: id, planId: entry.planId, status: written.status, reason: written.message }, 'audit event refused');
    else log?.debug({ entry: id, planId: entry.planId, result: written.result }, 'audit event written');
  };
  const reader = consumeStream({
    redis,
    stream: auditKey(prefix, cluster),
    group: AUDIT_EVENTS_GROUP,
    consumer: options.consumer ?? `${instance}-${process.pid}`,
    decode: decodeAudit,
    handler: handle,
    ...(log ? { logger: log } : {}),
    label: 'audit',
    ...(options.claimIdleMs !== undefined ? { claimIdleMs: options.claimIdleMs } : {}),
    ...(options.blockMs !== undefined ? { blockMs: options.blockMs } : {}),
  });

  const every = options.sweepEveryMs ?? 30_000;
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = sweepExpired(redis, prefix, cluster, { retentionMs: options.retentionMs ?? DEFAULT_AUDIT_RETENTION_MS })
      .then((n) => n > 0 && log?.info({ expired: n }, 'expired approvals recorded'))
      .catch((err: unknown) => log?.warn({ err }, 'expiry sweep failed'));
  };
  const timer = every > 0 ? setInterval(sweep, every) : undefined;
  timer?.unref();

  return {
    done: reader.done,
    health: reader.health,
    stop: async () => {
      clearInterval(timer);
      await Promise.all([sweeping, reader.stop()]);
    },
  };
}
