// Log pipelines and workflow platforms as their pods fail (src/diagnosis/mechanisms/catalogue/pipelines.ts), and the lines of
// the family that the errno signatures read already (Vector's data_dir, Promtail's positions file, the Thanos compactor's disk);
// Fluentd's Ruby errno wording, read with its path here.
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { describeFamilies, scopeOf } from '../helpers/mechanism-table.js';

const varLog = (readOnly: boolean) => ({
  container: { volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly }] },
  spec: { volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }] },
});

describeFamilies({
  'Fluent Bit tail input': [
    {
      line: '[2024/02/08 09:29:20] [error] [input:tail:restic] read error, check permissions: /var/log/containers/restic*',
      mechanism: 'node-logs-unreadable',
      variant: 'not-mounted',
      knob: 'hostPath',
      data: { dir: '/var/log/containers' },
    },
    {
      line: '[error] [in_tail] read error, check permissions: /var/log/containers/*.log',
      mechanism: 'node-logs-unreadable',
      variant: 'non-root',
      knob: 'securityContext.runAsUser',
      container: { ...varLog(true).container, securityContext: { runAsUser: 1000 } },
      spec: varLog(true).spec,
      data: { uid: 1000 },
    },
    {
      line: '[2022/05/24 00:46:18] [error] [input:tail:tail.0] read error, check permissions: /var/log/containers/*/custom*.log',
      mechanism: 'node-logs-unreadable',
      variant: 'general',
      knob: 'volumeMounts',
      ...varLog(true),
    },
  ],
  'Fluent Bit offsets database': [
    {
      line: '[2022/03/25 09:51:42] [error] [sqldb] cannot open database /var/log/flb_kube.db',
      mechanism: 'collector-state-unwritable',
      variant: 'read-only-mount',
      knob: 'volumeMounts[varlog].readOnly',
      ...varLog(true),
      data: { path: '/var/log/flb_kube.db', volume: 'varlog' },
    },
    {
      line: '[2022/01/13 19:32:37] [error] [sqldb] cannot open database /app/flb.db',
      mechanism: 'collector-state-unwritable',
      variant: 'read-only-root',
      knob: 'hostPath',
      container: { securityContext: { readOnlyRootFilesystem: true } },
    },
    {
      line: "[error] [input:systemd:systemd.0] could not open/create database '/fluent-bit/tail/systemd.db'",
      mechanism: 'collector-state-unwritable',
      variant: 'general',
      knob: 'the input DB key',
      data: { path: '/fluent-bit/tail/systemd.db' },
    },
  ],
  'Fluent Bit kubernetes filter': [
    {
      line: '[2020/11/09 21:13:56] [error] [TLS] Invalid CA file: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
      mechanism: 'service-account-token-missing',
      variant: 'pod',
      knob: 'spec.automountServiceAccountToken',
      spec: { automountServiceAccountToken: false },
    },
    {
      line: '[2020/11/09 21:13:56] [ warn] [filter:kubernetes:kubernetes.0] cannot open /var/run/secrets/kubernetes.io/serviceaccount/namespace',
      mechanism: 'service-account-token-missing',
      variant: 'service-account',
      knob: 'automountServiceAccountToken',
    },
  ],
  'Fluentd output buffer': [
    {
      line:
        '2016-09-08 17:41:16 +0000 [warn]: emit transaction failed: error_class=Fluent::Plugin::Buffer::BufferOverflowError ' +
        'error="buffer space has too many data" tag="fluent.warn"',
      mechanism: 'output-buffer-full',
      variant: 'general',
      knob: 'total_limit_size',
    },
    {
      line: 'emit transaction failed: error_class=Fluent::Plugin::Buffer::BufferOverflowError error="buffer space has too many data"',
      mechanism: 'output-buffer-full',
      variant: 'sized-empty-dir',
      knob: 'spec.volumes[buffer].emptyDir.sizeLimit',
      container: { volumeMounts: [{ name: 'buffer', mountPath: '/var/log/fluentd-buffers' }] },
      spec: { volumes: [{ name: 'buffer', emptyDir: { sizeLimit: '1Gi' } }] },
      data: { sizeLimit: '1Gi' },
    },
  ],
  'Airflow metadata database': [
    {
      line: 'ERROR: You need to initialize the database. Please run `airflow db migrate`. Make sure the command is run using Airflow version 3.0.3.',
      mechanism: 'schema-not-migrated',
      variant: 'never-initialized',
      knob: 'migrateDatabaseJob.enabled',
      data: { version: '3.0.3' },
    },
    {
      line: "ERROR: You need to upgrade the database. Please run 'airflow db upgrade'. Make sure the command is run using Airflow version 2.5.1.",
      mechanism: 'schema-not-migrated',
      variant: 'older-schema',
      knob: 'migrateDatabaseJob.enabled',
      data: { version: '2.5.1' },
    },
  ],
  'Airflow Fernet key': [
    {
      line: 'cryptography.fernet.InvalidToken',
      mechanism: 'encryption-key-mismatch',
      variant: 'airflow',
      knob: 'fernetKeySecretName',
      container: { image: 'apache/airflow:2.9.3' },
    },
    {
      line: 'cryptography.fernet.InvalidToken',
      mechanism: 'encryption-key-mismatch',
      variant: 'general',
      knob: 'env[].valueFrom.secretKeyRef',
    },
    {
      line:
        'airflow.exceptions.AirflowException: Could not create Fernet object: Invalid base64-encoded string: ' +
        'number of data characters (53) cannot be 1 more than a multiple of 4',
      mechanism: 'app-secret-key-invalid',
      variant: 'fernet-malformed',
      knob: 'AIRFLOW__CORE__FERNET_KEY',
    },
  ],
  'Airflow webserver secret_key': [
    {
      line:
        "*** !!!! Please make sure that all your Airflow components (e.g. schedulers, webservers and workers) have the same 'secret_key' configured " +
        "in 'webserver' section !!!!!",
      mechanism: 'encryption-key-mismatch',
      variant: 'airflow-webserver-secret-key',
      knob: 'AIRFLOW__WEBSERVER__SECRET_KEY',
      container: { image: 'apache/airflow:2.4.0' },
    },
  ],
  'Superset SECRET_KEY': [
    {
      line: 'Refusing to start due to insecure SECRET_KEY',
      mechanism: 'app-secret-key-invalid',
      variant: 'superset-default',
      knob: 'extraSecretEnv.SUPERSET_SECRET_KEY',
      data: { flaskDebug: 'not set' },
    },
  ],
  'Mimir and Tempo gossip ring': [
    {
      line:
        'ts=2023-10-31T08:36:21.539569082Z caller=mimir.go:802 level=error msg="module failed" module=store-queryable err="failed to start ' +
        'store-queryable, because it depends on module memberlist-kv, which has failed: failed to create memberlist: Failed to get final advertise ' +
        'address: no private IP address found, and explicit IP not provided"',
      mechanism: 'memberlist-advertise-address',
      variant: 'dskit',
      knob: 'status.podIP',
      data: { podIp: 'not set' },
    },
    {
      line: 'Failed to get final advertise address: no private IP address found, and explicit IP not provided',
      mechanism: 'memberlist-advertise-address',
      variant: 'general',
      knob: 'status.podIP',
    },
  ],
  // The same family's lines with an errno text: read by the errno signatures, with the pod's mounts choosing the variant.
  'Fluentd, Vector, Promtail and Thanos state on disk': [
    {
      line:
        '2022-07-08T11:14:12.522784Z ERROR vector::topology: Configuration error. error=Source "billing_golang_logs": Could not create subdirectory ' +
        '"billing_golang_logs" inside of data dir "/var/lib/vector/": Read-only file system (os error 30)',
      mechanism: 'fs-read-only',
      variant: 'read-only-mount',
      knob: 'readOnly',
      container: { volumeMounts: [{ name: 'var-lib', mountPath: '/var/lib', readOnly: true }] },
      spec: { volumes: [{ name: 'var-lib', hostPath: { path: '/var/lib' } }] },
    },
    {
      line:
        '2019-06-10 16:44:01 +0000 [error]: unexpected error error_class=Errno::EACCES ' +
        'error=#<Errno::EACCES: Permission denied @ rb_sysopen - /var/log/fluentd-containers.log.pos>',
      mechanism: 'fs-permission',
      variant: 'host-path',
      knob: '/var/log',
      container: { ...varLog(false).container, securityContext: { runAsUser: 999 } },
      spec: varLog(false).spec,
    },
    {
      line:
        'level=error ts=2021-07-22T17:16:57.788398934Z caller=positions.go:175 msg="error writing positions file" ' +
        'error="open /run/promtail/positions.yaml-new: permission denied"',
      mechanism: 'fs-permission',
      variant: 'host-path',
      knob: '/run/promtail',
      container: { volumeMounts: [{ name: 'run', mountPath: '/run/promtail' }], securityContext: { runAsUser: 10001 } },
      spec: { volumes: [{ name: 'run', hostPath: { path: '/run/promtail' } }] },
    },
    {
      line:
        'level=error ts=2020-06-08T09:23:41.75276586Z caller=main.go:194 msg="running command failed" err="error executing compaction: compaction failed: ' +
        'download block 01E7S5DQBTVTN3N7S210CC340H: copy object to file: write /data/compact/0@958061825840561885/01E7S5DQBTVTN3N7S210CC340H/chunks/000001: ' +
        'no space left on device"',
      mechanism: 'disk-full',
      variant: 'claim',
      knob: 'resources.requests.storage',
      container: { volumeMounts: [{ name: 'data', mountPath: '/data' }] },
      spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-thanos-compact-0' } }] },
    },
  ],
});

describe('pipelines: what the readings say', () => {
  const read = (line: string, container = {}, spec = {}) => readTexts([{ text: line, source: 'logs app' }], scopeOf(container, spec));

  it('names the Fernet key Secret the Airflow container reads', () => {
    const r = read('cryptography.fernet.InvalidToken', {
      image: 'apache/airflow:2.9.3',
      env: [{ name: 'AIRFLOW__CORE__FERNET_KEY', valueFrom: { secretKeyRef: { name: 'airflow-fernet-key', key: 'fernet-key' } } }],
    });
    expect(r?.explanation).toContain('Secret airflow-fernet-key (key fernet-key)');
  });

  it('quotes the read-only mount that holds the Fluent Bit database', () => {
    const { container, spec } = varLog(true);
    const r = read('[error] [sqldb] cannot open database /var/log/flb_kube.db', container, spec);
    expect(r?.evidence.map((e) => e.text).join(' ')).toContain('readOnly: true');
  });

  it('leaves the warning after a tail read error and a locked database to others', () => {
    expect(read('[2022/05/25 09:51:58] [ warn] [input:tail:tail.0] error scanning path: /var/log/containers/*/custom*.log')?.signature).toBeUndefined();
    expect(read('[2018/12/14 06:09:27] [error] [sqldb] error=database is locked')?.mechanism).not.toBe('collector-state-unwritable');
  });
});
