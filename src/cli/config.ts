// What every command does first: read the configuration (the environment over the config file
// of `--config` or POD_DOCTOR_CONFIG; rule overrides checked against the registry) and settle
// which cluster it serves.
import { type ChatIds, combineIds } from '../access/ids.js';
import { mattermostIds } from '../chat/adapters/mattermost/ids.js';
import { slackIds } from '../chat/adapters/slack/ids.js';
import { ConfigFileUnreadable, readConfigText } from '../config/file-source.js';
import { type Config, loadConfig, SETTINGS } from '../config/schema.js';
import { RULES } from '../diagnosis/rules/index.js';
import { PodDoctorError } from '../errors.js';
import { ClusterName } from '../jobs/schemas.js';
import type { CliIo } from './io.js';

export { CONFIG_OPTION, CONFIG_USAGE } from './options.js';

function readConfigFile(path: string, from: string): string {
  try {
    return readConfigText(path);
  } catch (err) {
    const why = err instanceof ConfigFileUnreadable ? err.reason : err instanceof Error ? err.message : String(err);
    throw new PodDoctorError('BAD_CONFIG', `cannot read the config file ${path} (${from}): ${why}`, { cause: err });
  }
}

/** Each chat surface's id parser. */
export const SURFACE_IDS: Record<Config['chatSurfaces'][number], ChatIds> = { slack: slackIds, mattermost: mattermostIds };

/**
 * The id parser of the surfaces a configuration serves (POD_DOCTOR_CHAT_SURFACES): the config, the
 * playbooks and the approvers take ids through it. Their formats do not overlap.
 */
export function chatIds(config: Pick<Config, 'chatSurfaces'>): ChatIds {
  return combineIds(config.chatSurfaces.map((s) => SURFACE_IDS[s]));
}

/**
 * The configuration, every problem of the file and the environment in one BAD_CONFIG. Notes
 * (a deprecated variable name) go to stderr: the logger is built from this configuration.
 */
export function commandConfig(env: CliIo['env'], configPath?: string, stderr: CliIo['stderr'] = process.stderr): Config {
  const path = configPath ?? (env[SETTINGS.configFile.env] || undefined);
  const file = path === undefined ? undefined : { path, text: readConfigFile(path, configPath ? '--config' : SETTINGS.configFile.env) };
  return loadConfig(
    env,
    RULES.map((r) => r.meta.id),
    { ...(file ? { file } : {}), onNote: (note) => stderr.write(`pod-doctor: note: ${note}\n`), ids: chatIds },
  );
}

/** `--cluster` when given, else POD_DOCTOR_CLUSTER; a DNS-1123 label, as it keys queues. */
export function clusterOf(flag: string | undefined, config: Config): string {
  const cluster = flag ?? config.cluster;
  if (!ClusterName.safeParse(cluster).success) throw new PodDoctorError('BAD_INPUT', `--cluster "${cluster}" is not a DNS-1123 label`);
  return cluster;
}

/** The clusters a bot serves (POD_DOCTOR_CLUSTERS, else its one cluster); the default cluster must be one of them. */
export function servedClusters(cluster: string, config: Config): readonly string[] {
  const served = config.clusters ?? [cluster];
  if (!served.includes(cluster))
    throw new PodDoctorError(
      'BAD_CONFIG',
      `the default cluster "${cluster}" is not in ${SETTINGS.clusters.env} (${served.join(', ')}): list it, or set ${SETTINGS.cluster.env} to one of them`,
    );
  return served;
}
