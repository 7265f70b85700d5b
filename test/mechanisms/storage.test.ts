// Storage and mandatory access control under a pod (src/diagnosis/mechanisms/catalogue/storage.ts): SELinux and
// AppArmor refusals, noexec volumes, dead FUSE mounts, corrupted filesystems, the file size limit. Each line is a real
// one (the signatures name their sources); the spec around it picks the variant and the knob.
import { describe, expect, it } from 'vitest';
import { explain, readTexts, SIGNATURES } from '../../src/diagnosis/mechanisms/index.js';
import { node, snapshot } from '../helpers/factories.js';
import { describeFamilies, type Row, scopeOf } from '../helpers/mechanism-table.js';

const AVC_HOME =
  'type=AVC msg=audit(1503978775.261:360): avc:  denied  { write } for  pid=4546 comm="touch" name="xxx" dev="sdb5" ino=6947856 ' +
  'scontext=system_u:system_r:container_t:s0:c159,c177 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=dir permissive=0';
const AVC_MCS =
  'Jan 10 15:51:17 alien3 audit[20404]: AVC avc:  denied  { read } for  pid=20404 comm="nslookup" name="etc-hosts" dev="sda9" ino=1062417 ' +
  'scontext=system_u:system_r:svirt_lxc_net_t:s0:c15,c665 tcontext=system_u:object_r:svirt_lxc_file_t:s0:c354,c771 tclass=file permissive=0';
const AVC_VAR_LIB =
  'type=AVC msg=audit(1644242078.475:706): avc:  denied  { read } for  pid=3831 comm="date" path="/lib/ld-musl-x86_64.so.1" dev="vda1" ino=265972 ' +
  'scontext=system_u:system_r:container_t:s0:c196,c287 tcontext=unconfined_u:object_r:var_lib_t:s0 tclass=file permissive=0';
const SQLITE =
  'java.lang.UnsatisfiedLinkError: /tmp/sqlite-3.32.3.2-9c96fb8b-8402-43e1-bfd9-9974fbd99a84-libsqlitejdbc.so: ' +
  '/tmp/sqlite-3.32.3.2-9c96fb8b-8402-43e1-bfd9-9974fbd99a84-libsqlitejdbc.so: failed to map segment from shared object: Operation not permitted';
const LAVA =
  'java.lang.RuntimeException: java.lang.UnsatisfiedLinkError: /tmp/lava-jni-natives/1568318308672/libconnector.so: ' +
  '/tmp/lava-jni-natives/1568318308672/libconnector.so: failed to map segment from shared object: Operation not permitted';
const AIRFLOW =
  "OSError: [Errno 107] Transport endpoint is not connected: '/opt/airflow/logbucket/dag_id=xxx/run_id=scheduled__2023-07-31T00:00:00+00:00/" +
  'task_id=begin_drop_day_driving_table\'"';

const FAMILIES: Record<string, Row[]> = {
  selinux: [
    {
      line: AVC_HOME,
      mechanism: 'selinux-denied',
      variant: 'host-path',
      knob: 'chcon -Rt container_file_t /srv/data on node-1',
      container: { volumeMounts: [{ name: 'data', mountPath: '/data' }] },
      spec: { volumes: [{ name: 'data', hostPath: { path: '/srv/data' } }] },
      data: { hostPath: '/srv/data', ttype: 'user_home_t', perm: 'write' },
    },
    {
      line: AVC_MCS,
      mechanism: 'selinux-denied',
      variant: 'mcs-level',
      knob: 'spec.securityContext.seLinuxOptions.level',
      data: { slevel: 's0:c15,c665', tlevel: 's0:c354,c771', target: 'etc-hosts' },
    },
    { line: AVC_VAR_LIB, mechanism: 'selinux-denied', variant: 'label', knob: 'ausearch -m avc -ts recent on node-1' },
    {
      line: 'relabel failed "/run/netns": operation not supported',
      mechanism: 'selinux-denied',
      variant: 'relabel',
      knob: 'spec.securityContext.seLinuxChangePolicy',
      data: { path: '/run/netns' },
    },
  ],
  apparmor: [
    {
      line:
        '/var/log/kern.log:Nov 12 10:12:46 torritus kernel: [60510.393391] type=1400 audit(1415779966.460:83): apparmor="DENIED" operation="exec" ' +
        'profile="usr.bin.tor2web" name="/bin/dash" pid=3452 comm="python" requested_mask="x" denied_mask="x" fsuid=0 ouid=0',
      mechanism: 'apparmor-denied',
      variant: 'localhost',
      knob: 'the profile usr.bin.tor2web on node-1',
      data: { profile: 'usr.bin.tor2web', operation: 'exec', target: '/bin/dash' },
    },
    {
      line:
        '[65608.775072] audit: type=1400 audit(1602564380.386:31): apparmor="DENIED" operation="change_onexec" profile="/usr/bin/dockerd" pid=19306 ' +
        'comm="runc:[2:INIT]" target="docker-default"',
      mechanism: 'apparmor-denied',
      variant: 'runtime-itself',
      knob: 'the AppArmor profile /usr/bin/dockerd on node-1',
    },
    {
      line: 'apparmor failed to apply profile: write /proc/self/attr/apparmor/exec: no such file or directory: unknown.',
      mechanism: 'apparmor-denied',
      variant: 'apply-failed',
      knob: 'spec.containers[app].securityContext.appArmorProfile',
    },
  ],
  noexec: [
    {
      line: SQLITE,
      mechanism: 'noexec-mount',
      variant: 'jvm',
      knob: 'spec.containers[app].env JAVA_TOOL_OPTIONS',
      data: { property: '-Dorg.sqlite.tmpdir (or -Djava.io.tmpdir)' },
    },
    {
      line: LAVA,
      mechanism: 'noexec-mount',
      variant: 'jvm-on-volume',
      knob: 'the mount options of /var/lib/kubelet on node-1',
      container: { volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] },
      spec: { volumes: [{ name: 'tmp', emptyDir: {} }] },
      data: { volume: 'tmp', mountPath: '/tmp', property: '-Djava.io.tmpdir' },
    },
    {
      line:
        'Error: /home/ubuntu/src/app/node_modules/memwatch-next/build/Release/memwatch.node: failed to map ' +
        'segment from shared object: Operation not permitted',
      mechanism: 'noexec-mount',
      variant: 'on-volume',
      knob: 'spec.volumes[src]',
      container: { volumeMounts: [{ name: 'src', mountPath: '/home/ubuntu/src' }] },
      spec: { volumes: [{ name: 'src', hostPath: { path: '/srv/src' } }] },
    },
    {
      line:
        'ImportError: /home/mqm/.python-eggs/pymqi-1.11.1-py2.7-linux-x86_64.egg-tmp/pymqi/pymqe.so: failed ' +
        'to map segment from shared object: Operation not permitted',
      mechanism: 'noexec-mount',
      variant: 'mount',
      knob: 'mount | grep noexec on node-1',
    },
  ],
  fuse: [
    {
      line: AIRFLOW,
      mechanism: 'fuse-disconnected',
      variant: 'csi',
      knob: 'the node pod of gcsfuse.csi.storage.gke.io on node-1',
      container: { volumeMounts: [{ name: 'logbucket', mountPath: '/opt/airflow/logbucket' }] },
      spec: { volumes: [{ name: 'logbucket', csi: { driver: 'gcsfuse.csi.storage.gke.io' } }] },
      data: { volume: 'logbucket', mountPath: '/opt/airflow/logbucket' },
    },
    {
      line: 'df: ‘/mnt/gv1’: Transport endpoint is not connected',
      mechanism: 'fuse-disconnected',
      variant: 'host-path',
      knob: 'spec.containers[app].volumeMounts[gluster].mountPropagation',
      container: { volumeMounts: [{ name: 'gluster', mountPath: '/mnt' }] },
      spec: { volumes: [{ name: 'gluster', hostPath: { path: '/mnt' } }] },
      data: { path: '/mnt/gv1', hostPath: '/mnt' },
    },
    {
      line: 'May 29 09:16:58 prod-main-zemtu s3fs[2017306]: s3fs: unable to access MOUNTPOINT /var/www/zemtu/public/media: Transport endpoint is not connected',
      mechanism: 'fuse-disconnected',
      variant: 'in-container',
      knob: 'spec.containers[app].resources.limits.memory',
    },
  ],
  'corrupted filesystems': [
    {
      line: '/bin/sh: 1: cannot create /mnt/localdisk/outfile: Structure needs cleaning',
      mechanism: 'fs-corrupted',
      variant: 'volume',
      knob: 'the device of volume localdisk',
      container: { volumeMounts: [{ name: 'localdisk', mountPath: '/mnt/localdisk' }] },
      spec: { volumes: [{ name: 'localdisk', persistentVolumeClaim: { claimName: 'localdisk' } }] },
      data: { path: '/mnt/localdisk/outfile', volume: 'localdisk' },
    },
    {
      line:
        'Jul 14 10:26:29 immortal kernel: [699646.295473] EXT4-fs error (device sdf): ext4_find_entry:1455: ' +
        'inode #2: comm minio: reading directory lblock 0',
      mechanism: 'fs-corrupted',
      variant: 'device',
      knob: 'lsblk / findmnt on node-1',
      data: { device: 'sdf' },
    },
    {
      line: '[ 6489.218456] XFS (dm-152): metadata I/O error: block 0x18 ("xfs_trans_read_buf_map") error 74 numblks 8',
      mechanism: 'fs-corrupted',
      variant: 'device',
      knob: 'the volume on dm-152',
      data: { device: 'dm-152' },
    },
    { line: "mkdir: cannot create directory 'test': Structure needs cleaning", mechanism: 'fs-corrupted', variant: 'filesystem', knob: 'dmesg on node-1' },
  ],
  'file size': [
    {
      line: "dd: writing to '/zerofs/test01': File too large",
      mechanism: 'file-size-limit',
      variant: 'share',
      knob: "the share's server or storage class",
      container: { volumeMounts: [{ name: 'share', mountPath: '/zerofs' }] },
      spec: { volumes: [{ name: 'share', nfs: { server: 'nas.example.com', path: '/export' } }] },
      data: { path: '/zerofs/test01', volume: 'share' },
    },
    {
      line: "dd: writing to '/zerofs/test01': File too large",
      mechanism: 'file-size-limit',
      variant: 'volume',
      knob: 'the filesystem of volume scratch',
      container: { volumeMounts: [{ name: 'scratch', mountPath: '/zerofs' }] },
      spec: { volumes: [{ name: 'scratch', emptyDir: {} }] },
    },
    { line: 'Error: EFBIG: file too large, write', mechanism: 'file-size-limit', variant: 'rlimit', knob: "the entrypoint's ulimit -f" },
  ],
  sqlite: [
    // Nothing in the pod puts the database on a share: a second writer.
    { line: 'sqlite3.OperationalError: database is locked', mechanism: 'sqlite-locking', variant: 'concurrency', knob: 'busy timeout' },
    {
      line: 'Trace: [Error: PRAGMA journal_mode = WAL - SQLITE_BUSY: database is locked] {',
      mechanism: 'sqlite-locking',
      variant: 'smb-share',
      knob: 'mountOptions of',
      container: { env: [{ name: 'DB_PATH', value: '/data/notes.sqlite' }], volumeMounts: [{ name: 'data', mountPath: '/data' }] },
      spec: { volumes: [{ name: 'data', azureFile: { secretName: 'azure-secret', shareName: 'notes' } }] },
      data: { path: '/data/notes.sqlite', volume: 'data', share: 'azureFile' },
    },
    {
      // The only writable persistent volume of the container: the database has to be there.
      line: 'System.Data.SQLite.SQLiteException (0x80004005): database is locked',
      mechanism: 'sqlite-locking',
      variant: 'smb-share',
      knob: 'the volume of claim config',
      container: { volumeMounts: [{ name: 'config', mountPath: '/config' }] },
      spec: { volumes: [{ name: 'config', csi: { driver: 'file.csi.azure.com', volumeAttributes: { shareName: 'sonarr' } } }] },
    },
    {
      line: 'SQLitePCL.pretty.SQLiteException: database is locked',
      mechanism: 'sqlite-locking',
      variant: 'nfs',
      knob: 'the volume of claim config',
      container: { volumeMounts: [{ name: 'config', mountPath: '/config' }] },
      spec: { volumes: [{ name: 'config', nfs: { server: '10.0.0.8', path: '/volume/jellyfin' } }] },
    },
    {
      // Azure Files over NFS: the protocol attribute, not the driver, says which.
      line: 'sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) disk I/O error',
      mechanism: 'sqlite-locking',
      variant: 'nfs',
      knob: "the database's journal_mode",
      container: { env: [{ name: 'DATABASE_URL', value: 'sqlite:////bids/layout_index.sqlite' }], volumeMounts: [{ name: 'bids', mountPath: '/bids' }] },
      spec: { volumes: [{ name: 'bids', csi: { driver: 'file.csi.azure.com', volumeAttributes: { protocol: 'nfs' } } }] },
    },
    {
      // Near miss: the same line with the database on an emptyDir is app concurrency, not the share.
      line: 'sqlite3.OperationalError: database is locked',
      mechanism: 'sqlite-locking',
      variant: 'concurrency',
      knob: "the workload's replicas and update strategy",
      container: { env: [{ name: 'DB_PATH', value: '/data/app.db' }], volumeMounts: [{ name: 'data', mountPath: '/data' }] },
      spec: { volumes: [{ name: 'data', emptyDir: {} }] },
    },
    {
      // Near miss: the database named on a local volume while the container also mounts a share for something else.
      line: 'Error: SQLITE_BUSY: database is locked',
      mechanism: 'sqlite-locking',
      variant: 'concurrency',
      knob: 'busy timeout',
      container: {
        env: [{ name: 'DB_FILE', value: '/var/lib/app/app.sqlite3' }],
        volumeMounts: [
          { name: 'state', mountPath: '/var/lib/app' },
          { name: 'media', mountPath: '/media' },
        ],
      },
      spec: {
        volumes: [
          { name: 'state', emptyDir: {} },
          { name: 'media', azureFile: { secretName: 'azure-secret', shareName: 'media' } },
        ],
      },
    },
    { line: '[Error: SQLITE_IOERR: disk I/O error', mechanism: 'sqlite-locking', variant: 'io-error', knob: 'the kernel log of node-1' },
  ],
};

describeFamilies(FAMILIES);

describe('SQLite on a claim: the PersistentVolume and its class say which filesystem, and whether it keeps locks local', () => {
  const line = 'Trace: [Error: PRAGMA journal_mode = WAL - SQLITE_BUSY: database is locked] {';
  const onClaim = (pv: Record<string, unknown> | null, sc: Record<string, unknown>) => {
    const base = scopeOf(
      { env: [{ name: 'DB_PATH', value: '/data/notes.sqlite' }], volumeMounts: [{ name: 'data', mountPath: '/data' }] },
      { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'notes-data' } }] },
    );
    const claims = [
      {
        name: 'notes-data',
        claim: { metadata: { name: 'notes-data' }, spec: { storageClassName: 'azurefile-csi' } },
        events: [],
        storageClass: { metadata: { name: 'azurefile-csi' }, ...sc },
        ...(pv ? { volume: { metadata: { name: 'pvc-38c4' }, spec: pv } } : {}),
      },
    ];
    return { ...base, snapshot: snapshot(base.pod, { claims }) };
  };
  const read = (scope: ReturnType<typeof onClaim>) => readTexts([{ text: line, source: 'logs app' }], scope);
  const azureFile = { csi: { driver: 'file.csi.azure.com', volumeHandle: 'rg#acct#share' }, mountOptions: ['mfsymlinks', 'actimeo=30'] };

  it('an azurefile CSI volume without nobrl: the share, its StorageClass and PersistentVolume, and the options as evidence', () => {
    const r = read(onClaim(azureFile, { provisioner: 'file.csi.azure.com', mountOptions: ['mfsymlinks', 'actimeo=30'] }));
    expect(r?.variant).toBe('smb-share');
    expect(r?.knobs[0]).toMatch(/^mountOptions of StorageClass azurefile-csi \(and of PersistentVolume pvc-38c4\): add nobrl/);
    expect(r?.evidence.map((e) => e.text)).toContain('mfsymlinks, actimeo=30 (no nobrl)');
  });
  it('the same volume mounted with nobrl keeps locks local: a lock error there is a second writer', () => {
    expect(read(onClaim({ ...azureFile, mountOptions: ['mfsymlinks', 'nobrl'] }, { provisioner: 'file.csi.azure.com' }))?.variant).toBe('concurrency');
  });
  it('an in-tree azureFile PersistentVolume, and a claim not bound yet whose class provisions Azure Files', () => {
    expect(read(onClaim({ azureFile: { secretName: 's', shareName: 'x' } }, { provisioner: 'kubernetes.io/azure-file' }))?.variant).toBe('smb-share');
    expect(read(onClaim(null, { provisioner: 'kubernetes.io/azure-file' }))?.variant).toBe('smb-share');
  });
  it('an NFS CSI volume, and an Azure Disk (block) volume, which is not a share', () => {
    expect(read(onClaim({ csi: { driver: 'nfs.csi.k8s.io', volumeHandle: 'nas#/export' } }, { provisioner: 'nfs.csi.k8s.io' }))?.variant).toBe('nfs');
    expect(read(onClaim({ csi: { driver: 'disk.csi.azure.com', volumeHandle: '/subscriptions/x' } }, { provisioner: 'disk.csi.azure.com' }))?.variant).toBe(
      'concurrency',
    );
  });
});

describe('storage mechanisms: what the reading says beyond the table', () => {
  it('quotes the node OS as an SELinux hint only on a distribution that enforces it by default', () => {
    const scope = scopeOf();
    const rhel = readTexts([{ text: AVC_VAR_LIB, source: 'logs app' }], {
      ...scope,
      node: node({ status: { nodeInfo: { osImage: 'Red Hat Enterprise Linux CoreOS 414.92' } } }),
    });
    expect(rhel?.evidence.map((e) => e.source)).toContain('node.status.nodeInfo.osImage');
    expect(rhel?.evidence.find((e) => e.source === 'node.status.nodeInfo.osImage')?.text).toMatch(/a hint/);
    const debian = readTexts([{ text: AVC_VAR_LIB, source: 'logs app' }], { ...scope, node: node() });
    expect(debian?.evidence.map((e) => e.source)).not.toContain('node.status.nodeInfo.osImage');
  });

  it("reads a denial of the runtime's default AppArmor profile as RuntimeDefault, with the annotation for older clusters", () => {
    const signature = SIGNATURES.find((s) => s.id === 'runtime.apparmor-denied')!;
    const r = explain(signature, { ...scopeOf(), line: '', around: [], groups: { profile: 'cri-containerd.apparmor.d', operation: 'mount' } }, 'logs app');
    expect(r.variant).toBe('runtime-default');
    expect(r.knobs.join('\n')).toMatch(/container\.apparmor\.security\.beta\.kubernetes\.io\/app/);
    expect(r.summary).toMatch(/denies mount/);
  });

  it('leaves a socket ENOTCONN (no path) and a permissive SELinux denial unread', () => {
    expect(readTexts([{ text: 'OSError: [Errno 107] Transport endpoint is not connected', source: 'logs app' }], scopeOf())).toBeUndefined();
    const permissive = AVC_HOME.replace('permissive=0', 'permissive=1');
    expect(readTexts([{ text: permissive, source: 'logs app' }], scopeOf())?.mechanism).not.toBe('selinux-denied');
  });

  it("reads XFS's metadata I/O error as corruption, before the generic EIO reading", () => {
    const r = readTexts(
      [{ text: '[ 6489.218456] XFS (dm-152): metadata I/O error: block 0x18 ("xfs_trans_read_buf_map") error 74 numblks 8', source: 'logs app' }],
      scopeOf(),
    );
    expect(r?.signature).toBe('runtime.fs-kernel-error');
  });
});

describe("a plain Permission denied on a hostPath, read with the node's OS", () => {
  const line = "mkdir: cannot create directory '/data/cache': Permission denied";
  const withHostPath = (osImage: string) => ({
    ...scopeOf(
      { volumeMounts: [{ name: 'data', mountPath: '/data' }], securityContext: { runAsUser: 1000 } },
      { volumes: [{ name: 'data', hostPath: { path: '/srv/app-data' } }] },
    ),
    node: node({ status: { nodeInfo: { osImage } } }),
  });
  it('on a node that enforces SELinux by default, names the label first and the owner second', () => {
    const r = readTexts([{ text: line, source: 'logs app' }], withHostPath('Red Hat Enterprise Linux CoreOS 415.92.202402201450-0 (Plow)'));
    expect(r?.mechanism).toBe('fs-permission');
    expect(r?.variant).toBe('host-path-selinux');
    expect(r?.knobs.join(' | ')).toContain('chcon -Rt container_file_t /srv/app-data');
    expect(r?.evidence.map((e) => e.source)).toContain('node.status.nodeInfo.osImage');
  });
  it('on a node without SELinux by default, it stays the Unix owner of the host directory', () => {
    const r = readTexts([{ text: line, source: 'logs app' }], withHostPath('Debian GNU/Linux 12 (bookworm)'));
    expect(r?.variant).toBe('host-path');
  });
});
