// The chat side's stream readers, shared by the bot and the demo: results (of every worker),
// run events and alert-group events come by stream, per served cluster, one consumer group per
// stream; each reader blocks, so each has its own connection. With several clusters, each
// reader's name says its cluster.
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { type AlertGroupEvent, consumeAlertGroupEvents } from '../alerts/group-events.js';
import type { ChatContext } from '../chat/context.js';
import { alertGroups } from '../chat/flows/alerts.js';
import { DELIVERY_CONCURRENCY, deliver, deliveryLane } from '../chat/flows/delivery.js';
import { runEvent } from '../chat/flows/run-events.js';
import type { DiagnoseResult } from '../jobs/schemas.js';
import { consumeResults } from '../jobs/sink.js';
import type { RedisClient } from '../redis/client.js';
import { streamIdTime } from '../redis/streams.js';
import { consumeRunEvents } from '../remediation/run-events.js';

export interface ChatStreamsOptions {
  connect: (role: 'worker') => RedisClient;
  prefix: string;
  logger: Logger;
  /** Consumer group (default `chat`, one per bot deployment; the demo reads as `demo`). */
  group?: string;
  /** This process' name in the group (default host-pid). */
  consumer?: string;
  blockMs?: number;
  /** Told once a result is posted (the demo's tour waits for each). */
  onDelivered?: (result: DiagnoseResult) => void;
  /** Told once an alert-group event is shown (the demo's alert tour waits for them). */
  onAlertEvent?: (event: AlertGroupEvent) => void;
}

export function readChatStreams(contexts: Iterable<ChatContext>, o: ChatStreamsOptions) {
  const chats = [...contexts];
  const several = chats.length > 1;
  const perCluster = chats.map((chat) => {
    const reader = () => ({
      redis: o.connect('worker'),
      prefix: o.prefix,
      cluster: chat.cluster,
      group: o.group ?? 'chat',
      consumer: o.consumer ?? `${hostname()}-${process.pid}`,
      logger: o.logger,
      ...(o.blockMs !== undefined ? { blockMs: o.blockMs } : {}),
    });
    const name = (stream: string) => (several ? `${chat.cluster} ${stream}` : stream);
    // Many deliveries at once: most wait for their channel's turn (about a post a second) or for
    // private replies' (Tier 4); each of those lanes has slots of its own, so one busy channel or a
    // flood of "not found" answers never holds back the others.
    const results = consumeResults({
      ...reader(),
      // Not an async function: a frame of cli/ would show in the delivery's async stack
      // (test/chat/walk.test.ts reads chat/ entered once on the way out).
      handler: (r, id) => deliver(chat, r, { since: streamIdTime(id) ?? Date.now() }).then(() => o.onDelivered?.(r)),
      ...DELIVERY_CONCURRENCY,
      lane: deliveryLane,
    });
    const runEvents = consumeRunEvents({ ...reader(), handler: (e) => runEvent(chat, e) });
    const alertEvents = consumeAlertGroupEvents({
      ...reader(),
      handler: (e, id) =>
        alertGroups(chat)
          .event(e, id)
          .then(() => o.onAlertEvent?.(e)),
    });
    return [
      [name('results'), results],
      [name('run events'), runEvents],
      [name('alert events'), alertEvents],
    ] as const;
  });
  const readers = perCluster.flat();
  return { readers, stop: () => Promise.all(readers.map(([, r]) => r.stop())) };
}
