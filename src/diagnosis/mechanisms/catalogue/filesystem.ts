// Filesystem mechanisms: writes refused (read-only, permissions, ownership), space and descriptors
// used up, data directories a server refuses, files the kubelet bind-mounts.
import type { MessageData } from '../../types.js';
import { ALWAYS_READ_ONLY, dirOf, envValue, fsGroup, mountOf, pathIn, pathOfWrite, runAsUser, selinuxNodeOs } from '../context.js';
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
const EAGAIN = errnoSource('EAGAIN');
const ENOLCK = errnoSource('ENOLCK');

/** The directory to mount a volume at for a failed write: /tmp for /tmp itself, else the written path's directory. */
function mountDir(path: string): string {
  return /^\/[^/]+$/.test(path) ? path : dirOf(path);
}

function who(ctx: ReadingContext): string {
  const uid = runAsUser(ctx);
  return uid === undefined ? "the image's user" : `UID ${uid}`;
}

/** A path directly under / named like a dot directory (`/.npm`, `/.cache`): a tool's home-relative cache with HOME=/. */
const HOME_IS_ROOT = /^\/\.[^/]+/;

/** Where a mounted file's mode is set: `spec.volumes[keys].secret.defaultMode` for the volume the path lies on. */
function modeKnob(ctx: ReadingContext, path: string | undefined): string {
  const m = mountOf(ctx, path);
  if (m?.kind && ['secret', 'configMap', 'projected'].includes(m.kind)) return `spec.volumes[${m.mount.name}].${m.kind}.defaultMode`;
  return 'spec.volumes[].secret.defaultMode (or configMap.defaultMode)';
}

/** What the node's runtime gives containers as RLIMIT_NOFILE, when its version says (containerd/containerd#8924, kubernetes-sigs/image-builder#2122). */
function runtimeNofile(ctx: ReadingContext): string {
  const v = ctx.node?.status?.nodeInfo?.containerRuntimeVersion ?? '';
  if (/^containerd:\/\/2\./.test(v)) {
    return `${v.replace('containerd://', 'containerd ')} no longer sets LimitNOFILE in its unit, so containers get systemd's default (since systemd 240): soft 1024, hard 524288.`;
  }
  if (v.startsWith('cri-o://')) return "CRI-O's unit sets LimitNOFILE=1048576; default_ulimits in crio.conf overrides it for containers.";
  return '';
}

/** The write's path, its mount and volume, for the variants below. */
function onVolume(ctx: ReadingContext, kinds?: ReadonlySet<string>): MessageData | false {
  const path = pathOfWrite(ctx);
  const m = mountOf(ctx, path);
  // A claim backed by NFS behaves as an NFS volume: the export owns ownership and squashing.
  if (!path || !m?.kind || (kinds && !kinds.has(m.kind) && !(m.backend === 'nfs' && kinds.has('nfs')))) return false;
  return data({
    path,
    volume: m.mount.name,
    volumeKind: m.backend === 'nfs' && m.kind === 'persistentVolumeClaim' ? 'NFS-backed persistentVolumeClaim' : m.kind,
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
        id: 'sysctl-not-root',
        when: (ctx) => /permission denied on key/i.test(ctx.line) && { sysctl: ctx.groups.sysctl ?? 'the kernel parameter', user: who(ctx) },
        summary: 'cannot set {{sysctl}}: sysctl runs without root in the {{kind}}',
        explain:
          'Writing /proc/sys takes root (uid 0) in a privileged container, and sysctl here runs as {{user}}: images that moved to a non-root user ' +
          '(Elasticsearch 8) make an old privileged init container fail. A node-wide parameter is better set on the node.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: 'set 0 for the privileged init container that runs sysctl' },
          { place: 'node', path: 'sysctl {{sysctl}} on {{node}}', change: 'or set it on the node (/etc/sysctl.d), for every node of the pool' },
          { place: 'pod', path: 'spec.securityContext.sysctls', change: 'or, if it is namespaced (net.*, kernel.shm*...), set it in the pod spec' },
        ],
      },
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
            change:
              'set {{sysctl}} there if it is namespaced (kernel.shm*, kernel.msg*, kernel.sem, fs.mqueue.*, net.*; net.* not with hostNetwork): safe ones are allowed, ' +
              'others need --allowed-unsafe-sysctls on the kubelet, or the pod is scheduled but fails to launch',
          },
          {
            place: 'node',
            path: 'sysctl {{sysctl}} on {{node}}',
            change: 'a parameter that is not namespaced (vm.*, fs.inotify.*, fs.file-max) is set on the node',
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
        id: 'postgres-ownership',
        when: (ctx) => /data directory "[^"]+" has wrong ownership/i.test(ctx.line) && { path: ctx.groups.path ?? 'the data directory', user: who(ctx) },
        summary: 'PostgreSQL refuses {{path}}: it belongs to another user than the server',
        explain:
          'PostgreSQL only starts on a data directory owned by the user it runs as ({{user}}), and {{path}} belongs to another UID: files written by another image ' +
          'or runAsUser, or a volume root whose owner the storage sets. fsGroup changes the group, never the owner.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.runAsUser',
            change: "run as the UID that owns the files (the image's postgres user), or",
          },
          {
            place: 'pod',
            path: '{{containerPath}}.env PGDATA',
            change: 'point it at a subdirectory of the mount (e.g. /var/lib/postgresql/data/pgdata), which initdb creates with the right owner',
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'postgres-mode',
        when: (ctx) =>
          /data directory "[^"]+" has (?:invalid permissions|group or world access)/i.test(ctx.line) && {
            path: ctx.groups.path ?? 'the data directory',
            fsGroupNow: fsGroup(ctx) === undefined ? 'not set' : String(fsGroup(ctx)),
          },
        summary: 'PostgreSQL refuses {{path}}: its mode gives group or world access',
        explain:
          'PostgreSQL requires its data directory to be mode 0700 (or 0750), and {{path}} is more open: a volume root keeps the mode the storage gives it, ' +
          'and fsGroup (here {{fsGroupNow}}) makes a volume root group-writable with the setgid bit, which PostgreSQL refuses.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env PGDATA',
            change: 'point it at a subdirectory of the mount (e.g. /var/lib/postgresql/data/pgdata): initdb creates it 0700 whatever the volume root is',
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        // On a node that enforces SELinux, a hostPath keeps the host's label, and container_t may not write it whatever
        // its Unix owner: the usual cause there, named as likely (the node's OS is a hint, the avc line in its audit log the proof).
        id: 'host-path-selinux',
        when: (ctx) => {
          const os = selinuxNodeOs(ctx);
          const on = os && !ctx.container?.securityContext?.privileged && onVolume(ctx, new Set(['hostPath']));
          return on ? { ...on, os } : false;
        },
        summary: 'cannot write {{path}} on hostPath {{hostPath}}: likely its SELinux label on {{node}}',
        explain:
          '{{path}} lies on hostPath volume "{{volume}}" ({{hostPath}} on {{node}}), and {{node}} runs {{os}}, which enforces SELinux by default: the ' +
          "directory keeps the host's label, and a container's process (type container_t) is denied files not labelled container_file_t even when " +
          'their Unix owner and mode allow it. The kubelet relabels only the volumes it manages, never a hostPath. If the directory is labelled ' +
          'already, the cause is its Unix owner instead: the container runs as {{user}}.',
        knobs: [
          {
            place: 'node',
            path: '{{hostPath}} on {{node}}',
            change: 'label it for containers: chcon -Rt container_file_t {{hostPath}} (semanage fcontext to keep it)',
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.seLinuxOptions.type', change: 'or run the container as spc_t (unconfined by SELinux)' },
          { place: 'node', path: 'ausearch -m avc on {{node}}', change: 'to confirm: the denial names the path and the two labels' },
        ],
        facts: (ctx, d) => [...mountFact(ctx, String(d.path)), { source: 'node.status.nodeInfo.osImage', text: String(d.os) }],
      },
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
          "so the write is refused (EACCES). For volumes that support it, the pod's fsGroup makes the kubelet give the pod's group ownership of the volume " +
          "(a CSI volume only when its driver's CSIDriver fsGroupPolicy allows; never hostPath).",
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
        id: 'home-is-root',
        when: (ctx) => {
          const path = pathOfWrite(ctx);
          if (!path || !HOME_IS_ROOT.test(path) || mountOf(ctx, path)?.kind) return false;
          const home = envValue(ctx, 'HOME');
          return { path, user: who(ctx), homeNote: home === undefined ? 'The spec does not set HOME.' : `The spec sets HOME=${home}.` };
        },
        summary: 'cannot write {{path}}: the home directory of {{user}} is /, which only root may write',
        explain:
          'The tool keeps its cache or configuration under $HOME, and for {{user}} that is /: ' +
          "the runtime sets HOME=/ when the image's /etc/passwd has no entry " +
          'for the UID (a runAsUser, or an arbitrary UID the platform assigns). {{homeNote}}',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env HOME', change: 'set it to a writable directory (an emptyDir mount, or /tmp)' },
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: 'or run as a user the image defines, whose home exists' },
          {
            place: 'app',
            path: "the tool's cache setting (npm_config_cache, XDG_CACHE_HOME, GOCACHE, PIP_CACHE_DIR)",
            change: 'or point only the cache at a writable directory',
          },
        ],
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
        id: 'postgres',
        when: (ctx) =>
          /initdb|postgres/i.test(ctx.line) && {
            path: pathOfWrite(ctx) ?? 'the data directory',
            user: who(ctx),
          },
        summary: 'PostgreSQL cannot set the mode of {{path}}: it is a directory the server does not own',
        explain:
          'The PostgreSQL image sets its data directory to mode 0700 and its owner to the server user before initdb; on {{path}} the kernel refuses it (EPERM): ' +
          'the process ({{user}}) does not own the directory, the volume root belongs to the storage (NFS, hostPath, some CSI drivers), or CHOWN/FOWNER are dropped.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env PGDATA',
            change: 'point it at a subdirectory of the mount (e.g. /var/lib/postgresql/data/pgdata): the server creates and owns it, whatever the root is',
          },
          {
            place: 'pod',
            path: 'spec.securityContext.runAsUser + fsGroup',
            change: "run as the image's postgres UID with fsGroup set, so the entrypoint needs no chown",
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
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
    id: 'config-invalid',
    kind: 'setting',
    resource: 'a configuration file the program can parse',
    doc:
      'The program rejects its configuration file: a syntax error, or a directive or field this version does not know. In a pod the file usually comes ' +
      'from a ConfigMap or Secret key, edited apart from the image it configures.',
    variants: [
      {
        id: 'from-configmap',
        when: (ctx) => {
          const path = ctx.groups.path ?? pathIn(ctx.line);
          const m = mountOf(ctx, path);
          if (!path || !m?.kind || !ALWAYS_READ_ONLY.has(m.kind)) return false;
          const source = m.volume?.configMap?.name ?? m.volume?.secret?.secretName ?? m.mount.name;
          const key = m.mount.subPath ?? (path.slice(m.mount.mountPath.replace(/\/+$/, '').length + 1) || path);
          return { path, source, volumeKind: m.kind, key };
        },
        summary: '{{path}} does not parse: it comes from {{volumeKind}} {{source}}',
        explain:
          'The program rejects its configuration {{path}}, which the {{volumeKind}} "{{source}}" provides (key {{key}}): the content is invalid for the ' +
          'version of the program in this image.',
        knobs: [
          {
            place: 'cluster',
            path: '{{volumeKind}} {{source}} key {{key}}',
            change: 'fix the content; check it with the program itself (nginx -t, promtool check config)',
          },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or run the image version the configuration was written for' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'file',
        when: (ctx) => data({ path: ctx.groups.path ?? pathIn(ctx.line) }),
        summary: 'the configuration {{path}} does not parse',
        explain: 'The program rejects its configuration file ({{path}}): a syntax error, or a directive or field this version does not know.',
        knobs: [
          { place: 'cluster', path: 'the ConfigMap or Secret the file comes from', change: 'fix the content; check it with the program itself' },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or run the image version the configuration was written for' },
        ],
      },
    ],
  },
  {
    id: 'strict-ownership',
    kind: 'setting',
    resource: 'the owner and mode a tool requires of its files',
    doc:
      'Some tools refuse files whose owner or mode look unsafe, whatever the process could read: git a repository owned by another user, ' +
      'OpenSSH a private key others can read or a config others can write, sshd (StrictModes) a home writable by others. ' +
      'In a pod the owner and mode come from runAsUser, from fsGroup ' +
      "(the kubelet makes volumes group-writable with the setgid bit) and from a Secret's or ConfigMap's defaultMode (0644 unless set).",
    variants: [
      {
        id: 'git',
        when: (ctx) => /dubious ownership/i.test(ctx.line) && { path: ctx.groups.path ?? 'the repository', user: who(ctx) },
        summary: 'git refuses {{path}}: the repository belongs to another user than {{user}}',
        explain:
          'Since 2.35.2 git refuses a repository owned by another user than the one running it ({{user}}): a checkout made by an init container or an image ' +
          "that runs as another UID, or a volume's files owned by root. fsGroup changes the group, never the owner, so it does not help.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.runAsUser',
            change: 'run the containers that clone and use the repository as the same UID',
          },
          {
            place: 'app',
            path: 'git config --global --add safe.directory {{path}}',
            change: 'or trust the path (in the image, or before the first git command)',
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'ssh-key-mode',
        when: (ctx) =>
          /are too open/i.test(ctx.line) &&
          data({ path: ctx.groups.path ?? 'the key', mode: ctx.groups.mode, modeKnob: modeKnob(ctx, ctx.groups.path), user: who(ctx) }),
        summary: 'OpenSSH ignores the key {{path}}: mode {{mode}} lets others read it',
        explain:
          "OpenSSH refuses a private key that its owner shares with group or others. A key mounted from a Secret or ConfigMap has the volume's defaultMode " +
          '(0644 unless set), and sshd stops when none of its host keys is usable.',
        knobs: [
          {
            place: 'pod',
            path: '{{modeKnob}}',
            change: 'set 0400 (256 in JSON) when the container runs as root; ssh checks the mode only of keys the user owns',
          },
          {
            place: 'pod',
            path: '{{containerPath}} start script',
            change: 'or copy the key into place and chmod 600 it (a copy on a volume with fsGroup is group-readable)',
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'ssh-config',
        when: (ctx) => /Bad owner or permissions on/i.test(ctx.line) && data({ path: ctx.groups.path ?? 'the file', modeKnob: modeKnob(ctx, ctx.groups.path) }),
        summary: 'OpenSSH refuses {{path}}: its owner or mode is unsafe',
        explain:
          'OpenSSH reads its configuration only when the file is owned by the user or root and nobody else may write it; ' +
          'a file mounted with a group-writable ' +
          'mode, or owned by another UID than the container runs as, is refused.',
        knobs: [
          { place: 'pod', path: '{{modeKnob}}', change: 'set 0644 or stricter (no group or other write)' },
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: "or run as the file's owner (or root)" },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'sshd-strict-modes',
        when: (ctx) => ({ path: ctx.groups.path ?? 'the home directory', fsGroupNow: fsGroup(ctx) === undefined ? 'not set' : String(fsGroup(ctx)) }),
        summary: 'sshd refuses logins: {{path}} is writable by others than its owner',
        explain:
          "sshd's StrictModes refuses a login when the user's home, ~/.ssh or authorized_keys is writable by group or others. On a volume, fsGroup (here " +
          '{{fsGroupNow}}) makes the kubelet give the directory group write and the setgid bit.',
        knobs: [
          { place: 'app', path: '{{containerPath}} start script', change: 'chmod 755 the home and 700 ~/.ssh after the volume is mounted' },
          { place: 'app', path: 'sshd_config StrictModes', change: 'or set it to no (sshd then trusts any mode)' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
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
        id: 'elasticsearch-flood-stage',
        when: (ctx) => /flood[- ]stage|index read-only \/ allow delete/i.test(ctx.line),
        summary: "an Elasticsearch data node's disk passed the flood-stage watermark: its indices are read-only",
        explain:
          "Elasticsearch marks every index with a shard on a node read-only (index.blocks.read_only_allow_delete) once that node's disk passes " +
          'cluster.routing.allocation.disk.watermark.flood_stage (95%), so writes fail until space is freed; 7.4+ lifts the block by itself below the ' +
          'high watermark.',
        knobs: [
          {
            place: 'cluster',
            path: 'the PersistentVolumeClaims of the Elasticsearch data nodes spec.resources.requests.storage',
            change: 'grow them (allowVolumeExpansion), or add data nodes',
          },
          { place: 'app', path: 'index retention (ILM)', change: 'or delete old indices; before 7.4, reset index.blocks.read_only_allow_delete afterwards' },
        ],
      },
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
        id: 'either',
        when: (ctx) => /inotify resources exhausted/i.test(ctx.line),
        summary: "the node's inotify watches or instances are used up",
        explain:
          'tail could not watch the file: {{node}} refused a new inotify instance (fs.inotify.max_user_instances) or watch (fs.inotify.max_user_watches). ' +
          'Both limits are per user and node-wide (every container of that UID on the node shares them), and neither is a namespaced sysctl a pod may set.',
        knobs: [
          {
            place: 'node',
            path: 'sysctl fs.inotify.max_user_instances and fs.inotify.max_user_watches on {{node}}',
            change: 'raise them (e.g. 8192 and 524288) in /etc/sysctl.d or the node image, for every pool',
          },
        ],
      },
      {
        id: 'dotnet',
        when: (ctx) => /configured user limit/i.test(ctx.line) && data({ limit: ctx.groups.limit }),
        summary: "the node's inotify watches are used up ({{limit}}): a .NET file watcher cannot add one",
        explain:
          "A .NET FileSystemWatcher (configuration reloadOnChange, a directory watcher) adds one inotify watch per directory, and {{node}}'s per-user " +
          'limit fs.inotify.max_user_watches ({{limit}}) is shared by every container of that UID on the node. The parameter is not namespaced.',
        knobs: [
          { place: 'node', path: 'sysctl fs.inotify.max_user_watches on {{node}}', change: 'raise it (e.g. 524288) in /etc/sysctl.d or the node image' },
          {
            place: 'pod',
            path: '{{containerPath}}.env DOTNET_USE_POLLING_FILE_WATCHER',
            change: 'or set true, so file providers poll instead of using inotify',
          },
        ],
      },
      {
        id: 'node',
        summary: "the node's inotify watches are used up",
        explain:
          'Adding a file watch failed with ENOSPC ("no space" here means watches, not disk): {{node}} allows each user fs.inotify.max_user_watches watches, ' +
          'shared by every container of that UID on the node, and they are used up. The parameter is not namespaced: the pod spec cannot set it.',
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
        id: 'dotnet',
        when: (ctx) => /configured user limit/i.test(ctx.line) && data({ limit: ctx.groups.limit }),
        summary: "the node's inotify instances are used up ({{limit}}): .NET watches its configuration files",
        explain:
          ".NET's configuration providers watch appsettings files (reloadOnChange), one inotify instance per watcher, and {{node}}'s per-user limit " +
          'fs.inotify.max_user_instances ({{limit}}) is shared by every container of that UID on the node.',
        knobs: [
          { place: 'node', path: 'sysctl fs.inotify.max_user_instances on {{node}}', change: 'raise it (e.g. 8192) in /etc/sysctl.d or the node image' },
          {
            place: 'pod',
            path: '{{containerPath}}.env DOTNET_USE_POLLING_FILE_WATCHER',
            change: 'or set true, so file providers poll instead of using inotify',
          },
          { place: 'app', path: 'reloadOnChange of the JSON configuration sources', change: 'or turn it off where the files never change in a pod' },
        ],
      },
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
    doc:
      "The process hit its open-files limit (EMFILE). A container's RLIMIT_NOFILE comes from the container runtime, not the pod spec (Kubernetes has no ulimit field); " +
      "containerd 2.0 dropped LimitNOFILE from its unit (containerd/containerd#8924), so its containers get systemd's default soft 1024 (hard 524288).",
    variants: [
      {
        id: 'startup-check',
        when: (ctx) =>
          ctx.groups.limit !== undefined &&
          ctx.groups.want !== undefined && { limit: ctx.groups.limit, want: ctx.groups.want, runtimeNote: runtimeNofile(ctx) },
        summary: 'open-files limit {{limit}} is below the {{want}} the server requires',
        explain:
          "The server's start-up check refuses an open-files limit (RLIMIT_NOFILE) of {{limit}}; it requires {{want}}. A container inherits that limit from the " +
          'container runtime on {{node}}; the pod spec cannot set it. {{runtimeNote}}',
        knobs: [
          {
            place: 'runtime',
            path: "the runtime's limit on {{node}}: containerd base_runtime_spec rlimits (RLIMIT_NOFILE), CRI-O default_ulimits, or LimitNOFILE of its systemd unit",
            change: 'raise it to at least {{want}} for every node of the pool, then restart the runtime',
          },
          {
            place: 'app',
            path: "the container's entrypoint",
            change: 'or raise the soft limit up to the hard one at start (ulimit -n {{want}}, within ulimit -Hn)',
          },
        ],
      },
      {
        id: 'runtime-default',
        when: (ctx) => ({ runtime: ctx.node?.status?.nodeInfo?.containerRuntimeVersion ?? 'the container runtime', runtimeNote: runtimeNofile(ctx) }),
        summary: 'the process ran out of file descriptors',
        explain:
          "The process hit its open-files limit (RLIMIT_NOFILE, EMFILE). That limit is the container runtime's ({{runtime}} on {{node}}), not the pod's; " +
          'either it is too low for the load or the app leaks descriptors. {{runtimeNote}}',
        knobs: [
          {
            place: 'app',
            path: '/proc/1/limits and ls /proc/1/fd | wc -l in the container',
            change: 'compare the limit with what is open: a count that only grows is a leak',
          },
          {
            place: 'runtime',
            path: 'containerd base_runtime_spec rlimits / CRI-O default_ulimits / LimitNOFILE of the runtime unit on {{node}}',
            change: 'raise it for every node of the pool if the load needs more',
          },
          { place: 'app', path: "the container's entrypoint", change: 'or raise the soft limit to the hard one at start (ulimit -n $(ulimit -Hn))' },
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
        summary: 'initdb refuses a data directory that is not empty (a volume root)',
        explain:
          'initdb only initialises an empty directory, and the data directory is not empty: the root of a volume holds lost+found (a fresh ext4 filesystem) ' +
          'or a dot file, so the mount point itself cannot be PGDATA.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env PGDATA', change: 'point it at a subdirectory of the mount (e.g. /var/lib/postgresql/data/pgdata)' },
          { place: 'pod', path: '{{containerPath}}.volumeMounts[].subPath', change: 'or mount a subdirectory of the volume' },
        ],
      },
      {
        id: 'general',
        summary: 'the server refuses a data directory that is a volume root',
        explain:
          'The server refuses to initialise a data directory that already has files: the root of a volume holds lost+found, or the volume kept files of an earlier run.',
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
        id: 'no-lock-support',
        when: (ctx) => /no locks available/i.test(ctx.line),
        summary: 'the volume does not support file locks',
        explain:
          'The server could not lock its data directory because the filesystem refuses locks at all (ENOLCK): an NFS mount without a lock service (nolock, or lockd ' +
          'not reachable), not another process.',
        knobs: [
          {
            place: 'cluster',
            path: "the volume's storage (StorageClass)",
            change: 'use block storage (ReadWriteOnce) for the database, or an NFS export with working locks',
          },
          {
            place: 'app',
            path: "the server's lock option",
            change: 'disabling the lock (e.g. Prometheus --storage.tsdb.no-lockfile) is safe only with a single writer',
          },
        ],
      },
      {
        id: 'not-writable-or-shared',
        when: (ctx) => /maybe these locations are not writable/i.test(ctx.line) && { user: who(ctx) },
        summary: 'Elasticsearch cannot lock its data path: not writable, or used by another node',
        explain:
          'Elasticsearch takes a lock file in its data path at start. It failed: either the process ({{user}}) may not write there (the volume belongs to another ' +
          'user) or another node already holds the path (two pods on one volume).',
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.fsGroup',
            change: "set it to the group the image's user writes with, so the kubelet makes the volume writable for it",
          },
          {
            place: 'cluster',
            path: "the StatefulSet's volumeClaimTemplates",
            change: 'give every node its own claim (ReadWriteOnce or ReadWriteOncePod), never one volume for two pods',
          },
        ],
      },
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
            path: 'the PersistentVolumeClaim accessModes',
            change: 'ReadWriteOncePod lets only one pod use the volume at a time (ReadWriteOnce still allows two pods on one node)',
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
        id: 'mongodb-fcv',
        when: (ctx) =>
          /featureCompatibilityVersion/i.test(ctx.line) && {
            fcv: /version: \\?"([\d.]+)\\?"|found ([\d.]+)/i.exec(ctx.line)?.slice(1).find(Boolean) ?? 'older',
          },
        summary: 'the data is at featureCompatibilityVersion {{fcv}}, too old for this mongod',
        explain:
          'MongoDB upgrades one major version at a time: the data directory records featureCompatibilityVersion {{fcv}}, and this image is more than one major ' +
          'version ahead (or behind), so mongod refuses to start.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.image',
            change: 'run each intermediate major version in turn, setting featureCompatibilityVersion (setFeatureCompatibilityVersion) at each step',
          },
        ],
      },
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
        explain:
          'The app renames a file from one filesystem to another (two volumes, or a volume and the image layer), which rename(2) cannot do (EXDEV); ' +
          "overlayfs also answers EXDEV when a directory of the image's own layers is renamed.",
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
        id: 'under-mount',
        when: (ctx) => {
          const path = ctx.groups.path ?? pathIn(ctx.line);
          const m = mountOf(ctx, path);
          if (!path || !m?.kind || ALWAYS_READ_ONLY.has(m.kind) || m.mount.subPath) return false;
          return { path, volume: m.mount.name, volumeKind: m.kind, mountPath: m.mount.mountPath };
        },
        summary: '{{path}} is missing under {{mountPath}}, where volume {{volume}} is mounted',
        explain:
          '{{path}} lies under {{mountPath}}, where the {{volumeKind}} volume "{{volume}}" is mounted. A mount replaces the image\'s directory there: ' +
          'files the image has at {{mountPath}} are hidden, and a new or empty volume shows nothing until something writes the file.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts[{{volume}}].mountPath',
            change: "mount the volume at a directory the image does not fill (or use subPath), not over the app's own files",
          },
          { place: 'pod', path: 'spec.initContainers', change: "or copy the image's files into the volume first (an init container from the same image)" },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'not-mounted',
        when: (ctx) => {
          const path = ctx.groups.path ?? pathIn(ctx.line);
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

// Signatures: how each of the above shows in a line. Texts of errnos come from upstream.json; the
// examples and near misses are lines as users pasted them in the public reports each source names.
export const SIGNATURES = signatures([
  {
    id: 'errno.erofs',
    family: 'errno',
    mechanism: 'fs-read-only',
    needles: errnoNeedles('EROFS'),
    patterns: [re(EROFS)],
    // The runtime's own mount errors quote EROFS about the image or the rootfs (image.corrupt-local, runtime rules);
    // nginx's entrypoint only notes "(read-only file system?)" and carries on.
    unless: /to rootfs at|failed to create (?:containerd )?(?:shim )?task|OCI runtime|error mounting|\(read-only file system\?\)/i,
    source:
      'EROFS texts of glibc, musl, Go and libuv (upstream.json); nginx ngx_errno.c "(%d: %s)"; busybox sed/ash, dash, GNU coreutils, Rust io::Error. ' +
      'Lines (GitHub): eclipse-tractusx/tractusx-edc#279, helm/charts#12635, namespacelabs/foundation#47, DataBiosphere/azul#190, ' +
      'nmaggioni/Simple-JSONdb#11, nginx/docker-nginx#416, rabbitmq/rabbitmq-peer-discovery-k8s#37, kelseyhightower/consul-on-kubernetes#28, ' +
      'kubernetes/kubernetes#64825, coreruleset/modsecurity-crs-docker#164, offendingcommit/openconcho#96, bitnami/bitnami-docker-nginx#139, ' +
      'paketo-buildpacks/nginx#463, hightouchio/injecto#5, rook/rook#3139, openobserve/openobserve-helm-chart#54, kubesphere/kubesphere#5139, ' +
      'hackerschoice/segfault#21, justincormack/nsenter1#8, istio/tools#968, coreruleset/modsecurity-docker#48, qbittorrent/docker-qbittorrent-nox#112, ' +
      'dbeaver/cloudbeaver#3242; near miss nginx/docker-nginx-unprivileged#175',
    examples: [
      'java.io.IOException: Read-only file system',
      'Exception in thread "main" java.nio.file.FileSystemException: /opt/sonarqube/temp/README.txt: Read-only file system',
      'nginx: [emerg] mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)',
      "OSError: [Errno 30] Read-only file system: '/home/sbx_user1068'",
      'Error: Error while writing to path "../../db.json": Error: EROFS: read-only file system, open \'../../db.json\'',
      "sed: can't create temp file '/etc/nginx/conf.d/default.confXXXXXX': Read-only file system",
      "sed: can't create temp file '/etc/rabbitmq/rabbitmq.confXXXXXX': Read-only file system",
      "sed: can't create temp file '/etc/passwdXXXXXX': Read-only file system",
      'chown: /consul/config: Read-only file system',
      "chown: changing ownership of '/opt/cloudbeaver/conf/cloudbeaver.conf': Read-only file system",
      "Error: EROFS: read-only file system, mkdir '/root/.pm2",
      '/docker-entrypoint.d/20-envsubst-on-templates.sh: 33: cannot create /etc/nginx/nginx.conf: Read-only file system',
      "20-envsubst-on-templates.sh: line 53: can't create /etc/nginx/conf.d/default.conf: Read-only file system",
      '/opt/bitnami/scripts/libnginx.sh: line 61: cannot create temp file for here-document: Read-only file system',
      'failed to create nginx.conf: open /workspace/nginx.conf: read-only file system',
      'remove /var/run/secrets/kubernetes.io/serviceaccount/..data: read-only file system',
      'failed to mkdir log: mkdir log: read-only file system',
      'create cache dir success: Os { code: 30, kind: ReadOnlyFilesystem, message: "Read-only file system" }',
      "mkdir: cannot create directory '/mnt/sync/folders': Read-only file system",
      "touch: cannot touch '/tmp/a': Read-only file system",
      "mkdir: can't create directory 'data': Read-only file system",
      "sh: can't create /mnt/index.html: Read-only file system",
      "cp: preserving times for '/home/.kube': Read-only file system",
      'error opening output file: Read-only file system',
    ],
    nearMisses: ['10-listen-on-ipv6-by-default.sh: info: can not modify /etc/nginx/conf.d/default.conf (read-only file system?)'],
  },
  {
    id: 'sysctl.read-only',
    family: 'runtime',
    mechanism: 'fs-read-only',
    needles: ['sysctl', 'setting key'],
    patterns: [
      re('sysctl: (?:error )?setting key ["\']?(?<sysctl>[\\w.\\-/]+)', `.*${EROFS}`),
      re('error: "', EROFS, '" setting key "(?<sysctl>[\\w.\\-/]+)"'),
      re('sysctl: cannot stat /proc/sys/(?<sysctlPath>[\\w/.-]+)'),
      re('sysctl: permission denied on key ["\']?(?<sysctl>[\\w.\\-/]+)'),
    ],
    source:
      'procps-ng sysctl.c ("setting key \\"%s\\""; older procps "error: \\"%s\\" setting key \\"%s\\""), busybox sysctl.c; ' +
      'lines (GitHub): d2iq-archive/marathon-lb#156, moby/moby#10039; "permission denied on key "%s"" (as non-root): elastic/cloud-on-k8s#5410, ' +
      'elastic/elasticsearch#4978',
    examples: [
      'sysctl: setting key "net.core.somaxconn": Read-only file system',
      'error: "Read-only file system" setting key "net.ipv4.ip_local_reserved_ports"',
      'sysctl: permission denied on key "vm.max_map_count", ignoring',
      "sysctl: permission denied on key 'vm.max_map_count'",
    ],
  },
  {
    id: 'errno.eacces-path',
    family: 'errno',
    generic: true,
    mechanism: 'fs-permission',
    needles: errnoNeedles('EACCES'),
    patterns: [re(EACCES)],
    // Binding a port and executing a file are other mechanisms (their own signatures); an SSH key or a password refused is not a file's.
    unless: /\b(?:bind|listen|make_sock)\b|exec(?:ve)?[(:]|exec user process|permission denied \(publickey|password|authentication/i,
    source:
      'EACCES texts of glibc, musl, Go and libuv (upstream.json); Java NIO AccessDeniedException (OpenJDK UnixException); Java FileNotFoundException "(%s)". ' +
      'Lines (GitHub): jonaswinkler/paperless-ng#1729, Inrixia/Floatplane-Downloader#266, Maintainerr/Maintainerr#830, ' +
      'seek-oss/docker-ecr-cache-buildkite-plugin#13, npm/cli#7572, jhipster/generator-jhipster#11302, grafana/grafana#26675, laradock/laradock#1783, ' +
      'jenkinsci/docker#677, jenkinsci/docker#177, docker-library/mongo#328, VonHumbolt/RoadBedProject#2, sclorg/mongodb-container#99, ' +
      'mongodb/mongodb-kubernetes-operator#610, NexClipper/NexClipper#38, justb4/docker-jmeter#43, ches/docker-kafka#9, Dynatrace/easyTravel-Docker#22, ' +
      'docker-library/httpd#102, helm/charts#19105; near misses aquasecurity/kube-hunter#43, hjacobs/kube-resource-report#146, ' +
      'AdoptOpenJDK/openjdk8-openj9-releases#9, j4ym0/pia-qbittorrent-docker#31',
    examples: [
      "PermissionError: [Errno 13] Permission denied: '/config/log'",
      "Error: EACCES: permission denied, mkdir '/.ffbinaries-cache'",
      "Internal Error: EACCES: permission denied, mkdir '/opt/app/.cache'",
      "Error: EACCES: permission denied, mkdir '/workdir/node_modules/.cache'",
      'npm ERR! code EACCES',
      'Caused by: java.nio.file.AccessDeniedException: /usr/share/elasticsearch/data/nodes',
      "mkdir: can't create directory '/var/lib/grafana/plugins': Permission denied",
      "mkdir: cannot create directory '/var/lib/grafana/plugins': Permission denied",
      "touch: cannot touch '/var/jenkins_home/copy_reference_file.log': Permission denied",
      '/usr/local/bin/jenkins.sh: line 25: /var/jenkins_home/copy_reference_file.log: Permission denied',
      "find: '/data/db/journal': Permission denied",
      "chown: cannot access '/data/db/WiredTiger.turtle': Permission denied",
      'Thu Oct 29 13:57:59.288 [initandlisten] exception in initAndListen std::exception: boost::filesystem::status: Permission denied: "/var/lib/mongodb/data/mongod.lock", terminating',
      'Error creating /data/automation-mongod.conf : open /data/automation-mongod.conf: permission denied',
      'ERROR in ch.qos.logback.core.rolling.RollingFileAppender[ROLLING] - openFile(null,true) call failed. java.io.FileNotFoundException: mylog-2019-05-30.0.txt (Permission denied)',
      '2021-06-22 17:58:11,819 main ERROR FileManager (jmeter.log) java.io.FileNotFoundException: jmeter.log (Permission denied) java.io.FileNotFoundException: jmeter.log (Permission denied)',
      'java.io.IOException: Permission denied',
      "sed: couldn't open temporary file /etc/nginx/sedRjs8rf: Permission denied",
      '(13)Permission denied: AH00099: could not create /usr/local/apache2/logs/httpd.pid',
      'err="opening storage failed: lock DB directory: open /data/lock: permission denied"',
    ],
    nearMisses: [
      'git@github.com: Permission denied (publickey).',
      '2020/04/15 02:38:08 [emerg] 1#1: bind() to 0.0.0.0:80 failed (13: Permission denied)',
      "ping: can't create raw socket: Permission denied",
      "iptables v1.8.10 (legacy): can't initialize iptables table `filter': Permission denied (you must be root)",
    ],
  },
  {
    id: 'runtime.dotnet-access-denied',
    family: 'runtime',
    mechanism: 'fs-permission',
    needles: ['unauthorizedaccessexception'],
    patterns: [re("UnauthorizedAccessException: Access to the path '(?<path>[^']+)' is denied")],
    source:
      '.NET System.Private.CoreLib UnauthorizedAccess_IODenied_Path ("Access to the path \'{0}\' is denied.", EACCES and EPERM on a path); the example is ' +
      'in its format: no real paste was collected',
    examples: ["Unhandled exception. System.UnauthorizedAccessException: Access to the path '/app/data' is denied."],
  },
  {
    id: 'server.not-writable',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['is not writable', 'wrong volume permissions'],
    patterns: [
      re("GF_PATHS_DATA='(?<path>[^']+)' is not writable"),
      re('Can not write to (?<path>/\\S+)\\. Wrong volume permissions\\?'),
      re('--initialize specified but the data directory exists and is not writable'),
    ],
    source:
      'grafana packaging/docker/run.sh; jenkins jenkins-support; mysql sql/mysqld.cc (--initialize). Lines (GitHub): SaiUpadhyayula/spring-boot-microservices#23, ' +
      'jenkinsci/docker#677, microservices-demo/microservices-demo#789',
    examples: [
      "GF_PATHS_DATA='/var/lib/grafana' is not writable.",
      'Can not write to /var/jenkins_home/copy_reference_file.log. Wrong volume permissions?',
      '2019-03-16T07:05:36.633821Z 0 [ERROR] --initialize specified but the data directory exists and is not writable. Aborting.',
    ],
  },
  {
    id: 'server.postgres-data-dir',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['has wrong ownership', 'has invalid permissions', 'has group or world access'],
    patterns: [re('data directory "(?<path>[^"]+)" has (?:wrong ownership|invalid permissions|group or world access)')],
    source:
      'postgres src/backend/utils/init/miscinit.c checkDataDir() (group or world access before PostgreSQL 11). Lines (GitHub): immich-app/immich#15360, ' +
      'thetechnocrat-dev/GoDoRP#6, bitnami/charts#17080, thingsboard/thingsboard#4925, kiasaki/docker-alpine-postgres#19',
    examples: [
      '2025-01-15 13:16:49.637 UTC [83] FATAL:  data directory "/var/lib/postgresql/data" has wrong ownership',
      'FATAL:  data directory "/pgdata" has wrong ownership',
      'data directory "/bitnami/postgresql/data" has wrong ownership',
      '2021-07-17 13:51:49.122 UTC [85] FATAL: data directory "/var/lib/postgresql/data" has invalid permissions',
      'FATAL:  data directory "/var/lib/postgresql/data" has group or world access',
    ],
  },
  {
    id: 'server.mysql-file-permission',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ["can't create/write to file"],
    patterns: [re("Can't create/write to file '(?<path>[^']+)' \\(Errcode: 13\\b")],
    source:
      "mysql mysys errors (EE_CANTCREATEFILE \"Can't create/write to file '%s' (Errcode: %d - %s)\"). Lines (GitHub): " +
      'microservices-demo/microservices-demo#789, KiweeEu/magento2-on-kubernetes#2, docker-library/mysql#219',
    examples: ["mysqld: Can't create/write to file '/var/lib/mysql/is_writable' (Errcode: 13 - Permission denied)"],
  },
  {
    id: 'server.redis-aof',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['append-only'],
    patterns: [re("Can't open (?:the append-only file|or create append-only dir (?<path>\\S+)): ", EACCES)],
    source: 'redis src/aof.c. Lines (GitHub): bitnami/charts#3110, bitnami/charts#14327, OT-CONTAINER-KIT/redis-operator#1115',
    examples: [
      "1:M 14 Jul 2020 10:08:55.713 # Can't open the append-only file: Permission denied",
      "Can't open or create append-only dir appendonlydir: Permission denied",
    ],
  },
  {
    id: 'server.mongodb-data-permission',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['wiredtiger', 'lock file'],
    patterns: [
      re('WiredTiger error[^\\n]*?(?<path>/[^\\s:"]+): handle-open: open: (?:', EPERM, '|', EACCES, ')'),
      re('Unable to create/open the lock file: (?<path>\\S+) \\((?:', EPERM, '|', EACCES, ')\\)'),
    ],
    source:
      'mongo WiredTiger os_posix (__posix_open_file), storage_engine_lock_file_posix.cpp. Lines (GitHub): cve-search/CVE-Search-Docker#37, ' +
      'bitnami/bitnami-docker-mongodb#306',
    examples: [
      '{"t":{"$date":"2023-07-12T10:32:47.030+00:00"},"s":"E",  "c":"STORAGE",  "id":22435,   "ctx":"initandlisten","msg":"WiredTiger error","attr":{"error":1,"message":"[1689157967:30520][29:0x7f7a96f8bcc0], connection: __posix_open_file, 815: /data/db/WiredTiger.wt: handle-open: open: Operation not permitted"}}',
      'Unable to create/open the lock file: /bitnami/mongodb/data/db/mongod.lock (Operation not permitted)',
    ],
  },
  {
    id: 'server.elasticsearch-data-permission',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['accessdeniedexception['],
    patterns: [re('nested: AccessDeniedException\\[(?<path>/[^\\]]+)\\]')],
    source: 'elasticsearch bootstrap (StartupException wrapping the NIO AccessDeniedException). Line (GitHub): elastic/helm-charts#137',
    examples: [
      '"stacktrace": ["org.elasticsearch.bootstrap.StartupException: ElasticsearchException[failed to bind service]; nested: AccessDeniedException[/usr/share/elasticsearch/data/nodes];",',
    ],
  },
  {
    id: 'server.prometheus-query-log',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['query log file'],
    patterns: [re('msg="Error opening query log file" file=(?<path>\\S+) err="[^"]*', EACCES)],
    source:
      'prometheus promql/query_logger.go (NewActiveQueryTracker). Lines (GitHub): prometheus/prometheus#5976, prometheus-operator/prometheus-operator#3693',
    examples: [
      'ts=2022-10-12T06:34:15.628Z caller=query_logger.go:86 level=error component=activeQueryTracker msg="Error opening query log file" file=/prometheus/queries.active err="open /prometheus/queries.active: permission denied"',
      'level=error ts=2020-11-19T05:32:16.299Z caller=query_logger.go:87 component=activeQueryTracker msg="Error opening query log file" file=/prometheus/queries.active err="open /prometheus/queries.active: permission denied"',
    ],
  },
  {
    id: 'errno.eperm-ownership',
    family: 'errno',
    mechanism: 'fs-ownership-change',
    needles: ['changing ownership', 'changing permissions', 'could not change permissions', 'chown', 'chmod', 'cannot change ownership', 'cannot change mode'],
    patterns: [
      re('(?:chown|chmod|changing (?:ownership|permissions) of|could not change permissions of)[^\\n]*', EPERM),
      // libuv/Node put the syscall after the errno: `EPERM: operation not permitted, chown '/x'`; GNU tar names what it changes.
      re(EPERM, ",? (?:l|f)?ch(?:own|mod) '"),
      re('Cannot change (?:ownership to uid \\d+, gid \\d+|mode to \\S+): ', EPERM),
    ],
    source:
      'coreutils chown/chmod ("changing ownership of %s"), busybox chown/chmod ("%s: %m"), postgres initdb.c ("could not change permissions of directory \\"%s\\": %m"). ' +
      'Lines (GitHub): dbeaver/cloudbeaver#3242, puppetlabs/puppetserver-helm-chart#160, docker-library/mongo#127, nats-nui/k8s#6, ' +
      'geekau/mediastack#57, docker-library/postgres#1270, eclipse-che/che#15526, goharbor/harbor#19785, bitnami/bitnami-docker-postgresql#285; ' +
      'libuv/Node ("EPERM: operation not permitted, chown \'%s\'"): npm/npm#17578, npm/npm#11717; noobaa/noobaa-core#7030; GNU tar ' +
      '("Cannot change ownership to uid %lu, gid %lu"; that example is in its format, after concourse/concourse#5202)',
    examples: [
      "chown: changing ownership of '/opt/cloudbeaver/server': Operation not permitted",
      "chown: changing ownership of '/etc/puppetlabs/puppetserver/': Operation not permitted",
      "chown: changing ownership of '/data/db': Operation not permitted",
      'chown: /db: Operation not permitted',
      'chown: /db/lost+found: Operation not permitted',
      "chmod: changing permissions of '/var/lib/postgresql/data': Operation not permitted",
      'chmod: /var/lib/postgresql/data: Operation not permitted',
      "chmod: changing permissions of '/bitnami/postgresql/data': Operation not permitted",
      'initdb: error: could not change permissions of directory "/var/lib/postgresql/data": Operation not permitted',
      'initdb: could not change permissions of directory "/var/lib/postgresql/data": Operation not permitted',
      'initdb: error: could not change permissions of "/var/lib/postgresql/data/pg14/postgresql.conf": Operation not permitted',
      "npm ERR! Error: EPERM: operation not permitted, chown '/usr/local/src/node_modules/.staging/minimist-e209f42f'",
      "npm ERR! Error: EPERM, chown '/opt/node_modules/express/package.json'",
      'Error:got error when changing ownership of /var/lib/pgsql Error: Operation not permitted',
      'tar: ./data: Cannot change ownership to uid 1000, gid 1000: Operation not permitted',
    ],
    nearMisses: [
      "chown: changing ownership of '/opt/cloudbeaver/conf/cloudbeaver.conf': Read-only file system",
      "chown: cannot access '/data/db/WiredTiger.turtle': Permission denied",
    ],
  },
  {
    id: 'errno.enospc-inotify',
    family: 'errno',
    mechanism: 'inotify-watches',
    needles: ['inotify', 'file watchers', 'enospc', 'failed to watch', 'tail_fs'],
    patterns: [
      re('System limit for number of file watchers reached'),
      re('inotify_add_watch[^\\n]*', ENOSPC),
      re('inotify watch limit reached'),
      re('inotify resources exhausted'),
      // .NET FileSystemWatcher (ENOSPC from inotify_add_watch) and the JDK's LinuxWatchService say it in words, without the errno text.
      re('The configured user limit \\((?<limit>\\d+)\\) on the number of inotify watches has been reached'),
      re('User limit of inotify watches reached'),
      re('failed to watch file [^\\n]*', ENOSPC),
      // fluent-bit's tail input registers every file with inotify; errno 28 there is the watch limit.
      re('in_tail/tail_fs\\.c:\\d+ errno=28\\]'),
    ],
    source:
      'Node.js fs.watch ENOSPC (libuv), Python watchdog, coreutils tail.c, kubelet kuberuntime/logs, fluent-bit in_tail tail_fs.c; glibc ENOSPC text; ' +
      '.NET FileSystemWatcher ("The configured user limit ({0}) on the number of inotify watches has been reached, or the operating system failed to ' +
      'allocate a required resource."), JDK sun.nio.fs.LinuxWatchService ("User limit of inotify watches reached" for ENOSPC). Lines: jellyfin docs ' +
      '(Directory watcher), neo4j and Elasticsearch reports quoting java.io.IOException. ' +
      'Lines (GitHub): hgop/syllabus-2020#43, ToolJet/ToolJet#198, jsbroks/coco-annotator#234, kubernetes/kubernetes#8198, kubernetes-sigs/kind#2399, ' +
      'kubernetes/kubernetes#10421, fluent/fluent-bit#5500, fluent/fluent-bit#1018',
    examples: [
      "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/public'",
      "Error from chokidar (/app/src/_components): Error: ENOSPC: System limit for number of file watchers reached, watch '/app/src/_components/PrivateRoute.jsx'",
      'OSError("inotify watch limit reached")',
      'inotify_add_watch /sys/fs/cgroup/cpu,cpuacct: no space left on device',
      'failed to watch file "/var/log/pods/default_run-tests-2xcj7_.../run-tests/0.log": no space left on device',
      'tail: inotify resources exhausted',
      '[error] [plugins/in_tail/tail_fs.c:139 errno=28] No space left on device',
      '[plugins/in_tail/tail_fs.c:218 errno=28] No space left on device',
      '[ERR] Error in Directory watcher for: "/media/movies"  System.IO.IOException: The configured user limit (8192) on the number of inotify watches has been reached.',
      'Caused by: java.io.IOException: User limit of inotify watches reached',
    ],
    nearMisses: ['tail: inotify cannot be used, reverting to polling'],
  },
  {
    id: 'errno.emfile-inotify',
    family: 'errno',
    mechanism: 'inotify-instances',
    needles: ['too many open files', 'emfile', 'max_user_instances', 'inotify instances'],
    patterns: [
      re('The configured user limit \\((?<limit>\\d+)\\) on the number of inotify instances has been reached'),
      re('(?:fsnotify|inotify|watcher|directory watch)[^\\n]*', EMFILE),
      re(EMFILE, '[^\\n]*(?:fsnotify|inotify|watch)'),
      re('increasing the value of /proc/sys/fs/inotify/max_user_instances'),
    ],
    source:
      'fsnotify NewWatcher (inotify_init1 EMFILE), systemd, inotify-tools, notify-rs, pyinotify. Lines (GitHub): NVIDIA/gpu-operator#441, ' +
      'AztecProtocol/aztec-packages#11220, rackerlabs/genestack#227, samuelcolvin/watchfiles#320, gregghz/Watcher#23; .NET FileSystemWatcher ' +
      '("The configured user limit ({0}) on the number of inotify instances has been reached"): Azure/AKS#3714, dotnet/corefx#32024, ' +
      'dotnet/aspnetcore#19845, sixeyed/kiamol#31, emberstack/docker-sftp#113; JDK sun.nio.fs.LinuxWatchService ("User limit of inotify instances ' +
      'reached or too many open files" for EMFILE), quoted by Nacos users',
    examples: [
      'Error: failed to create FS watcher: too many open files',
      'create fsnotify watcher: too many open files',
      'Failed to allocate directory watch: Too many open files',
      "Couldn't initialize inotify: Too many open files",
      'Try increasing the value of /proc/sys/fs/inotify/max_user_instances',
      'Error creating recommended watcher: Too many open files (os error 24)',
      'OSError: Cannot initialize new instance of inotify, Errno=Too many open files (EMFILE)',
      'Unhandled exception. System.IO.IOException: The configured user limit (1024) on the number of inotify instances has been reached, ' +
        'or the per-process limit on the number of open file descriptors has been reached.',
      'Unhandled Exception: System.IO.IOException: The configured user limit (128) on the number of inotify instances has been reached.',
      'Caused by: com.alibaba.nacos.api.exception.NacosException: java.io.IOException: User limit of inotify instances reached or too many open files',
    ],
    nearMisses: ["Error: EMFILE: too many open files, open 'testfiles/4084'"],
  },
  {
    id: 'errno.enospc-shm',
    family: 'errno',
    mechanism: 'shm-exhausted',
    needles: ['shared memory', '/dev/shm', 'shm'],
    patterns: [re('could not resize shared memory segment[^\\n]*', ENOSPC), re('/dev/shm[^\\n]*', ENOSPC), re('insufficient shared memory \\(shm\\)')],
    source:
      'postgres src/backend/storage/ipc/dsm_impl.c; PyTorch torch/utils/data/_utils/signal_handling.py. Lines (GitHub): sourcegraph/sourcegraph-public-snapshot#20531, ' +
      'CrunchyData/postgres-operator#1358, PrecisionNutrition/pndev#41, sapcc/helm-charts#5147, kubeflow/pipelines#6510',
    examples: [
      'ERROR: could not resize shared memory segment "/PostgreSQL.2140028439" to 8388608 bytes: No space left on device',
      'ERROR:  could not resize shared memory segment "/PostgreSQL.412969521" to 8409088 bytes: No space left on device',
      'PG::DiskFull: ERROR: could not resize shared memory segment "/PostgreSQL.394945862" to 16777216 bytes: No space left on device',
      'pq: could not resize shared memory segment "/PostgreSQL.710526079" to 4194304 bytes: No space left on device',
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
    source:
      'ENOSPC and EDQUOT texts of glibc, musl, Go and libuv (upstream.json). Examples in the format of Go os.PathError and CPython OSError ' +
      '(no real paste of a full volume was collected); near misses: hgop/syllabus-2020#43, sourcegraph/sourcegraph-public-snapshot#20531, ' +
      'fluent/fluent-bit#5500, kubernetes-sigs/kind#2399',
    examples: ['write /data/wal/000001.log: no space left on device', "OSError: [Errno 28] No space left on device: '/scratch/out.bin'"],
    nearMisses: [
      "Error: ENOSPC: System limit for number of file watchers reached, watch '/app/public'",
      'ERROR: could not resize shared memory segment "/PostgreSQL.2140028439" to 8388608 bytes: No space left on device',
      '[error] [plugins/in_tail/tail_fs.c:139 errno=28] No space left on device',
      'failed to watch file "/var/log/pods/default_run-tests-2xcj7_.../run-tests/0.log": no space left on device',
    ],
  },
  {
    id: 'server.fd-check',
    family: 'server',
    mechanism: 'fd-limit',
    needles: ['max file descriptors'],
    patterns: [re('max file descriptors \\[(?<limit>\\d+)\\] for (?:elasticsearch|opensearch) process is too low, increase to at least \\[(?<want>\\d+)\\]')],
    source:
      'elasticsearch server/src/main/java/org/elasticsearch/bootstrap/BootstrapChecks.java (FileDescriptorCheck). Lines (GitHub): elastic/cloud-on-k8s#2101, ' +
      'kubernetes/kubernetes#59321',
    examples: [
      '[1]: max file descriptors [4096] for elasticsearch process is too low, increase to at least [65535]',
      '[1]: max file descriptors [1024] for elasticsearch process is too low, increase to at least [65536]',
    ],
  },
  {
    id: 'errno.enfile',
    family: 'errno',
    mechanism: 'file-table-full',
    needles: errnoNeedles('ENFILE'),
    patterns: [re(ENFILE)],
    source: 'ENFILE texts of glibc, musl, Go and libuv (upstream.json). Line (GitHub): alibaba/nacos#9248',
    examples: ['java.io.IOException: Too many open files in system'],
  },
  {
    id: 'errno.emfile',
    family: 'errno',
    generic: true,
    mechanism: 'fd-limit',
    needles: errnoNeedles('EMFILE'),
    patterns: [re(EMFILE)],
    // inotify's EMFILE is the node's instance limit (errno.emfile-inotify), not the process's descriptors.
    unless: / in system|file table overflow|fsnotify|inotify|watcher|directory watch/i,
    source:
      'EMFILE texts of glibc, musl ("No file descriptors available"), Go and libuv (upstream.json); Go net/http "Accept error: %v; retrying in %v". ' +
      'Lines (GitHub): NebulousLabs/Sia#2177, drk1wi/Modlishka#117, varnamproject/varnamd-govarnam#6, psi-probe/psi-probe#203, ' +
      'thingsboard/thingsboard#2202, dacapobench/dacapobench#61, ufal/clarin-dspace#1034, ac2cz/FoxTelem#457, nodejs/node#4386, ' +
      'isaacs/node-graceful-fs#242, scenevr/server#25; near misses NVIDIA/gpu-operator#441, rackerlabs/genestack#227, samuelcolvin/watchfiles#320, alibaba/nacos#9248',
    examples: [
      '2017/07/22 22:14:02 http: Accept error: accept tcp 127.0.0.1:9980: accept4: too many open files; retrying in 1s',
      'Accept error: accept tcp [::]:443: accept4: too many open files; retrying in 1s',
      'echo: http: Accept error: accept tcp 127.0.0.1:8123: accept4: too many open files; retrying in 5ms',
      'java.net.SocketException: Too many open files',
      'java.io.IOException: Too many open files',
      'java.io.FileNotFoundException: ./scratch/result.7.17.39.html (Too many open files)',
      'org.apache.tomcat.jni.Error: 24: Too many open files',
      'java.net.SocketException: Too many open files (Accept failed)',
      "Error: EMFILE: too many open files, open 'testfiles/4084'",
      "[Error: EMFILE: too many open files, scandir 'output/.test/xxx'] { errno: -24, code: 'EMFILE', syscall: 'scandir', ...}",
      "Error: EMFILE, too many open files 'scenes/pinterest-ristari-recycle-upcycle-etc.xml'",
    ],
    nearMisses: [
      'Error: failed to create FS watcher: too many open files',
      'Failed to allocate directory watch: Too many open files',
      "Couldn't initialize inotify: Too many open files",
      'java.io.IOException: Too many open files in system',
    ],
  },
  {
    id: 'server.data-dir-not-empty',
    family: 'server',
    mechanism: 'data-dir-not-empty',
    needles: [
      'exists but is not empty',
      'has files in it',
      'lost+found',
      'dot-prefixed',
      'mount point directly',
      'remove or empty the directory',
      'is unusable',
    ],
    patterns: [
      re('directory "(?<path>[^"]+)" exists but is not empty'),
      re('It contains a (?:lost\\+found directory|dot-prefixed/invisible file)'),
      re('Using a mount point directly as the data directory is not recommended'),
      re('either remove or empty the directory "(?<path>[^"]+)"'),
      re('--initialize specified but the data directory has files in it'),
      re('The designated data directory (?<path>\\S+) is unusable'),
      re("Found directory (?<path>\\S+)/lost\\+found, 'lost\\+found' is not in the form of topic-partition"),
    ],
    source:
      'postgres src/bin/initdb/initdb.c; mysql sql/mysqld.cc (ER_DATA_DIRECTORY_UNUSABLE); kafka LogManager.scala (apache/kafka#2907). ' +
      'Lines (GitHub): cybertec-postgresql/cybertec_migrator#35, sixeyed/kiamol#72, datalens-tech/datalens#352, stualden/postgresql-misc#1, ' +
      'pgautoupgrade/docker-pgautoupgrade#7, kubeflow/website#3990, docker-library/mysql#280, strimzi/strimzi-kafka-operator#1307, ches/docker-kafka#28',
    examples: [
      'initdb: error: directory "/var/lib/postgresql/data" exists but is not empty',
      'initdb: directory "/var/lib/postgresql/data" exists but is not empty',
      'It contains a lost+found directory, perhaps due to it being a mount point.',
      'initdb: detail: It contains a lost+found directory, perhaps due to it being a mount point.',
      'initdb: detail: It contains a dot-prefixed/invisible file, perhaps due to it being a mount point.',
      'initdb: hint: Using a mount point directly as the data directory is not recommended.',
      'initdb: hint: If you want to create a new database system, either remove or empty the directory "/var/lib/postgresql/data" or run initdb with an argument other than "/var/lib/postgresql/data".',
      '2025-02-11T12:19:28.746084Z 0 [ERROR] [MY-010457] [Server] --initialize specified but the data directory has files in it. Aborting.',
      '[ERROR] [MY-013236] [Server] The designated data directory /var/lib/mysql/ is unusable. You can remove all files tha',
      '2017-04-08T00:44:56.022067Z 0 [ERROR] --initialize specified but the data directory has files in it. Aborting.',
      "org.apache.kafka.common.KafkaException: Found directory /var/lib/kafka/data/lost+found, 'lost+found' is not in the form of topic-partition or topic-partition.uniqueId-delete (if marked for deletion).",
      "kafka.common.KafkaException: Found directory /data/lost+found, 'lost+found' is not in the form of topic-partition",
    ],
  },
  {
    id: 'server.data-dir-locked',
    family: 'server',
    mechanism: 'data-dir-locked',
    needles: ['lock', 'dbpathinuse', 'memory series storage'],
    patterns: [
      re('DBPathInUse: Unable to lock the lock file'),
      re('Unable to lock file: \\S+\\. Is a mongod instance already running'),
      re('WiredTiger\\.lock: handle-lock: fcntl: ', EAGAIN),
      re('lock DB directory: (?:resource temporarily unavailable|no locks available)'),
      re('open DB in \\S+: Locked by other process'),
      re('Error opening memory series storage: resource temporarily unavailable'),
      re('InnoDB: Unable to lock \\S+?,? error: (?:11|35)\\b'),
      re('failed to obtain node locks'),
      re('Another \\w+ instance is already running on the (?<path>\\S+) directory'),
    ],
    source:
      'mongo storage_engine_lock_file_posix.cpp and WiredTiger; prometheus tsdb/db.go (and 1.x local storage); innodb os0file.cc; elasticsearch NodeEnvironment.java. ' +
      'Lines (GitHub): mikhail-angelov/mongo-unit#37, npm/npm#10226, mbentley/docker-omada-controller#539, prometheus/prometheus#9513, ' +
      'prometheus/prometheus#13390, prometheus/prometheus#3590, prometheus/prometheus#1600, magenx/Magento-Automated-Server-Configuration-from-MagenX#126, ' +
      'shueisha-arts-and-digital/dbdb#33, elastic/cloud-on-k8s#7291, pires/kubernetes-elasticsearch-cluster#205; near misses helm/charts#19105, ' +
      'bitnami/bitnami-docker-mongodb#306',
    examples: [
      '"msg":"exception in initAndListen: {e}, terminating","attr":{"e":"DBPathInUse: Unable to lock the lock file: /code/mongo-unit/.mongo-unit/mongod.lock (Resource temporarily unavailable). Another mongod instance is already running on the /code/mongo-unit/.mongo-unit directory"}',
      'exception in initAndListen: 10310 Unable to lock file: /Users/dtatohq/mongodbs/devicecloud-db/mongod.lock. Is a mongod instance already running?, terminating',
      'E STORAGE  [initandlisten] WiredTiger error (11) [1747343236:646060][590:0x7f3d2140eac0], wiredtiger_open: ../data/db/WiredTiger.lock: handle-lock: fcntl: Resource temporarily unavailable',
      'level=error ts=2021-10-15T08:25:42.501Z caller=main.go:915 err="opening storage failed: lock DB directory: resource temporarily unavailable"',
      'err="opening storage failed: lock DB directory: no locks available"',
      'msg="Opening storage failed" err="open DB in data/: Locked by other process"',
      'level=error msg="Error opening memory series storage: resource temporarily unavailable" source="main.go:139"',
      '2017-08-13 02:30:50 2951 [ERROR] InnoDB: Unable to lock ./ibdata1, error: 11',
      '2023-01-18T02:33:08.871749Z 0 [ERROR] InnoDB: Unable to lock ./ibdata1 error: 35',
      'java.lang.IllegalStateException: failed to obtain node locks, tried [/usr/share/elasticsearch/data]; maybe these locations are not writable or multiple nodes were started on the same data path?',
      'org.elasticsearch.bootstrap.StartupException: java.lang.IllegalStateException: failed to obtain node locks, tried [[/usr/share/elasticsearch/data/efk3-cluster]] with lock id [0]; maybe these locations are not writable or multiple nodes were started without increasing [node.max_local_storage_nodes] (was [1])?',
    ],
    nearMisses: [
      'err="opening storage failed: lock DB directory: open /data/lock: permission denied"',
      'Unable to create/open the lock file: /bitnami/mongodb/data/db/mongod.lock (Operation not permitted)',
    ],
  },
  {
    id: 'errno.enolck',
    family: 'errno',
    generic: true,
    mechanism: 'data-dir-locked',
    needles: errnoNeedles('ENOLCK'),
    patterns: [re(ENOLCK)],
    source:
      'ENOLCK texts of glibc, musl and Go (upstream.json); fcntl(2) and flock(2) on NFS without a lock service (nolock, lockd unreachable). ' +
      'Lines (GitHub): nlf/dlite#69, syncthing/syncthing#2483',
    examples: [
      'IOError: [Errno 37] No locks available',
      '[ERA3W] 04:22:05 FATAL: Cannot open database: no locks available - Is another copy of Syncthing already running?',
    ],
  },
  {
    id: 'server.elasticsearch-flood-stage',
    family: 'server',
    mechanism: 'disk-full',
    needles: ['read-only / allow delete', 'flood-stage watermark', 'flood stage disk watermark'],
    patterns: [
      re('blocked by: \\[FORBIDDEN/12/index read-only / allow delete \\(api\\)\\]'),
      re('blocked by: \\[TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark'),
      re('flood stage disk watermark \\[[^\\]]+\\] exceeded on'),
    ],
    source:
      'elasticsearch DiskThresholdMonitor and IndexMetadata (INDEX_READ_ONLY_ALLOW_DELETE_BLOCK "index read-only / allow delete (api)"; 7.x+ ' +
      '"disk usage exceeded flood-stage watermark, index has read-only-allow-delete block"; "flood stage disk watermark [%s] exceeded on %s"); ' +
      'the examples are in their formats: no real paste was collected',
    examples: [
      'ClusterBlockException[blocked by: [FORBIDDEN/12/index read-only / allow delete (api)];]',
      'cluster_block_exception: index [logs-2024.01.10] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, ' +
        'index has read-only-allow-delete block];',
    ],
  },
  {
    id: 'server.config-invalid',
    family: 'server',
    mechanism: 'config-invalid',
    needles: ['[emerg]', 'yaml: ', 'error loading config from', 'yaml.scanner.', 'yaml.parser.', 'yaml.composer.', 'yaml.constructor.'],
    patterns: [
      re(
        '\\[emerg\\] (?:\\d+#\\d+: )?(?:unknown directive|"[^"]+" directive is not allowed here|directive "[^"]+" is not terminated|invalid number of ',
        'arguments in|unexpected "[^"]*"|unexpected end of file|"[^"]+" directive is duplicate)[^\\n]* in (?<path>/[^\\s:]+):\\d+',
      ),
      re('\\byaml: (?:line \\d+: |unmarshal errors)'),
      re('yaml\\.(?:scanner|parser|composer|constructor)\\.\\w+Error'),
      re('error loading config from \\\\?"(?<path>[^"\\\\]+)'),
    ],
    source:
      'nginx ngx_conf_file.c ("unknown directive \\"%s\\"", "\\"%s\\" directive is not allowed here", "directive \\"%s\\" is not terminated by \\";\\"" ... ' +
      '" in %s:%ui"), go-yaml ("yaml: line %d: %s", "yaml: unmarshal errors"), PyYAML (ScannerError, ParserError), prometheus ("error loading config ' +
      'from"; the YAML and Prometheus examples are in their formats). Lines (GitHub): eoscostarica/lifebank#779, ' +
      'open-telemetry/opentelemetry-operator#3754, anshulc55/Kubernetes_Devops#2, pomerium/pomerium#1690',
    examples: [
      '2021/05/31 12:06:23 [emerg] 1#1: unknown directive "server " in /etc/nginx/conf.d/default.conf:1',
      'nginx: [emerg] "env" directive is not allowed here in /etc/nginx/conf.d/default.conf:1',
      '2023/12/29 01:31:22 [emerg] 1#1: directive "worker_processes" is not terminated by ";" in /etc/nginx/nginx.conf:4',
      'nginx: [emerg] unknown directive "set_escape_uri" in /etc/nginx/proxy.conf:22',
      'error converting YAML to JSON: yaml: line 7: mapping values are not allowed in this context',
      'yaml.scanner.ScannerError: mapping values are not allowed here',
      'err="error loading config from \\"/etc/prometheus/prometheus.yml\\": couldn\'t load configuration"',
    ],
    nearMisses: [
      '2020/04/15 02:38:08 [emerg] 1#1: bind() to 0.0.0.0:80 failed (13: Permission denied)',
      'nginx: [emerg] host not found in upstream "backend" in /etc/nginx/conf.d/default.conf:12',
    ],
  },
  // Ownership checks tools make: git safe.directory, OpenSSH key and config modes, sshd StrictModes.
  {
    id: 'server.git-dubious-ownership',
    family: 'server',
    mechanism: 'strict-ownership',
    needles: ['dubious ownership'],
    patterns: [re("detected dubious ownership in repository at '(?<path>[^']+)'")],
    source:
      'git setup.c ("detected dubious ownership in repository at \'%s\'", since 2.35.2, CVE-2022-24765). Lines (GitHub): richarvey/nginx-php-fpm#290, ' +
      'raydak-labs/configarr#239, casperdcl/git-fame#81, huginn/huginn#3174, woodpecker-ci/plugin-git#63',
    examples: [
      "fatal: detected dubious ownership in repository at '/var/www/html'",
      "Bug: GitError: fatal: detected dubious ownership in repository at '/app/repos/recyclarr-config'",
      "fatal: detected dubious ownership in repository at '/repo'",
      "15:36:47 jobs.1 | fatal: detected dubious ownership in repository at '/app'",
    ],
  },
  {
    id: 'server.ssh-file-modes',
    family: 'server',
    mechanism: 'strict-ownership',
    needles: ['are too open', 'bad owner or permissions', 'bad ownership or modes'],
    patterns: [
      re("Permissions 0?(?<mode>[0-7]{3,4}) for '(?<path>[^']+)' are too open"),
      re('Bad owner or permissions on (?<path>/\\S+)'),
      re('Authentication refused: bad ownership or modes for (?:directory|file) (?<path>/\\S+)'),
    ],
    source:
      'OpenSSH sshkey_perm_ok ("Permissions 0%3.3o for \'%s\' are too open."), readconf.c ("Bad owner or permissions on %s"), auth.c secure_filename ' +
      '("bad ownership or modes for directory %s"; that example is in its format: no real paste was collected). Lines (GitHub): atmoz/sftp#155, ' +
      'kubernetes/git-sync#215, kelseyhightower/kubestack-solo#1, welaika/docker-wordmove#16, squidfunk/mkdocs-material#1678, ansible/awx#13108',
    examples: [
      "Permissions 0644 for '/etc/ssh/ssh_host_ed25519_key' are too open.",
      "Permissions 0440 for '/root/.ssh/id_ed25519' are too open.",
      'Bad owner or permissions on /root/.ssh/config',
      'Failed to connect to the host via ssh: Bad owner or permissions on /etc/crypto-policies/back-ends/openssh.config',
      'Authentication refused: bad ownership or modes for directory /home/git',
    ],
  },
  {
    id: 'server.data-dir-version',
    family: 'server',
    mechanism: 'data-dir-incompatible',
    needles: ['incompatible with server', 'not compatible with this version', 'catalog_version_no', 'featurecompatibilityversion'],
    patterns: [
      re('database files are incompatible with server'),
      re('initialized by PostgreSQL version [\\d.]+, which is not compatible with this version'),
      re('initialized with CATALOG_VERSION_NO \\d+, but the server was compiled with CATALOG_VERSION_NO \\d+'),
      re('UPGRADE PROBLEM: Found an invalid featureCompatibilityVersion document'),
    ],
    source:
      'postgres src/backend/utils/init/miscinit.c ValidatePgVersion(), src/backend/access/transam/xlog.c (CATALOG_VERSION_NO); mongo FCV start-up check. ' +
      'Lines (GitHub): esitarski/CrossMgr#114, PostgresApp/PostgresApp#528, mkevenaar/chocolatey-packages#126',
    examples: [
      '2023-04-07 12:46:52.680 UTC [1] FATAL:  database files are incompatible with server',
      '2023-04-07 12:46:52.680 UTC [1] DETAIL:  The data directory was initialized by PostgreSQL version 11, which is not compatible with this version 15.2 (Debian 15.2-1.pgdg110+1).',
      'DETAIL:  The database cluster was initialized with CATALOG_VERSION_NO 201907221, but the server was compiled with CATALOG_VERSION_NO 201909212.',
      '{"t":{"$date":"2022-04-13T23:07:43.331+02:00"},"s":"F",  "c":"CONTROL",  "id":20573,   "ctx":"initandlisten","msg":"Wrong mongod version","attr":{"error":"UPGRADE PROBLEM: Found an invalid featureCompatibilityVersion document (ERROR: Location4926900: Invalid featureCompatibilityVersion document in admin.system.version: { _id: \\"featureCompatibilityVersion\\", version: \\"5.1\\" }. See https://docs.mon...',
    ],
  },
  {
    id: 'errno.ebusy',
    family: 'errno',
    mechanism: 'file-is-mount',
    needles: errnoNeedles('EBUSY'),
    patterns: [re("(?:cannot (?:move|rename|remove)|can't (?:move|rename|remove)|rename|unlink|couldn't (?:open|rename))[^\\n]*", EBUSY)],
    source:
      'EBUSY texts (upstream.json: glibc "Device or resource busy", musl "Resource busy"); coreutils and busybox mv, busybox sed -i ("can\'t move"), Go os.LinkError, CPython. ' +
      'Lines (GitHub): NetworkConfiguration/openresolv#19, NetworkConfiguration/openresolv#22, devopsgroup-io/vagrant-hostmanager#136, moby/moby#28187, ' +
      'osixia/container-keepalived#5, Tob1as/docker-php#5, kelseyhightower/confd#122, contiv/install#313, elastic/elasticsearch-docker#160',
    examples: [
      "mv: cannot move '/etc/resolv.conf.138474.openresolv' to '/etc/resolv.conf': Device or resource busy",
      "mv: cannot move '/etc/resolv.conf.184.openresolv' to '/etc/resolv.conf': Resource busy",
      "mv: cannot move '/tmp/hosts' to '/etc/hosts': Device or resource busy",
      "mv: cannot move '/etc/hosts' to '/etc/hosts.backup': Device or resource busy",
      "sed: can't move '/container/service/keepalived/assets/keepalived.confHBCjcp' to '/container/service/keepalived/assets/keepalived.conf': Resource busy",
      "sed: can't move '/etc/nginx/http.d/default.confnFPnpp' to '/etc/nginx/http.d/default.conf': Resource busy",
      'ERROR rename /etc/.hosts636310721 /etc/hosts: device or resource busy',
      'Unable to rename file: /tmp/tmpsgmY9l to /etc/hosts: [Errno 16] Device or resource busy',
      'rename("/etc/hosts;5afb0948", "/etc/hosts") = -1 EBUSY (Device or resource busy)',
    ],
  },
  {
    id: 'errno.exdev',
    family: 'errno',
    mechanism: 'cross-device-rename',
    needles: errnoNeedles('EXDEV'),
    patterns: [re(EXDEV)],
    source: 'EXDEV texts (upstream.json). Lines (GitHub): conda/conda#6711, intel/userspace-cni-network-plugin#42, Lunik/tcloud#30, stepchowfun/docuum#109',
    examples: [
      "OSError: [Errno 18] Invalid cross-device link: '/foo' -> '/foo2'",
      '[error] Rename ERROR: rename /var/run/openvswitch/177e14267c70-net1 /var/lib/vhost_sockets/...: invalid cross-device link',
      "Error: EXDEV: cross-device link not permitted, rename '/tmp/webtorrent/.../someTorrent.mp4' -> '/usr/src/app/files//someTorrent.mp4'",
      '[2020-10-10 19:54:51 +00:00 ERROR] Invalid cross-device link (os error 18)',
    ],
  },
  {
    id: 'errno.estale',
    family: 'errno',
    mechanism: 'stale-file-handle',
    needles: errnoNeedles('ESTALE'),
    patterns: [re(ESTALE)],
    source: 'ESTALE texts (upstream.json); the example is in the format of coreutils ls ("cannot access %s: %s"): no real paste was collected',
    examples: ["ls: cannot access '/mnt/share': Stale file handle"],
  },
  {
    id: 'errno.eio',
    family: 'errno',
    generic: true,
    mechanism: 'io-error',
    needles: errnoNeedles('EIO'),
    patterns: [re('(?:read|write|open|fsync|stat)[^\\n]*', EIO)],
    source: 'EIO texts (upstream.json); the example is in the format of Go os.PathError ("write %s: %s"): no real paste was collected',
    examples: ['write /var/lib/etcd/member/wal/0.tmp: input/output error'],
  },
  {
    id: 'errno.etxtbsy',
    family: 'errno',
    mechanism: 'file-is-mount',
    needles: errnoNeedles('ETXTBSY'),
    patterns: [re(ETXTBSY)],
    source:
      'ETXTBSY texts (upstream.json); the example is in the format of coreutils src/copy.c ("cannot create regular file %s"): no real paste was collected',
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
    // find over an optional directory and Grafana's provisioning directories are noise the app survives.
    unless: /exec(?:ve)?[: ]|exec user process|executable file not found|OCI runtime|starting container process|^find: |provisioning files from directory/i,
    source:
      'ENOENT texts (upstream.json); Java NoSuchFileException (OpenJDK UnixException). Lines (GitHub): wowstack/docker-classic-server#8, ' +
      'bmoscon/cryptostore#218; the Go and Python examples are in the format of os.PathError and FileNotFoundError. Near misses: ' +
      'guessi/docker-compose-grafana-influxdb#10, RSS-Bridge/rss-bridge#2732 (both start and run), ericchiang/k8s#74',
    examples: [
      "sed: can't read /opt/wowstack/etc/wowstack-world.conf: No such file or directory",
      'log-config.json: no such file or directory',
      'open /etc/app/config.yaml: no such file or directory',
      "FileNotFoundError: [Errno 2] No such file or directory: '/config/settings.json'",
    ],
    nearMisses: [
      'logger=provisioning.alerting t=2023-03-22T14:30:23.204998472Z level=error msg="can\'t read alerting provisioning files from directory" path=/etc/grafana/provisioning/alerting error="open /etc/grafana/provisioning/alerting: no such file or directory"',
      "find: '/config/': No such file or directory",
      'open /var/run/secrets/kubernetes.io/serviceaccount/namespace: no such file or directory',
    ],
  },
  {
    id: 'runtime.program-missing',
    family: 'runtime',
    mechanism: 'fs-missing-path',
    needles: ['cannot find module', 'unable to access jarfile', "can't open file"],
    patterns: [
      re("Error: Cannot find module '(?<path>/[^']+)'"),
      re('Error: Unable to access jarfile (?<path>\\S+)'),
      re("can't open file '(?<path>/[^']+)': \\[Errno 2\\]"),
    ],
    source:
      'Node lib/internal/modules/cjs/loader.js ("Cannot find module \'%s\'", an absolute entry point), the java launcher ("Unable to access jarfile %s"), ' +
      'CPython ("can\'t open file %R: [Errno %d] %s"); the examples are in their formats: no real paste was collected',
    examples: [
      "Error: Cannot find module '/app/server.js'",
      'Error: Unable to access jarfile /app/app.jar',
      "python: can't open file '/app/main.py': [Errno 2] No such file or directory",
    ],
  },
  {
    id: 'errno.enotdir',
    family: 'errno',
    generic: true,
    mechanism: 'fs-missing-path',
    needles: [...errnoNeedles('ENOTDIR'), ...errnoNeedles('EISDIR')],
    patterns: [re('(?:open|read|stat|mkdir)[^\\n]*(?:', ENOTDIR, '|', EISDIR, ')')],
    unless: /OCI runtime|error mounting|starting container process/i,
    source: 'ENOTDIR and EISDIR texts (upstream.json); the example is in the format of Go os.PathError: no real paste was collected',
    examples: ['open /etc/app/config.yaml: not a directory'],
  },
]);
