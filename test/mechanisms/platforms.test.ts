// Data and ML platforms and self-hosted apps (src/diagnosis/mechanisms/catalogue/platforms.ts): Spark, Flink, Trino, HDFS,
// Ray, Nextcloud, Nexus, Gitea, JupyterHub, MLflow; each line read as its mechanism for the pod's spec, with the knob that changes it.
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { describeFamilies, scopeOf } from '../helpers/mechanism-table.js';

const SPARK_137 = 'The executor with id 32 exited with exit code 137 (SIGKILL, possible container OOM).';
const FLINK_TM =
  'Caused by: org.apache.flink.configuration.IllegalConfigurationException: Sum of configured Framework Heap Memory (1024.000mb (1073741824 bytes)), ' +
  'Framework Off-Heap Memory (128.000mb (134217728 bytes)), Task Off-Heap Memory (0 bytes), Managed Memory (634.880mb (665719939 bytes)) and ' +
  'Network Memory (158.720mb (166429984 bytes)) exceed configured Total Flink Memory (1.550gb (1664299824 bytes)).';
const FLINK_JM =
  'Exception in thread "main" org.apache.flink.configuration.IllegalConfigurationException: The configured Total Flink Memory (52.000mb (54525952 bytes)) ' +
  'is less than the configured Off-heap Memory (128.000mb (134217728 bytes)).';
const TRINO =
  'Invalid memory configuration. The sum of max query memory per node (161061273600) and heap headroom (34359738368) cannot be larger than the ' +
  'available heap memory (114890375168)';
const HDFS_CID =
  'java.io.IOException: Incompatible clusterIDs in /hadoop/dfs/data: namenode clusterID = CID-b25a0845-5c64-4603-a2cb-d7878c265f44; ' +
  'datanode clusterID = CID-f90183ca-4d87-4b49-8fb2-ca642d46016c';
const RAY =
  'ValueError: The configured object store size (10.24 GB) exceeds /dev/shm size (8.0 GB). This will harm performance. Consider deleting files in ' +
  '/dev/shm or increasing its size with --shm-size in Docker. To ignore this warning, set RAY_OBJECT_STORE_ALLOW_SLOW_STORAGE=1.';
const NEXTCLOUD = 'Cannot write into "config" directory!';

const JUPYTERHUB = "[E 2017-10-06 10:13:34.768 JupyterHub app:924] Proxy appears to be running at http://*:8000/, but I can't access it (HTTP 403: Forbidden)";

const MLFLOW =
  '2024/08/06 14:19:59 ERROR mlflow.cli: Detected out-of-date database schema (found version 5b0e9adcef9c, but expected 4465047574b1). Take a backup ' +
  "of your database, then run 'mlflow db upgrade <database_uri>' to migrate your database to the latest schema.";

const pvc = (name: string, claimName: string) => ({ name, persistentVolumeClaim: { claimName } });

describeFamilies({
  'Spark executors': [
    { line: SPARK_137, mechanism: 'spark-executor-oom', variant: 'general', knob: 'spark.executor.memoryOverhead', data: { id: '32' } },
    { line: 'The executor with id 1 exited with exit code 137.', mechanism: 'spark-executor-oom', variant: 'general', knob: 'spark.executor.memory' },
  ],
  'Flink and Trino memory settings': [
    { line: FLINK_TM, mechanism: 'memory-settings-inconsistent', variant: 'flink-taskmanager', knob: 'taskmanager.memory.process.size' },
    { line: FLINK_JM, mechanism: 'memory-settings-inconsistent', variant: 'flink-jobmanager', knob: 'jobmanager.memory.process.size' },
    { line: TRINO, mechanism: 'memory-settings-inconsistent', variant: 'trino-heap', knob: 'query.max-memory-per-node' },
    {
      line: 'Caused by: java.lang.IllegalArgumentException: Max query memory per node cannot be greater than the max query total memory per node.',
      mechanism: 'memory-settings-inconsistent',
      variant: 'trino-heap',
      knob: 'resources.limits.memory',
    },
  ],
  HDFS: [
    { line: HDFS_CID, mechanism: 'cluster-identity-mismatch', variant: 'general', knob: 'the volumes of every member', data: { path: '/hadoop/dfs/data' } },
    { line: 'java.io.IOException: NameNode is not formatted.', mechanism: 'storage-not-prepared', variant: 'general', knob: 'spec.initContainers' },
  ],
  'Ray object store': [
    { line: RAY, mechanism: 'shm-exhausted', variant: 'default', knob: 'volumeMounts', data: { want: '10.24 GB', limit: '8.0 GB' } },
    {
      line: RAY,
      mechanism: 'shm-exhausted',
      variant: 'sized',
      knob: 'spec.volumes[dshm].emptyDir.sizeLimit',
      container: { volumeMounts: [{ name: 'dshm', mountPath: '/dev/shm' }] },
      spec: { volumes: [{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '8G' } }] },
    },
  ],
  'Nextcloud config directory': [
    { line: NEXTCLOUD, mechanism: 'app-config-dir-not-writable', variant: 'general', knob: 'spec.securityContext.fsGroup' },
    {
      line: NEXTCLOUD,
      mechanism: 'app-config-dir-not-writable',
      variant: 'nextcloud-volume',
      knob: 'spec.initContainers',
      container: { volumeMounts: [{ name: 'nextcloud-main', mountPath: '/var/www/html', subPath: 'html' }] },
      spec: { volumes: [pvc('nextcloud-main', 'nextcloud-nextcloud')] },
    },
    {
      line: "Can't write into config directory!",
      mechanism: 'app-config-dir-not-writable',
      variant: 'nextcloud-configmap',
      knob: 'spec.securityContext.fsGroup',
      container: {
        volumeMounts: [
          { name: 'nextcloud-main', mountPath: '/var/www/html', subPath: 'html' },
          { name: 'nextcloud-config', mountPath: '/var/www/html/config/custom.config.php', subPath: 'custom.config.php' },
        ],
      },
      spec: { volumes: [pvc('nextcloud-main', 'nextcloud-nextcloud'), { name: 'nextcloud-config', configMap: { name: 'nextcloud-config' } }] },
    },
  ],
  'JupyterHub proxy token': [
    {
      line: JUPYTERHUB,
      mechanism: 'peer-token-mismatch',
      variant: 'jupyterhub-from-secret',
      knob: 'the proxy Deployment',
      container: {
        env: [{ name: 'CONFIGPROXY_AUTH_TOKEN', valueFrom: { secretKeyRef: { name: 'hub', key: 'hub.config.ConfigurableHTTPProxy.auth_token' } } }],
      },
    },
    { line: JUPYTERHUB, mechanism: 'peer-token-mismatch', variant: 'jupyterhub-generated', knob: '.env CONFIGPROXY_AUTH_TOKEN' },
  ],
  'MLflow backend store': [
    {
      line: MLFLOW,
      mechanism: 'schema-migration-pending',
      variant: 'mlflow',
      knob: 'spec.initContainers',
      data: { found: '5b0e9adcef9c', expected: '4465047574b1' },
    },
    {
      line: 'MlflowException: Detected out-of-date database schema (found version bd07f7e963c5, but expected cc1f77228345).',
      mechanism: 'schema-migration-pending',
      variant: 'mlflow',
      knob: '.image',
      data: { found: 'bd07f7e963c5' },
    },
  ],
  'Nexus and Gitea data directories': [
    {
      line: 'Unable to update instance pid: Unable to create directory /nexus-data/instances',
      mechanism: 'fs-permission',
      variant: 'volume-ownership',
      knob: 'spec.securityContext.fsGroup',
      container: { volumeMounts: [{ name: 'nexus-data', mountPath: '/nexus-data' }] },
      spec: { volumes: [pvc('nexus-data', 'nexus-data')] },
      data: { path: '/nexus-data/instances' },
    },
    {
      line: '/var/lib/gitea/git is not writable',
      mechanism: 'fs-permission',
      variant: 'volume-ownership',
      knob: 'spec.securityContext.fsGroup',
      container: { volumeMounts: [{ name: 'data', mountPath: '/var/lib/gitea' }] },
      spec: { volumes: [pvc('data', 'gitea-shared-storage')] },
    },
    { line: '/var/lib/gitea/git is not writable', mechanism: 'fs-permission', variant: 'general', knob: 'securityContext.runAsUser' },
  ],
});

describe('platform readings name the setting and the limit around the line', () => {
  it('an executor killed under the Spark operator names the SparkApplication field, not spark-submit', () => {
    const base = scopeOf();
    const scope = { ...base, pod: { ...base.pod, metadata: { ...base.pod.metadata, labels: { 'sparkoperator.k8s.io/app-name': 'etl' } } } };
    const r = readTexts([{ text: SPARK_137, source: 'logs spark-kubernetes-driver' }], scope);
    expect(r?.variant).toBe('spark-operator');
    expect(r?.knobPaths[0]).toBe('SparkApplication spec.executor.memoryOverhead');
    expect(r?.summary).toBe('a Spark executor was killed at its pod memory limit (exit code 137)');
    expect(r?.data).toMatchObject({ id: '32' });
  });
  it("a Flink TaskManager's reading states the container's memory limit and quotes it as evidence", () => {
    const r = readTexts([{ text: FLINK_TM, source: 'logs taskmanager' }], scopeOf({ resources: { limits: { memory: '2Gi' } } }));
    expect(r?.explanation).toContain('its memory limit is 2Gi');
    expect(r?.evidence.map((e) => e.text)).toContain('2Gi');
  });
  it("Ray's fallback warning (object store on /tmp) is not read as shared memory exhausted", () => {
    const warning =
      '2025-01-14 03:08:29,081\tWARNING services.py:2022 -- WARNING: The object store is using /tmp instead of /dev/shm because /dev/shm has only ' +
      '67108864 bytes available. This will harm performance! You may be able to free up space by deleting files in /dev/shm.';
    expect(readTexts([{ text: warning, source: 'logs ray-head' }], scopeOf())?.mechanism).not.toBe('shm-exhausted');
  });
  it('a Gitea path check on another directory than its own is not read', () => {
    expect(readTexts([{ text: '/data/gitea is not writable', source: 'logs gitea' }], scopeOf())).toBeUndefined();
  });
});
