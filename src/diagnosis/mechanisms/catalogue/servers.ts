// Server mechanisms: start-up checks and fatal messages of widely used servers and frameworks that
// the shared errno, TLS and DNS readings do not explain: the Erlang cookie of RabbitMQ, cluster
// identities recorded on a volume (Kafka, etcd, Cassandra), data directories that must be prepared
// before start (Kafka KRaft, ZooKeeper), settings a framework requires (Spring, Rails, Django,
// Keycloak), gunicorn's worker timeout, PHP's memory_limit, nginx's server names hash, Apache without
// its envvars, MinIO's root-disk refusal, ClickHouse's data owner and service-link variables that
// collide with an app's setting. Lines that mean an existing mechanism (Spring's port in use,
// RabbitMQ's cookie file it may not create) are mapped onto it.
import { envValue, fsGroup, memoryLimit, mountOf, runAsUser } from '../context.js';
import { data, mechanisms, mountFact, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** The names the container's env sets (literal or from a reference): a framework reads its setting from one of them. */
function envNames(ctx: ReadingContext): Set<string> {
  return new Set((ctx.container?.env ?? []).map((e) => e.name));
}

/** Whether the container sets an env var, by name (its value may come from a Secret). */
function setsEnv(ctx: ReadingContext, name: string): boolean {
  return envNames(ctx).has(name);
}

/** The cookie file a line names, else RabbitMQ's default. */
function cookiePath(ctx: ReadingContext): string {
  return ctx.groups.path ?? '/var/lib/rabbitmq/.erlang.cookie';
}

/** Bytes as MiB for a sentence (`134217728` → `128 MiB`). */
function mib(bytes: string | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  const n = Number(bytes);
  return Number.isFinite(n) && n > 0 ? `${Math.round(n / 1048576)} MiB` : undefined;
}

/** The CPU limit as written (`500m`), if any. */
function cpuLimit(ctx: ReadingContext): string | undefined {
  const v = ctx.container?.resources?.limits?.cpu;
  return v === undefined ? undefined : String(v);
}

/** A MinIO drive as a local path (`http://host:9000/data/minio` → `/data/minio`). */
function localPath(path: string | undefined): string | undefined {
  return path?.replace(/^https?:\/\/[^/]+/, '').replace(/\/+$/, '') || undefined;
}

/** Keycloak's start command in the container's command/args: `start` (production) or `start-dev`. */
function keycloakMode(ctx: ReadingContext): string {
  const words = [...(ctx.container?.command ?? []), ...(ctx.container?.args ?? [])];
  if (words.includes('start-dev')) return 'start-dev';
  return words.includes('start') ? 'start (production mode)' : "the image's default command";
}

/** The variable a Spring binding names (`Origin: System Environment Property "RABBITMQ_PORT"`), in the line or the lines after it. */
const ORIGIN_VAR = /System Environment Property \\?"(\w+)\\?"/;

/** What a service-link collision names: the variable, its tcp:// value, and the Service its name comes from. */
function linkData(ctx: ReadingContext) {
  const g = ctx.groups;
  const fromOrigin = [ctx.line, ...ctx.around].map((l) => ORIGIN_VAR.exec(l)?.[1]).find(Boolean);
  const fromWant = g.want === undefined ? undefined : g.want.replace(/_(?:ADVERTISED_)?LISTENERS$/, '_PORT');
  const variable = fromOrigin ?? fromWant ?? 'a <SERVICE>_PORT variable';
  const service = variable.endsWith('_PORT') ? variable.slice(0, -'_PORT'.length).toLowerCase().replace(/_/g, '-') : 'named like the app';
  return data({ variable, service, value: g.ip === undefined ? 'tcp://<cluster IP>:<port>' : `tcp://${g.ip}:${g.port}` });
}

export const MECHANISMS = mechanisms([
  {
    id: 'erlang-cookie',
    kind: 'setting',
    resource: 'the Erlang distribution cookie',
    doc:
      'Erlang nodes (RabbitMQ, its CLI tools, EMQX, Elixir releases) authenticate each other with a shared cookie kept in ~/.erlang.cookie. The ' +
      'runtime refuses to start when that file is readable by anyone but its owner, and a node rejects peers and CLI tools whose cookie differs.',
    variants: [
      {
        id: 'mode-fs-group',
        when: (ctx) => {
          const g = fsGroup(ctx);
          const path = cookiePath(ctx);
          const m = mountOf(ctx, path);
          return /accessible by owner only/i.test(ctx.line) && g !== undefined && !!m?.kind && { path, fsGroupNow: String(g), volume: m.mount.name };
        },
        summary: 'the Erlang cookie {{path}} is group-readable: fsGroup {{fsGroupNow}} adds group access on volume {{volume}}',
        explain:
          'The Erlang runtime reads its cookie {{path}} only when no one but the owner may access it (mode 0600 or 0400). The file lies on volume ' +
          '"{{volume}}", and the pod sets fsGroup {{fsGroupNow}}: the kubelet then gives the group read and write on every file of the volume when it ' +
          'mounts it, so the cookie the image wrote 0600 becomes 0660 and the node stops at start.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.initContainers',
            change: 'chmod 600 {{path}} (or copy the cookie from its Secret there with mode 0600) after the volume is mounted, before RabbitMQ starts',
          },
          {
            place: 'pod',
            path: 'spec.securityContext.fsGroupChangePolicy',
            change: 'OnRootMismatch, so the kubelet stops changing the files once the volume root has the group',
          },
        ],
        facts: (ctx, d) => [specFact(ctx, 'spec.securityContext.fsGroup', String(d.fsGroupNow)), ...mountFact(ctx, String(d.path))],
      },
      {
        id: 'mode-secret',
        when: (ctx) => {
          const path = cookiePath(ctx);
          const m = mountOf(ctx, path);
          return (
            /accessible by owner only/i.test(ctx.line) &&
            !!m?.kind &&
            ['secret', 'projected', 'configMap'].includes(m.kind) && { path, volume: m.mount.name, volumeKind: m.kind }
          );
        },
        summary: 'the Erlang cookie {{path}} comes from {{volumeKind}} volume {{volume}} with a mode others may read',
        explain:
          'The Erlang runtime reads its cookie {{path}} only when no one but the owner may access it, and the file comes from {{volumeKind}} volume ' +
          '"{{volume}}": its files are owned by root with the volume\'s defaultMode (0644 unless set, with group read added under fsGroup), so the ' +
          "check fails (and a 0400 root-owned file is unreadable for the server's user).",
        knobs: [
          {
            place: 'pod',
            path: 'spec.initContainers',
            change: "copy the cookie from the Secret to the server's home with mode 0600 and the server's owner (what the RabbitMQ operator and charts do)",
          },
          { place: 'pod', path: 'spec.volumes[{{volume}}].{{volumeKind}}.defaultMode', change: 'or 0400 (256 in JSON) when the server runs as root' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'mode',
        when: (ctx) => /accessible by owner only/i.test(ctx.line) && { path: cookiePath(ctx) },
        summary: 'the Erlang cookie {{path}} is readable by others than its owner',
        explain:
          'The Erlang runtime reads its cookie {{path}} only when no one but the owner may access it (mode 0600 or 0400), and the file allows more: ' +
          'it was written by another tool or user, or it lies on storage that does not keep Unix modes (a Windows or NFS-backed directory).',
        knobs: [
          { place: 'pod', path: 'spec.initContainers', change: 'chmod 600 {{path}} and give it the server user before the server starts' },
          { place: 'cluster', path: "the volume's storage", change: 'keep the home directory on storage that keeps Unix modes' },
        ],
      },
      {
        id: 'cli-cookie',
        when: (ctx) => {
          const node = ctx.groups.node ?? '';
          return /^(?:rabbitmqcli|rabbit_ctl|rabbitmq-cli)/i.test(node) && { node };
        },
        summary: 'a RabbitMQ CLI tool ({{node}}) uses another Erlang cookie than the server',
        explain:
          'The server rejected {{node}}, a rabbitmqctl or rabbitmq-diagnostics process (a probe, a script, kubectl exec), because its cookie differs: ' +
          "the CLI reads ~/.erlang.cookie of the user that runs it, and that user's HOME is not the server's (/var/lib/rabbitmq), or " +
          'RABBITMQ_ERLANG_COOKIE is set for one and not the other.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.readinessProbe / livenessProbe exec',
            change: "run the CLI as the server's user with HOME=/var/lib/rabbitmq (or pass --erlang-cookie from the same Secret)",
          },
        ],
      },
      {
        id: 'peer-cookie',
        when: (ctx) => ({ nodeLabel: ctx.groups.node ? ` (${ctx.groups.node})` : '' }),
        summary: 'a peer node{{nodeLabel}} presents another Erlang cookie',
        explain:
          'Nodes of one cluster must share one cookie, and a peer presented another, so the handshake fails and the cluster does not form. In a ' +
          'StatefulSet each pod generates its own cookie when none is provided, and a chart that makes a random one regenerates it on every upgrade.',
        knobs: [
          {
            place: 'cluster',
            path: 'the Secret with the Erlang cookie',
            change: "give every pod the same cookie from one Secret (the chart's fixed auth.erlangCookie / rabbitmqErlangCookie)",
          },
          { place: 'pod', path: '{{containerPath}}.env RABBITMQ_ERLANG_COOKIE', change: 'or the cookie file each pod copies from it' },
        ],
      },
    ],
  },
  {
    id: 'cluster-identity-mismatch',
    kind: 'setting',
    resource: 'the cluster identity recorded on the volume',
    doc:
      'A clustered server records on its volume which cluster (and data centre, member) it belongs to, and refuses to start when the cluster it ' +
      'now finds says otherwise: the other side lost its state (kept on an emptyDir, a volume recreated) or the pod points at another cluster.',
    variants: [
      {
        id: 'kafka-cluster-id',
        when: (ctx) =>
          /InconsistentClusterIdException|doesn't match stored clusterId/i.test(ctx.line) && data({ now: ctx.groups.now, stored: ctx.groups.stored }),
        summary: "the broker's volume belongs to cluster {{stored}}, ZooKeeper now says {{now}}",
        explain:
          'A Kafka broker writes the cluster ID it joined into meta.properties in its log directories, and ZooKeeper now reports another one: ' +
          "ZooKeeper's data was lost and it made a new cluster (it kept /data on an emptyDir or its volume was recreated), or zookeeper.connect " +
          'points at another ensemble or chroot. The broker stops rather than mix its data into another cluster.',
        knobs: [
          {
            place: 'cluster',
            path: "ZooKeeper's StatefulSet volumeClaimTemplates",
            change: 'keep its data dir and dataLogDir on persistent volumes, so the cluster ID survives restarts',
          },
          {
            place: 'app',
            path: "meta.properties in the broker's log.dirs",
            change: 'if the old data is disposable, delete it (or set its cluster.id to {{now}}) so the broker joins the new cluster',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.env zookeeper.connect (KAFKA_ZOOKEEPER_CONNECT)',
            change: 'or point it back at the original ensemble and chroot',
          },
        ],
      },
      {
        id: 'etcd-bootstrapped',
        when: (ctx) => /has already been bootstrapped/i.test(ctx.line) && data({ member: ctx.groups.member }),
        summary: 'etcd member {{member}} is already in the cluster, but its data directory is new',
        explain:
          'The cluster already lists member {{member}}, and this pod starts it as a new member (an empty data dir with --initial-cluster-state new): ' +
          'its data directory was lost (an emptyDir, a recreated volume), so it cannot rejoin under the old identity.',
        knobs: [
          {
            place: 'cluster',
            path: "the etcd StatefulSet's volumeClaimTemplates",
            change: 'keep --data-dir on a persistent volume, so a restarted member keeps its identity',
          },
          {
            place: 'app',
            path: 'etcdctl member remove {{member}} + member add',
            change: 'to recover: remove the stale member, add it again, and start it with --initial-cluster-state existing (ETCD_INITIAL_CLUSTER_STATE)',
          },
        ],
      },
      {
        id: 'cassandra-datacenter',
        when: (ctx) => /differs from previous data center/i.test(ctx.line) && data({ now: ctx.groups.now, stored: ctx.groups.stored }),
        summary: "Cassandra's snitch now says data centre {{now}}, the node's data says {{stored}}",
        explain:
          'A Cassandra node records its data centre in its system keyspace on first start, and its snitch now reports {{now}} instead of {{stored}}: ' +
          'the env or cassandra-rackdc.properties changed (or was never applied to the first start), and a node may not move between data centres.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env CASSANDRA_DC (cassandra-rackdc.properties dc=)',
            change: 'set it back to {{stored}}, the data centre the data was written in',
          },
          {
            place: 'app',
            path: 'JVM_EXTRA_OPTS -Dcassandra.ignore_dc=true',
            change: 'only for a node that really moves: decommission and re-bootstrap it instead where data matters',
          },
        ],
      },
      {
        id: 'general',
        summary: "the volume's data belongs to another cluster than the one the server finds",
        explain:
          'The server recorded on its volume the cluster it belongs to, and the cluster it finds now is another: the other side lost its state, ' +
          'or the pod points at another cluster.',
        knobs: [
          { place: 'cluster', path: 'the volumes of every member', change: 'keep all members on persistent volumes' },
          { place: 'app', path: "the server's cluster settings", change: 'point the pod at the cluster its data belongs to' },
        ],
      },
    ],
  },
  {
    id: 'storage-not-prepared',
    kind: 'setting',
    resource: 'a data directory prepared before the server starts',
    doc:
      'Some servers start only on a data directory that a separate step prepared: Kafka in KRaft mode on log directories formatted by ' +
      'kafka-storage.sh (meta.properties), a ZooKeeper ensemble member on a dataDir holding its myid file.',
    variants: [
      {
        id: 'kafka-kraft-volume',
        when: (ctx) => {
          if (!/meta\.properties/i.test(ctx.line)) return false;
          const path = ctx.groups.path;
          const m = mountOf(ctx, path);
          return !!path && !!m?.kind && { path, volume: m.mount.name, mountPath: m.mount.mountPath };
        },
        summary: 'Kafka (KRaft) finds no meta.properties in {{path}}: volume {{volume}} was never formatted',
        explain:
          'In KRaft mode a broker or controller starts only on log directories that kafka-storage.sh format prepared (meta.properties with the ' +
          'cluster ID and node ID). {{path}} lies on volume "{{volume}}" mounted at {{mountPath}}, which is new or empty, and nothing formats it ' +
          'before the server starts (a format done in the image is hidden by the mount).',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env CLUSTER_ID (apache/kafka) / KAFKA_KRAFT_CLUSTER_ID (bitnami)',
            change: "set the cluster ID so the image's entrypoint formats empty log directories itself",
          },
          {
            place: 'pod',
            path: 'spec.initContainers',
            change: 'or run kafka-storage.sh format --ignore-formatted -t <cluster id> -c <server.properties> on the volume first',
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'kafka-kraft',
        when: (ctx) => /meta\.properties/i.test(ctx.line) && { path: ctx.groups.path ?? 'the log directory' },
        summary: 'Kafka (KRaft) finds no meta.properties in {{path}}: the storage was never formatted',
        explain:
          'In KRaft mode a broker or controller starts only on log directories that kafka-storage.sh format prepared (meta.properties with the ' +
          'cluster ID and node ID), and {{path}} was not formatted: the command starts kafka-server-start.sh directly, or log.dirs points elsewhere ' +
          'than the directory that was formatted.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env CLUSTER_ID (apache/kafka) / KAFKA_KRAFT_CLUSTER_ID (bitnami)',
            change: "set the cluster ID and keep the image's entrypoint, which formats empty log directories",
          },
          { place: 'app', path: 'log.dirs (KAFKA_LOG_DIRS)', change: 'or point it at the formatted directory, the one on the volume' },
        ],
      },
      {
        id: 'zookeeper-myid',
        when: (ctx) => /myid file is missing/i.test(ctx.line) && { path: ctx.groups.path ?? 'dataDir/myid', myId: envValue(ctx, 'ZOO_MY_ID') ?? 'not set' },
        summary: 'ZooKeeper finds no {{path}}: the member does not know its server id',
        explain:
          'A ZooKeeper ensemble member (zoo.cfg lists server.N lines) reads its id from the myid file in its dataDir, and {{path}} does not exist: ' +
          'the official image writes it from ZOO_MY_ID (here {{myId}}) only when it starts through its entrypoint, and a new volume over dataDir ' +
          'starts empty.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.command + env ZOO_MY_ID',
            change:
              "derive it in the container's command from the StatefulSet ordinal (the number ending the pod name) + 1: " +
              'a literal env value is the same for every pod',
          },
          { place: 'pod', path: 'spec.initContainers', change: 'or write the ordinal + 1 to {{path}} on the data volume before ZooKeeper starts' },
        ],
      },
      {
        id: 'general',
        summary: 'the data directory was not prepared for this server',
        explain: 'The server starts only on a data directory a separate step prepared (formatted, given its id), and this one was not.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.initContainers',
            change: "prepare the directory on the volume before the server starts (the image's documented init step)",
          },
        ],
      },
    ],
  },
  {
    id: 'framework-setting-missing',
    kind: 'setting',
    resource: 'a setting the framework requires at start',
    doc:
      "A framework stops at start because a setting it requires is missing: Spring Boot's datasource URL, Rails' secret_key_base, Django's " +
      "SECRET_KEY, Keycloak's TLS key material or hostname in production mode. The framework names its own setting; the env var that sets it " +
      'is spelled by the framework (relaxed binding, KC_*, RAILS_MASTER_KEY), not by an entrypoint script.',
    variants: [
      {
        id: 'spring-datasource',
        when: (ctx) =>
          /Failed to configure a DataSource/i.test(ctx.line) && {
            profile: envValue(ctx, 'SPRING_PROFILES_ACTIVE') ?? (setsEnv(ctx, 'SPRING_PROFILES_ACTIVE') ? 'from a reference' : 'none'),
          },
        summary: 'Spring Boot has a JPA/JDBC starter but no spring.datasource.url',
        explain:
          'The application has a JDBC or JPA starter on its classpath, so Spring Boot must build a DataSource, and no spring.datasource.url is set ' +
          '(and no embedded database is on the classpath). The database settings usually live in a profile that is not active in the pod ' +
          '(SPRING_PROFILES_ACTIVE: {{profile}}) or in env vars the pod does not set.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env SPRING_DATASOURCE_URL / SPRING_DATASOURCE_USERNAME / SPRING_DATASOURCE_PASSWORD',
            change: 'set them (the password from a Secret); Spring maps them onto spring.datasource.*',
          },
          { place: 'pod', path: '{{containerPath}}.env SPRING_PROFILES_ACTIVE', change: 'or activate the profile that holds the database settings' },
        ],
      },
      {
        id: 'rails-secret-key-base',
        when: (ctx) =>
          /secret_key_base/i.test(ctx.line) && {
            railsEnv: ctx.groups.env ?? 'production',
            masterKey: setsEnv(ctx, 'RAILS_MASTER_KEY') ? 'sets RAILS_MASTER_KEY' : 'sets neither RAILS_MASTER_KEY nor SECRET_KEY_BASE',
          },
        summary: "Rails has no secret_key_base for the '{{railsEnv}}' environment",
        explain:
          "Rails needs secret_key_base to sign cookies and sessions, and in '{{railsEnv}}' it reads it from SECRET_KEY_BASE or from the encrypted " +
          'credentials, which it can decrypt only with the master key. The image leaves out config/master.key (as it should), and the container ' +
          '{{masterKey}}.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env[].valueFrom.secretKeyRef RAILS_MASTER_KEY', change: 'pass the master key from a Secret' },
          { place: 'pod', path: '{{containerPath}}.env SECRET_KEY_BASE', change: 'or pass the secret directly (from a Secret; bin/rails secret makes one)' },
        ],
      },
      {
        id: 'django-secret-key',
        when: (ctx) => /SECRET_KEY setting must not be empty/i.test(ctx.line),
        summary: "Django's SECRET_KEY is empty",
        explain:
          "Django refuses to start with an empty SECRET_KEY, and the project's settings read it from the environment (commonly SECRET_KEY or " +
          "DJANGO_SECRET_KEY, see settings.py), which the container's env does not provide.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env[].valueFrom.secretKeyRef',
            change: 'pass the variable settings.py reads for SECRET_KEY from a Secret',
          },
        ],
      },
      {
        id: 'keycloak-https',
        when: (ctx) => /Key material not provided to setup HTTPS/i.test(ctx.line) && { mode: keycloakMode(ctx) },
        summary: 'Keycloak in production mode has neither TLS key material nor plain HTTP enabled',
        explain:
          'Keycloak started with {{mode}}, where it serves HTTPS only unless told otherwise, and it has no certificate and key. Behind an ingress ' +
          'or proxy that terminates TLS, plain HTTP must be enabled explicitly.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env KC_HTTP_ENABLED + KC_PROXY_HEADERS',
            change: 'true and xforwarded, when TLS ends at the ingress or proxy',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.env KC_HTTPS_CERTIFICATE_FILE + KC_HTTPS_CERTIFICATE_KEY_FILE',
            change: 'or the paths of a certificate and key mounted from a TLS Secret',
          },
        ],
      },
      {
        id: 'keycloak-hostname',
        when: (ctx) => /hostname is not configured/i.test(ctx.line) && { mode: keycloakMode(ctx) },
        summary: 'Keycloak in production mode has no hostname',
        explain:
          'Keycloak started with {{mode}}, where hostname-strict is on by default, and no hostname is set: Keycloak will not derive its public URL ' +
          'from the requests it gets.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env KC_HOSTNAME',
            change: 'set the public URL or host name clients use (the Keycloak CR: spec.hostname.hostname)',
          },
          { place: 'pod', path: '{{containerPath}}.env KC_HOSTNAME_STRICT', change: 'or false, to take the host name from the request headers' },
        ],
      },
      {
        id: 'general',
        summary: 'the framework stops for a setting it requires',
        explain: 'The framework stops at start because a setting it requires is not set in the container (env, a mounted config file, a profile).',
        knobs: [{ place: 'pod', path: '{{containerPath}}.env', change: 'set the setting the log names, from a Secret when it is a credential' }],
      },
    ],
  },
  {
    id: 'worker-timeout',
    kind: 'resource',
    resource: "the time gunicorn's arbiter gives a worker to report in",
    doc:
      "Gunicorn's arbiter aborts a worker that has not reported in for --timeout seconds (30 by default): a request or the app's start-up " +
      'took longer, because the code blocks (a database or remote call without a timeout) or the container is starved of CPU by its limit.',
    variants: [
      {
        id: 'cpu-limited',
        when: (ctx) => {
          const cpu = cpuLimit(ctx);
          return cpu !== undefined && { cpu };
        },
        summary: 'a gunicorn worker missed its --timeout under a CPU limit of {{cpu}}',
        explain:
          "The arbiter aborted a worker that did not report in within gunicorn's --timeout (30 s unless set). The container is limited to {{cpu}} " +
          'CPU, and every worker shares it: loading the app in each worker, or a burst of requests, is throttled by the CFS quota until the ' +
          'heartbeat comes too late. The worker is then killed and restarted, and its requests fail.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.resources.limits.cpu', change: 'raise it (or drop it and keep the request), or run fewer --workers' },
          {
            place: 'pod',
            path: '{{containerPath}}.args --timeout (or env GUNICORN_CMD_ARGS)',
            change: 'raise it above the slowest start or request; --preload loads the app once before forking',
          },
        ],
        facts: (ctx, d) => [specFact(ctx, 'resources.limits', `cpu: ${d.cpu}`)],
      },
      {
        id: 'general',
        summary: 'a gunicorn worker did not report in within --timeout',
        explain:
          "The arbiter aborted a worker that did not report in within gunicorn's --timeout (30 s unless set): the app's start-up or a request " +
          'blocked longer (a call to a database or service that does not answer, without a timeout of its own), so the worker is killed and its ' +
          'requests fail.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.args --timeout (or env GUNICORN_CMD_ARGS)',
            change: 'raise it above the slowest start or request, or use async workers (gthread, gevent) for slow I/O',
          },
          { place: 'app', path: "the app's client timeouts", change: 'give calls to dependencies a timeout shorter than the worker timeout' },
        ],
      },
    ],
  },
  {
    id: 'php-memory-limit',
    kind: 'resource',
    resource: "PHP's memory_limit",
    doc:
      "PHP stops a script that allocates more than its memory_limit (128M by default in the official images' php.ini-production): a limit of " +
      "PHP's own, per script or request, independent of the container's memory limit.",
    variants: [
      {
        id: 'composer',
        when: (ctx) =>
          /composer/i.test([ctx.line, ...ctx.around].join('\n')) && {
            allowed: mib(ctx.groups.bytes) ?? 'its memory_limit',
            limit: memoryLimit(ctx) ?? 'none set',
          },
        summary: 'Composer ran out of PHP memory_limit ({{allowed}})',
        explain:
          "Composer's dependency resolution needs more than PHP's memory_limit ({{allowed}}). PHP stops the script itself, whatever the " +
          "container's memory limit ({{limit}}).",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env COMPOSER_MEMORY_LIMIT', change: 'set -1 (or a size) for Composer runs' },
          { place: 'image', path: 'the Dockerfile', change: 'better: run composer install at build time, not when the container starts' },
        ],
      },
      {
        id: 'general',
        when: (ctx) => ({ allowed: mib(ctx.groups.bytes) ?? "PHP's memory_limit", limit: memoryLimit(ctx) ?? 'none set' }),
        summary: "a PHP script exceeded PHP's memory_limit ({{allowed}})",
        explain:
          "A PHP script allocated more than PHP's memory_limit ({{allowed}}), a per-request limit of PHP itself: the container's memory limit " +
          "({{limit}}) plays no part, and raising it changes nothing. Raise memory_limit, and keep the container's limit above memory_limit times " +
          'the number of PHP-FPM children (pm.max_children).',
        knobs: [
          {
            place: 'pod',
            path: 'a ConfigMap mounted as /usr/local/etc/php/conf.d/zz-memory.ini (official image)',
            change: 'memory_limit = 512M (or PHP_MEMORY_LIMIT in images that read it: bitnami, many app images)',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'keep above memory_limit × pm.max_children' },
        ],
      },
    ],
  },
  {
    id: 'nginx-hash-size',
    kind: 'setting',
    resource: "nginx's server name hash (bucket and table size)",
    doc:
      'nginx builds a hash of all server_name values at start, and a name longer than a bucket (server_names_hash_bucket_size, 32 or 64 bytes ' +
      'by the CPU cache line) or more names than the table holds stops it. Long cluster host names (an ingress host, a cloud load balancer ' +
      'name) exceed the default.',
    variants: [
      {
        id: 'ingress-controller',
        when: (ctx) =>
          /nginx-cfg|nginx -s reload|ingress/i.test([ctx.line, ...ctx.around, ctx.container?.image ?? ''].join('\n')) && {
            setting: ctx.groups.setting ?? 'server_names_hash_bucket_size',
          },
        summary: "the ingress controller cannot build nginx's server names hash: raise {{setting}}",
        explain:
          'The ingress controller renders one nginx server block per Ingress host, and nginx refuses the configuration because a host name does not ' +
          'fit a hash bucket ({{setting}} is too small for the longest host): the controller keeps the last good configuration and new hosts are ' +
          'not served (or it does not start).',
        knobs: [
          {
            place: 'cluster',
            path: "the controller's ConfigMap server-name-hash-bucket-size (ingress-nginx) / server-names-hash-bucket-size (NGINX Inc.)",
            change: 'raise it to the next power of two above the longest host name (128, 256)',
          },
        ],
      },
      {
        id: 'config',
        when: (ctx) => ({ setting: ctx.groups.setting ?? 'server_names_hash_bucket_size' }),
        summary: 'nginx cannot build its server names hash: raise {{setting}}',
        explain:
          'nginx stops at start because a server_name does not fit a hash bucket, or there are more names than the table holds: {{setting}} is ' +
          'too small for the names this configuration serves (typically one long host name).',
        knobs: [
          {
            place: 'app',
            path: 'the http block of nginx.conf (ConfigMap key)',
            change: 'server_names_hash_bucket_size 128; (a power of two above the longest name; server_names_hash_max_size for many names)',
          },
        ],
      },
    ],
  },
  {
    id: 'apache-envvars',
    kind: 'setting',
    resource: "the environment Debian's Apache reads from /etc/apache2/envvars",
    doc:
      "Debian and Ubuntu's Apache configuration refers to APACHE_RUN_DIR, APACHE_LOCK_DIR, APACHE_RUN_USER and the like, which apache2ctl and the " +
      "images' start scripts (apache2-foreground) set from /etc/apache2/envvars. Run as bare apache2, it finds them undefined and stops.",
    variants: [
      {
        id: 'command',
        when: (ctx) => {
          const command = ctx.container?.command;
          return command !== undefined && command.length > 0 && { command: command.join(' ') };
        },
        summary: "apache2 runs without /etc/apache2/envvars: the pod's command replaces the image's start script",
        explain:
          'The pod sets command ({{command}}), which starts apache2 directly and skips the script that sources /etc/apache2/envvars, so the ' +
          'APACHE_* variables the configuration uses are undefined and Apache rejects its own configuration.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.command',
            change: "drop it to keep the image's entrypoint and start script (apache2-foreground), or start with apache2ctl -D FOREGROUND",
          },
          {
            place: 'pod',
            path: '{{containerPath}}.args',
            change: 'or source /etc/apache2/envvars first: sh -c ". /etc/apache2/envvars && exec apache2 -D FOREGROUND"',
          },
        ],
        facts: (ctx, d) => [specFact(ctx, 'command', String(d.command))],
      },
      {
        id: 'general',
        summary: 'apache2 runs without /etc/apache2/envvars',
        explain:
          "Apache was started as bare apache2, without the script that sources /etc/apache2/envvars, so the APACHE_* variables Debian's " +
          'configuration uses are undefined and Apache rejects its own configuration.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.command / args',
            change: "start it with apache2ctl -D FOREGROUND or the image's start script, or source /etc/apache2/envvars first",
          },
        ],
      },
    ],
  },
  {
    id: 'root-disk-refused',
    kind: 'setting',
    resource: 'a data path on its own filesystem',
    doc:
      'MinIO in distributed or multi-drive mode refuses a drive path that lies on the root filesystem: in a pod, no volume is mounted at the ' +
      "path (it is the container's own filesystem), or the volume is a directory on the node's root disk (hostPath, local-path provisioners).",
    variants: [
      {
        id: 'not-mounted',
        when: (ctx) => {
          const path = localPath(ctx.groups.path);
          return !!path && !mountOf(ctx, path)?.kind && { path };
        },
        summary: 'MinIO refuses {{path}}: no volume is mounted there',
        explain:
          "No volume of the pod is mounted at {{path}}, so the path is part of the container's own filesystem, which MinIO takes for the root disk " +
          'and refuses in distributed mode.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts (and the StatefulSet volumeClaimTemplates)',
            change: 'mount a volume at {{path}} (or point the MinIO drive arguments at the mount path)',
          },
        ],
      },
      {
        id: 'node-disk',
        when: (ctx) => {
          const path = localPath(ctx.groups.path);
          const m = mountOf(ctx, path);
          return !!path && !!m?.kind && data({ path, volume: m.mount.name, volumeKind: m.backend ?? m.kind });
        },
        summary: "MinIO refuses {{path}}: volume {{volume}} is a directory on the node's root disk",
        explain:
          '{{path}} lies on volume "{{volume}}" ({{volumeKind}}), and its storage is a directory on the same filesystem as the node\'s root ' +
          '(hostPath, or a local-path provisioner), which MinIO refuses for a drive in distributed mode.',
        knobs: [
          {
            place: 'cluster',
            path: "the volume's storage (StorageClass)",
            change: 'give each drive its own disk or partition (block storage, local volumes on separate disks)',
          },
          { place: 'pod', path: '{{containerPath}}.env MINIO_CI_CD', change: 'or set it to skip the check, for tests only (CI=true on older releases)' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'general',
        summary: 'MinIO refuses a drive on the root filesystem',
        explain:
          "MinIO refuses a drive path on the root filesystem in distributed mode: no volume is mounted there, or it is a directory on the node's root disk.",
        knobs: [{ place: 'pod', path: '{{containerPath}}.volumeMounts', change: 'mount a volume on its own disk at each drive path' }],
      },
    ],
  },
  {
    id: 'service-link-collision',
    kind: 'setting',
    resource: "an env var name the kubelet's service links also set",
    doc:
      'For every Service of the namespace the kubelet sets Docker-link variables in each container: <SERVICE>_PORT=tcp://<cluster IP>:<port>, ' +
      '<SERVICE>_SERVICE_HOST and more. When a Service is named like the app (rabbitmq, kafka, server), <NAME>_PORT collides with a setting the ' +
      'app reads from its environment (Spring relaxed binding, an image entrypoint), which then gets a URL where it wants a number.',
    variants: [
      {
        id: 'links-on',
        when: (ctx) => ctx.pod?.spec?.enableServiceLinks !== false && linkData(ctx),
        summary: '{{variable}}=tcp://… from Service {{service}} collides with a setting of the app',
        explain:
          'The kubelet sets {{variable}}={{value}} in the container because the namespace has a Service named "{{service}}" (service links are on, ' +
          'the default), and the app reads {{variable}} as one of its own settings: it gets a URL where it expects a port number, and stops.',
        knobs: [
          { place: 'pod', path: 'spec.enableServiceLinks', change: 'set false (the app finds Services by DNS name)' },
          {
            place: 'pod',
            path: '{{containerPath}}.env {{variable}}',
            change: 'or set it explicitly to the value the app expects: an env entry overrides the link',
          },
          { place: 'cluster', path: 'Service {{service}}', change: 'or give the Service another name' },
        ],
        facts: (ctx) => [specFact(ctx, 'spec.enableServiceLinks', ctx.pod?.spec?.enableServiceLinks === true ? 'true' : '(not set: true)')],
      },
      {
        id: 'general',
        when: (ctx) => linkData(ctx),
        summary: '{{variable}} holds a tcp:// URL where the app expects a port number',
        explain:
          '{{variable}} holds {{value}}, the form of a Docker or Kubernetes service link, where the app expects a port number: a link variable of ' +
          'a Service named "{{service}}" set by another source (the pod already sets enableServiceLinks: false), or a value copied from one.',
        knobs: [{ place: 'pod', path: '{{containerPath}}.env {{variable}}', change: 'set it explicitly to the value the app expects' }],
      },
    ],
  },
  {
    id: 'data-owner-mismatch',
    kind: 'setting',
    resource: 'the owner of the data directory',
    doc:
      'ClickHouse refuses to start when the UID it runs as is not the owner of its data path, so that a run as the wrong user cannot leave ' +
      'files the normal user may not touch. In a pod the owner comes from who wrote the volume first; fsGroup sets the group, never the owner.',
    variants: [
      {
        id: 'root-process',
        when: (ctx) =>
          ctx.groups.user === 'root' &&
          data({
            owner: ctx.groups.owner,
            asWhom: runAsUser(ctx) === 0 ? 'the pod sets runAsUser: 0' : "a command that skips the image's entrypoint, or the image's default user",
          }),
        summary: 'ClickHouse runs as root, and its data belongs to {{owner}}',
        explain:
          'The server runs as root ({{asWhom}}; the entrypoint normally switches to the clickhouse user), ' +
          'and the data was written by {{owner}}: ClickHouse stops rather than create root-owned files there.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.runAsUser',
            change: "run as the owner of the data ({{owner}}; the image's clickhouse user is 101)",
          },
          { place: 'pod', path: '{{containerPath}}.command', change: "or keep the image's entrypoint, which starts the server as the clickhouse user" },
        ],
      },
      {
        id: 'owner',
        when: (ctx) => data({ user: ctx.groups.user ?? 'the server user', owner: ctx.groups.owner ?? 'another user' }),
        summary: 'ClickHouse runs as {{user}}, and its data belongs to {{owner}}',
        explain:
          'The server runs as {{user}} and its data path belongs to {{owner}}: a volume whose root the storage or an earlier run as another user ' +
          'created. The kubelet changes only the group of a volume (fsGroup), so the owner stays.',
        knobs: [
          { place: 'pod', path: 'spec.initContainers', change: 'chown -R the data path to the server user once, from an init container running as root' },
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: 'or run as the owner the data already has' },
        ],
      },
    ],
  },
]);

/** A cluster IP and port as a service link writes them. */
const IP_PORT = '(?<ip>\\d{1,3}(?:\\.\\d{1,3}){3}):(?<port>\\d{1,5})';

export const SIGNATURES = signatures([
  {
    id: 'server.erlang-cookie-mode',
    family: 'server',
    mechanism: 'erlang-cookie',
    needles: ['must be accessible by owner only'],
    patterns: [re('Cookie file (?<path>/\\S+?) must be accessible by owner only')],
    source:
      'erlang/otp lib/kernel/src/auth.erl check_attributes ("Cookie file " ++ Name ++ " must be accessible by owner only" when mode band 8#077 ' +
      '=/= 0). Lines (GitHub): groundhog2k/helm-charts#1487, rabbitmq/rabbitmq-server#3346, laradock/laradock#2048, blackducksoftware/hub#47, ' +
      'docker-library/rabbitmq#171, vijos/vj4-docker#3',
    examples: [
      'rabbitmq_1             | 09:50:10.483 [error] Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only',
      '2026-06-26 07:47:51.310055+00:00 [error] <0.151.0>     reason: {"Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only",',
      'Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only',
    ],
  },
  {
    id: 'server.erlang-cookie-mismatch',
    family: 'server',
    mechanism: 'erlang-cookie',
    needles: ['invalid challenge reply', 'connection attempt from disallowed node'],
    patterns: [
      re("Connection attempt from node '?(?<node>[^'\\s]+?)'? rejected\\. Invalid challenge reply"),
      re("Connection attempt from disallowed node '?(?<node>[^'\\s]+?)'? \\*\\*"),
    ],
    source:
      'erlang/otp lib/kernel/src/dist_util.erl ("** Connection attempt from node ~w rejected. Invalid challenge reply. **"; older OTP: "** Connection ' +
      'attempt from disallowed node ~w **"). Lines (GitHub): rabbitmq/rabbitmq-server#2382, emqx/emqx#6440, helm/charts#12371, helm/charts#15418; ' +
      'the rabbitmqcli line is quoted in rabbitmq-website docs (cli troubleshooting)',
    examples: [
      "2020-06-15 13:03:33 [error] <0.1187.0> ** Connection attempt from node 'rabbitmqcli-99391-rabbit@warp10' rejected. Invalid challenge reply. **",
      "2021-12-13T20:04:16.679935+08:00 [error] ** Connection attempt from node 'emqx@192.168.1.45' rejected. Invalid challenge reply. **",
      "2019-07-11 18:10:01.268 [error] <0.156.0> ** Connection attempt from disallowed node 'rabbit@rabbitmq-rabbitmq-ha-0.rabbitmq-rabbitmq-ha-" +
        "discovery.rabbitmq.svc.cluster.local' **",
    ],
  },
  {
    id: 'server.erlang-cookie-create',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['failed to create cookie file'],
    patterns: [re("Failed to create cookie file '(?<path>/[^']+)': eacces")],
    source: 'erlang/otp lib/kernel/src/auth.erl ("Failed to create cookie file \'~ts\': ~p"). Line (GitHub): docker-library/rabbitmq#571',
    examples: ["Failed to create cookie file '/var/lib/rabbitmq/.erlang.cookie': eacces"],
  },
  {
    id: 'server.kafka-cluster-id',
    family: 'server',
    mechanism: 'cluster-identity-mismatch',
    needles: ["doesn't match stored clusterid"],
    patterns: [re("The Cluster ID (?<now>\\S+) doesn't match stored clusterId (?:Some\\()?(?<stored>[\\w-]+)\\)? in meta\\.properties")],
    source:
      'apache/kafka core KafkaServer.scala (InconsistentClusterIdException, KAFKA-7335, apache/kafka#7189). Lines (GitHub): jpotts/alfresco-kafka#6, ' +
      'xtdb/xtdb#1548, bitnami/bitnami-docker-kafka#205, conduktor/kafka-stack-docker-compose#105, bitnami/charts#6017',
    examples: [
      "kafka.common.InconsistentClusterIdException: The Cluster ID gKMTPCdQQui26oDVZo-EMA doesn't match stored clusterId Some(K6-IRRUxSvW0GSLeNea0DA) " +
        'in meta.properties. The broker is trying to join the wrong cluster. Configured zookeeper.connect may be wrong.',
      "The Cluster ID wZizZiUhT4GxW7nC_LPhiQ doesn't match stored clusterId Some(pUrVU_3tQ4-sZ-h7F9Iosw) in meta.properties. The broker is trying to " +
        'join the wrong cluster. Configured zookeeper.connect may be wrong.',
    ],
  },
  {
    id: 'server.etcd-already-bootstrapped',
    family: 'server',
    mechanism: 'cluster-identity-mismatch',
    needles: ['has already been bootstrapped'],
    patterns: [re('member (?<member>[0-9a-f]+) has already been bootstrapped')],
    source:
      'etcd server/etcdserver/bootstrap.go (ErrMemberBootstrapped / "member %s has already been bootstrapped"). Lines (GitHub): etcd-io/etcd#2780, ' +
      'etcd-io/etcd#5422, mantl/mantl#737, cozystack/etcd-operator#98',
    examples: [
      '{"level":"fatal","ts":"2024-03-31T06:04:27.129434Z","caller":"etcdmain/etcd.go:204","msg":"discovery failed","error":"member 21cdb8e5d2d72088 ' +
        'has already been bootstrapped","stacktrace":"go.etcd.io/etcd/server/v3/etcdmain.startEtcdOrProxyV2',
      'Oct 14 20:45:12 ip-10-0-175-75.ec2.internal docker[30348]: 2015/10/14 20:45:12 etcdmain: member 3086be9801215576 has already been bootstrapped',
      'May 20 17:57:39 localhost etcd2[761]: member 51eecfc041171d8f has already been bootstrapped',
    ],
  },
  {
    id: 'server.cassandra-datacenter',
    family: 'server',
    mechanism: 'cluster-identity-mismatch',
    needles: ['differs from previous data center'],
    patterns: [re("Cannot start node if snitch's data center \\((?<now>[^)]+)\\) differs from previous data center \\((?<stored>[^)]+)\\)")],
    source:
      'apache/cassandra SystemKeyspace.checkHealth / StartupChecks (CASSANDRA-9474). Lines (GitHub): apache/cassandra-ccm#474, ' +
      'ansible-collections/community.cassandra#252, thinkaurelius/titan#1272, docker-library/cassandra#57',
    examples: [
      "ERROR [main] 2016-03-18 10:29:30,328 CassandraDaemon.java:692 - Cannot start node if snitch's data center (datacenter1) differs from previous " +
        'data center (East_DC). Please fix the snitch configuration, decommission and rebootstrap this node or use the flag',
      "Cannot start node if snitch's data center (MYDC) differs from previous data center ($(DC)). Please fix the snitch configuration, decommission " +
        'and rebootstrap this node or use the flag -Dcassandra.ignore_dc=true.',
    ],
  },
  {
    id: 'server.kafka-unformatted',
    family: 'server',
    mechanism: 'storage-not-prepared',
    needles: ['meta.properties'],
    patterns: [
      re('No `meta\\.properties` found in (?<path>/\\S*?)/? \\(have you run `kafka-storage\\.sh` to format the directory\\?\\)'),
      re('No readable meta\\.properties files found'),
    ],
    source:
      'apache/kafka core KafkaRaftServer.scala / BrokerMetadataCheckpoint ("No `meta.properties` found in $logDir (have you run `kafka-storage.sh` to ' +
      'format the directory?)", apache/kafka#10279), MetaPropertiesEnsemble.verify ("No readable meta.properties files found.", 3.7+). Lines ' +
      '(GitHub): kafka-dev/kafka#107, itboon/kafka-helm#13; a blog post quotes the first; near miss (ZooKeeper mode, first start) ' +
      'bitnami/bitnami-docker-kafka#33',
    examples: [
      'org.apache.kafka.common.KafkaException: No `meta.properties` found in /tmp/kraft-combined-logs ' +
        '(have you run `kafka-storage.sh` to format the directory?)',
      'org.apache.kafka.common.KafkaException: No `meta.properties` found in /tmp/kafka-log (have you run `kafka-storage.sh` to format the directory?)',
      'java.lang.RuntimeException: No readable meta.properties files found.',
    ],
    nearMisses: [
      '[2018-11-22 14:39:02,961] WARN No meta.properties file under dir /opt/bitnami/kafka/data/meta.properties (kafka.server.BrokerMetadataCheckpoint)',
    ],
  },
  {
    id: 'server.zookeeper-myid',
    family: 'server',
    mechanism: 'storage-not-prepared',
    needles: ['myid'],
    patterns: [re('IllegalArgumentException: (?<path>/\\S+/myid|myid) file is missing')],
    source:
      'apache/zookeeper QuorumPeerConfig.java setupMyId ("%s file is missing"). Lines (GitHub): 31z4/zookeeper-docker#13, apecloud/kubeblocks-addons#392; ' +
      'near miss (every ZooKeeper line carries [myid:]) pravega/zookeeper-operator#548',
    examples: [
      'Caused by: java.lang.IllegalArgumentException: /var/lib/zookeeper/myid file is missing',
      '**Caused by: java.lang.IllegalArgumentException: myid file is missing**',
    ],
    nearMisses: ['2023-11-20 11:25:44,803 [myid:] - INFO  [main:QuorumPeerConfig@174] - Reading configuration from: /data/conf/zoo.cfg'],
  },
  {
    id: 'server.spring-datasource',
    family: 'server',
    mechanism: 'framework-setting-missing',
    needles: ['failed to configure a datasource'],
    patterns: [re("Failed to configure a DataSource: 'url' attribute is not specified and no embedded datasource could be configured")],
    source:
      "spring-boot DataSourceBeanCreationFailureAnalyzer (\"Failed to configure a DataSource: 'url' attribute is not specified and no embedded " +
      'datasource could be configured."). Lines (GitHub): spring-projects/spring-boot#15828, jeecgboot/JeecgBoot#6214, yeoseon/tip-archive#218',
    examples: ["Failed to configure a DataSource: 'url' attribute is not specified and no embedded datasource could be configured."],
  },
  {
    id: 'server.spring-port-in-use',
    family: 'server',
    mechanism: 'port-in-use',
    needles: ['was already in use', 'the port may already be in use'],
    patterns: [
      re('Web server failed to start\\. Port (?<port>\\d{1,5}) was already in use'),
      re('connector configured to listen on port (?<port>\\d{1,5}) failed to start\\. The port may already be in use'),
    ],
    source:
      'spring-boot PortInUseFailureAnalyzer ("Web server failed to start. Port %d was already in use.") and ConnectorStartFailureAnalyzer (Spring Boot ' +
      '2.0). Lines (GitHub): VGEAREN/webdav-caiyun#21, strongbox/strongbox#1983, anthonyraymond/joal-desktop#102, apache/skywalking#3696, ' +
      'spring-projects/spring-boot#15194',
    examples: [
      'Web server failed to start. Port 8080 was already in use.',
      'Web server failed to start. Port 48080 was already in use.',
      'The Tomcat connector configured to listen on port 8080 failed to start. The port may already be in use or the connector may be misconfigured.',
    ],
  },
  {
    id: 'server.rails-secret-key-base',
    family: 'server',
    mechanism: 'framework-setting-missing',
    needles: ['secret_key_base'],
    patterns: [re("Missing [`'](?:secret_token` and `)?secret_key_base[`'] for '(?<env>\\w+)' environment")],
    source:
      "rails railties lib/rails/application.rb validate_secret_key_base (\"Missing `secret_key_base` for '#{Rails.env}' environment, set this " +
      'string with `bin/rails credentials:edit`"; Rails 4: secret_token and secret_key_base). Lines (GitHub): rails/rails#50402, ' +
      'madelaine-maz/siteinspector#24, loomio/loomio-deploy#119, AlverezYari/phillips-homelab#240, asciinema/asciinema-server#257; near miss ' +
      '(GitLab generates its secrets) whatwedo/docker-base-images#10',
    examples: [
      "ArgumentError: Missing `secret_key_base` for 'production' environment, set this string with `bin/rails credentials:edit`",
      "#<ArgumentError: Missing `secret_key_base` for 'production' environment, set this string with `rails credentials:edit`>",
      "Missing 'secret_key_base' for 'production' environment, set this string with 'bin/rails credentials:edit'",
    ],
    nearMisses: [
      'Missing Rails.application.secrets.secret_key_base for production environment. The secret will be generated and stored in config/secrets.yml.',
    ],
  },
  {
    id: 'server.django-secret-key',
    family: 'server',
    mechanism: 'framework-setting-missing',
    needles: ['secret_key setting must not be empty'],
    patterns: [re('(?:ImproperlyConfigured: )?The SECRET_KEY setting must not be empty')],
    source:
      'django conf/__init__.py Settings ("The SECRET_KEY setting must not be empty."). Lines (GitHub): ezgisl/SWE573-WebDevelopmentProject#38, ' +
      'agconti/cookiecutter-django-rest#708, mozilla/fx-private-relay#11',
    examples: ['django.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not be empty.', 'The SECRET_KEY setting must not be empty.'],
  },
  {
    id: 'server.keycloak-production',
    family: 'server',
    mechanism: 'framework-setting-missing',
    needles: ['key material not provided', 'hostname is not configured'],
    patterns: [
      re('Key material not provided to setup HTTPS\\. Please configure your keys/certificates or start the server in development mode'),
      re('hostname is not configured; either configure hostname, or set hostname-strict to false'),
    ],
    source:
      'keycloak quarkus runtime (HttpPropertyMappers: "Key material not provided to setup HTTPS..."; hostname v2 provider: "hostname is not configured; ' +
      'either configure hostname, or set hostname-strict to false", Keycloak 25+). Lines (GitHub): keycloak/keycloak#12803, ' +
      "keycloak/keycloak-benchmark#231, keycloak/keycloak#33605; the hostname line as printed in a compose log and in Keycloak's own tests",
    examples: [
      '2022-06-29 04:32:07,232 ERROR [org.keycloak.quarkus.runtime.cli.ExecutionExceptionHandler] (main) ERROR: Key material not provided to setup ' +
        'HTTPS. Please configure your keys/certificates or start the server in development mode.',
      '"ERROR","message":"ERROR: Key material not provided to setup HTTPS. Please configure your keys/certificates or start the server in development mode."',
      'keycloak-1  | ERROR: hostname is not configured; either configure hostname, or set hostname-strict to false',
    ],
  },
  {
    id: 'server.gunicorn-worker-timeout',
    family: 'server',
    mechanism: 'worker-timeout',
    needles: ['worker timeout'],
    patterns: [re('\\[CRITICAL\\] WORKER TIMEOUT \\(pid:\\d+\\)')],
    source:
      'gunicorn arbiter.py murder_workers ("WORKER TIMEOUT (pid:%s)" at critical level). Lines (GitHub): open-runtimes/open-runtimes#330, ' +
      'benoitc/gunicorn#3136, benoitc/gunicorn#76, GoogleCloudPlatform/python-docs-samples#3229',
    examples: [
      '[2024-11-05 09:25:59 +0000] [16] [CRITICAL] WORKER TIMEOUT (pid:17)',
      '[2024-01-09 13:24:39 +0000] [1637] [CRITICAL] WORKER TIMEOUT (pid:7214)',
      '2010-07-28 23:01:19 [5869] [CRITICAL] WORKER TIMEOUT (pid:5870)',
    ],
  },
  {
    id: 'server.php-memory-limit',
    family: 'server',
    mechanism: 'php-memory-limit',
    needles: ['allowed memory size of'],
    patterns: [re('Allowed memory size of (?<bytes>\\d+) bytes exhausted(?: \\(tried to allocate \\d+ bytes\\))?')],
    source:
      'php-src Zend/zend_alloc.c zend_mm_safe_error ("Allowed memory size of %zu bytes exhausted (tried to allocate %zu bytes)"). Lines (GitHub): ' +
      'hashtopolis/server#1051, mondediefr/docker-flarum#62, nfrastack/container-freescout#31, cachethq/cachet#1018, laradock/laradock#1400',
    examples: [
      '[Sun Mar 24 16:37:53.919486 2024] [php:error] [pid 53] [client 192.168.0.72:43800] PHP Fatal error:  Allowed memory size of 268435456 bytes ' +
        'exhausted (tried to allocate 20480 bytes) in /var/www/html/src/dba/Util.class.php on line 24',
      'PHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in ' +
        'phar:///usr/local/bin/composer/src/Composer/DependencyResolver/RuleWatchGraph.php on line 52',
      'Fatal error: Allowed memory size of 134217728 bytes exhausted (tried to allocate 3795 bytes) in ...',
    ],
  },
  {
    id: 'server.nginx-hash-bucket',
    family: 'server',
    mechanism: 'nginx-hash-size',
    needles: ['could not build'],
    patterns: [re('\\[emerg\\][^\\n]*could not build (?:the )?server_names_hash, you should increase (?:either )?(?<setting>server_names_hash_\\w+)')],
    source:
      'nginx src/core/ngx_hash.c / src/http/ngx_http.c ("could not build %V, you should increase %V_bucket_size: %i" at emerg; "could not build ' +
      'optimal %V ... ignoring %V_bucket_size" at warn). Lines (GitHub): helm/charts#17459, nginx/kubernetes-ingress#34, ' +
      'kubernetes-retired/contrib#2609, cloudfoundry/prometheus-boshrelease#327, certbot/certbot#922; the warning (near miss) is quoted on blog pages',
    examples: [
      'nginx: [emerg] could not build server_names_hash, you should increase server_names_hash_bucket_size: 64',
      '2016/06/20 11:00:31 [emerg] 35#35: could not build server_names_hash, you should increase server_names_hash_bucket_size: 64',
      '2019/07/12 12:45:13 [emerg] 30360#0: could not build server_names_hash, you should increase server_names_hash_bucket_size: 64',
      'nginx: [emerg] could not build the server_names_hash, you should increase server_names_hash_bucket_size: 64',
    ],
    nearMisses: [
      'nginx: [warn] could not build optimal server_names_hash, you should increase either server_names_hash_max_size: 512 or ' +
        'server_names_hash_bucket_size: 64; ignoring server_names_hash_bucket_size',
    ],
  },
  {
    id: 'server.apache-envvars',
    family: 'server',
    mechanism: 'apache-envvars',
    needles: ['defaultruntimedir must be', 'invalid mutex directory', 'bad user name', 'ah00111'],
    patterns: [
      re('DefaultRuntimeDir must be a valid directory, absolute or relative to ServerRoot'),
      re('Invalid Mutex directory in argument file:\\$\\{APACHE_'),
      re('bad user name \\$\\{APACHE_RUN_USER\\}'),
      re('AH00111: Config variable \\$\\{APACHE_(?:RUN_DIR|LOCK_DIR|PID_FILE|RUN_USER|RUN_GROUP|LOG_DIR)\\} is not defined'),
    ],
    source:
      'apache httpd server/core.c (AH00111 "Config variable %s is not defined", DefaultRuntimeDir, Mutex), server/util.c (AH00543 bad user ' +
      "name); Debian's /etc/apache2/envvars. Lines (GitHub): nextcloud/docker#1859, easy-wi/installer#105, owncloud-docker/server#315, " +
      'wckr/wocker#36, PrestaShop/docker#20, nextcloud/nextcloudpi#1568; near miss (a variable of the app, not the envvars) docker-library/docs#1831',
    examples: [
      'apache2: Syntax error on line 80 of /etc/apache2/apache2.conf: DefaultRuntimeDir must be a valid directory, absolute or relative to ServerRoot',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Apache's own variable syntax in a real line, not a template
      'Invalid Mutex directory in argument file:${APACHE_LOCK_DIR}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Apache's own variable syntax in a real line, not a template
      'AH00543: apache2: bad user name ${APACHE_RUN_USER}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Apache's own variable syntax in a real line, not a template
      '[Tue Nov 15 17:22:42.620163 2022] [core:warn] [pid 19] AH00111: Config variable ${APACHE_RUN_DIR} is not defined',
    ],
    nearMisses: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Apache's own variable syntax in a real line, not a template
      '[Mon Nov 09 12:33:30.914062 2020] [core:warn] [pid 51] AH00111: Config variable ${APACHE_DOCUMENT_ROOT} is not defined',
    ],
  },
  {
    id: 'server.minio-root-disk',
    family: 'server',
    mechanism: 'root-disk-refused',
    needles: ['root disk', 'root drive'],
    patterns: [
      re('(?:Disk|Drive) `?(?<path>(?:https?://[^/\\s`]+)?/[^\\s`:]*)`? (?:is a root disk|is part of root (?:drive|disk))'),
      re('Unable to use the drive (?<path>\\S+?): drive is part of root drive'),
    ],
    source:
      'minio cmd/storage-errors.go (errDriveIsRoot "drive is part of root drive, will not be used"; older "Disk %s is a root disk ... refusing to use ' +
      'root disk", "is part of root disk"). Lines (GitHub): minio/minio#17000, minio/minio#15720, minio/minio#15039, bitnami/bitnami-docker-minio#9; ' +
      'the "Unable to use the drive" line is quoted on a blog page',
    examples: [
      'Disk `/data` is a root disk. Please ensure the disk is mounted properly, refusing to use root disk.',
      'Drive `/disk1/minio` is part of root drive, will not be used',
      'Error: Disk /mnt/data is part of root disk, will not be used (*errors.errorString)',
      'Unable to use the drive http://172.168.2.27:9000/data/minio: drive is part of root drive, will not be used',
    ],
  },
  {
    id: 'server.service-link-port',
    family: 'server',
    mechanism: 'service-link-collision',
    needles: ['tcp://', 'is deprecated. please use kafka'],
    patterns: [
      re(`\\bValue: \\\\?"?tcp://${IP_PORT}\\\\?"?\\s*$`),
      re(`For input string: \\\\?"tcp://${IP_PORT}\\\\?"`),
      re(`Invalid value tcp://${IP_PORT} for configuration [\\w.]+: Not a number`),
      re(`Invalid HTTP port: tcp://${IP_PORT}`),
      re('\\bport is deprecated\\. Please use (?<want>KAFKA(?:_REST)?_(?:ADVERTISED_)?LISTENERS) instead'),
    ],
    source:
      'kubelet service environment variables (pkg/kubelet/envvars: <SERVICE>_PORT=tcp://...); spring-boot BindFailureAnalyzer ("Failed to bind ' +
      'properties under ... Value: ... Origin: System Environment Property"); kafka ConfigDef ("Invalid value %s for configuration %s: Not a ' +
      'number of type INT"); confluentinc cp-docker-images configure scripts ("port is deprecated. Please use KAFKA_ADVERTISED_LISTENERS instead."). ' +
      'Lines (GitHub): kubernetes/kubernetes#59552, apache/shenyu#5307, wurstmeister/kafka-docker#122, lmenezes/cerebro#441, helm/charts#5089, ' +
      'confluentinc/cp-docker-images#286, confluentinc/cp-docker-images#388; near miss (an env listing) nextcloud/docker#1859',
    examples: [
      '2018-02-08T09:27:54.720104855Z     Value: tcp://192.168.17.112:5672',
      '    Value: "tcp://10.247.205.230:8090"',
      '    Reason: failed to convert java.lang.String to java.lang.Integer (caused by java.lang.NumberFormatException: For input string: ' +
        '"tcp://10.247.205.230:8090")',
      'org.apache.kafka.common.config.ConfigException: Invalid value tcp://10.0.35.234:9092 for configuration port: Not a number of type INT',
      'Invalid HTTP port: tcp://172.31.14.133:9000',
      'port is deprecated. Please use KAFKA_ADVERTISED_LISTENERS instead.',
      'PORT is deprecated. Please use KAFKA_REST_LISTENERS instead.',
    ],
    nearMisses: ['NEXTCLOUD_SERVER_PORT_80_TCP=tcp://10.152.183.46:80'],
  },
  {
    id: 'server.clickhouse-data-owner',
    family: 'server',
    mechanism: 'data-owner-mismatch',
    needles: ['does not match the owner of the data'],
    patterns: [re('Exception: Effective user of the process \\((?<user>[^)]+)\\) does not match the owner of the data \\((?<owner>[^)]+)\\)')],
    source:
      'ClickHouse programs/server/Server.cpp (ClickHouse/ClickHouse#3785: "Effective user of the process ({}) does not match the owner of the data ' +
      "({}). Run under 'sudo -u {}'.\"; an exception at start, a startup warning in later releases). Lines (GitHub): ClickHouse/ClickHouse#6289; " +
      'near misses (the warning form) ClickHouse/ClickHouse#55701, ClickHouse/ClickHouse#59141',
    examples: ["Application: DB::Exception: Effective user of the process (root) does not match the owner of the data (1000). Run under 'sudo -u 1000'."],
    nearMisses: [
      ' * Effective user of the process (algunenano) does not match the owner of the data (root).',
      'Effective user of the process (clickhouse) does not match the owner of the data (root)',
    ],
  },
]);
