// Filesystem mechanisms: writes refused (read-only, permissions, ownership), space and descriptors
// used up, data directories a server refuses, files the kubelet bind-mounts.
import type { MessageData } from '../../types.js';
import { ALWAYS_READ_ONLY, dirOf, fsGroup, mountOf, pathIn, pathOfWrite, runAsUser } from '../context.js';
import { data, mechanisms, mountFact, re, signatures, specFact } from '../define.js';
import { errnoNeedles, errnoSource } from '../errno.js';
import type { ReadingContext } from '../types.js';

const EROFS = errnoSource('EROFS');
const EACCES = errnoSource('EACCES');
const EPERM = errnoSource('EPERM');
const ENOSPC = errnoSource('ENOSPC');
const EDQUOT = errnoSource('EDQUOT');
const EMFILE = errnoSource('EMFILE');
const ENFILE = errnoSource('ENFILE');
const EBUSY = errnoSource('EBUSY');
const EXDEV = errnoSource('EXDEV');
const ESTALE = errnoSource('ESTALE');
const EIO = errnoSource('EIO');
const ENOENT = errnoSource('ENOENT');
const ENOTDIR = errnoSource('ENOTDIR');
const EISDIR = errnoSource('EISDIR');
const ETXTBSY = errnoSource('ETXTBSY');

/** The directory to mount a volume at for a failed write: /tmp for /tmp itself, else the written path's directory. */
function mountDir(path: string): string {
  return /^\/[^/]+$/.test(path) ? path : dirOf(path);
}

function who(ctx: ReadingContext): string {
  const uid = runAsUser(ctx);
  return uid === undefined ? "the image's user" : `UID ${uid}`;
}

/** The write's path, its mount and volume, for the variants below. */
function onVolume(ctx: ReadingContext, kinds?: ReadonlySet<string>): MessageData | false {
  const path = pathOfWrite(ctx);
  const m = mountOf(ctx, path);
  if (!path || !m?.kind || (kinds && !kinds.has(m.kind))) return false;
  return data({
    path,
    volume: m.mount.name,
    volumeKind: m.kind,
    mountPath: m.mount.mountPath,
    claim: m.volume?.persistentVolumeClaim?.claimName,
    hostPath: m.volume?.hostPath?.path,
    sizeLimit: m.volume?.emptyDir?.sizeLimit === undefined ? undefined : String(m.volume.emptyDir.sizeLimit),
  });
}

const WRITABLE_VOLUMES = new Set([
  'persistentVolumeClaim',
  'emptyDir',
  'csi',
  'ephemeral',
  'awsElasticBlockStore',
  'gcePersistentDisk',
  'azureDisk',
  'cephfs',
  'rbd',
  'iscsi',
  'fc',
]);

export const MECHANISMS = mechanisms([
  {
    id: 'fs-read-only',
    kind: 'permission',
    resource: 'write access to a filesystem',
    doc: 'A write fails with EROFS: the filesystem under the path is read-only for this container. Which one decides the fix: the image root under readOnlyRootFilesystem, a ConfigMap/Secret/projected volume (always read-only), a read-only mount or claim, /proc/sys.',
    variants: [
      {
        id: 'proc-sys',
        when: (ctx) => {
          const key = ctx.groups.sysctl ?? /\/proc\/sys\/([\w/.-]+)/.exec(ctx.line)?.[1]?.replace(/\//g, '.');
          return key ? { sysctl: key } : /\/proc\/sys|sysctl/i.test(ctx.line) && { sysctl: 'the kernel parameter' };
        },
        summary: 'cannot set {{sysctl}}: /proc/sys is read-only in a container',
        explain:
          'The {{kind}} writes the kernel parameter {{sysctl}} under /proc/sys, which the runtime mounts read-only in an unprivileged container. ' +
          'A pod sets namespaced kernel parameters through its spec instead, and node-wide ones belong to the node.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.sysctls',
            change: 'set {{sysctl}} there (safe sysctls are allowed; others need the kubelet flag --allowed-unsafe-sysctls on the node)',
          },
          { place: 'app', path: 'the start-up script', change: 'drop the sysctl call once the pod sets it' },
        ],
      },
      {
        id: 'configmap-volume',
        when: (ctx) => onVolume(ctx, ALWAYS_READ_ONLY),
        summary: 'writes {{path}} inside {{volumeKind}} volume {{volume}}, which is always read-only',
        explain:
          '{{path}} lies in the {{volumeKind}} volume "{{volume}}" mounted at {{mountPath}}. The kubelet mounts ConfigMap, Secret, downwardAPI and ' +
          'projected volumes read-only whatever the mount says, so the app cannot create or edit files there.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts[{{volume}}]',
            change: 'mount the {{volumeKind}} elsewhere and let an initContainer copy its files into an emptyDir mounted at {{mountPath}}',
          },
          { place: 'app', path: "the app's writable paths", change: 'keep generated or edited files out of {{mountPath}}' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'read-only-mount',
        when: (ctx) => {
          const path = pathOfWrite(ctx);
          const m = mountOf(ctx, path);
          return m?.mount.readOnly === true && data({ path, volume: m.mount.name, mountPath: m.mount.mountPath });
        },
        summary: 'writes {{path}} on volume {{volume}}, mounted readOnly',
        explain: '{{path}} lies on volume "{{volume}}", which this {{kind}} mounts with readOnly: true at {{mountPath}}, so every write there fails.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.volumeMounts[{{volume}}].readOnly', change: 'set false if the app must write there' },
          { place: 'app', path: "the app's writable paths", change: 'or write to another volume' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'read-only-claim',
        when: (ctx) => {
          const d = onVolume(ctx, new Set(['persistentVolumeClaim']));
          return d && mountOf(ctx, String(d.path))?.volume?.persistentVolumeClaim?.readOnly === true && d;
        },
        summary: 'writes {{path}} on claim {{claim}}, attached read-only',
        explain: '{{path}} lies on claim "{{claim}}", which the pod attaches with persistentVolumeClaim.readOnly: true, so the volume is mounted read-only.',
        knobs: [{ place: 'pod', path: 'spec.volumes[{{volume}}].persistentVolumeClaim.readOnly', change: 'set false if the app must write there' }],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'root-filesystem',
        when: (ctx) => {
          if (ctx.container?.securityContext?.readOnlyRootFilesystem !== true) return false;
          const path = pathOfWrite(ctx);
          if (path && mountOf(ctx, path)) return false;
          return path ? { path, dir: mountDir(path) } : { path: 'a path in the image', dir: 'each directory it writes' };
        },
        summary: 'writes {{path}} on a read-only root filesystem',
        explain:
          'The {{kind}} runs with readOnlyRootFilesystem: true and {{path}} is part of the image, not a volume, so the write fails with EROFS and the app stops.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes + {{containerPath}}.volumeMounts',
            change: 'mount an emptyDir at {{dir}} (keep readOnlyRootFilesystem on: give the app writable volumes instead)',
          },
        ],
        facts: (ctx) => [specFact(ctx, 'securityContext', 'readOnlyRootFilesystem: true')],
      },
      {
        id: 'storage',
        summary: 'the filesystem under {{path}} is read-only',
        explain:
          'The filesystem holding {{path}} is mounted read-only, and nothing in the pod spec asks for that: a volume the storage mounted read-only ' +
          '(a read-only export, a disk remounted read-only by the kernel after I/O errors) or a node filesystem in the same state.',
        knobs: [
          { place: 'node', path: 'dmesg and mount on {{node}}', change: 'look for "Remounting filesystem read-only" and the mount options of the volume' },
          { place: 'cluster', path: "the volume's storage", change: 'repair the filesystem (fsck) or the export, then restart the pod' },
        ],
      },
    ],
  },
  {
    id: 'fs-permission',
    kind: 'permission',
    resource: 'permission on a file or directory',
    doc: "A file operation fails with EACCES: the path's owner and mode do not admit the container's user. The volume under the path decides the knob: fsGroup for volumes that support ownership management, the host directory for hostPath, the export for NFS, the image or runAsUser for the image's own files.",
    variants: [
      {
        id: 'host-path',
        when: (ctx) => onVolume(ctx, new Set(['hostPath'])),
        summary: 'cannot write {{path}}: the host directory {{hostPath}} belongs to another user',
        explain:
          '{{path}} lies on hostPath volume "{{volume}}" ({{hostPath}} on {{node}}). The kubelet never changes the ownership of a hostPath (fsGroup does not apply), ' +
          "so the directory keeps the node's owner and mode, and the container runs as {{user}}.",
        knobs: [
          { place: 'node', path: '{{hostPath}} on {{node}}', change: "give it the container's user or group (chown/chmod), or run as its owner" },
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser / runAsGroup', change: "or run as the directory's owner" },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'nfs',
        when: (ctx) => onVolume(ctx, new Set(['nfs'])),
        summary: "cannot write {{path}}: the NFS export does not admit the container's user",
        explain:
          '{{path}} lies on NFS volume "{{volume}}". Ownership on NFS is the server\'s: fsGroup is not applied, and root is usually squashed to nobody, ' +
          "so the process ({{user}}) needs the export's owner or group.",
        knobs: [
          { place: 'cluster', path: 'the NFS export', change: "give the directory the container's UID/GID, or set anonuid/anongid on the export" },
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser / runAsGroup', change: "or run as the export's owner" },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'volume-ownership',
        when: (ctx) => {
          const d = onVolume(ctx, WRITABLE_VOLUMES);
          if (!d) return false;
          const g = fsGroup(ctx);
          return { ...d, user: who(ctx), fsGroupNow: g === undefined ? 'it is not set' : `it is ${g}` };
        },
        summary: 'cannot write {{path}} on volume {{volume}}: the files belong to another user',
        explain:
          '{{path}} lies on volume "{{volume}}" ({{volumeKind}}) mounted at {{mountPath}}, whose files are owned by a user the process ({{user}}) is not, ' +
          "so the write is refused (EACCES). For volumes that support it, the pod's fsGroup makes the kubelet give the pod's group ownership of the volume.",
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.fsGroup',
            change: "set it to the group of the image's user ({{fsGroupNow}}); add fsGroupChangePolicy: OnRootMismatch for large volumes",
          },
          { place: 'pod', path: 'spec.initContainers', change: 'or chown the directory once from an init container that runs as root' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'image-files',
        when: (ctx) => {
          const uid = runAsUser(ctx);
          const path = pathOfWrite(ctx);
          if (uid === undefined || !path || mountOf(ctx, path)?.kind) return false;
          return { path, uid };
        },
        summary: "cannot write {{path}}: the image's files belong to another user than runAsUser {{uid}}",
        explain:
          "{{path}} is part of the image, and the pod overrides the image's user with runAsUser: {{uid}}, a user that does not own it, so the write is refused.",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: "use the image's own user, or" },
          {
            place: 'image',
            path: 'the Dockerfile',
            change: 'make the path group-writable by GID 0 (chgrp -R 0 && chmod -R g=u), so any UID with group 0 can write it',
          },
          { place: 'pod', path: 'spec.volumes + {{containerPath}}.volumeMounts', change: 'or mount an emptyDir at {{path}}' },
        ],
        facts: (ctx, d) => [specFact(ctx, 'securityContext', `runAsUser: ${d.uid}`)],
      },
      {
        id: 'general',
        when: (ctx) => ({ path: pathOfWrite(ctx) ?? 'a file', user: who(ctx) }),
        summary: 'permission denied on {{path}}',
        explain:
          "The process runs as {{user}} and {{path}} does not admit it: its owner and mode, the pod's runAsUser/runAsGroup/fsGroup, or an LSM (SELinux, AppArmor) decide.",
        knobs: [
          { place: 'pod', path: 'spec.securityContext.fsGroup / {{containerPath}}.securityContext.runAsUser', change: "match the path's owner or group" },
          { place: 'image', path: 'the Dockerfile', change: 'or give the path to the user the image runs as' },
        ],
      },
    ],
  },
  {
    id: 'fs-ownership-change',
    kind: 'permission',
    resource: 'the right to change ownership or mode (CAP_CHOWN, CAP_FOWNER)',
    doc: 'A chown or chmod at start-up fails with EPERM: the process is not root, lacks CAP_CHOWN/CAP_FOWNER, or the volume (NFS with root_squash) refuses it. Entrypoints of database images do this on their data directory.',
    variants: [
      {
        id: 'nfs',
        when: (ctx) => onVolume(ctx, new Set(['nfs'])),
        summary: 'cannot change the owner of {{path}}: NFS squashes root',
        explain:
          'The entrypoint changes the owner or mode of {{path}}, which lies on NFS volume "{{volume}}": the server maps root to nobody (root_squash), so the change is refused.',
        knobs: [
          { place: 'cluster', path: 'the NFS export', change: "give the directory the database user's UID/GID beforehand (or no_root_squash on the export)" },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.runAsUser',
            change: "run directly as the directory's owner so the entrypoint skips the chown",
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'non-root-or-no-capability',
        when: (ctx) => ({ path: pathOfWrite(ctx) ?? 'the data directory', user: who(ctx) }),
        summary: 'cannot change the owner or mode of {{path}}',
        explain:
          'The entrypoint changes the owner or mode of {{path}}, and the kernel refuses it (EPERM): the process ({{user}}) is not root, or runs without CAP_CHOWN/CAP_FOWNER ' +
          '(capabilities drop: [ALL]), or the volume does not support ownership changes.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.fsGroup + runAsUser',
            change: "let the kubelet set the volume's group (fsGroup) and run as the image's database user, so no chown is needed",
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add', change: 'or add CHOWN and FOWNER if the entrypoint must run as root' },
        ],
      },
    ],
  },
  {
    id: 'disk-full',
    kind: 'resource',
    resource: 'space on a filesystem',
    doc: 'A write fails with ENOSPC or EDQUOT: the filesystem under the path is full. The volume decides which one and its knob: the claim (expand it), a memory-backed emptyDir (sizeLimit), the node disk (ephemeral storage).',
    variants: [
      {
        id: 'claim',
        when: (ctx) => onVolume(ctx, new Set(['persistentVolumeClaim', 'ephemeral'])),
        summary: 'volume {{volume}} is full',
        explain: '{{path}} lies on claim "{{claim}}" (volume "{{volume}}"), and that filesystem has no space left: the data outgrew the claim.',
        knobs: [
          {
            place: 'cluster',
            path: 'PersistentVolumeClaim {{claim}} spec.resources.requests.storage',
            change: 'raise it (the StorageClass needs allowVolumeExpansion: true)',
          },
          { place: 'app', path: "the app's retention", change: 'or delete or rotate old data' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'memory-empty-dir',
        when: (ctx) => {
          const d = onVolume(ctx, new Set(['emptyDir']));
          return d && mountOf(ctx, String(d.path))?.volume?.emptyDir?.medium === 'Memory' && d;
        },
        summary: 'memory-backed emptyDir {{volume}} is full',
        explain:
          '{{path}} lies on emptyDir "{{volume}}" with medium: Memory, a tmpfs sized by its sizeLimit (or the node\'s memory): it is full, and what it holds counts against the memory limit.',
        knobs: [{ place: 'pod', path: 'spec.volumes[{{volume}}].emptyDir.sizeLimit', change: 'raise it, with the container memory limit to match' }],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'node-disk',
        when: (ctx) => {
          const path = pathOfWrite(ctx);
          const m = mountOf(ctx, path);
          return (!m?.kind || m.kind === 'emptyDir') && { path: path ?? 'the container filesystem' };
        },
        summary: 'no space left on the node disk under {{path}}',
        explain:
          "{{path}} is on the container's writable layer or a disk-backed emptyDir, both on {{node}}'s own disk, which is full; the kubelet evicts pods past their " +
          'ephemeral-storage limits, but a full disk fails writes first.',
        knobs: [
          { place: 'node', path: 'the kubelet and runtime filesystems on {{node}}', change: 'free space (images, logs) or grow the disk' },
          { place: 'pod', path: '{{containerPath}}.resources.limits.ephemeral-storage', change: 'bound what this container may write to the node disk' },
        ],
      },
    ],
  },
  {
    id: 'shm-exhausted',
    kind: 'resource',
    resource: 'shared memory (/dev/shm)',
    doc: "The container's /dev/shm is the runtime's default 64 MiB tmpfs unless the pod mounts a memory-backed emptyDir there; PostgreSQL's parallel queries, PyTorch's DataLoader workers and Chromium outgrow it.",
    variants: [
      {
        id: 'sized',
        when: (ctx) => {
          const m = mountOf(ctx, '/dev/shm');
          return m?.volume?.emptyDir?.medium === 'Memory' && { volume: m.mount.name, sizeLimit: String(m.volume.emptyDir.sizeLimit ?? 'no sizeLimit') };
        },
        summary: '/dev/shm (emptyDir {{volume}}) is full',
        explain: '/dev/shm is the memory-backed emptyDir "{{volume}}" ({{sizeLimit}}), and the process needs more shared memory than that.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes[{{volume}}].emptyDir.sizeLimit',
            change: 'raise it, and the container memory limit with it (shared memory counts against it)',
          },
        ],
      },
      {
        id: 'default',
        summary: "/dev/shm is the runtime's default 64 MiB",
        explain:
          "The process needs shared memory in /dev/shm, and the container's /dev/shm is the container runtime's default 64 MiB tmpfs (Kubernetes has no shm-size field).",
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes + {{containerPath}}.volumeMounts',
            change: 'mount an emptyDir with medium: Memory and a sizeLimit (e.g. 1Gi) at /dev/shm; it counts against the memory limit',
          },
        ],
      },
    ],
  },
  {
    id: 'inotify-watches',
    kind: 'resource',
    resource: 'inotify watches (fs.inotify.max_user_watches)',
    doc: "Adding a file watch fails with ENOSPC: the node's per-user limit of inotify watches is used up by the containers running as that UID on the node.",
    variants: [
      {
        id: 'node',
        summary: "the node's inotify watches are used up",
        explain:
          'Adding a file watch failed with ENOSPC ("no space" here means watches, not disk): {{node}} allows each user fs.inotify.max_user_watches watches, ' +
          'shared by every container of that UID on the node, and they are used up.',
        knobs: [
          {
            place: 'node',
            path: 'sysctl fs.inotify.max_user_watches on {{node}}',
            change: 'raise it (e.g. 524288) in /etc/sysctl.d or the node image, for every pool',
          },
          { place: 'app', path: "the app's watcher", change: 'or watch fewer files (polling, narrower paths)' },
        ],
      },
    ],
  },
  {
    id: 'inotify-instances',
    kind: 'resource',
    resource: 'inotify instances (fs.inotify.max_user_instances)',
    doc: "Creating a file watcher fails with EMFILE: the node's per-user inotify instance limit, not the container's descriptor limit.",
    variants: [
      {
        id: 'node',
        summary: "the node's inotify instances are used up",
        explain:
          'Creating a file watcher failed with "too many open files", which for inotify means {{node}}\'s per-user limit fs.inotify.max_user_instances ' +
          "(often 128), shared by every container of that UID on the node, not the container's descriptor limit.",
        knobs: [{ place: 'node', path: 'sysctl fs.inotify.max_user_instances on {{node}}', change: 'raise it (e.g. 8192) in /etc/sysctl.d or the node image' }],
      },
    ],
  },
  {
    id: 'fd-limit',
    kind: 'resource',
    resource: 'file descriptors (RLIMIT_NOFILE)',
    doc: "The process hit its open-files limit (EMFILE). A container's RLIMIT_NOFILE comes from the container runtime, not the pod spec (Kubernetes has no ulimit field).",
    variants: [
      {
        id: 'startup-check',
        when: (ctx) => ctx.groups.limit !== undefined && ctx.groups.want !== undefined && { limit: ctx.groups.limit, want: ctx.groups.want },
        summary: 'open-files limit {{limit}} is below the {{want}} the server requires',
        explain:
          "The server's start-up check refuses an open-files limit (RLIMIT_NOFILE) of {{limit}}; it requires {{want}}. A container inherits that limit from the " +
          "container runtime's service on {{node}}; the pod spec cannot set it.",
        knobs: [
          {
            place: 'runtime',
            path: 'LimitNOFILE of containerd.service / crio.service on {{node}}',
            change: 'raise it to at least {{want}} (systemctl edit; CRI-O also has default_ulimits), then restart the runtime',
          },
          { place: 'app', path: "the container's entrypoint", change: 'or raise the soft limit to the hard one at start (ulimit -n $(ulimit -Hn))' },
        ],
      },
      {
        id: 'runtime-default',
        when: (ctx) => ({ runtime: ctx.node?.status?.nodeInfo?.containerRuntimeVersion ?? 'the container runtime' }),
        summary: 'the process ran out of file descriptors',
        explain:
          "The process hit its open-files limit (RLIMIT_NOFILE, EMFILE). That limit is the container runtime's ({{runtime}} on {{node}}), not the pod's; " +
          'either it is too low for the load or the app leaks descriptors.',
        knobs: [
          {
            place: 'app',
            path: '/proc/1/limits and ls /proc/1/fd | wc -l in the container',
            change: 'compare the limit with what is open: a count that only grows is a leak',
          },
          { place: 'runtime', path: 'LimitNOFILE of the runtime service on {{node}}', change: 'raise it for every node of the pool if the load needs more' },
        ],
      },
    ],
  },
  {
    id: 'file-table-full',
    kind: 'resource',
    resource: "the node's file table (fs.file-max)",
    doc: 'ENFILE: the whole node ran out of open-file slots, not this process.',
    variants: [
      {
        id: 'node',
        summary: "{{node}}'s file table is full",
        explain: 'Opening a file failed with ENFILE: all of {{node}} ran out of open-file slots (fs.file-max), shared by every process on the node.',
        knobs: [
          { place: 'node', path: 'sysctl fs.file-max on {{node}}', change: 'raise it, and find the process holding most descriptors (ls /proc/*/fd | wc -l)' },
        ],
      },
    ],
  },
  {
    id: 'data-dir-not-empty',
    kind: 'setting',
    resource: 'an empty data directory',
    doc: 'A database initialises only into an empty directory, and a fresh filesystem on a volume carries lost+found at its root: point the data directory at a subdirectory of the mount.',
    variants: [
      {
        id: 'postgres',
        when: (ctx) => /initdb|postgres/i.test([ctx.line, ...ctx.around].join('\n')),
        summary: 'initdb refuses the volume root as data directory (lost+found)',
        explain: 'initdb only initialises an empty directory, and the data directory is the root of a freshly formatted volume, which holds lost+found.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env PGDATA', change: 'point it at a subdirectory of the mount (e.g. /var/lib/postgresql/data/pgdata)' },
          { place: 'pod', path: '{{containerPath}}.volumeMounts[].subPath', change: 'or mount a subdirectory of the volume' },
        ],
      },
      {
        id: 'general',
        summary: 'the server refuses a data directory that is a volume root',
        explain: 'The server refuses to initialise a data directory that already has files, and it is the root of a volume, which holds lost+found.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.volumeMounts[].subPath', change: 'mount a subdirectory of the volume as the data directory' },
          { place: 'app', path: "the server's data directory setting", change: 'or point it at a subdirectory of the mount' },
        ],
      },
    ],
  },
  {
    id: 'data-dir-locked',
    kind: 'dependency',
    resource: "the data directory's lock",
    doc: 'A second process holds the data directory lock: another pod mounts the same volume (the old pod of a rolling update, a second replica on a ReadWriteMany or same-node ReadWriteOnce volume).',
    variants: [
      {
        id: 'shared-volume',
        summary: 'another process holds the lock on the data directory',
        explain:
          'The server found its data directory locked by another process: another pod is running on the same volume, typically the old pod of a rolling update ' +
          'or a second replica, since the lock is the only thing that stops two servers writing the same files.',
        knobs: [
          {
            place: 'cluster',
            path: "the owning Deployment's spec.strategy.type",
            change: 'use Recreate (or a StatefulSet) so the old pod stops before the new one starts',
          },
          {
            place: 'cluster',
            path: 'the pods that mount the claim',
            change: 'find them: kubectl get pods -o wide and their volumes; scale extra replicas down',
          },
        ],
      },
    ],
  },
  {
    id: 'data-dir-incompatible',
    kind: 'setting',
    resource: 'a data directory written by another major version',
    doc: 'The data directory was initialised by another major version of the server than the image now running: an image upgrade without the data migration.',
    variants: [
      {
        id: 'version',
        when: (ctx) => {
          const text = [ctx.line, ...ctx.around].join('\n');
          const m = /initialized by PostgreSQL version ([\d.]+), which is not compatible with this version ([\d.]+)/i.exec(text);
          return m ? { old: m[1]!, now: m[2]! } : false;
        },
        summary: 'data written by version {{old}}, image runs {{now}}',
        explain: 'The data directory was initialised by version {{old}} and the image now runs {{now}}: a major upgrade needs the data migrated first.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.image',
            change: 'go back to a {{old}} image, then migrate (pg_upgrade or dump and restore) before moving to {{now}}',
          },
        ],
      },
      {
        id: 'general',
        summary: 'the data directory is from another major version',
        explain:
          'The data directory was written by another major version of the server than the image now running: the image was upgraded without migrating the data.',
        knobs: [{ place: 'pod', path: '{{containerPath}}.image', change: 'return to the previous image, migrate the data, then upgrade' }],
      },
    ],
  },
  {
    id: 'file-is-mount',
    kind: 'setting',
    resource: 'a file the kubelet bind-mounts',
    doc: '/etc/hosts, /etc/resolv.conf, /etc/hostname and subPath files are bind mounts: they can be written in place but not replaced, renamed or removed (EBUSY).',
    variants: [
      {
        id: 'kubelet-file',
        when: (ctx) => {
          const f = /\/etc\/(hosts|resolv\.conf|hostname)\b/.exec(ctx.line)?.[0];
          return f ? { path: f } : false;
        },
        summary: '{{path}} is managed by the kubelet and cannot be replaced',
        explain:
          '{{path}} is a file the kubelet bind-mounts into every container; it can be written in place but not replaced or removed, so a tool that edits by ' +
          'writing a new file and renaming it (sed -i, mv) fails with EBUSY.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.hostAliases / spec.dnsConfig',
            change: 'set host entries and resolver options through the pod spec instead of editing the file',
          },
          { place: 'app', path: 'the start-up script', change: 'or write the file in place (cat > file) instead of sed -i or mv' },
        ],
      },
      {
        id: 'mounted-file',
        when: (ctx) => {
          const path = pathIn(ctx.line);
          const m = mountOf(ctx, path);
          return m ? { path: path ?? '', mountPath: m.mount.mountPath, volume: m.mount.name } : { path: path ?? 'the file' };
        },
        summary: '{{path}} is a mount point and cannot be replaced',
        explain: "{{path}} is itself a mount (a subPath file or a volume's mount point): it can be written in place, but not renamed over or removed (EBUSY).",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.volumeMounts', change: 'mount the directory rather than the single file, or' },
          { place: 'app', path: 'the start-up script', change: 'write the file in place instead of replacing it' },
        ],
      },
    ],
  },
  {
    id: 'cross-device-rename',
    kind: 'setting',
    resource: 'a rename within one filesystem',
    doc: 'rename(2) across two mounts fails with EXDEV: the source and the target lie on different volumes (or a volume and the image).',
    variants: [
      {
        id: 'mounts',
        summary: 'a rename crosses two filesystems',
        explain: 'The app renames a file from one filesystem to another (two volumes, or a volume and the image layer), which rename(2) cannot do (EXDEV).',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.volumeMounts', change: 'put the temporary and the final directory on the same volume' },
          { place: 'app', path: "the app's temporary directory", change: 'or point it (TMPDIR) at the volume it moves files into' },
        ],
      },
    ],
  },
  {
    id: 'stale-file-handle',
    kind: 'dependency',
    resource: 'a live NFS file handle',
    doc: 'ESTALE: the NFS server no longer knows the file or directory the client holds (the export was recreated or moved).',
    variants: [
      {
        id: 'nfs',
        summary: 'the NFS mount holds a stale file handle',
        explain:
          'The NFS server no longer recognises the directory the node mounted (the export was recreated, moved or restored), so every access fails with ESTALE.',
        knobs: [
          { place: 'node', path: 'the NFS mount on {{node}}', change: 'delete the pod so the kubelet unmounts and mounts the volume again' },
          { place: 'cluster', path: 'the NFS export', change: 'keep its file system id stable (fsid=) across server changes' },
        ],
      },
    ],
  },
  {
    id: 'io-error',
    kind: 'dependency',
    resource: 'a working block device or network volume',
    doc: 'EIO: the storage under the path failed the read or write (a disk error, a detached network volume).',
    variants: [
      {
        id: 'storage',
        summary: 'the storage under the path returns I/O errors',
        explain:
          'The kernel returned an I/O error for the file: the device or network volume behind it failed the request (a detached or failing disk, a lost storage connection).',
        knobs: [
          { place: 'node', path: 'dmesg on {{node}}', change: 'read the block device or network storage errors' },
          {
            place: 'cluster',
            path: "the volume's attachment",
            change: 'check the VolumeAttachment and the storage backend; move the pod if the node lost the device',
          },
        ],
      },
    ],
  },
  {
    id: 'fs-missing-path',
    kind: 'setting',
    resource: 'a file the app expects',
    doc: 'A file the app reads at start-up is not there: a ConfigMap or Secret without that key, a volume mounted at another path, or a file the image does not contain.',
    variants: [
      {
        id: 'configmap-key',
        when: (ctx) => {
          const path = pathIn(ctx.line);
          const m = mountOf(ctx, path);
          if (!path || !m?.kind || !ALWAYS_READ_ONLY.has(m.kind) || m.mount.subPath) return false;
          const source = m.volume?.configMap?.name ?? m.volume?.secret?.secretName ?? m.mount.name;
          return { path, key: path.slice(m.mount.mountPath.replace(/\/+$/, '').length + 1) || path, source, volumeKind: m.kind, mountPath: m.mount.mountPath };
        },
        summary: '{{path}} is missing: {{volumeKind}} {{source}} has no key {{key}}',
        explain:
          '{{path}} lies in the {{volumeKind}} "{{source}}" mounted at {{mountPath}}, which projects one file per key: the file is missing because the {{volumeKind}} has no key ' +
          '"{{key}}" (or the volume\'s items map it to another name).',
        knobs: [
          { place: 'cluster', path: '{{volumeKind}} {{source}} data', change: 'add the key {{key}}, or' },
          { place: 'pod', path: 'spec.volumes[].{{volumeKind}}.items', change: 'map the existing key to {{key}}' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'not-mounted',
        when: (ctx) => {
          const path = pathIn(ctx.line);
          return path !== undefined && !mountOf(ctx, path)?.kind && { path };
        },
        summary: '{{path}} does not exist in the container',
        explain:
          '{{path}} is not in the image and no volume is mounted there: the file was expected from a volume mounted at another path, or from another image.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.volumeMounts', change: 'mount the volume that provides it at its directory' },
          { place: 'pod', path: '{{containerPath}}.args / env', change: 'or point the app at the path where the file really is' },
        ],
      },
    ],
  },
]);

// Signatures: how each of the above shows in a line. Texts of errnos come from upstream.json.
export const SIGNATURES = signatures([
  {
    id: 'errno.erofs',
    family: 'errno',
    mechanism: 'fs-read-only',
    needles: errnoNeedles('EROFS'),
    patterns: [re(EROFS)],
    // The runtime's own mount errors quote EROFS about the image or the rootfs (image.corrupt-local, runtime rules).
    unless: /to rootfs at|failed to create (?:containerd )?(?:shim )?task|OCI runtime|error mounting/i,
    source: 'EROFS texts of glibc, musl, Go and libuv (upstream.json); nginx src/os/unix/ngx_errno.c "(%d: %s)"',
    examples: [
      'nginx: [emerg] mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)',
      "OSError: [Errno 30] Read-only file system: '/app/.cache'",
      'java.io.IOException: Read-only file system',
    ],
  },
  {
    id: 'sysctl.read-only',
    family: 'runtime',
    mechanism: 'fs-read-only',
    needles: ['sysctl'],
    patterns: [re('sysctl: (?:error )?setting key ["\']?(?<sysctl>[\\w.\\-/]+)', `.*${EROFS}`), re('sysctl: cannot stat /proc/sys/(?<sysctlPath>[\\w/.-]+)')],
    source: 'procps-ng sysctl.c ("setting key \\"%s\\""), busybox sysctl.c ("error setting key \'%s\'")',
    examples: ['sysctl: setting key "net.core.somaxconn": Read-only file system'],
  },
  {
    id: 'errno.eacces-path',
    family: 'errno',
    generic: true,
    mechanism: 'fs-permission',
    needles: errnoNeedles('EACCES'),
    patterns: [re(EACCES)],
    // Binding a port and executing a file are other mechanisms (their own signatures).
    unless: /\b(?:bind|listen|make_sock)\b|exec(?:ve)?[(:]|exec user process|permission denied \(publickey|password|authentication/i,
    source: 'EACCES texts of glibc, musl, Go and libuv (upstream.json); Java NIO AccessDeniedException (OpenJDK UnixException)',
    examples: [
      "PermissionError: [Errno 13] Permission denied: '/data/models'",
      "Error: EACCES: permission denied, mkdir '/app/.npm'",
      'java.nio.file.AccessDeniedException: /usr/share/elasticsearch/data/nodes',
    ],
  },
  {
    id: 'server.not-writable',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['is not writable', 'wrong volume permissions', 'has wrong ownership', 'has invalid permissions'],
    patterns: [
      re("GF_PATHS_DATA='(?<path>[^']+)' is not writable"),
      re('Can not write to (?<path>/\\S+)\\. Wrong volume permissions\\?'),
      re('data directory "(?<path>[^"]+)" has (?:wrong ownership|invalid permissions)'),
    ],
    source: 'grafana packaging/docker/run.sh; jenkins jenkins-support; postgres src/backend/utils/init/miscinit.c checkDataDir()',
    examples: ["GF_PATHS_DATA='/var/lib/grafana' is not writable.", 'Can not write to /var/jenkins_home/copy_reference_file.log. Wrong volume permissions?'],
  },
  {
    id: 'errno.eperm-ownership',
    family: 'errno',
    mechanism: 'fs-ownership-change',
    needles: ['changing ownership', 'changing permissions', 'could not change permissions', 'chown', 'chmod'],
    patterns: [re('(?:chown|chmod|changing (?:ownership|permissions) of|could not change permissions of directory)[^\\n]*', EPERM)],
    source: 'coreutils chown/chmod ("changing ownership of %s"), postgres initdb.c ("could not change permissions of directory \\"%s\\": %m")',
    examples: [
      "chown: changing ownership of '/var/lib/postgresql/data': Operation not permitted",
      'initdb: error: could not change permissions of directory "/var/lib/postgresql/data": Operation not permitted',
    ],
  },
  {
    id: 'errno.enospc-inotify',
    family: 'errno',
    mechanism: 'inotify-watches',
    needles: ['inotify', 'file watchers', 'enospc'],
    patterns: [re('System limit for number of file watchers reached'), re('inotify_add_watch[^\\n]*', ENOSPC), re('inotify watch limit reached')],
    source: 'Node.js ENOSPC from fs.watch (chokidar, webpack); glibc ENOSPC text',
    examples: ["Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src'"],
  },
  {
    id: 'errno.emfile-inotify',
    family: 'errno',
    mechanism: 'inotify-instances',
    needles: ['too many open files', 'emfile'],
    patterns: [re('(?:fsnotify|inotify|watcher)[^\\n]*', EMFILE), re(EMFILE, '[^\\n]*(?:fsnotify|inotify|watch)')],
    source: 'fsnotify NewWatcher (inotify_init1 EMFILE), controller-runtime certwatcher',
    examples: ['failed to create fsnotify watcher: too many open files'],
  },
  {
    id: 'errno.enospc-shm',
    family: 'errno',
    mechanism: 'shm-exhausted',
    needles: ['shared memory', '/dev/shm', 'shm'],
    patterns: [re('could not resize shared memory segment[^\\n]*', ENOSPC), re('/dev/shm[^\\n]*', ENOSPC), re('insufficient shared memory \\(shm\\)')],
    source: 'postgres src/backend/storage/ipc/dsm_impl.c; PyTorch torch/utils/data/_utils/signal_handling.py',
    examples: [
      'ERROR:  could not resize shared memory segment "/PostgreSQL.1197429420" to 12615680 bytes: No space left on device',
      'ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).',
    ],
  },
  {
    id: 'errno.enospc',
    family: 'errno',
    generic: true,
    mechanism: 'disk-full',
    needles: [...errnoNeedles('ENOSPC'), ...errnoNeedles('EDQUOT')],
    patterns: [re(ENOSPC), re(EDQUOT)],
    source: 'ENOSPC and EDQUOT texts of glibc, musl, Go and libuv (upstream.json)',
    examples: ['write /data/wal/000001.log: no space left on device', "OSError: [Errno 28] No space left on device: '/scratch/out.bin'"],
  },
  {
    id: 'server.fd-check',
    family: 'server',
    mechanism: 'fd-limit',
    needles: ['max file descriptors'],
    patterns: [re('max file descriptors \\[(?<limit>\\d+)\\] for (?:elasticsearch|opensearch) process is too low, increase to at least \\[(?<want>\\d+)\\]')],
    source: 'elasticsearch server/src/main/java/org/elasticsearch/bootstrap/BootstrapChecks.java (FileDescriptorCheck)',
    examples: ['max file descriptors [4096] for elasticsearch process is too low, increase to at least [65535]'],
  },
  {
    id: 'errno.enfile',
    family: 'errno',
    mechanism: 'file-table-full',
    needles: errnoNeedles('ENFILE'),
    patterns: [re(ENFILE)],
    source: 'ENFILE texts of glibc, musl, Go and libuv (upstream.json)',
    examples: ['open /etc/ssl/certs/ca-certificates.crt: too many open files in system'],
  },
  {
    id: 'errno.emfile',
    family: 'errno',
    generic: true,
    mechanism: 'fd-limit',
    needles: errnoNeedles('EMFILE'),
    patterns: [re(EMFILE)],
    unless: / in system|file table overflow|fsnotify|inotify|watcher/i,
    source: 'EMFILE texts of glibc, musl ("No file descriptors available"), Go and libuv (upstream.json)',
    examples: ['http: Accept error: accept tcp [::]:8080: accept4: too many open files; retrying in 1s', 'java.net.SocketException: Too many open files'],
  },
  {
    id: 'server.data-dir-not-empty',
    family: 'server',
    mechanism: 'data-dir-not-empty',
    needles: ['exists but is not empty', 'has files in it', 'lost+found'],
    patterns: [
      re('directory "(?<path>[^"]+)" exists but is not empty'),
      re('It contains a lost\\+found directory'),
      re('--initialize specified but the data directory has files in it'),
      re("Found directory (?<path>\\S+)/lost\\+found, 'lost\\+found' is not in the form of topic-partition"),
    ],
    source: 'postgres src/bin/initdb/initdb.c; mysql sql/mysqld.cc (ER_DATA_DIRECTORY_UNUSABLE); kafka LogManager.scala',
    examples: [
      'initdb: error: directory "/var/lib/postgresql/data" exists but is not empty',
      '[ERROR] --initialize specified but the data directory has files in it. Aborting.',
    ],
  },
  {
    id: 'server.data-dir-locked',
    family: 'server',
    mechanism: 'data-dir-locked',
    needles: ['lock', 'dbpathinuse'],
    patterns: [
      re('DBPathInUse: Unable to lock the lock file'),
      re('lock DB directory: resource temporarily unavailable'),
      re('Unable to lock \\S+ error: 11'),
      re('failed to obtain node locks'),
      re('Another \\w+ instance is already running on the (?<path>\\S+) directory'),
    ],
    source: 'mongo src/mongo/db/storage/storage_engine_lock_file_posix.cpp; prometheus tsdb/db.go; innodb os0file.cc; elasticsearch NodeEnvironment.java',
    examples: ['opening storage failed: lock DB directory: resource temporarily unavailable', '[ERROR] InnoDB: Unable to lock ./ibdata1 error: 11'],
  },
  {
    id: 'server.data-dir-version',
    family: 'server',
    mechanism: 'data-dir-incompatible',
    needles: ['incompatible with server', 'not compatible with this version'],
    patterns: [re('database files are incompatible with server'), re('initialized by PostgreSQL version [\\d.]+, which is not compatible with this version')],
    source: 'postgres src/backend/utils/init/miscinit.c ValidatePgVersion()',
    examples: ['FATAL:  database files are incompatible with server'],
  },
  {
    id: 'errno.ebusy',
    family: 'errno',
    mechanism: 'file-is-mount',
    needles: errnoNeedles('EBUSY'),
    patterns: [re("(?:cannot (?:move|rename|remove)|rename|unlink|couldn't (?:open|rename))[^\\n]*", EBUSY)],
    source: 'EBUSY texts (upstream.json); coreutils mv/rm, sed -i ("cannot rename %s")',
    examples: [
      "mv: cannot move '/etc/resolv.conf.new' to '/etc/resolv.conf': Device or resource busy",
      'sed: cannot rename /etc/hosts: Device or resource busy',
    ],
  },
  {
    id: 'errno.exdev',
    family: 'errno',
    mechanism: 'cross-device-rename',
    needles: errnoNeedles('EXDEV'),
    patterns: [re(EXDEV)],
    source: 'EXDEV texts (upstream.json)',
    examples: ['rename /tmp/upload-123 /data/files/report.pdf: invalid cross-device link'],
  },
  {
    id: 'errno.estale',
    family: 'errno',
    mechanism: 'stale-file-handle',
    needles: errnoNeedles('ESTALE'),
    patterns: [re(ESTALE)],
    source: 'ESTALE texts (upstream.json)',
    examples: ["ls: cannot access '/mnt/share': Stale file handle"],
  },
  {
    id: 'errno.eio',
    family: 'errno',
    generic: true,
    mechanism: 'io-error',
    needles: errnoNeedles('EIO'),
    patterns: [re('(?:read|write|open|fsync|stat)[^\\n]*', EIO)],
    source: 'EIO texts (upstream.json)',
    examples: ['write /var/lib/etcd/member/wal/0.tmp: input/output error'],
  },
  {
    id: 'errno.etxtbsy',
    family: 'errno',
    mechanism: 'file-is-mount',
    needles: errnoNeedles('ETXTBSY'),
    patterns: [re(ETXTBSY)],
    source: 'ETXTBSY texts (upstream.json)',
    examples: ["cp: cannot create regular file '/usr/local/bin/app': Text file busy"],
  },
  {
    id: 'errno.enoent-path',
    family: 'errno',
    generic: true,
    mechanism: 'fs-missing-path',
    needles: errnoNeedles('ENOENT'),
    patterns: [re("(?:open|read|stat|load|config|cannot access|can't open|could not open|unable to open|FileNotFoundError)[^\\n]*", ENOENT)],
    // The runtime's exec of a missing binary or interpreter is container-start-error's; a missing module is the app's.
    unless: /exec(?:ve)?[: ]|exec user process|executable file not found|OCI runtime|starting container process/i,
    source: 'ENOENT texts (upstream.json); Java NoSuchFileException (OpenJDK UnixException)',
    examples: ['open /etc/app/config.yaml: no such file or directory', "FileNotFoundError: [Errno 2] No such file or directory: '/config/settings.json'"],
  },
  {
    id: 'errno.enotdir',
    family: 'errno',
    generic: true,
    mechanism: 'fs-missing-path',
    needles: [...errnoNeedles('ENOTDIR'), ...errnoNeedles('EISDIR')],
    patterns: [re('(?:open|read|stat|mkdir)[^\\n]*(?:', ENOTDIR, '|', EISDIR, ')')],
    unless: /OCI runtime|error mounting|starting container process/i,
    source: 'ENOTDIR and EISDIR texts (upstream.json)',
    examples: ['open /etc/app/config.yaml: not a directory'],
  },
]);
