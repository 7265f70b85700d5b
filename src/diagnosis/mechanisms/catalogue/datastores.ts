// Start-up checks of data stores and messaging servers: MariaDB Galera, ScyllaDB, Neo4j, CouchDB, InfluxDB, Memcached,
// Apache Pulsar (BookKeeper), ActiveMQ Artemis, Apache Solr. Each line is the server's own sentence; most mean a
// mechanism the catalogue already has (a volume another process holds, a volume the user may not write, a hard limit),
// and three are new: a Galera member that may not bootstrap, the node's AIO request slots, a licence not accepted.
import { envValue } from '../context.js';
import { mechanisms, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** Scylla starts one shard per CPU it sees: without a CPU limit or --smp, that is every CPU of the node. */
function scyllaCpus(ctx: ReadingContext): { cpus: string } | false {
  const args = [...(ctx.container?.command ?? []), ...(ctx.container?.args ?? [])].join(' ');
  if (/--smp\b/.test(args)) return false;
  const limit = ctx.container?.resources?.limits?.cpu;
  return limit === undefined ? { cpus: "all of the node's CPUs (the container sets no CPU limit)" } : false;
}

export const MECHANISMS = mechanisms([
  {
    id: 'galera-unsafe-bootstrap',
    kind: 'setting',
    resource: 'the Galera member allowed to bootstrap the cluster (grastate.dat safe_to_bootstrap)',
    doc:
      'After the whole Galera cluster stopped, only the member that left last (safe_to_bootstrap: 1 in its grastate.dat) may start a new ' +
      'cluster; the others wait to join it. A StatefulSet that starts its pods in order (OrderedReady) starts pod 0 alone, and when pod 0 ' +
      'did not leave last it may neither bootstrap nor find a cluster to join.',
    variants: [
      {
        id: 'bitnami',
        when: (ctx) => /MARIADB_GALERA_FORCE_SAFETOBOOTSTRAP|bootstrap form this node/i.test(ctx.line),
        summary: 'this Galera member may not bootstrap: another member left the cluster last',
        explain:
          "The image's entrypoint starts this member as the one that bootstraps the cluster, and its grastate.dat says safe_to_bootstrap: 0: " +
          'another member left the cluster later and may hold newer transactions. With the default OrderedReady policy the members that could ' +
          'bootstrap are never started, so the cluster cannot come back by itself.',
        knobs: [
          {
            place: 'cluster',
            path: "the StatefulSet's podManagementPolicy (chart value podManagementPolicy)",
            change: 'set Parallel, so every member starts and the one that left last can bootstrap (the policy is immutable: recreate the StatefulSet)',
          },
          {
            place: 'app',
            path: 'chart values galera.bootstrap.bootstrapFromNode + galera.bootstrap.forceSafeToBootstrap',
            change: 'or bootstrap from the member with the highest seqno in its grastate.dat, forcing safe_to_bootstrap there only',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.env MARIADB_GALERA_FORCE_SAFETOBOOTSTRAP',
            change: 'yes only on that member, and remove it once the cluster is up (on the wrong member it loses the newer transactions)',
          },
        ],
      },
      {
        id: 'general',
        summary: 'this Galera member may not bootstrap the cluster: it did not leave last',
        explain:
          'The member is started as the one that bootstraps a new cluster (an empty gcomm:// or --wsrep-new-cluster), and its grastate.dat ' +
          'says safe_to_bootstrap: 0: another member left the cluster later and may hold transactions this one lacks. Galera refuses rather ' +
          'than lose them.',
        knobs: [
          {
            place: 'app',
            path: 'grastate.dat in the data directory of the member with the highest seqno',
            change: 'find it (mysqld --wsrep-recover on each volume) and set safe_to_bootstrap: 1 there, then start that member first',
          },
          {
            place: 'cluster',
            path: "the StatefulSet's podManagementPolicy",
            change: 'Parallel lets every member start, so the one that left last can bootstrap (or let an operator, e.g. mariadb-operator, recover it)',
          },
        ],
      },
    ],
  },
  {
    id: 'aio-max-nr',
    kind: 'resource',
    resource: "the node's asynchronous I/O request slots (fs.aio-max-nr)",
    doc:
      'ScyllaDB (Seastar) reserves asynchronous I/O request slots for each shard at start, one shard per CPU, and fails when the node-wide ' +
      'fs.aio-max-nr (65536 on most distributions) is used up: by the other Scylla pods on the node, or by one Scylla seeing many CPUs.',
    variants: [
      {
        id: 'all-cpus',
        when: (ctx) => scyllaCpus(ctx),
        summary: "{{node}}'s fs.aio-max-nr cannot hold the AIO requests of one Scylla shard per node CPU",
        explain:
          'Scylla starts one shard per CPU it sees, here {{cpus}}, and each shard reserves asynchronous I/O requests from the node-wide limit ' +
          'fs.aio-max-nr of {{node}}, shared with every other container there. The reservation does not fit, so Scylla stops; the parameter is ' +
          'not namespaced, so the pod cannot raise it for itself.',
        knobs: [
          { place: 'node', path: 'sysctl fs.aio-max-nr on {{node}}', change: 'raise it (Scylla documents 1048576) for every node of the pool' },
          {
            place: 'pod',
            path: '{{containerPath}}.args --smp / resources.limits.cpu',
            change: 'or give Scylla fewer shards: --smp N, or a CPU limit (Guaranteed QoS, as Scylla Operator sets)',
          },
        ],
        facts: (ctx) => [specFact(ctx, 'resources.limits.cpu', '(not set)')],
      },
      {
        id: 'node',
        summary: "{{node}}'s fs.aio-max-nr is used up: Scylla cannot reserve its AIO requests",
        explain:
          'Each Scylla shard reserves asynchronous I/O requests from the node-wide limit fs.aio-max-nr of {{node}}, shared with every other ' +
          'container there (other Scylla pods on the node count too). The reservation does not fit, so Scylla stops; the pod spec cannot set ' +
          'this parameter.',
        knobs: [
          { place: 'node', path: 'sysctl fs.aio-max-nr on {{node}}', change: 'raise it (Scylla documents 1048576) for every node of the pool' },
          {
            place: 'cluster',
            path: 'Scylla Operator NodeConfig (or ScyllaCluster spec.sysctls in older releases)',
            change: 'or let the operator set fs.aio-max-nr on the nodes that run Scylla',
          },
          { place: 'pod', path: '{{containerPath}}.args --smp', change: 'or run fewer shards, so fewer requests are reserved' },
        ],
      },
    ],
  },
  {
    id: 'license-not-accepted',
    kind: 'setting',
    resource: "the acceptance of the image's licence",
    doc: "Neo4j's Enterprise Edition image refuses to start until the container states that it accepts the licence agreement (an env var).",
    variants: [
      {
        id: 'neo4j-value',
        when: (ctx) => {
          const v = envValue(ctx, 'NEO4J_ACCEPT_LICENSE_AGREEMENT');
          return v !== undefined && v !== 'yes' && v !== 'eval' && { value: v };
        },
        summary: 'Neo4j Enterprise needs NEO4J_ACCEPT_LICENSE_AGREEMENT=yes, the pod sets "{{value}}"',
        explain:
          "The Enterprise Edition image's entrypoint starts Neo4j only when NEO4J_ACCEPT_LICENSE_AGREEMENT is yes (or eval, for the " +
          'evaluation licence of 5.x); the container sets it to "{{value}}", which the entrypoint does not accept.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env NEO4J_ACCEPT_LICENSE_AGREEMENT', change: 'set yes (with a commercial licence) or eval' },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or use the Community Edition tag, which needs no acceptance' },
        ],
        facts: (ctx, d) => [specFact(ctx, 'env[NEO4J_ACCEPT_LICENSE_AGREEMENT]', String(d.value))],
      },
      {
        id: 'neo4j',
        summary: 'Neo4j Enterprise needs NEO4J_ACCEPT_LICENSE_AGREEMENT, which the pod does not set',
        explain:
          "The image is Neo4j's Enterprise Edition, and its entrypoint exits before Neo4j starts until the container accepts the licence " +
          'agreement: NEO4J_ACCEPT_LICENSE_AGREEMENT=yes (or eval, for the evaluation licence of 5.x), which the container does not set.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env NEO4J_ACCEPT_LICENSE_AGREEMENT', change: 'set yes (with a commercial licence) or eval' },
          { place: 'app', path: 'chart value neo4j.acceptLicenseAgreement (neo4j/helm-charts)', change: 'or set it in the Helm values' },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or use the Community Edition tag, which needs no acceptance' },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'galera.unsafe-bootstrap',
    family: 'server',
    mechanism: 'galera-unsafe-bootstrap',
    needles: ['safe to bootstrap', 'safe_to_bootstrap'],
    patterns: [
      re('WSREP: It may not be safe to bootstrap the cluster from this node'),
      re("It is not safe to bootstrap form this node \\('safe_to_bootstrap=0'"),
    ],
    source:
      'Galera replicator (gcs/galera, "It may not be safe to bootstrap the cluster from this node", since 3.19); bitnami/containers ' +
      'mariadb-galera libmariadbgalera.sh. Lines (GitHub): mariadb-operator/mariadb-operator#910, bitnami/bitnami-docker-mariadb-galera#52, ' +
      'bitnami/containers#54037, bitnami/charts#2260; chart values: bitnami/charts mariadb-galera README',
    examples: [
      '[ERROR] WSREP: It may not be safe to bootstrap the cluster from this node. It was not the last one to leave the cluster ' +
        'and may not contain all the updates.',
      "ERROR ==> It is not safe to bootstrap form this node ('safe_to_bootstrap=0' is set in 'grastate.dat'). If you want to force bootstrap, " +
        'set the environment variable MARIADB_GALERA_FORCE_SAFETOBOOTSTRAP=yes',
    ],
  },
  {
    id: 'scylla.aio-max-nr',
    family: 'server',
    mechanism: 'aio-max-nr',
    needles: ['aio-max-nr', 'could not setup async i/o'],
    patterns: [re('Could not setup Async I/O: (?:Resource temporarily unavailable|.*aio-max-nr)')],
    source:
      'Seastar src/core/reactor.cc (setup_aio_context: "Could not setup Async I/O ... /proc/sys/fs/aio-max-nr"). Lines (GitHub): ' +
      'scylladb/scylladb#15010, scylladb/scylladb#11117, scylladb/scylladb#19664, scylladb/scylladb#9096, Treetscom/scyllapy#37; ' +
      'near miss apache/cassandra-gocql-driver#1596',
    examples: [
      'FATAL: Exception during startup, aborting: std::runtime_error (Could not setup Async I/O: Resource temporarily unavailable. The most common ' +
        'cause is not enough request capacity in /proc/sys/fs/aio-max-nr. Try increasing that number or reducing the amount of logical CPUs ' +
        'available for your application)',
      'ERROR 2024-06-05 21:44:04,777 [shard 6] seastar - Could not setup Async I/O: Resource temporarily unavailable. The most common cause is not ' +
        'enough request capacity in /proc/sys/fs/aio-max-nr. Try increasing that number or reducing the amount of logical CPUs available for your application',
    ],
    nearMisses: ['[root@scylla-pod-1-5 /]# cat /proc/sys/fs/aio-max-nr'],
  },
  {
    id: 'neo4j.license',
    family: 'server',
    mechanism: 'license-not-accepted',
    needles: ['must accept the license agreement'],
    patterns: [re('In order to use Neo4j Enterprise Edition you must accept the license agreement')],
    source:
      'neo4j/docker-neo4j docker-entrypoint.sh (licence check, since 3.3; docker-library/official-images#3663). Lines (GitHub): ' +
      'neo4j/docker-neo4j#108, helm/charts#16743',
    examples: ['In order to use Neo4j Enterprise Edition you must accept the license agreement.'],
  },
  {
    id: 'couchdb.admin-party',
    family: 'server',
    mechanism: 'required-setting',
    needles: ['admin party'],
    patterns: [re('ERROR: CouchDB 3\\.0\\+ will no longer run in "Admin Party"')],
    source:
      'apache/couchdb-docker 3.x docker-entrypoint.sh (apache/couchdb-docker#166, docker-library/official-images#7524); apache/couchdb#2389 ' +
      '(refuse startup with no server admin). Lines (GitHub): apache/couchdb#2603; near miss (the 2.x warning): apache/couchdb-docker#18',
    examples: ['ERROR: CouchDB 3.0+ will no longer run in "Admin Party"'],
    nearMisses: ['WARNING: CouchDB is running in Admin Party mode.'],
  },
  {
    id: 'neo4j.store-lock',
    family: 'server',
    mechanism: 'data-dir-locked',
    needles: ['store_lock', 'store lock file'],
    patterns: [
      re('(?:Lock file|Store and its lock file) has been locked by another process: (?<path>/\\S+?store_lock)'),
      re('Unable to obtain lock on (?:store lock )?file:? (?<path>/\\S+?store_lock)'),
    ],
    source:
      'neo4j StoreLocker ("Store and its lock file has been locked by another process", "Unable to obtain lock on file"). Lines (GitHub): ' +
      'neo4j/docker-neo4j#289, neo4j-contrib/neo4j-helm#202, neo4j/neo4j#11971, neo4j/neo4j#10420; near miss neo4j/neo4j#757',
    examples: [
      'Lock file has been locked by another process: /data/databases/store_lock',
      'Unable to obtain lock on file: /data/databases/store_lock',
      '2018-07-12 07:57:25.047+0000 ERROR Failed to start Neo4j: Starting Neo4j failed: Component ' +
        "'org.neo4j.server.database.LifecycleManagingDatabase@44e3a2b2' was successfully initialized, but failed to start. Please see the attached " +
        'cause exception "Store and its lock file has been locked by another process: /data/databases/graph.db/store_lock. Please ensure no other ' +
        'process is using this database, and that the directory is writable (required even for read-only access)".',
    ],
  },
  {
    id: 'influxdb.bolt-timeout',
    family: 'server',
    mechanism: 'data-dir-locked',
    needles: ['unable to open boltdb'],
    patterns: [re('unable to open boltdb: timeout')],
    source:
      'influxdata/influxdb kv/bolt (bbolt.Open with a timeout waiting for the file lock on influxd.bolt). Lines (GitHub): ' +
      'influxdata/influxdb#24320, solectrus/solectrus#2715, InfluxCommunity/InfluxDBv2_Telegraf_Docker#2; near miss influxdata/platform#1079',
    examples: [
      'Error: unable to open boltdb: timeout',
      'ts=2024-01-08T20:42:20.792494Z lvl=error msg="Failed opening bolt" log_id=0mbhp~E0000 error="unable to open boltdb: timeout"',
    ],
    nearMisses: [
      'ts=2018-10-15T05:20:46.640537Z lvl=error msg="failed opening bolt" log_id=0B9YZ6C0000 error="Unable to open boltdb; is there a chronograf ' +
        'already running?  open /root/.influxdbv2/influxd.bolt: no such file or directory"',
    ],
  },
  {
    id: 'memcached.rlimit',
    family: 'server',
    mechanism: 'rlimit-raise',
    needles: ['failed to set rlimit'],
    patterns: [re('failed to set rlimit for (?<rlimit>open files)\\. Try starting as root or requesting smaller maxconns value')],
    source:
      'memcached memcached.c (raises RLIMIT_NOFILE to fit -c maxconns). Lines (GitHub): memcached/memcached#218, memcached/memcached#420, ' +
      'BeyondTheClouds/enos#69, nanovms/ops#76; the fd limit in containers: docker-library/memcached#18',
    examples: [
      'failed to set rlimit for open files. Try starting as root or requesting smaller maxconns value.',
      'Nov 02 18:41:04 localhost.localdomain memcached[1078]: failed to set rlimit for open files. ' +
        'Try starting as root or requesting smaller maxconns value.',
    ],
  },
  {
    id: 'bookkeeper.instance-id',
    family: 'server',
    mechanism: 'cluster-identity-mismatch',
    needles: ['invalidcookieexception'],
    patterns: [re('InvalidCookieException: instanceId (?<stored>[\\w-]+) is not matching with (?<now>[\\w-]+)')],
    source:
      'apache/bookkeeper bookie/Cookie.java verifyInternal (the instanceId a bookie wrote on its journal and ledger directories against the ' +
      "metadata store's). Lines (GitHub): apache/pulsar-helm-chart#347, streamnative/pulsar#17, apache/bookkeeper#4155",
    examples: [
      '14:32:40.695 [main] ERROR org.apache.bookkeeper.server.Main - Failed to build bookie server ' +
        'org.apache.bookkeeper.bookie.BookieException$InvalidCookieException: instanceId 098b7177-8e27-4c57-a38a-ddc230840b86 is not matching with ' +
        'aff0aa33-b168-4735-82f7-281900942137',
      'pulsar-bookie 2023-02-09T12:41:47,136+0000 [main] ERROR org.apache.bookkeeper.server.Main - Failed to build bookie server pulsar-bookie ' +
        'org.apache.bookkeeper.bookie.BookieException$InvalidCookieException: instanceId 70fa10af-86ef-4ced-b307-75f998c2ab8d ' +
        'is not matching with 2024bf46-92f4-4',
    ],
  },
  {
    id: 'artemis.server-lock',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['amq222141', 'node manager can not open file'],
    // The JVM reports ENOENT: the broker (UID 1000 in the images) could not create the journal directory on a volume root owns.
    patterns: [re('Node Manager can not open file (?<path>/\\S+)/server\\.lock')],
    source:
      'apache/activemq-artemis FileLockNodeManager (AMQ222141). Lines (GitHub): vromero/activemq-artemis-docker#28, ' +
      'vromero/activemq-artemis-docker#168, vromero/activemq-artemis-helm#41 (fsGroup fixes it), arkmq-org/arkmq-org-broker-operator#187, #1056',
    examples: [
      '[org.apache.activemq.artemis.core.server] AMQ222141: Node Manager can not open file /var/lib/artemis/./data/journal/server.lock: ' +
        'java.io.IOException: No such file or directory',
      'WARN  [org.apache.activemq.artemis.core.server] AMQ222141: Node Manager can not open file /opt/amq-artemis/data/journal/server.lock: ' +
        'java.io.IOException: No such file or directory',
    ],
  },
  {
    id: 'solr.var-solr',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['cannot write to /var/solr'],
    patterns: [re('Cannot write to (?<path>/var/solr\\S*) as (?<uid>\\d+):\\d+')],
    source:
      'apache/solr-docker scripts/init-var-solr (checks /var/solr is writable by the solr user). Lines (GitHub): docker-solr/docker-solr#353; ' +
      'the volume ownership: docker-solr/docker-solr#50, gdcc/dataverse-kubernetes#31',
    examples: ['Cannot write to /var/solr as 8983:8983'],
  },
]);
