// Data and ML platforms and self-hosted apps, as their pods fail: Spark executors killed at their memory limit, Flink and
// Trino/Presto memory settings that do not add up, HDFS storage that another NameNode formatted (or none did), Ray's
// object store larger than /dev/shm, Nextcloud, Nexus and Gitea unable to write their own directories, a JupyterHub hub
// refused by a proxy started with another token, an MLflow server on a database schema nobody migrated. Where the
// mechanism is one the catalogue already has (fs-permission, shm-exhausted, cluster-identity-mismatch,
// storage-not-prepared), the signature reads into it; new mechanisms only where the knobs are the platform's own.
import type { Evidence } from '../../types.js';
import { memoryLimit, mountOf, volumeKind } from '../context.js';
import { mechanisms, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** The container's memory limit as a phrase, and as evidence when the spec sets one. */
function limitPhrase(ctx: ReadingContext): string {
  const l = memoryLimit(ctx);
  return l === undefined ? 'no memory limit is set on it' : `its memory limit is ${l}`;
}

function limitFact(ctx: ReadingContext): Evidence[] {
  const l = memoryLimit(ctx);
  return l === undefined ? [] : [specFact(ctx, 'resources.limits.memory', l)];
}

/** Labels the Spark operator (kubeflow/spark-operator) puts on the driver and executor pods it creates. */
const SPARK_OPERATOR_LABEL = /^sparkoperator\.k8s\.io\//;

/** Nextcloud's web root: the chart mounts its volume here, and config/ under it. */
const NEXTCLOUD_ROOT = '/var/www/html';

/** A ConfigMap or Secret mounted into Nextcloud's config directory (the chart's nextcloud.configs, one subPath per file). */
function configFileMount(ctx: ReadingContext): { volume: string; mountPath: string } | undefined {
  for (const m of ctx.container?.volumeMounts ?? []) {
    if (!m.mountPath.startsWith(`${NEXTCLOUD_ROOT}/config/`)) continue;
    const kind = volumeKind(ctx.pod?.spec?.volumes?.find((v) => v.name === m.name));
    if (kind === 'configMap' || kind === 'secret' || kind === 'projected') return { volume: m.name, mountPath: m.mountPath };
  }
  return undefined;
}

export const MECHANISMS = mechanisms([
  {
    id: 'spark-executor-oom',
    kind: 'resource',
    resource: "the Spark executor pods' memory limit",
    doc:
      'On Kubernetes, Spark sizes each executor pod at spark.executor.memory plus spark.executor.memoryOverhead (by default 10% of it, at ' +
      'least 384 MiB), and everything outside the JVM heap (Python workers, off-heap buffers, native libraries) must fit in the overhead. ' +
      'An executor that outgrows it is killed by the kernel at the pod limit (exit code 137) and the driver reports it lost.',
    variants: [
      {
        id: 'spark-operator',
        when: (ctx) => Object.keys(ctx.pod?.metadata?.labels ?? {}).some((k) => SPARK_OPERATOR_LABEL.test(k)),
        summary: 'a Spark executor was killed at its pod memory limit (exit code 137)',
        explain:
          'The driver reports an executor that exited with code 137: the kernel killed it at the memory limit of its pod, which the ' +
          'Spark operator sizes from the SparkApplication as executor memory + memoryOverhead. The memory used outside the JVM heap ' +
          '(PySpark workers, off-heap and native buffers) outgrew the overhead.',
        knobs: [
          {
            place: 'cluster',
            path: 'SparkApplication spec.executor.memoryOverhead',
            change: 'raise it (e.g. 1g-2g, more for PySpark); the executor pod limit grows with it',
          },
          {
            place: 'cluster',
            path: 'SparkApplication spec.executor.memory',
            change: 'or give the executor more memory (or fewer cores, so fewer tasks share it)',
          },
        ],
      },
      {
        id: 'general',
        summary: 'a Spark executor was killed at its pod memory limit (exit code 137)',
        explain:
          'The driver reports an executor that exited with code 137: the kernel killed it at the memory limit of its pod, which Spark ' +
          'sets to spark.executor.memory + spark.executor.memoryOverhead. The memory used outside the JVM heap (PySpark workers, ' +
          'off-heap and native buffers) outgrew the overhead.',
        knobs: [
          {
            place: 'app',
            path: 'spark.executor.memoryOverhead (spark-submit --conf; spark.kubernetes.executor.memoryOverhead before Spark 3)',
            change: 'raise it (e.g. 1g-2g, more for PySpark), or spark.kubernetes.memoryOverheadFactor for every pod',
          },
          { place: 'app', path: 'spark.executor.memory / spark.executor.cores', change: 'or give each executor more memory, or fewer concurrent tasks' },
        ],
      },
    ],
  },
  {
    id: 'memory-settings-inconsistent',
    kind: 'setting',
    resource: "the app's own memory settings",
    doc:
      'Some JVM platforms split a total memory size into parts they configure themselves (Flink: heap, managed, network, off-heap; ' +
      'Trino and Presto: per-query memory and heap headroom) and refuse to start when the parts configured do not fit in the total. ' +
      'The container limit is where the total must come from.',
    variants: [
      {
        id: 'flink-taskmanager',
        when: (ctx) => /Task Off-Heap|Managed Memory|taskmanager\.memory/i.test(ctx.line) && { limitNow: limitPhrase(ctx) },
        summary: "the Flink TaskManager's memory parts exceed its total memory",
        explain:
          'Flink derives the TaskManager memory model from one total (taskmanager.memory.process.size, or taskmanager.memory.flink.size) ' +
          'and the fine-grained sizes configured next to it (framework and task heap, managed, network, off-heap) add up to more than that ' +
          'total, so the TaskManager refuses to start. In the container, {{limitNow}}.',
        knobs: [
          {
            place: 'app',
            path: 'taskmanager.memory.process.size (flink-conf.yaml; FlinkDeployment spec.taskManager.resource.memory)',
            change: 'set the total to the container limit and drop the fine-grained sizes (or lower them) so Flink derives them from it',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'keep it equal to the total process memory Flink is given' },
        ],
        facts: (ctx) => limitFact(ctx),
      },
      {
        id: 'flink-jobmanager',
        when: (ctx) => /Total (?:Flink|Process) Memory|jobmanager\.memory/i.test(ctx.line) && { limitNow: limitPhrase(ctx) },
        summary: "the Flink JobManager's memory settings do not fit its total memory",
        explain:
          "Flink derives the JobManager's heap and off-heap memory from one total (jobmanager.memory.process.size, or " +
          'jobmanager.memory.flink.size), and the total configured is too small for the parts it must hold (JVM metaspace and overhead ' +
          'come off first), or no total is configured at all, so the JobManager refuses to start. In the container, {{limitNow}}.',
        knobs: [
          {
            place: 'app',
            path: 'jobmanager.memory.process.size (flink-conf.yaml; FlinkDeployment spec.jobManager.resource.memory)',
            change: 'set it (1600m or more is a safe start) and leave the fine-grained sizes unset',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'keep it equal to the total process memory Flink is given' },
        ],
        facts: (ctx) => limitFact(ctx),
      },
      {
        id: 'trino-heap',
        when: (ctx) => /max query (?:total )?memory per node|max-memory-per-node|heap headroom|useable heap/i.test(ctx.line) && { limitNow: limitPhrase(ctx) },
        summary: 'the per-query memory configured for this Trino/Presto node does not fit its heap',
        explain:
          'Trino (and Presto) reserve query.max-memory-per-node plus memory.heap-headroom-per-node out of the JVM heap, and check at start ' +
          'that they fit (and that per-query memory stays below the total per-query memory): the values configured exceed the heap this ' +
          'node has, so the server refuses to start. A coordinator on a smaller node than the workers hits it when both share one config. ' +
          'In the container, {{limitNow}}.',
        knobs: [
          {
            place: 'app',
            path:
              'query.max-memory-per-node + memory.heap-headroom-per-node ' +
              '(config.properties; the Trino chart: coordinator/worker.config.query.maxMemoryPerNode)',
            change: 'lower them so their sum stays under the heap (per-query memory at about 30% of it), per node role',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'or give the node more memory, and its heap with it' },
        ],
        facts: (ctx) => limitFact(ctx),
      },
      {
        id: 'general',
        summary: "the app's memory settings do not add up",
        explain: 'The app splits a total memory size into parts it configures itself, and the parts configured do not fit the total, so it refuses to start.',
        knobs: [
          { place: 'app', path: "the app's total memory setting", change: 'set the total from the container limit and let the app derive the parts' },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'keep the limit and the total in step' },
        ],
      },
    ],
  },
  {
    id: 'app-config-dir-not-writable',
    kind: 'permission',
    resource: "write access to the app's config directory",
    doc:
      'A self-hosted PHP app (Nextcloud, ownCloud) writes its own config.php during installation and upgrades, as the web server user ' +
      '(www-data, UID 33), and stops when it cannot: the directory on the volume belongs to root, or files mounted into it from a ' +
      'ConfigMap made the kubelet create it as root.',
    variants: [
      {
        id: 'nextcloud-configmap',
        when: (ctx) => configFileMount(ctx) ?? false,
        summary: 'Nextcloud cannot write its config directory: files from {{volume}} are mounted into it',
        explain:
          'Nextcloud writes config.php into its config directory as www-data, and a ConfigMap or Secret is mounted into it ({{volume}} at ' +
          '{{mountPath}}): on a fresh volume the kubelet creates the directory for such a mount as root, so the web server user cannot ' +
          "write it (what the chart's nextcloud.configs does with persistence on).",
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.fsGroup',
            change: 'set 33 (www-data) so the volume is group-writable for the web server',
          },
          { place: 'pod', path: 'spec.initContainers', change: 'or chown -R 33:0 the config directory on the volume before Nextcloud starts' },
        ],
      },
      {
        id: 'nextcloud-volume',
        when: (ctx) => {
          const m = mountOf(ctx, `${NEXTCLOUD_ROOT}/config`);
          return !!m?.kind && { volume: m.mount.name, mountPath: m.mount.mountPath, volumeKind: m.kind };
        },
        summary: 'Nextcloud cannot write its config directory on volume {{volume}}',
        explain:
          'Nextcloud writes config.php into its config directory as www-data (UID 33), and that directory lies on volume "{{volume}}" ' +
          '({{volumeKind}}) at {{mountPath}}, whose root belongs to another user: a new volume starts root-owned, and the image only ' +
          'fixes ownership when it copies the sources in as root.',
        knobs: [
          { place: 'pod', path: 'spec.securityContext.fsGroup', change: 'set 33 (www-data), so the kubelet gives the group write access to the volume' },
          { place: 'pod', path: 'spec.initContainers', change: 'or chown -R 33:0 the directory once from an init container running as root' },
          {
            place: 'app',
            path: "config.php 'config_is_read_only' => true",
            change: 'only if the config is managed outside (installs and upgrades then need it writable again)',
          },
        ],
      },
      {
        id: 'general',
        summary: 'the app cannot write its config directory',
        explain:
          'The app writes its config file as the web server user, and its config directory belongs to another user, so installation or ' + 'start-up stops.',
        knobs: [
          { place: 'pod', path: 'spec.securityContext.fsGroup', change: "set the web server user's group (33 for www-data)" },
          { place: 'image', path: "the image's config directory", change: 'or give the web server user ownership of it' },
        ],
      },
    ],
  },
  {
    id: 'peer-token-mismatch',
    kind: 'setting',
    resource: 'a token two components of one app share',
    doc:
      'Two components of one app authenticate to each other with a shared token (JupyterHub and its configurable-http-proxy: ' +
      'CONFIGPROXY_AUTH_TOKEN), and the one this component holds is not the one its peer was started with, so every call is ' +
      'refused (403) and the component stops.',
    variants: [
      {
        id: 'jupyterhub-from-secret',
        when: (ctx) => (ctx.container?.env ?? []).some((e) => e.name === 'CONFIGPROXY_AUTH_TOKEN'),
        summary: "the JupyterHub proxy refuses the hub's token: it was started with another one",
        explain:
          'The hub reads CONFIGPROXY_AUTH_TOKEN from its env, and the proxy at its API address refuses it: the proxy pod was started with ' +
          'an older token (the Secret changed, for example a chart upgrade that generated a new proxy.secretToken, and the proxy pod was ' +
          'not restarted), or the hub and the proxy read different Secrets.',
        knobs: [
          {
            place: 'cluster',
            path: 'the proxy Deployment (zero-to-jupyterhub: deploy/proxy)',
            change: 'restart it so it reads the current token (kubectl rollout restart)',
          },
          {
            place: 'app',
            path: 'proxy.secretToken (chart values) / the Secret key both pods read',
            change: 'pin one token, so upgrades do not regenerate it for one side only',
          },
        ],
        facts: (ctx) => [specFact(ctx, 'env', 'CONFIGPROXY_AUTH_TOKEN is set')],
      },
      {
        id: 'jupyterhub-generated',
        when: (ctx) => !!ctx.container,
        summary: "the JupyterHub proxy refuses the hub's token: the hub generated a new one",
        explain:
          'The container sets no CONFIGPROXY_AUTH_TOKEN, so the hub generates a new token on every start, and a proxy that kept running ' +
          'from an earlier start still holds the old one: it refuses the hub (403), and the hub stops.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env CONFIGPROXY_AUTH_TOKEN (valueFrom.secretKeyRef)',
            change: 'give the hub and the proxy the same token from one Secret (or c.ConfigurableHTTPProxy.auth_token)',
          },
          { place: 'app', path: 'the proxy process or pod', change: 'or stop the stale proxy, so the hub starts its own with the new token' },
        ],
      },
      {
        id: 'general',
        summary: 'a peer component refuses the shared token',
        explain: 'Two components share a token to authenticate to each other, and the peer was started with another one.',
        knobs: [{ place: 'cluster', path: 'the Secret both components read', change: 'give both the same token and restart the one that holds the old one' }],
      },
    ],
  },
  {
    id: 'schema-migration-pending',
    kind: 'setting',
    resource: "the app's database schema version",
    doc:
      'A server refuses to start on a database whose schema an older release wrote, and leaves the migration to a separate command ' +
      '(MLflow: mlflow db upgrade): after an image upgrade the schema is behind until something runs that step against the database.',
    variants: [
      {
        id: 'mlflow',
        when: (ctx) => /mlflow/i.test(ctx.line) && { found: ctx.groups.found ?? 'an older revision', expected: ctx.groups.expected ?? 'the current one' },
        summary: "MLflow's backend store schema is at {{found}}, the server expects {{expected}}",
        explain:
          'The MLflow server checks the alembic revision of its backend store database at start and stops when it is older than its own ' +
          '({{found}}, expected {{expected}}): the image was upgraded and nothing ran mlflow db upgrade against the database, which the ' +
          'server never does by itself.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.initContainers',
            change: 'run mlflow db upgrade <backend store URI> with the same image before the server (after a backup of the database)',
          },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or return to the previous MLflow release until the migration has run' },
        ],
      },
      {
        id: 'general',
        summary: 'the database schema is older than the app',
        explain: 'The app found its database at an older schema revision and leaves the migration to a separate step, which has not run.',
        knobs: [{ place: 'pod', path: 'spec.initContainers', change: "run the app's migration command before the server starts" }],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'platform.spark-executor-oom',
    family: 'server',
    mechanism: 'spark-executor-oom',
    needles: ['exited with exit code 137'],
    patterns: [re('The executor with id (?<id>\\d+) exited with exit code 137')],
    source:
      'apache/spark resource-managers/kubernetes ExecutorPodsLifecycleManager (exit code 137 explained since SPARK-40781, apache/spark#38233). ' +
      'Lines (GitHub): kubeflow/spark-operator#766, apache/spark#38233',
    examples: ['The executor with id 1 exited with exit code 137.', 'The executor with id 32 exited with exit code 137 (SIGKILL, possible container OOM).'],
  },
  {
    id: 'platform.flink-memory-config',
    family: 'server',
    mechanism: 'memory-settings-inconsistent',
    needles: ['illegalconfigurationexception'],
    patterns: [
      re(
        'IllegalConfigurationException: (?:(?:Job|Task)Manager memory configuration failed: )?',
        'Sum of configured .+ exceed configured Total (?:Flink|Process) Memory',
      ),
      re('IllegalConfigurationException: The configured Total (?:Flink|Process) Memory \\(.+\\) is less than the configured'),
      re(
        'IllegalConfigurationException: (?:(?:Job|Task)Manager memory configuration failed: )?',
        'Either required fine-grained memory \\((?:job|task)manager\\.memory\\.[^)]+\\)',
      ),
    ],
    source:
      'apache/flink flink-runtime util/config/memory (ProcessMemoryUtils, JobManagerFlinkMemoryUtils, TaskExecutorFlinkMemoryUtils; FLIP-49/FLIP-116). ' +
      'Lines (GitHub): apache/flink-statefun#157, DataLinkDC/dinky#844, apache/streampark#3330, harbby/sylph#161, ' +
      'apache/flink-kubernetes-operator#487 (the TaskManager wording of the same check)',
    examples: [
      'Exception in thread "main" org.apache.flink.configuration.IllegalConfigurationException: ' +
        'The configured Total Flink Memory (52.000mb (54525952 bytes)) ' +
        'is less than the configured Off-heap Memory (128.000mb (134217728 bytes)).',
      'Caused by: org.apache.flink.configuration.IllegalConfigurationException: Sum of configured Framework Heap Memory (1024.000mb (1073741824 bytes)), ' +
        'Framework Off-Heap Memory (128.000mb (134217728 bytes)), Task Off-Heap Memory (0 bytes), Managed Memory (634.880mb (665719939 bytes)) and ' +
        'Network Memory (158.720mb (166429984 bytes)) exceed configured Total Flink Memory (1.550gb (1664299824 bytes)).',
      'Caused by: org.apache.flink.configuration.IllegalConfigurationException: Either required fine-grained memory (jobmanager.memory.heap.size), ' +
        "or Total Flink Memory size (Key: 'jobmanager.memory.flink.size' , default: null (fallback keys: [])), " +
        "or Total Process Memory size (Key: 'jobmanager.memory.process.size' , default: null (fallback keys: [])) need to be configured explicitly.",
      'Caused by: org.apache.flink.configuration.IllegalConfigurationException: TaskManager memory configuration failed: Sum of configured ' +
        'Framework Heap Memory (1.508gb (1619001344 bytes)), Framework Off-Heap Memory (128.000mb (134217728 bytes)), Task Off-Heap Memory (0 bytes), ' +
        'Managed Memory (947.200mb (993211202 bytes)) and Network Memory (236.800mb (248302800 bytes)) exceed configured Total Flink Memory ' +
        '(2.313gb (2483027968 bytes))',
    ],
  },
  {
    id: 'platform.trino-memory-config',
    family: 'server',
    mechanism: 'memory-settings-inconsistent',
    needles: ['invalid memory configuration', 'max query memory per node', 'of useable heap available'],
    patterns: [
      re(
        'Invalid memory configuration\\. The sum of max query memory per node \\(\\d+\\) and heap headroom \\(\\d+\\) ' +
          'cannot be larger than the available heap memory',
      ),
      re('Max query memory per node (?:\\(query\\.max-memory-per-node\\) )?cannot be greater than the max query total memory per node'),
      re('query\\.max-memory-per-node set to \\S+, but only \\S+ of useable heap available'),
    ],
    source:
      'trinodb/trino core/trino-main memory/LocalMemoryManager (validateHeapHeadroom); prestodb/presto LocalMemoryManager. Lines (GitHub): ' +
      'trinodb/charts#70, smizy/docker-presto#2, prestodb/presto#8855, prestodb/presto#11005',
    examples: [
      'Invalid memory configuration. The sum of max query memory per node (161061273600) and heap headroom (34359738368) ' +
        'cannot be larger than the available heap memory (114890375168)',
      'Caused by: java.lang.IllegalArgumentException: Max query memory per node cannot be greater than the max query total memory per node.',
      'query.max-memory-per-node set to 9GB, but only 9663676416B of useable heap available',
    ],
  },
  {
    id: 'platform.hdfs-cluster-id',
    family: 'server',
    mechanism: 'cluster-identity-mismatch',
    needles: ['incompatible clusterids'],
    patterns: [re('Incompatible clusterIDs in (?<path>/\\S+): namenode clusterID = (?<namenode>[\\w-]+); datanode clusterID = (?<datanode>[\\w-]+)')],
    source:
      'apache/hadoop hadoop-hdfs server/datanode/DataStorage.java (doTransition). Lines (GitHub): big-data-europe/docker-hadoop-spark-workbench#55, ' +
      'helm/charts#19499, apache/hadoop#6387, microsoft/pai#2637',
    examples: [
      'java.io.IOException: Incompatible clusterIDs in /hadoop/dfs/data: namenode clusterID = CID-b25a0845-5c64-4603-a2cb-d7878c265f44; ' +
        'datanode clusterID = CID-f90183ca-4d87-4b49-8fb2-ca642d46016c',
      'java.io.IOException: Incompatible clusterIDs in /root/hdfs/datanode: namenode clusterID = CID-8821e188-fac6-4ab1-9c63-4017c615cbd8; ' +
        'datanode clusterID = CID-52881c5a-06ab-407e-aabf-10d07fcf1b0c',
    ],
  },
  {
    id: 'platform.hdfs-namenode-unformatted',
    family: 'server',
    mechanism: 'storage-not-prepared',
    needles: ['namenode is not formatted'],
    patterns: [re('NameNode is not formatted')],
    source:
      'apache/hadoop hadoop-hdfs server/namenode/FSImage.java (recoverTransitionRead). Lines (GitHub): apache-spark-on-k8s/kubernetes-HDFS#65, ' +
      'apache-spark-on-k8s/kubernetes-HDFS#49',
    examples: ['java.io.IOException: NameNode is not formatted.'],
  },
  {
    id: 'platform.ray-object-store-shm',
    family: 'server',
    mechanism: 'shm-exhausted',
    needles: ['/dev/shm'],
    patterns: [
      re('The configured object store size \\((?<want>[\\d.]+ GB)\\) exceeds /dev/shm size \\((?<limit>[\\d.]+ GB)\\)'),
      re('The configured object store size exceeds the capacity of /dev/shm'),
    ],
    source:
      'ray-project/ray python/ray/_private/services.py (determine_plasma_store_config). Lines (GitHub): ray-project/kuberay#201, ' +
      'ray-project/ray#14535, modin-project/modin#3151; near miss (the fallback warning, not fatal) ray-project/ray#14616, InftyAI/llmaz#238',
    examples: [
      'ValueError: The configured object store size (10.24 GB) exceeds /dev/shm size (8.0 GB). This will harm performance. Consider deleting files in ' +
        '/dev/shm or increasing its size with --shm-size in Docker. To ignore this warning, set RAY_OBJECT_STORE_ALLOW_SLOW_STORAGE=1.',
      'ValueError: The configured object store size exceeds the capacity of /dev/shm. This will harm performance. To proceed regardless of this warning, ' +
        'you can set RAY_OBJECT_STORE_ALLOW_SLOW_STORAGE=1. Consider deleting files in /dev/shm or increasing its size with --shm-size in Docker.',
    ],
    nearMisses: [
      '2025-01-14 03:08:29,081\tWARNING services.py:2022 -- WARNING: The object store is using /tmp instead of /dev/shm because /dev/shm has only ' +
        '67108864 bytes available. This will harm performance! You may be able to free up space by deleting files in /dev/shm.',
    ],
  },
  {
    id: 'platform.nextcloud-config-dir',
    family: 'server',
    mechanism: 'app-config-dir-not-writable',
    needles: ['write into "config" directory', 'write into config directory', 'write to the “config” directory'],
    patterns: [re('(?:Cannot|Can\'t) write into "?config"? directory'), re('Unable to write to the “config” directory')],
    source:
      'nextcloud/server lib/private/Setup.php and OC_Util::checkServer (the config directory check). Lines (GitHub): nextcloud/helm#199, ' +
      'nextcloud/docker#1158, nextcloud/docker#2183, libresh/compose-nextcloud#15, owncloud-docker/server#3, helm/charts#16090',
    examples: ['Cannot write into "config" directory!', "Can't write into config directory!", 'Unable to write to the “config” directory!'],
  },
  {
    id: 'platform.nexus-data-dir',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['unable to update instance pid'],
    patterns: [re('Unable to update instance pid: Unable to create directory (?<path>/\\S+)')],
    source: 'sonatype/nexus-public (install4j launcher, instance pid under the data directory). Lines (GitHub): sonatype/docker-nexus3#9',
    examples: ['Unable to update instance pid: Unable to create directory /nexus-data/instances'],
  },
  {
    id: 'platform.gitea-rootless-not-writable',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['/var/lib/gitea/'],
    patterns: [re('^\\s*(?<path>/var/lib/gitea/[\\w./-]+) is not writable\\s*$')],
    source:
      'go-gitea/gitea docker/rootless/usr/local/bin/docker-setup.sh (HOME and GITEA_CUSTOM checks). Lines (GitHub): go-gitea/gitea#20162, ' +
      'go-gitea/gitea#34902, go-gitea/gitea#22322',
    examples: ['/var/lib/gitea/git is not writable'],
  },
  {
    id: 'platform.jupyterhub-proxy-token',
    family: 'server',
    mechanism: 'peer-token-mismatch',
    needles: ["but i can't access it (http 403", 'configproxy_auth_token'],
    patterns: [re("Proxy appears to be running at \\S+, but I can't access it \\(HTTP 403: Forbidden\\)"), re('Did CONFIGPROXY_AUTH_TOKEN change\\?')],
    source:
      'jupyterhub/jupyterhub jupyterhub/proxy.py (ConfigurableHTTPProxy.start / check_routes). Lines (GitHub): jupyterhub/dockerspawner#32, ' +
      'jupyterhub/jupyterhub#1470, jupyterhub/jupyterhub#809; near miss (the start-up warning) jupyterhub/jupyterhub#1470',
    examples: [
      "[E 2017-10-06 10:13:34.768 JupyterHub app:924] Proxy appears to be running at http://*:8000/, but I can't access it (HTTP 403: Forbidden)",
      "[E 2015-04-13 10:54:03.873 JupyterHub app:726] Proxy appears to be running at http://*:8000/, but I can't access it (HTTP 403: Forbidden)",
      '    Did CONFIGPROXY_AUTH_TOKEN change?',
    ],
    nearMisses: ['    Generating CONFIGPROXY_AUTH_TOKEN. Restarting the Hub will require restarting the proxy.'],
  },
  {
    id: 'platform.mlflow-schema',
    family: 'server',
    mechanism: 'schema-migration-pending',
    needles: ['out-of-date database schema'],
    patterns: [re('Detected out-of-date database schema \\(found version (?<found>\\w+), but expected (?<expected>\\w+)\\)')],
    source:
      'mlflow/mlflow mlflow/store/db/utils.py (_verify_schema). Lines (GitHub): ministryofjustice/modernisation-platform-environments#7377, ' +
      'mlflow/mlflow#10493, mlflow/mlflow#2923, mlflow/mlflow#6703',
    examples: [
      '2024/08/06 14:19:59 ERROR mlflow.cli: Detected out-of-date database schema (found version 5b0e9adcef9c, but expected 4465047574b1). Take a backup ' +
        "of your database, then run 'mlflow db upgrade <database_uri>' to migrate your database to the latest schema.",
      'MlflowException: Detected out-of-date database schema (found version bd07f7e963c5, but expected cc1f77228345).',
    ],
  },
]);
