// `pod-doctor audit export --since 7d [--until TIME] [--cluster NAME]...`: the audit trail
// (approvals, denials, expiries, runs) of every cluster the bot serves, or those named, as JSON
// lines on stdout, oldest first per cluster, for a SIEM or a spreadsheet; one line on stderr says
// which clusters it exported. Reads Redis only.
import { parseArgs } from 'node:util';
import { readAudit } from '../audit/stream.js';
import type { Config } from '../config/schema.js';
import { PodDoctorError } from '../errors.js';
import { CONFIG_OPTION, CONFIG_USAGE, clusterOf, commandConfig, servedClusters } from './config.js';
import type { CliIo } from './io.js';
import { withRedis } from './redis-command.js';

export const AUDIT_USAGE = `Usage: pod-doctor audit export --since DURATION|TIME [--until DURATION|TIME] [--cluster NAME]... [--config FILE]
  Prints the audit trail as JSON lines: one entry a line, {id, at, cluster, kind, planId, playbook,
  target, uid?, actors, outcome, reason?}; kind is approval, denial, expiry or run.
  --since   entries recorded since then: 7d, 12h, 30m, 90s ago, or an RFC 3339 time
  --until   up to then (default: now), the same forms
  --cluster only these clusters: repeat it or give a comma list (default: every cluster the bot
            serves, $POD_DOCTOR_CLUSTERS, else $POD_DOCTOR_CLUSTER)
${CONFIG_USAGE}
  Redis: $REDIS_URL (+ $POD_DOCTOR_REDIS_OPTIONS); entries are kept for the audit retention (30 days by default).`;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `7d` (ago, from `now`) or an RFC 3339 time, as epoch ms. */
export function parseWhen(flag: string, value: string, now: number): number {
  const rel = /^(\d{1,6})([smhdw])$/.exec(value.trim());
  if (rel) return now - Number(rel[1]) * UNITS[rel[2]!]!;
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw new PodDoctorError('BAD_INPUT', `${flag} "${value}" is neither a duration (7d, 12h, 30m) nor an RFC 3339 time`);
  return at;
}

/** A Redis URL without its credentials: scheme, host, port and database. */

/**
 * The clusters to export: those named (`--cluster a --cluster b` or `--cluster a,b`), else every
 * cluster the bot serves (POD_DOCTOR_CLUSTERS, else its one cluster).
 */
export function exportClusters(flags: readonly string[] | undefined, config: Config): { clusters: string[]; narrowed: boolean } {
  const named = (flags ?? []).flatMap((f) => f.split(',')).map((c) => c.trim());
  if (named.length === 0) return { clusters: [...servedClusters(clusterOf(undefined, config), config)], narrowed: false };
  return { clusters: [...new Set(named.map((c) => clusterOf(c, config)))], narrowed: true };
}

/** The stderr line: how many entries, from which clusters, and whether that was every served one. */
export function exportSummary(clusters: readonly string[], counts: readonly number[], narrowed: boolean): string {
  const total = counts.reduce((a, b) => a + b, 0);
  const each = clusters.map((c, i) => `${c} (${counts[i] ?? 0})`).join(', ');
  const which = narrowed ? '' : clusters.length > 1 ? '; every served cluster, --cluster narrows' : '; the one served cluster';
  return `pod-doctor audit: ${total} entr${total === 1 ? 'y' : 'ies'} from ${each}${which}`;
}

export async function auditCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout.write(`${AUDIT_USAGE}\n`);
    return sub ? 0 : 2;
  }
  if (sub !== 'export') {
    io.stderr.write(`pod-doctor audit: unknown subcommand "${sub}"\n${AUDIT_USAGE}\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { since: { type: 'string' }, until: { type: 'string' }, cluster: { type: 'string', multiple: true }, ...CONFIG_OPTION },
  });
  if (!values.since) throw new PodDoctorError('BAD_INPUT', `--since is required\n${AUDIT_USAGE}`);
  const config = commandConfig(io.env, values.config, io.stderr);
  const now = Date.now();
  const sinceMs = parseWhen('--since', values.since, now);
  const untilMs = values.until ? parseWhen('--until', values.until, now) : now;
  if (untilMs < sinceMs) throw new PodDoctorError('BAD_INPUT', '--until is before --since');
  const { clusters, narrowed } = exportClusters(values.cluster, config);
  return withRedis(config, async (redis) => {
    const counts: number[] = [];
    for (const cluster of clusters) {
      let n = 0;
      for await (const { id, entry } of readAudit(redis, config.redisPrefix, cluster, { sinceMs, untilMs })) {
        io.stdout.write(`${JSON.stringify({ id, ...entry })}\n`);
        n++;
      }
      counts.push(n);
    }
    io.stderr.write(`${exportSummary(clusters, counts, narrowed)}\n`);
    return 0;
  });
}
