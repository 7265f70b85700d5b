// What every command does first: read the configuration (rule overrides checked against the
// registry) and settle which cluster it serves.
import { type Config, loadConfig } from '../config/schema.js';
import { RULES } from '../diagnosis/rules/index.js';
import { PodDoctorError } from '../errors.js';
import { ClusterName } from '../jobs/schemas.js';

export function commandConfig(env: Record<string, string | undefined>): Config {
  return loadConfig(
    env,
    RULES.map((r) => r.meta.id),
  );
}

/** `--cluster` when given, else POD_DOCTOR_CLUSTER; a DNS-1123 label, as it keys queues. */
export function clusterOf(flag: string | undefined, config: Config): string {
  const cluster = flag ?? config.cluster;
  if (!ClusterName.safeParse(cluster).success) throw new PodDoctorError('BAD_INPUT', `--cluster "${cluster}" is not a DNS-1123 label`);
  return cluster;
}
