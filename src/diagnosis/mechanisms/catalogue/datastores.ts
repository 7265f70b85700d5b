// Start-up checks of data stores and messaging servers: MariaDB Galera, ScyllaDB, Neo4j, CouchDB, InfluxDB, Memcached,
// Apache Pulsar (BookKeeper), ActiveMQ Artemis, Apache Solr. Each line is the server's own sentence; most mean a
// mechanism the catalogue already has (a volume another process holds, a volume the user may not write, a hard limit),
// and five are new: a Galera member that may not bootstrap, the node's AIO request slots, a licence not accepted, memory
// settings larger than the memory the server sees, a bookie whose identity is its pod IP.
import { envValue, memoryLimit } from '../context.js';
import { mechanisms, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** Scylla starts one shard per CPU it sees: without a CPU limit or --smp, that is every CPU of the node. */
function scyllaCpus(ctx: ReadingContext): { cpus: string } | false {
  const args = [...(ctx.container?.command ?? []), ...(ctx.container?.args ?? [])].join(' ');
  if (/--smp\b/.test(args)) return false;
  const limit = ctx.container?.resources?.limits?.cpu;
  return limit === undefined ? { cpus: "all of the node's CPUs (the container sets no CPU limit)" } : false;
}

/** The docker-neo4j env var for a setting: NEO4J_ + the name with _ doubled and . as _ (server.memory.heap.max_size → ..._max__size). */
const neo4jEnv = (setting: string) => `NEO4J_${setting.replace(/_/g, '__').replace(/\./g, '_')}`;

/** The two settings Neo4j names (server.* in 5.x, dbms.* in 4.x) and their env vars. */
function neo4jMemory(ctx: ReadingContext) {
  const pagecache = ctx.groups.pagecache ?? 'server.memory.pagecache.size';
  const heap = ctx.groups.heap ?? 'server.memory.heap.max_size';
  return { pagecache, heap, pagecacheEnv: neo4jEnv(pagecache), heapEnv: neo4jEnv(heap) };
}

/** The two addresses of the cookies a bookie compares: the one on this line, and the next bookieHost when it differs. */
function cookieHosts(ctx: ReadingContext): { one: string; other: string } | false {
  const one = ctx.groups.host;
  const other = ctx.around.map((l) => /bookieHost: "([^"]+)"/.exec(l)?.[1]).find((h) => h !== undefined && h !== one);
  return one !== undefined && other !== undefined && { one, other };
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
  {
    id: 'memory-settings-exceed-limit',
    kind: 'setting',
    resource: "the server's configured memory against the container's memory",
    doc:
      "Neo4j adds its configured heap and page cache and refuses to start when the sum exceeds the memory the JVM reports: the container's " +
      "memory limit where the JVM reads it from the cgroup, else the node's RAM.",
    variants: [
      {
        id: 'limit',
        when: (ctx) => {
          const limit = memoryLimit(ctx);
          return limit !== undefined && { ...neo4jMemory(ctx), limit };
        },
        summary: 'Neo4j heap + page cache exceed the memory it sees (the container limit is {{limit}})',
        explain:
          'Neo4j checks at start that {{heap}} plus {{pagecache}} fit in the memory the JVM reports, which in this container is its memory ' +
          'limit ({{limit}}), and they do not: the settings were sized for a larger machine (or by a chart from another limit). When the sum is ' +
          "below the limit, the JVM reads another value: an older JVM on cgroup v2 nodes does not see the container's limit.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env {{heapEnv}} + {{pagecacheEnv}}',
            change: 'size them to fit in {{limit}} with room for native memory (neo4j-admin server memory-recommendation gives values)',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'or raise the limit above heap + page cache + native memory' },
          { place: 'pod', path: '{{containerPath}}.image', change: 'on cgroup v2 nodes, use an image whose JVM reads cgroup v2 (JDK 11.0.16+/17)' },
        ],
        facts: (ctx, d) => [specFact(ctx, 'resources.limits.memory', String(d.limit))],
      },
      {
        id: 'general',
        summary: "Neo4j heap + page cache exceed the memory it sees (the container has no memory limit: the node's RAM)",
        explain:
          'Neo4j checks at start that its heap (server.memory.heap.max_size) plus its page cache (server.memory.pagecache.size; dbms.memory.* ' +
          'in 4.x) fit in the memory the JVM reports, and they do not; the container has no memory limit, so that is the RAM of {{node}}: ' +
          'the settings were sized for a larger machine.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env NEO4J_server_memory_heap_max__size + NEO4J_server_memory_pagecache_size',
            change: 'size them to the memory the pod may use (NEO4J_dbms_memory_heap_max__size, NEO4J_dbms_memory_pagecache_size in 4.x)',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'and set a memory limit (and request) that holds them' },
        ],
      },
    ],
  },
  {
    id: 'bookie-cookie',
    kind: 'setting',
    resource: "a BookKeeper bookie's identity (its cookie)",
    doc:
      'A bookie writes a cookie (its address, its directories, the instance id) to its journal and ledger directories and to the metadata ' +
      'store, and refuses to start when the two differ. By default its address is the pod IP, which a restarted pod does not keep.',
    variants: [
      {
        id: 'pod-ip',
        when: (ctx) => cookieHosts(ctx),
        summary: 'the bookie cookies name two addresses, {{one}} and {{other}}: its identity is the pod IP',
        explain:
          'The bookie identifies itself by its address, and the cookie it registered with and the one it builds now name two addresses ' +
          '({{one}}, {{other}}): by default BookKeeper uses the IP, and a pod IP does not survive a restart, so the cookie on the volume no ' +
          'longer matches the one in the metadata store.',
        knobs: [
          {
            place: 'app',
            path: 'bookkeeper useHostNameAsBookieID (env PULSAR_PREFIX_useHostNameAsBookieID, the Pulsar chart sets it)',
            change: "set true, so the bookie's id is the StatefulSet pod's stable host name",
          },
          {
            place: 'app',
            path: 'bin/bookkeeper shell updatecookie -bookieId hostname',
            change: 'then move the existing cookie to the host name once, instead of wiping the volume',
          },
        ],
      },
      {
        id: 'general',
        summary: 'the bookie cookie on its volume differs from the one in the metadata store',
        explain:
          'The cookie the bookie finds in its journal and ledger directories differs from the one the metadata store holds for it: its ' +
          'address (the pod IP by default) or its directory settings changed, or the volume belongs to another bookie.',
        knobs: [
          {
            place: 'app',
            path: 'bookkeeper useHostNameAsBookieID / journalDirectories / ledgerDirectories',
            change: 'keep the id stable (host name) and the directories as they were when the bookie registered',
          },
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
    id: 'neo4j.memory-config',
    family: 'server',
    mechanism: 'memory-settings-exceed-limit',
    needles: ['invalid memory configuration'],
    patterns: [
      re('Invalid memory configuration - exceeds physical memory\\. Check the configured values for (?<pagecache>[\\w.]+) and (?<heap>[\\w.]+)'),
      re('Invalid memory configuration - exceeds physical memory'),
    ],
    source:
      'neo4j server bootstrap (memory validation of the page cache and heap settings). Lines (GitHub): neo4j/helm-charts#479, neo4j/neo4j#12689, ' +
      'neo4j-contrib/neo4j-helm#167',
    examples: [
      '2025-11-17 19:57:11.417+0000 ERROR Invalid memory configuration - exceeds physical memory. Check the configured values for ' +
        'server.memory.pagecache.size and server.memory.heap.max_size',
      'Invalid memory configuration - exceeds physical memory. Check the configured values for dbms.memory.pagecache.size and dbms.memory.heap.max_size',
    ],
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
    id: 'bookkeeper.cookie',
    family: 'server',
    mechanism: 'bookie-cookie',
    needles: ['bookiehost'],
    // The exception prints both cookies over several lines; the first bookieHost is read, and the variant finds the second after it.
    patterns: [re('^\\s*bookieHost: "(?<host>[^"]+)"')],
    preceded: /InvalidCookieException: Cookie \[/,
    applies: (ctx) => !ctx.around.some((l) => /is not matching with \[/.test(l)),
    source:
      'apache/bookkeeper bookie/Cookie.java verifyInternal ("Cookie [...] is not matching with [...]"). Lines (GitHub): ' +
      'streamnative/pulsar#1246 (apache/pulsar#7569); useHostNameAsBookieID: apache/pulsar-helm-chart values.yaml',
    examples: [
      'org.apache.bookkeeper.bookie.BookieException$InvalidCookieException: Cookie [4\nbookieHost: "10.233.106.106:3181"\n' +
        'journalDir: "data/bookkeeper/journal"\nledgerDirs: "1\\tdata/bookkeeper/ledgers"\ninstanceId: "7940c93b-5da8-4fa7-941e-d254d678fb1c"\n' +
        '] is not matching with [4\nbookieHost: "10.233.107.121:3181"',
    ],
    nearMisses: ['bookieHost: "10.233.106.106:3181"'],
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
