// `pod-doctor report <thread link | incident id>`: the post-incident write-up of a Slack thread
// (its link, as "Copy link" gives it) or of an incident (`cluster|rule|causeKey`, as the
// incident thread and the audit trail name it), printed as Markdown: what the Write-up button
// posts. Reads Redis only.
import { parseArgs } from 'node:util';
import { parseMessageLink } from '../chat/adapters/slack/ids.js';
import type { ThreadState } from '../chat/context.js';
import { writeUpOf } from '../chat/flows/writeup.js';
import { ThreadStore } from '../chat/store/threads.js';
import { PodDoctorError } from '../errors.js';
import type { RedisClient } from '../redis/client.js';
import { gatherStory } from '../report/story.js';
import { writeUp } from '../report/writeup.js';
import { parseWhen } from './audit.js';
import { CONFIG_OPTION, CONFIG_USAGE, commandConfig } from './config.js';
import type { CliIo } from './io.js';
import { withRedis } from './redis-command.js';

export const REPORT_USAGE = `Usage: pod-doctor report <thread link | incident id> [--since DURATION|TIME] [--config FILE]
  Prints the post-incident write-up (Markdown) of a Slack thread or an incident: summary, impact,
  timeline, root cause with its evidence, what changed, what was done, prevention, follow-ups.
  <thread link>  https://<workspace>.slack.com/archives/<channel>/p<ts> (a reply's link names its thread)
  <incident id>  cluster|rule|causeKey, as the incident thread shows it (quote it in the shell)
  --since   for an incident id: read its records since then (default 7d: results, audit, runs)
${CONFIG_USAGE}
  Redis: $REDIS_URL (+ $POD_DOCTOR_REDIS_OPTIONS).`;

export type ReportRef = { kind: 'thread'; channel: string; ts: string } | { kind: 'incident'; id: string; cluster: string };

/** A chat message link (Slack's, its thread when it is a reply) or an incident id; undefined for anything else. */
export function parseReportRef(text: string): ReportRef | undefined {
  const s = text.trim();
  const link = parseMessageLink(s);
  if (link) return { kind: 'thread', ...link };
  const incident = /^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)\|([a-z0-9.-]{1,128})\|(.{1,1000})$/.exec(s);
  if (incident) return { kind: 'incident', id: s, cluster: incident[1]! };
  return undefined;
}

/** The write-up `ref` points at, read from Redis at `now`. */
export async function reportFor(redis: RedisClient, prefix: string, ref: ReportRef, options: { now: number; sinceMs: number }): Promise<string> {
  if (ref.kind === 'thread') {
    const threads = new ThreadStore<ThreadState>(redis, prefix);
    const thread = await threads.byTs(ref.channel, ref.ts);
    if (!thread)
      throw new PodDoctorError(
        'TARGET_NOT_FOUND',
        `no pod-doctor thread at ${ref.channel} ${ref.ts}: threads are kept 7 days; for an older one give its incident id (cluster|rule|causeKey)`,
      );
    return writeUpOf({ redis, prefix, threads }, thread, options.now);
  }
  const story = await gatherStory(redis, prefix, { cluster: ref.cluster, incidentId: ref.id, sinceMs: options.sinceMs, untilMs: options.now });
  if (story.results.length === 0)
    throw new PodDoctorError(
      'TARGET_NOT_FOUND',
      `no diagnosis of incident ${ref.id} is kept since ${new Date(options.sinceMs).toISOString()} (try --since 30d)`,
    );
  return writeUp(story, { now: options.now });
}

export async function reportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { since: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false }, ...CONFIG_OPTION },
  });
  if (values.help) {
    io.stdout.write(`${REPORT_USAGE}\n`);
    return 0;
  }
  const [what, ...extra] = positionals;
  const ref = what && extra.length === 0 ? parseReportRef(what) : undefined;
  if (!ref)
    throw new PodDoctorError('BAD_INPUT', `expected one thread link or incident id${what ? `, not "${[what, ...extra].join(' ')}"` : ''}\n${REPORT_USAGE}`);
  const config = commandConfig(io.env, values.config, io.stderr);
  const now = Date.now();
  const sinceMs = parseWhen('--since', values.since ?? '7d', now);
  return withRedis(config, async (redis) => {
    io.stdout.write(await reportFor(redis, config.redisPrefix, ref, { now, sinceMs }));
    return 0;
  });
}
