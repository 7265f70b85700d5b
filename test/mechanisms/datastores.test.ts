// Start-up checks of data stores and messaging servers (src/diagnosis/mechanisms/catalogue/datastores.ts): the
// server's own sentence leads to the mechanism it means in a pod, with the knob and its path.
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { type ContainerPatch, describeFamilies, scopeOf } from '../helpers/mechanism-table.js';

const GALERA =
  '[ERROR] WSREP: It may not be safe to bootstrap the cluster from this node. It was not the last one to leave the cluster ' +
  'and may not contain all the updates.';
const GALERA_BITNAMI =
  "ERROR ==> It is not safe to bootstrap form this node ('safe_to_bootstrap=0' is set in 'grastate.dat'). If you want to force bootstrap, " +
  'set the environment variable MARIADB_GALERA_FORCE_SAFETOBOOTSTRAP=yes';
const SCYLLA =
  'FATAL: Exception during startup, aborting: std::runtime_error (Could not setup Async I/O: Resource temporarily unavailable. The most common ' +
  'cause is not enough request capacity in /proc/sys/fs/aio-max-nr. Try increasing that number or reducing the amount of logical CPUs ' +
  'available for your application)';
const NEO4J_LICENSE = 'In order to use Neo4j Enterprise Edition you must accept the license agreement.';
const NEO4J_MEMORY =
  '2025-11-17 19:57:11.417+0000 ERROR Invalid memory configuration - exceeds physical memory. Check the configured values for ' +
  'server.memory.pagecache.size and server.memory.heap.max_size';
const NEO4J_4_MEMORY =
  'Invalid memory configuration - exceeds physical memory. Check the configured values for dbms.memory.pagecache.size and dbms.memory.heap.max_size';
const ARTEMIS =
  '[org.apache.activemq.artemis.core.server] AMQ222141: Node Manager can not open file /var/lib/artemis/data/journal/server.lock: ' +
  'java.io.IOException: No such file or directory';

const SCYLLA_LIMITED: ContainerPatch = { resources: { limits: { cpu: '4', memory: '8Gi' } } };
const ARTEMIS_ON_CLAIM = {
  container: { volumeMounts: [{ name: 'data', mountPath: '/var/lib/artemis/data' }] } satisfies ContainerPatch,
  spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-artemis-0' } }] },
};

describeFamilies({
  'Galera bootstrap': [
    { line: GALERA, mechanism: 'galera-unsafe-bootstrap', variant: 'general', knob: 'grastate.dat' },
    { line: GALERA_BITNAMI, mechanism: 'galera-unsafe-bootstrap', variant: 'bitnami', knob: 'podManagementPolicy' },
    { line: GALERA_BITNAMI, mechanism: 'galera-unsafe-bootstrap', variant: 'bitnami', knob: 'galera.bootstrap.forceSafeToBootstrap' },
  ],
  'ScyllaDB AIO slots': [
    { line: SCYLLA, mechanism: 'aio-max-nr', variant: 'all-cpus', knob: 'sysctl fs.aio-max-nr on node-1' },
    { line: SCYLLA, mechanism: 'aio-max-nr', variant: 'all-cpus', knob: 'spec.containers[app].args --smp' },
    { line: SCYLLA, mechanism: 'aio-max-nr', variant: 'node', knob: 'sysctl fs.aio-max-nr on node-1', container: SCYLLA_LIMITED },
    { line: SCYLLA, mechanism: 'aio-max-nr', variant: 'node', knob: 'NodeConfig', container: { args: ['--smp', '2'] } },
  ],
  'Neo4j licence': [
    { line: NEO4J_LICENSE, mechanism: 'license-not-accepted', variant: 'neo4j', knob: 'env NEO4J_ACCEPT_LICENSE_AGREEMENT' },
    {
      line: NEO4J_LICENSE,
      mechanism: 'license-not-accepted',
      variant: 'neo4j-value',
      knob: 'spec.containers[app].env NEO4J_ACCEPT_LICENSE_AGREEMENT',
      container: { env: [{ name: 'NEO4J_ACCEPT_LICENSE_AGREEMENT', value: 'true' }] },
      data: { value: 'true' },
    },
  ],
  'Neo4j memory settings': [
    { line: NEO4J_MEMORY, mechanism: 'memory-settings-exceed-limit', variant: 'general', knob: 'resources.limits.memory' },
    {
      line: NEO4J_MEMORY,
      mechanism: 'memory-settings-exceed-limit',
      variant: 'limit',
      knob: 'spec.containers[app].env NEO4J_server_memory_heap_max__size + NEO4J_server_memory_pagecache_size',
      container: { resources: { limits: { memory: '2Gi' } } },
      data: { limit: '2Gi', heap: 'server.memory.heap.max_size' },
    },
    {
      line: NEO4J_4_MEMORY,
      mechanism: 'memory-settings-exceed-limit',
      variant: 'limit',
      knob: 'env NEO4J_dbms_memory_heap_max__size + NEO4J_dbms_memory_pagecache_size',
      container: { resources: { limits: { memory: '15Gi' } } },
    },
  ],
  'a store another process holds (Neo4j, InfluxDB)': [
    {
      line: 'Lock file has been locked by another process: /data/databases/store_lock',
      mechanism: 'data-dir-locked',
      variant: 'shared-volume',
      knob: 'strategy.type',
    },
    { line: 'Unable to obtain lock on file: /data/databases/store_lock', mechanism: 'data-dir-locked', variant: 'shared-volume', knob: 'accessModes' },
    { line: 'Error: unable to open boltdb: timeout', mechanism: 'data-dir-locked', variant: 'shared-volume', knob: 'strategy.type' },
  ],
  'CouchDB admin': [
    { line: 'ERROR: CouchDB 3.0+ will no longer run in "Admin Party"', mechanism: 'required-setting', variant: 'env', knob: 'secretKeyRef' },
    { line: 'ERROR: CouchDB 3.0+ will no longer run in "Admin Party"', mechanism: 'required-setting', variant: 'env', knob: '.env[]' },
  ],
  'Memcached maxconns': [
    {
      line: 'failed to set rlimit for open files. Try starting as root or requesting smaller maxconns value.',
      mechanism: 'rlimit-raise',
      variant: 'hard-limit',
      knob: 'containerd base_runtime_spec rlimits',
      data: { rlimit: 'open files' },
    },
    {
      line:
        'Nov 02 18:41:04 localhost.localdomain memcached[1078]: failed to set rlimit for open files. ' +
        'Try starting as root or requesting smaller maxconns value.',
      mechanism: 'rlimit-raise',
      variant: 'hard-limit',
      knob: "the entrypoint's ulimit line",
    },
  ],
  // The multi-line cookie rows come after a one-line row: the engine test takes a family's first row as one log line.
  'BookKeeper cookie (instance id, pod IP)': [
    {
      line:
        '14:32:40.695 [main] ERROR org.apache.bookkeeper.server.Main - Failed to build bookie server ' +
        'org.apache.bookkeeper.bookie.BookieException$InvalidCookieException: instanceId 098b7177-8e27-4c57-a38a-ddc230840b86 is not matching with ' +
        'aff0aa33-b168-4735-82f7-281900942137',
      mechanism: 'cluster-identity-mismatch',
      variant: 'general',
      knob: 'the volumes of every member',
      data: { stored: '098b7177-8e27-4c57-a38a-ddc230840b86', now: 'aff0aa33-b168-4735-82f7-281900942137' },
    },
    {
      line:
        'pulsar-bookie 2023-02-09T12:41:47,136+0000 [main] ERROR org.apache.bookkeeper.server.Main - Failed to build bookie server pulsar-bookie ' +
        'org.apache.bookkeeper.bookie.BookieException$InvalidCookieException: instanceId 70fa10af-86ef-4ced-b307-75f998c2ab8d ' +
        'is not matching with 2024bf46-92f4-4',
      mechanism: 'cluster-identity-mismatch',
      variant: 'general',
      knob: "the server's cluster settings",
    },
    {
      line:
        '04:04:26.014 [main] ERROR org.apache.bookkeeper.server.Main - Failed to build bookie server\n' +
        'org.apache.bookkeeper.bookie.BookieException$InvalidCookieException: Cookie [4\nbookieHost: "10.233.106.106:3181"\n' +
        'journalDir: "data/bookkeeper/journal"\nledgerDirs: "1\tdata/bookkeeper/ledgers"\ninstanceId: "7940c93b-5da8-4fa7-941e-d254d678fb1c"\n' +
        '] is not matching with [4\nbookieHost: "10.233.107.121:3181"\njournalDir: "data/bookkeeper/journal"',
      mechanism: 'bookie-cookie',
      variant: 'pod-ip',
      knob: 'useHostNameAsBookieID',
      data: { one: '10.233.106.106:3181', other: '10.233.107.121:3181' },
    },
    {
      line: 'org.apache.bookkeeper.bookie.BookieException$InvalidCookieException: Cookie [4\nbookieHost: "10.233.106.106:3181"',
      mechanism: 'bookie-cookie',
      variant: 'general',
      knob: 'journalDirectories',
    },
  ],
  'a volume the broker, Solr or NATS may not write': [
    { line: ARTEMIS, mechanism: 'fs-permission', variant: 'volume-ownership', knob: 'spec.securityContext.fsGroup', ...ARTEMIS_ON_CLAIM },
    { line: ARTEMIS, mechanism: 'fs-permission', variant: 'general', knob: 'spec.securityContext.fsGroup' },
    { line: 'Cannot write to /var/solr as 8983:8983', mechanism: 'fs-permission', variant: 'general', knob: 'fsGroup', data: { path: '/var/solr' } },
    {
      line: 'Cannot write to /var/solr as 8983:8983',
      mechanism: 'fs-permission',
      variant: 'volume-ownership',
      knob: 'spec.securityContext.fsGroup',
      container: { volumeMounts: [{ name: 'solr', mountPath: '/var/solr' }] },
      spec: { volumes: [{ name: 'solr', persistentVolumeClaim: { claimName: 'solr-0' } }] },
    },
    // NATS JetStream's line (nats-io/k8s#896) is read by the errno signature already: checked here for the family.
    {
      line: "[40] 2024/04/26 18:15:07.716450 [FTL] Can't start JetStream: could not create storage directory - mkdir /data: permission denied",
      mechanism: 'fs-permission',
      variant: 'volume-ownership',
      knob: 'spec.securityContext.fsGroup',
      container: { volumeMounts: [{ name: 'nats-js', mountPath: '/data' }] },
      spec: { volumes: [{ name: 'nats-js', persistentVolumeClaim: { claimName: 'nats-js-nats-0' } }] },
    },
  ],
});

describe('data store start-up checks: what the reading says', () => {
  it('names the bootstrapping member and the StatefulSet policy for Galera', () => {
    const r = readTexts([{ text: GALERA_BITNAMI, source: 'logs app' }], scopeOf());
    expect(r?.explanation).toMatch(/OrderedReady/);
    expect(r?.knobs.join('\n')).toMatch(/MARIADB_GALERA_FORCE_SAFETOBOOTSTRAP: yes only on that member/);
  });
  it('says Scylla sees every CPU of the node when the container has no CPU limit, and quotes the spec', () => {
    const r = readTexts([{ text: SCYLLA, source: 'logs app' }], scopeOf());
    expect(r?.explanation).toMatch(/all of the node's CPUs/);
    expect(r?.evidence.map((e) => e.source)).toContain('pod.spec.containers[app].resources.limits.cpu');
  });
  it('reads CouchDB with the variables its entrypoint names on the following lines', () => {
    const text = [
      '*************************************************************',
      'ERROR: CouchDB 3.0+ will no longer run in "Admin Party"',
      '       mode. You *MUST* specify an admin user and',
      '       password, either via your own .ini file mapped',
      '       into the container at /opt/couchdb/etc/local.ini',
      '       or inside /opt/couchdb/etc/local.d, or with',
      '       "-e COUCHDB_USER=admin -e COUCHDB_PASSWORD=password"',
      '       to set it via "docker run".',
    ].join('\n');
    const r = readTexts([{ text, source: 'logs app' }], scopeOf());
    expect(r?.mechanism).toBe('required-setting');
    expect(r?.summary).toMatch(/COUCHDB_USER, COUCHDB_PASSWORD/);
  });
  it('leaves the CouchDB 2.x warning and a boltdb file that is missing to other readings', () => {
    const warn = readTexts([{ text: 'WARNING: CouchDB is running in Admin Party mode.', source: 'logs app' }], scopeOf());
    expect(warn?.mechanism).not.toBe('required-setting');
    const missing = readTexts(
      [
        {
          text: 'error="Unable to open boltdb; is there a chronograf already running?  open /root/.influxdbv2/influxd.bolt: no such file or directory"',
          source: 'l',
        },
      ],
      scopeOf(),
    );
    expect(missing?.mechanism).not.toBe('data-dir-locked');
  });
});
