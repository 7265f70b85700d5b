// `pod-doctor digest --since 7d [--until TIME] [--cluster NAME]...`: the digest the bot posts on
// its schedule (recurring causes, time to first finding and to a verified fix, fixes run and
// failed, noisiest workloads), printed as Markdown for any window. Reads Redis only.
import { parseArgs } from 'node:util';
import { PodDoctorError } from '../errors.js';
import { computeDigest, digestMarkdown, gatherDigest } from '../report/digest.js';
import { exportClusters, parseWhen } from './audit.js';
import { CONFIG_OPTION, CONFIG_USAGE, commandConfig } from './config.js';
import type { CliIo } from './io.js';
import { withRedis } from './redis-command.js';

export const DIGEST_USAGE = `Usage: pod-doctor digest [--since DURATION|TIME] [--until DURATION|TIME] [--cluster NAME]... [--config FILE]
  Prints the digest (Markdown) of every cluster the bot serves: recurring causes, time to first
  finding and to a verified fix, fixes run and failed, noisiest workloads.
  --since   from then: 7d (default), 12h, or an RFC 3339 time
  --until   up to then (default: now)
  --cluster only these clusters (repeat it or give a comma list)
${CONFIG_USAGE}
  Redis: $REDIS_URL (+ $POD_DOCTOR_REDIS_OPTIONS); what it reads is kept as docs/incidents.md says.`;

export async function digestCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      since: { type: 'string' },
      until: { type: 'string' },
      cluster: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h', default: false },
      ...CONFIG_OPTION,
    },
  });
  if (values.help) {
    io.stdout.write(`${DIGEST_USAGE}\n`);
    return 0;
  }
  const config = commandConfig(io.env, values.config, io.stderr);
  const now = Date.now();
  const sinceMs = parseWhen('--since', values.since ?? '7d', now);
  const untilMs = values.until ? parseWhen('--until', values.until, now) : now;
  if (untilMs < sinceMs) throw new PodDoctorError('BAD_INPUT', '--until is before --since');
  const { clusters } = exportClusters(values.cluster, config);
  return withRedis(config, async (redis) => {
    io.stdout.write(digestMarkdown(computeDigest(await gatherDigest(redis, config.redisPrefix, clusters, sinceMs, untilMs))));
    return 0;
  });
}
