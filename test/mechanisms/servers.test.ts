// Servers' start-up checks and fatal messages (src/diagnosis/mechanisms/catalogue/servers.ts): each
// line, the mechanism and variant it means for a pod spec, and the knob with its path; then what the
// readings say (the path, the ids, the limit) and the look-alike lines they leave alone.
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { type ContainerPatch, describeFamilies, type Row, scopeOf } from '../helpers/mechanism-table.js';

const RABBIT_HOME: ContainerPatch = { volumeMounts: [{ name: 'data', mountPath: '/var/lib/rabbitmq' }] };
const RABBIT_DATA = { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-rabbitmq-0' } }] };
const COOKIE_SECRET: ContainerPatch = { volumeMounts: [{ name: 'cookie', mountPath: '/var/lib/rabbitmq/.erlang.cookie', subPath: 'cookie' }] };
const KAFKA_DATA: ContainerPatch = { volumeMounts: [{ name: 'data', mountPath: '/var/lib/kafka' }] };

const COOKIE_MODE =
  '2026-06-26 07:47:51.310055+00:00 [error] <0.151.0>     reason: {"Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only",';
const KRAFT =
  'org.apache.kafka.common.KafkaException: No `meta.properties` found in /var/lib/kafka/data (have you run `kafka-storage.sh` to format the directory?)';
const PHP =
  'PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) in /var/www/html/src/dba/Util.class.php on line 24';

const FAMILIES: Record<string, Row[]> = {
  'erlang cookie': [
    {
      line: COOKIE_MODE,
      mechanism: 'erlang-cookie',
      variant: 'mode-fs-group',
      knob: 'spec.securityContext.fsGroupChangePolicy',
      container: RABBIT_HOME,
      spec: { ...RABBIT_DATA, securityContext: { fsGroup: 999 } },
      data: { path: '/var/lib/rabbitmq/.erlang.cookie', fsGroupNow: '999', volume: 'data' },
    },
    {
      line: 'Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only',
      mechanism: 'erlang-cookie',
      variant: 'mode-secret',
      knob: 'spec.volumes[cookie].secret.defaultMode',
      container: COOKIE_SECRET,
      spec: { volumes: [{ name: 'cookie', secret: { secretName: 'rabbitmq-cookie' } }] },
    },
    {
      line: 'Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only',
      mechanism: 'erlang-cookie',
      variant: 'mode',
      knob: 'spec.initContainers',
    },
    {
      line: "2020-06-15 13:03:33 [error] <0.1187.0> ** Connection attempt from node 'rabbitmqcli-99391-rabbit@warp10' rejected. Invalid challenge reply. **",
      mechanism: 'erlang-cookie',
      variant: 'cli-cookie',
      knob: 'readinessProbe / livenessProbe exec',
      data: { node: 'rabbitmqcli-99391-rabbit@warp10' },
    },
    {
      line: "2021-12-13T20:04:16.679935+08:00 [error] ** Connection attempt from node 'emqx@192.168.1.45' rejected. Invalid challenge reply. **",
      mechanism: 'erlang-cookie',
      variant: 'peer-cookie',
      knob: 'the Secret with the Erlang cookie',
    },
    {
      line: "Failed to create cookie file '/var/lib/rabbitmq/.erlang.cookie': eacces",
      mechanism: 'fs-permission',
      variant: 'volume-ownership',
      knob: 'spec.securityContext.fsGroup',
      container: RABBIT_HOME,
      spec: RABBIT_DATA,
      data: { path: '/var/lib/rabbitmq/.erlang.cookie' },
    },
  ],
  'cluster identity': [
    {
      line:
        "kafka.common.InconsistentClusterIdException: The Cluster ID gKMTPCdQQui26oDVZo-EMA doesn't match stored clusterId Some(K6-IRRUxSvW0GSLeNea0DA) " +
        'in meta.properties. The broker is trying to join the wrong cluster. Configured zookeeper.connect may be wrong.',
      mechanism: 'cluster-identity-mismatch',
      variant: 'kafka-cluster-id',
      knob: "ZooKeeper's StatefulSet volumeClaimTemplates",
      data: { now: 'gKMTPCdQQui26oDVZo-EMA', stored: 'K6-IRRUxSvW0GSLeNea0DA' },
    },
    {
      line: 'May 20 17:57:39 localhost etcd2[761]: member 51eecfc041171d8f has already been bootstrapped',
      mechanism: 'cluster-identity-mismatch',
      variant: 'etcd-bootstrapped',
      knob: 'etcdctl member remove 51eecfc041171d8f',
      data: { member: '51eecfc041171d8f' },
    },
    {
      line:
        "ERROR [main] 2016-03-18 10:29:30,328 CassandraDaemon.java:692 - Cannot start node if snitch's data center (datacenter1) differs from previous " +
        'data center (East_DC). Please fix the snitch configuration, decommission and rebootstrap this node or use the flag',
      mechanism: 'cluster-identity-mismatch',
      variant: 'cassandra-datacenter',
      knob: 'env CASSANDRA_DC',
      data: { now: 'datacenter1', stored: 'East_DC' },
    },
  ],
  'storage not prepared': [
    {
      line: KRAFT,
      mechanism: 'storage-not-prepared',
      variant: 'kafka-kraft-volume',
      knob: 'env CLUSTER_ID',
      container: KAFKA_DATA,
      spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-kafka-0' } }] },
      data: { path: '/var/lib/kafka/data', volume: 'data' },
    },
    { line: KRAFT, mechanism: 'storage-not-prepared', variant: 'kafka-kraft', knob: 'log.dirs (KAFKA_LOG_DIRS)' },
    {
      line: 'Caused by: java.lang.IllegalArgumentException: /var/lib/zookeeper/myid file is missing',
      mechanism: 'storage-not-prepared',
      variant: 'zookeeper-myid',
      knob: 'command + env ZOO_MY_ID',
      container: { env: [{ name: 'ZOO_MY_ID', value: '1' }] },
      data: { path: '/var/lib/zookeeper/myid', myId: '1' },
    },
  ],
  'framework settings': [
    {
      line: "Failed to configure a DataSource: 'url' attribute is not specified and no embedded datasource could be configured.",
      mechanism: 'framework-setting-missing',
      variant: 'spring-datasource',
      knob: 'env SPRING_DATASOURCE_URL',
      data: { profile: 'none' },
    },
    {
      line: "ArgumentError: Missing `secret_key_base` for 'production' environment, set this string with `bin/rails credentials:edit`",
      mechanism: 'framework-setting-missing',
      variant: 'rails-secret-key-base',
      knob: 'RAILS_MASTER_KEY',
      data: { railsEnv: 'production', masterKey: 'sets neither RAILS_MASTER_KEY nor SECRET_KEY_BASE' },
    },
    {
      line: 'django.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not be empty.',
      mechanism: 'framework-setting-missing',
      variant: 'django-secret-key',
      knob: 'env[].valueFrom.secretKeyRef',
    },
    {
      line:
        '2022-06-29 04:32:07,232 ERROR [org.keycloak.quarkus.runtime.cli.ExecutionExceptionHandler] (main) ERROR: Key material not provided to setup ' +
        'HTTPS. Please configure your keys/certificates or start the server in development mode.',
      mechanism: 'framework-setting-missing',
      variant: 'keycloak-https',
      knob: 'env KC_HTTP_ENABLED',
      container: { args: ['start', '--optimized'] },
      data: { mode: 'start (production mode)' },
    },
    {
      line: 'keycloak-1  | ERROR: hostname is not configured; either configure hostname, or set hostname-strict to false',
      mechanism: 'framework-setting-missing',
      variant: 'keycloak-hostname',
      knob: 'env KC_HOSTNAME',
    },
  ],
  'spring port': [
    {
      line: 'Web server failed to start. Port 8080 was already in use.',
      mechanism: 'port-in-use',
      variant: 'pod',
      knob: 'spec.containers[].ports',
      data: { port: '8080' },
    },
    {
      line: 'The Tomcat connector configured to listen on port 8080 failed to start. The port may already be in use or the connector may be misconfigured.',
      mechanism: 'port-in-use',
      variant: 'host-network',
      knob: 'spec.hostNetwork',
      spec: { hostNetwork: true },
    },
  ],
  'gunicorn worker timeout': [
    {
      line: '[2024-01-09 13:24:39 +0000] [1637] [CRITICAL] WORKER TIMEOUT (pid:7214)',
      mechanism: 'worker-timeout',
      variant: 'cpu-limited',
      knob: 'resources.limits.cpu',
      container: { resources: { limits: { cpu: '250m' } } },
      data: { cpu: '250m' },
    },
    { line: '[2024-11-05 09:25:59 +0000] [16] [CRITICAL] WORKER TIMEOUT (pid:17)', mechanism: 'worker-timeout', variant: 'general', knob: '--timeout' },
  ],
  'nginx server names hash': [
    {
      line: '2016/06/20 11:00:31 [emerg] 35#35: could not build server_names_hash, you should increase server_names_hash_bucket_size: 64',
      mechanism: 'nginx-hash-size',
      variant: 'ingress-controller',
      knob: 'server-name-hash-bucket-size',
      container: { image: 'registry.k8s.io/ingress-nginx/controller:v1.9.4' },
      data: { setting: 'server_names_hash_bucket_size' },
    },
    {
      line: 'nginx: [emerg] could not build server_names_hash, you should increase server_names_hash_bucket_size: 64',
      mechanism: 'nginx-hash-size',
      variant: 'config',
      knob: 'the http block of nginx.conf',
    },
  ],
  'apache envvars': [
    {
      line: 'apache2: Syntax error on line 80 of /etc/apache2/apache2.conf: DefaultRuntimeDir must be a valid directory, absolute or relative to ServerRoot',
      mechanism: 'apache-envvars',
      variant: 'command',
      knob: 'spec.containers[app].command',
      container: { command: ['apache2', '-DFOREGROUND'] },
      data: { command: 'apache2 -DFOREGROUND' },
    },
    {
      line: 'Invalid Mutex directory in argument file:$' + '{APACHE_LOCK_DIR}',
      mechanism: 'apache-envvars',
      variant: 'general',
      knob: 'command / args',
    },
  ],
  'minio root disk': [
    {
      line: 'Drive `/disk1/minio` is part of root drive, will not be used',
      mechanism: 'root-disk-refused',
      variant: 'node-disk',
      knob: "the volume's storage (StorageClass)",
      container: { volumeMounts: [{ name: 'disk1', mountPath: '/disk1' }] },
      spec: { volumes: [{ name: 'disk1', persistentVolumeClaim: { claimName: 'disk1-minio-0' } }] },
      data: { path: '/disk1/minio', volume: 'disk1' },
    },
    {
      line: 'Unable to use the drive http://172.168.2.27:9000/data/minio: drive is part of root drive, will not be used',
      mechanism: 'root-disk-refused',
      variant: 'not-mounted',
      knob: 'volumeMounts',
      data: { path: '/data/minio' },
    },
  ],
  'service links': [
    {
      line: 'org.apache.kafka.common.config.ConfigException: Invalid value tcp://10.0.35.234:9092 for configuration port: Not a number of type INT',
      mechanism: 'service-link-collision',
      variant: 'links-on',
      knob: 'spec.enableServiceLinks',
    },
    {
      line: 'port is deprecated. Please use KAFKA_ADVERTISED_LISTENERS instead.',
      mechanism: 'service-link-collision',
      variant: 'general',
      knob: 'env KAFKA_PORT',
      spec: { enableServiceLinks: false },
      data: { variable: 'KAFKA_PORT', service: 'kafka' },
    },
  ],
  'clickhouse data owner': [
    {
      line: "Application: DB::Exception: Effective user of the process (root) does not match the owner of the data (1000). Run under 'sudo -u 1000'.",
      mechanism: 'data-owner-mismatch',
      variant: 'root-process',
      knob: 'securityContext.runAsUser',
      container: { securityContext: { runAsUser: 0 } },
      data: { owner: '1000', asWhom: 'the pod sets runAsUser: 0' },
    },
    {
      line: "Application: DB::Exception: Effective user of the process (clickhouse) does not match the owner of the data (root). Run under 'sudo -u root'.",
      mechanism: 'data-owner-mismatch',
      variant: 'owner',
      knob: 'spec.initContainers',
      data: { user: 'clickhouse', owner: 'root' },
    },
  ],
  'php memory_limit': [
    {
      line: PHP,
      mechanism: 'php-memory-limit',
      variant: 'general',
      knob: '/usr/local/etc/php/conf.d',
      container: { resources: { limits: { memory: '1Gi' } } },
      data: { allowed: '128 MiB', limit: '1Gi' },
    },
    {
      line:
        'PHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in ' +
        'phar:///usr/local/bin/composer/src/Composer/DependencyResolver/RuleWatchGraph.php on line 52',
      mechanism: 'php-memory-limit',
      variant: 'composer',
      knob: 'env COMPOSER_MEMORY_LIMIT',
      data: { allowed: '1536 MiB' },
    },
  ],
};

describeFamilies(FAMILIES);

const read = (line: string, container: ContainerPatch = {}, spec = {}) => readTexts([{ text: line, source: 'logs app' }], scopeOf(container, spec));

describe('server readings in their own words', () => {
  it('names the fsGroup and the volume that made the cookie group-readable, with the init container that fixes it', () => {
    const r = read(COOKIE_MODE, RABBIT_HOME, { ...RABBIT_DATA, securityContext: { fsGroup: 999 } });
    expect(r?.explanation).toContain('fsGroup 999');
    expect(r?.explanation).not.toContain('Cookie file');
    expect(r?.knobs.join('\n')).toContain('spec.initContainers: chmod 600 /var/lib/rabbitmq/.erlang.cookie');
    expect(r?.evidence.map((e) => e.source)).toContain('pod.spec.securityContext.fsGroup');
  });

  it('says the data on the Kafka volume was never formatted and names the volume', () => {
    const r = read(KRAFT, KAFKA_DATA, { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-kafka-0' } }] });
    expect(r?.summary).toBe('Kafka (KRaft) finds no meta.properties in /var/lib/kafka/data: volume data was never formatted');
    expect(r?.evidence.some((e) => e.text.includes('persistentVolumeClaim data-kafka-0'))).toBe(true);
  });

  it("keeps PHP's own limit apart from the container's", () => {
    const r = read(PHP, { resources: { limits: { memory: '1Gi' } } });
    expect(r?.summary).toBe("a PHP script exceeded PHP's memory_limit (128 MiB)");
    expect(r?.explanation).toContain("the container's memory limit (1Gi) plays no part");
  });

  it('tells Rails apart by whether the pod passes the master key', () => {
    const line = "ArgumentError: Missing `secret_key_base` for 'production' environment, set this string with `bin/rails credentials:edit`";
    const r = read(line, { env: [{ name: 'RAILS_MASTER_KEY', valueFrom: { secretKeyRef: { name: 'rails', key: 'master.key' } } }] });
    expect(r?.explanation).toContain('the container sets RAILS_MASTER_KEY');
  });

  it('names the variable a Spring binding reports and the Service it comes from', () => {
    const text = [
      "Failed to bind properties under 'shenyu.metrics.port' to java.lang.Integer:",
      '    Property: shenyu.metrics.port',
      '    Value: "tcp://10.247.205.230:8090"',
      '    Origin: System Environment Property "SHENYU_METRICS_PORT"',
    ].join('\n');
    const r = readTexts([{ text, source: 'logs app' }], scopeOf());
    expect(r?.mechanism).toBe('service-link-collision');
    expect(r?.data).toMatchObject({ variable: 'SHENYU_METRICS_PORT', service: 'shenyu-metrics', value: 'tcp://10.247.205.230:8090' });
    expect(r?.knobs[0]).toBe('spec.enableServiceLinks: set false (the app finds Services by DNS name)');
  });

  it('leaves alone the look-alike lines of healthy servers', () => {
    for (const line of [
      '[2018-11-22 14:39:02,961] WARN No meta.properties file under dir /opt/bitnami/kafka/data/meta.properties (kafka.server.BrokerMetadataCheckpoint)',
      '2023-11-20 11:25:44,803 [myid:] - INFO  [main:QuorumPeerConfig@174] - Reading configuration from: /data/conf/zoo.cfg',
      'Missing Rails.application.secrets.secret_key_base for production environment. The secret will be generated and stored in config/secrets.yml.',
      "AH00558: apache2: Could not reliably determine the server's fully qualified domain name, using 10.1.0.5. Set the 'ServerName' directive " +
        'globally to suppress this message',
      '  ##  ##      RabbitMQ 3.7.15. Copyright (C) 2007-2019 Pivotal Software, Inc.',
      '2022-06-29 04:32:07,232 ERROR [org.keycloak.quarkus.runtime.cli.ExecutionExceptionHandler] (main) For more details run the same command ' +
        "passing the '--verbose' option. Also you can use '--help' to see the details about the usage of the particular command.",
      'nginx: [warn] could not build optimal server_names_hash, you should increase either server_names_hash_max_size: 512 or ' +
        'server_names_hash_bucket_size: 64; ignoring server_names_hash_bucket_size',
      '2016/06/20 11:00:31 [notice] 18#18: signal process started',
      'NEXTCLOUD_SERVER_PORT_80_TCP=tcp://10.152.183.46:80',
      ' * Effective user of the process (algunenano) does not match the owner of the data (root).',
    ]) {
      expect(read(line), line).toBeUndefined();
    }
  });
});
