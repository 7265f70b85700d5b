// Storage and mandatory access control under a pod: SELinux and AppArmor refusals that Unix permissions
// would allow, volumes mounted noexec, FUSE mounts whose daemon died, corrupted filesystems, the
// largest file a process or a filesystem admits, and SQLite's locks on a network share. Kernel audit lines (avc, apparmor=) reach the reader
// when a container or a Failed event quotes them; an app's bare EACCES stays fs-permission's.
import type { Evidence, MessageData } from '../../types.js';
import { mountOf, pathIn, selinuxNodeOs } from '../context.js';
import { data, mechanisms, mountFact, re, signatures } from '../define.js';
import { errnoNeedles, errnoSource } from '../errno.js';
import type { ReadingContext } from '../types.js';

const ENOTCONN = errnoSource('ENOTCONN');
const EFBIG = errnoSource('EFBIG');
// EUCLEAN is read by its own wording, not through errnoSource: musl has no text for it (errno.ts says so).
const EUCLEAN_TEXT = 'Structure needs cleaning|\\bEUCLEAN\\b|\\[Errno 117\\]';

function osHint(ctx: ReadingContext): Evidence[] {
  const os = selinuxNodeOs(ctx);
  if (!os) return [];
  return [{ source: 'node.status.nodeInfo.osImage', text: `${os} (enforces SELinux by default: a hint, not a proof that it is enforcing here)` }];
}

/** An avc line's fields: the permission, the target (path= or name=), the domains and MCS levels. */
function avc(ctx: ReadingContext): MessageData {
  const l = ctx.line;
  const target = /\bpath="([^"]+)"/.exec(l)?.[1] ?? /\bname="([^"]+)"/.exec(l)?.[1];
  return data({ perm: ctx.groups.perm, target, ttype: ctx.groups.ttype, stype: ctx.groups.stype, slevel: ctx.groups.slevel, tlevel: ctx.groups.tlevel });
}

/** The container's first hostPath mount (or the one an absolute avc path lies on). */
function hostPathMount(ctx: ReadingContext, path: string | undefined) {
  const own = path?.startsWith('/') ? mountOf(ctx, path) : undefined;
  if (own?.kind === 'hostPath') return own;
  for (const m of ctx.container?.volumeMounts ?? []) {
    const got = mountOf(ctx, m.mountPath);
    if (got?.kind === 'hostPath' && got.mount.name === m.name) return got;
  }
  return undefined;
}

/** The runtimes' default AppArmor profiles (containerd CRI, Docker, CRI-O): RuntimeDefault. */
const DEFAULT_PROFILE = /^(?:cri-containerd\.apparmor\.d|docker-default|crio-default)$/;
/** A profile named by a program path that is the runtime itself (its own profile on the node, not the container's). */
const RUNTIME_PROGRAM = /^\/\S*\/(?:dockerd|docker|containerd|runc|crun|crio|conmon)\b/;

/**
 * JVM native-library loaders and the property that moves their extraction directory: netty NativeLibraryLoader,
 * snappy-java SnappyLoader (KEY_SNAPPY_TEMPDIR), sqlite-jdbc's loader, JNA Native.getTempDir. The emptyDir knob below
 * holds because the kubelet mounts a Memory emptyDir with size (and noswap) options only (pkg/volume/emptydir setupTmpfs).
 */
const NATIVE_DIRS: readonly [RegExp, string][] = [
  [/netty/i, '-Dio.netty.native.workdir'],
  [/snappy/i, '-Dorg.xerial.snappy.tempdir'],
  [/sqlite/i, '-Dorg.sqlite.tmpdir'],
  [/\/jna[^/]*$|jna\d/i, '-Djna.tmpdir'],
];

function nativeProperty(path: string | undefined): string {
  for (const [test, property] of NATIVE_DIRS) if (path && test.test(path)) return `${property} (or -Djava.io.tmpdir)`;
  return '-Djava.io.tmpdir';
}

/** The path a line is about: the signature's capture, else the one the line names. */
function pathOf(ctx: ReadingContext): string | undefined {
  return ctx.groups.path ?? pathIn(ctx.line);
}

/** The mount under a path with its volume, as template data; false when the path is on no volume. */
function volumeOf(ctx: ReadingContext, kinds?: ReadonlySet<string>): MessageData | false {
  const path = pathOf(ctx);
  const m = mountOf(ctx, path);
  if (!path || !m?.kind || (kinds && !kinds.has(m.kind) && !(m.backend && kinds.has(m.backend)))) return false;
  const claim = m.volume?.persistentVolumeClaim?.claimName;
  const driver = ctx.snapshot?.claims?.find((c) => c.name === claim)?.volume?.spec as { csi?: { driver?: string } } | undefined;
  return data({
    path,
    volume: m.mount.name,
    volumeKind: m.kind,
    mountPath: m.mount.mountPath,
    claim,
    hostPath: m.volume?.hostPath?.path,
    backend: m.backend,
    driver: m.volume?.csi?.driver ?? driver?.csi?.driver ?? (claim ? `the CSI driver of claim ${claim}` : 'its CSI driver'),
  });
}

const SHARES = new Set(['nfs', 'azureFile', 'cephfs', 'glusterfs']);
const SHARE_DRIVERS = /smb|nfs|azurefile|efs|filestore|cephfs/i;

// SQLite's database on a network filesystem. SQLite locks with POSIX byte-range locks (fcntl F_SETLK on the database
// file, and a -shm file in WAL mode). A CIFS/SMB client forwards byte-range locks to the server unless the share is
// mounted with nobrl, and the server refuses SQLite's pattern (Azure Files: kubernetes/kubernetes#59755, #61767,
// jupyterhub/zero-to-jupyterhub-k8s#827); NFS carries them through its lock service, which sqlite.org's FAQ (q5) and
// WAL documentation call unreliable, and WAL needs shared memory on one host. Drivers and in-tree sources by protocol:
const SMB_DRIVERS = /^(?:file\.csi\.azure\.com|smb\.csi\.k8s\.io)$|\b(?:smb|cifs)\b/i;
const NFS_SHARE_DRIVERS = /^(?:nfs\.csi\.k8s\.io|efs\.csi\.aws\.com|filestore\.csi\.storage\.gke\.io)$|\bnfs\b/i;
const SMB_PROVISIONERS = /^(?:kubernetes\.io\/azure-file|file\.csi\.azure\.com|smb\.csi\.k8s\.io)$/;
/** A database file as a line, a URL or a connection string names it: `/data/app.db`, `sqlite:////data/x.sqlite3`, `Data Source=/d/x.db`. */
const DB_FILE = /(\/[\w.@+/-]*\.(?:sqlite3?|db3?|s3db))/i;

interface Share {
  protocol: 'SMB' | 'NFS';
  /** How the spec names the share: `azureFile`, `nfs`, the CSI driver. */
  source: string;
  /** The PersistentVolume's mount options (else its StorageClass's), when a claim backs the volume. */
  options?: readonly string[];
  storageClass?: string;
  pv?: string;
}

type Obj = { metadata?: { name?: string }; spec?: Record<string, unknown>; [k: string]: unknown } | null | undefined;
const csiOf = (spec: Record<string, unknown> | undefined) => spec?.csi as { driver?: string; volumeAttributes?: Record<string, string> } | undefined;

/** SMB or NFS by a CSI driver (Azure Files serves both: its protocol attribute says which), else undefined. */
function byDriver(driver: string | undefined, attributes?: Record<string, string>): Share['protocol'] | undefined {
  if (!driver) return undefined;
  if (SMB_DRIVERS.test(driver)) return /^nfs$/i.test(attributes?.protocol ?? '') ? 'NFS' : 'SMB';
  return NFS_SHARE_DRIVERS.test(driver) ? 'NFS' : undefined;
}

/** The network filesystem behind a mount, from the pod's volume and, for a claim, its PersistentVolume or StorageClass. */
function shareOf(ctx: ReadingContext, m: NonNullable<ReturnType<typeof mountOf>>): Share | undefined {
  const v = m.volume;
  if (v?.azureFile) return { protocol: 'SMB', source: 'azureFile' };
  if (v?.nfs) return { protocol: 'NFS', source: 'nfs' };
  if (v?.csi) {
    const protocol = byDriver(v.csi.driver, v.csi.volumeAttributes ?? undefined);
    return protocol && { protocol, source: v.csi.driver };
  }
  const claim = v?.persistentVolumeClaim?.claimName;
  const fact = claim ? ctx.snapshot?.claims?.find((c) => c.name === claim) : undefined;
  if (!fact) return undefined;
  const pv = fact.volume as Obj;
  const sc = fact.storageClass as Obj;
  const spec = pv?.spec;
  const options = (spec?.mountOptions as string[] | undefined) ?? (sc?.mountOptions as string[] | undefined);
  const storageClass = sc?.metadata?.name ?? fact.claim?.spec?.storageClassName ?? undefined;
  const base = { ...(options ? { options } : {}), ...(storageClass ? { storageClass } : {}), ...(pv?.metadata?.name ? { pv: pv.metadata.name } : {}) };
  if (spec?.azureFile) return { protocol: 'SMB', source: 'azureFile', ...base };
  if (spec?.nfs) return { protocol: 'NFS', source: 'nfs', ...base };
  const csi = csiOf(spec);
  const fromPv = byDriver(csi?.driver, csi?.volumeAttributes);
  if (fromPv) return { protocol: fromPv, source: csi!.driver!, ...base };
  if (spec) return undefined;
  // Not bound yet or not read: the class's provisioner says what it makes.
  const provisioner = typeof sc?.provisioner === 'string' ? sc.provisioner : undefined;
  const params = sc?.parameters as Record<string, string> | undefined;
  if (provisioner && SMB_PROVISIONERS.test(provisioner))
    return { protocol: /^nfs$/i.test(params?.protocol ?? '') ? 'NFS' : 'SMB', source: provisioner, ...base };
  return provisioner && NFS_SHARE_DRIVERS.test(provisioner) ? { protocol: 'NFS', source: provisioner, ...base } : undefined;
}

/**
 * Where the SQLite database lies: a database file the line, the lines around it or the container's env names;
 * when nothing names one, the container's only writable persistent volume (a database has to live somewhere that lasts).
 */
function databaseMount(ctx: ReadingContext): { path?: string; m: NonNullable<ReturnType<typeof mountOf>> } | undefined {
  const named = [ctx.line, ...ctx.around, ...(ctx.container?.env ?? []).map((e) => e.value ?? '')]
    .map((t) => DB_FILE.exec(t)?.[1]?.replace(/\/{2,}/g, '/'))
    .filter((p): p is string => p !== undefined);
  if (named.length > 0) {
    for (const path of named) {
      const m = mountOf(ctx, path);
      if (m && m.mount.mountPath !== '/') return { path, m };
    }
    return undefined;
  }
  const persistent = (ctx.container?.volumeMounts ?? [])
    .filter((vm) => !vm.readOnly)
    .map((vm) => mountOf(ctx, vm.mountPath))
    .filter((m): m is NonNullable<typeof m> => m?.kind !== undefined && ['persistentVolumeClaim', 'azureFile', 'nfs', 'csi'].includes(m.kind));
  return persistent.length === 1 ? { m: persistent[0]! } : undefined;
}

/** The share the database lies on, as template data; false when it is on none (or the mount keeps byte-range locks local). */
function sqliteShare(ctx: ReadingContext, protocol: Share['protocol']): MessageData | false {
  const at = databaseMount(ctx);
  const share = at && shareOf(ctx, at.m);
  if (!at || share?.protocol !== protocol) return false;
  // nobrl (or NFS's local_lock=all / nolock) keeps locks on this client: then a lock error is a second writer, not the share.
  if (share.options?.some((o) => /^(?:nobrl|nolock|local_lock=(?:all|posix))$/i.test(o.trim()))) return false;
  const claim = at.m.volume?.persistentVolumeClaim?.claimName;
  return data({
    path: at.path ?? `the database under ${at.m.mount.mountPath}`,
    volume: at.m.mount.name,
    mountPath: at.m.mount.mountPath,
    share: share.source,
    claim: claim ?? at.m.mount.name,
    storageClass: share.storageClass ? `StorageClass ${share.storageClass}` : claim ? `the StorageClass of claim ${claim}` : 'a PersistentVolume for the share',
    pvOptions: share.pv ? `PersistentVolume ${share.pv}` : 'the bound PersistentVolume',
    options: share.options ? share.options.join(', ') || 'none' : '',
  });
}

/** The mount of the database and the share's mount options, as evidence. */
function shareFacts(ctx: ReadingContext, d: MessageData): Evidence[] {
  const facts = mountFact(ctx, String(d.mountPath));
  if (d.options) facts.push({ source: `${d.pvOptions} mountOptions`, text: `${d.options} (no nobrl)` });
  return facts;
}

export const MECHANISMS = mechanisms([
  {
    id: 'selinux-denied',
    kind: 'permission',
    resource: "an SELinux label the container's domain may use",
    doc:
      'SELinux refuses an access that the Unix owner and mode allow: the file or volume does not carry a label the container domain (container_t and its MCS ' +
      'categories) may use, or the runtime could not relabel the volume for the container.',
    variants: [
      {
        id: 'relabel',
        when: (ctx) => /relabel|lsetxattr|set file label/i.test(ctx.line) && data({ path: pathOf(ctx) ?? 'the volume' }),
        summary: 'the runtime could not give {{path}} the SELinux label of the container',
        explain:
          'Before the container starts, the runtime relabels its volumes with the label of the pod (recursively, or at mount time with -o context). ' +
          '{{path}} refused the new label: a filesystem without SELinux labels (NFS, FUSE, many CSI shares), or a volume that is read-only, ' +
          'so the container cannot start with that volume.',
        knobs: [
          {
            place: 'cluster',
            path: "the PersistentVolume's mountOptions",
            change: 'mount a filesystem without labels with one context for the whole mount (context="system_u:object_r:container_file_t:s0")',
          },
          {
            place: 'pod',
            path: 'spec.securityContext.seLinuxChangePolicy',
            change:
              'Kubernetes 1.32+: MountOption mounts eligible volumes (CSI drivers with CSIDriver spec.seLinuxMount: true) with -o context instead of ' +
              'relabelling each file; Recursive has the runtime relabel every file',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.seLinuxOptions.type',
            change: 'or, for a trusted system pod only, spc_t (no relabel, no confinement)',
          },
        ],
        facts: (ctx) => osHint(ctx),
      },
      {
        id: 'mcs-level',
        when: (ctx) => {
          const d = avc(ctx);
          return /^(?:container_file_t|svirt_lxc_file_t|svirt_sandbox_file_t)$/.test(String(d.ttype ?? '')) && d.tlevel !== d.slevel && d;
        },
        summary: 'SELinux denies {{perm}} on {{target}}: the file carries the MCS categories of another pod',
        explain:
          'The file is labelled for containers ({{ttype}}) but with the categories {{tlevel}}, and this container runs with {{slevel}}: the runtime gives ' +
          'each pod its own categories and relabels its volumes with them, so a volume shared by pods with different ' +
          'levels is refused to all but the last one.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.seLinuxOptions.level',
            change: 'give every pod that shares the volume the same level (e.g. s0:c123,c456)',
          },
          {
            place: 'pod',
            path: 'spec.securityContext.seLinuxChangePolicy',
            change:
              'Kubernetes 1.32+: Recursive lets pods with different labels (privileged and unprivileged) share a volume on a node; MountOption needs one label',
          },
        ],
        facts: (ctx) => osHint(ctx),
      },
      {
        id: 'host-path',
        when: (ctx) => {
          const d = avc(ctx);
          const m = hostPathMount(ctx, d.target === undefined ? undefined : String(d.target));
          return m !== undefined && { ...d, volume: m.mount.name, mountPath: m.mount.mountPath, hostPath: m.volume?.hostPath?.path ?? m.mount.mountPath };
        },
        summary: 'SELinux denies the container access to hostPath {{hostPath}}',
        explain:
          'The {{kind}} mounts {{hostPath}} of {{node}} (volume "{{volume}}" at {{mountPath}}). The kubelet and the runtime never relabel a hostPath, ' +
          "so its files keep the node's SELinux type ({{ttype}}), which the container domain may not use whatever their owner and mode: the kernel " +
          'refuses {{perm}} and the app sees Permission denied.',
        knobs: [
          {
            place: 'node',
            path: 'chcon -Rt container_file_t {{hostPath}} on {{node}}',
            change: 'label the directory for containers (semanage fcontext to keep it)',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.seLinuxOptions.type',
            change: 'or run a trusted node agent as spc_t, which SELinux does not confine',
          },
          { place: 'pod', path: 'spec.volumes[{{volume}}]', change: 'or keep the data on a volume type the kubelet labels (emptyDir, a claim)' },
        ],
        facts: (ctx, d) => [...mountFact(ctx, String(d.mountPath)), ...osHint(ctx)],
      },
      {
        id: 'label',
        summary: 'SELinux denies the container access that the file permissions allow',
        explain:
          "The kernel's SELinux policy refused the access although the owner and mode allow it: the file or volume is labelled with a type the container " +
          'domain may not use (a node directory, a volume the runtime did not relabel), or with the categories of another pod.',
        knobs: [
          {
            place: 'node',
            path: 'ausearch -m avc -ts recent on {{node}}',
            change: 'read the denial: the type (tcontext) the file has and the domain (scontext) the container runs in',
          },
          {
            place: 'pod',
            path: 'spec.securityContext.seLinuxOptions',
            change: 'give the pods that share a volume one level, or label the files container_file_t on the node',
          },
        ],
        facts: (ctx) => osHint(ctx),
      },
    ],
  },
  {
    id: 'apparmor-denied',
    kind: 'permission',
    resource: 'an operation the AppArmor profile of the container allows',
    doc:
      'AppArmor refuses an operation (a mount, a write under /proc or /sys, an exec, a file path) because the profile the process runs under does not allow ' +
      "it, or the runtime cannot put the container under the profile the pod asks for. The profile is the runtime's " +
      "default, a Localhost one, or the node's own.",
    variants: [
      {
        id: 'apply-failed',
        when: (ctx) => /failed to apply profile/i.test(ctx.line),
        summary: 'the runtime could not apply the AppArmor profile of the {{kind}}',
        explain:
          'The runtime writes the profile name to /proc/self/attr before it starts the process, and the kernel refused ' +
          'it: the profile is not loaded on {{node}} ' +
          '(a Localhost profile never copied there), AppArmor is not enabled in its kernel, or the runtime itself runs confined.',
        knobs: [
          {
            place: 'node',
            path: 'apparmor_parser -r /etc/apparmor.d/<profile> on {{node}}',
            change: 'load the profile the pod names (aa-status lists the loaded ones)',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.appArmorProfile',
            change: 'or ask for RuntimeDefault (GA in 1.30; older clusters: annotation container.apparmor.security.beta.kubernetes.io/{{container}})',
          },
        ],
      },
      {
        id: 'runtime-itself',
        when: (ctx) => RUNTIME_PROGRAM.test(ctx.groups.profile ?? '') && data({ profile: ctx.groups.profile, operation: ctx.groups.operation }),
        summary: 'AppArmor confines the runtime {{profile}}, which may not set the container up',
        explain:
          'The profile that refused {{operation}} is the one of the runtime binary {{profile}} on {{node}}, not of the container: a profile for the runtime ' +
          'installed on the node (or a distribution update) keeps it from mounting or switching the container to its own profile.',
        knobs: [
          {
            place: 'node',
            path: 'the AppArmor profile {{profile}} on {{node}}',
            change: 'allow the operation, or put it in complain mode (aa-complain) and reload',
          },
          { place: 'runtime', path: "the runtime's package on {{node}}", change: 'reinstall the version whose profile matches the runtime' },
        ],
      },
      {
        id: 'runtime-default',
        when: (ctx) =>
          DEFAULT_PROFILE.test(ctx.groups.profile ?? '') && data({ profile: ctx.groups.profile, operation: ctx.groups.operation, target: targetOf(ctx) }),
        summary: "the runtime's default AppArmor profile denies {{operation}} on {{target}}",
        explain:
          'The {{kind}} runs under {{profile}}, the default profile the runtime applies (RuntimeDefault), and it denies {{operation}} on {{target}}: ' +
          'the default refuses mount, writes to most of /proc and /sys, and access to kernel interfaces, whatever capabilities the container has.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.appArmorProfile',
            change:
              'type Localhost with a profile that allows it (loaded on every node), or Unconfined for a trusted agent; before 1.30 the annotation ' +
              'container.apparmor.security.beta.kubernetes.io/{{container}}',
          },
          {
            place: 'app',
            path: "the app's start-up",
            change: 'or avoid the operation in the container (mounts belong to volumes, kernel settings to the node)',
          },
        ],
      },
      {
        id: 'localhost',
        when: (ctx) => ctx.groups.profile !== undefined && data({ profile: ctx.groups.profile, operation: ctx.groups.operation, target: targetOf(ctx) }),
        summary: 'AppArmor profile {{profile}} denies {{operation}} on {{target}}',
        explain:
          'The process runs under the AppArmor profile {{profile}}, loaded on {{node}}, which has no rule for {{operation}} on {{target}}: ' +
          'AppArmor decides by path, so a profile written for other paths or a new version of the app refuses it whatever the file permissions.',
        knobs: [
          {
            place: 'node',
            path: 'the profile {{profile}} on {{node}}',
            change: 'add the rule (aa-logprof proposes it from the denials) and reload it with apparmor_parser -r on every node',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.appArmorProfile',
            change: "or point the container at another profile (RuntimeDefault is the runtime's)",
          },
        ],
      },
      {
        id: 'profile',
        summary: 'AppArmor denies an operation of the {{kind}}',
        explain:
          'The AppArmor profile the process runs under refused the operation: the kernel logs apparmor="DENIED" with the profile, the operation and the path.',
        knobs: [
          { place: 'node', path: 'journalctl -k | grep apparmor= on {{node}}', change: 'read the profile, the operation and the path it denied' },
          { place: 'pod', path: '{{containerPath}}.securityContext.appArmorProfile', change: 'run the container under a profile that allows it' },
        ],
      },
    ],
  },
  {
    id: 'noexec-mount',
    kind: 'setting',
    resource: 'an executable mapping of a file',
    doc:
      'The dynamic loader cannot map a shared object executable (mmap with PROT_EXEC fails with EPERM): the directory lies on a filesystem mounted noexec. ' +
      'JVM libraries (netty, snappy, sqlite-jdbc, JNA) and PyInstaller bundles extract their native code to a temporary directory first.',
    variants: [
      {
        id: 'jvm-on-volume',
        when: (ctx) => {
          const d = volumeOf(ctx);
          return /UnsatisfiedLinkError/.test(ctx.line) && d !== false && { ...d, property: nativeProperty(String(d.path)) };
        },
        summary: 'the JVM cannot load {{path}}: volume {{volume}} at {{mountPath}} is mounted noexec',
        explain:
          'A Java library extracts its native code to {{mountPath}}, where the {{volumeKind}} volume "{{volume}}" is ' +
          'mounted, and the kernel refuses to map it ' +
          "executable: the volume's filesystem is noexec. An emptyDir lives in the kubelet's directory on {{node}} " +
          '(/var/lib/kubelet), which hardened nodes mount ' +
          "noexec; a hostPath keeps the node's mount options.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env JAVA_TOOL_OPTIONS',
            change: 'set {{property}} to a directory on an exec filesystem (an emptyDir with medium: Memory is a tmpfs the kubelet mounts without noexec)',
          },
          {
            place: 'node',
            path: 'the mount options of /var/lib/kubelet on {{node}}',
            change: 'or drop noexec there (it applies to every emptyDir of the node)',
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'on-volume',
        when: (ctx) => volumeOf(ctx),
        summary: 'cannot load {{path}}: volume {{volume}} at {{mountPath}} is mounted noexec',
        explain:
          '{{path}} lies on the {{volumeKind}} volume "{{volume}}" mounted at {{mountPath}}, and the kernel refuses to map it executable: the filesystem is ' +
          "noexec. An emptyDir lives in the kubelet's directory on {{node}} (/var/lib/kubelet), which hardened nodes " +
          "mount noexec; a hostPath keeps the node's options.",
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes[{{volume}}]',
            change: 'use emptyDir medium: Memory (a tmpfs the kubelet mounts without noexec) for code that must run from there',
          },
          { place: 'app', path: "the app's temporary directory (TMPDIR)", change: 'or extract native code to a directory on an exec filesystem' },
          { place: 'node', path: 'the mount options of /var/lib/kubelet on {{node}}', change: 'or drop noexec there' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'jvm',
        when: (ctx) => /UnsatisfiedLinkError/.test(ctx.line) && data({ path: pathOf(ctx), property: nativeProperty(pathOf(ctx)) }),
        summary: 'the JVM cannot map the native library it extracted to {{path}}',
        explain:
          "A Java library extracted its native code to the JVM's temporary directory and the kernel refused to map it executable: that directory is on a " +
          'filesystem mounted noexec, or an LSM (SELinux execmod, fapolicyd) forbids executing files there.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env JAVA_TOOL_OPTIONS', change: 'set {{property}} to a directory on an exec filesystem' },
          { place: 'pod', path: 'spec.volumes + {{containerPath}}.volumeMounts', change: 'e.g. an emptyDir with medium: Memory mounted there' },
        ],
      },
      {
        id: 'mount',
        summary: 'a shared object cannot be mapped executable: its filesystem is noexec',
        explain:
          'The loader could not map {{path}} executable: the filesystem under it is mounted noexec (a volume on a ' +
          'hardened node directory, a tmpfs mounted with ' +
          'noexec), or an LSM forbids executing files there.',
        knobs: [
          { place: 'app', path: "the app's temporary directory (TMPDIR, java.io.tmpdir)", change: 'extract native code to a directory on an exec filesystem' },
          { place: 'node', path: 'mount | grep noexec on {{node}}', change: 'find the noexec mount under the directory' },
        ],
      },
    ],
  },
  {
    id: 'fuse-disconnected',
    kind: 'dependency',
    resource: 'a live FUSE daemon behind a mount',
    doc:
      'ENOTCONN on a path: the userspace daemon behind a FUSE mount (s3fs, gcsfuse, mountpoint-s3, ceph-fuse, rclone, sshfs, a CSI FUSE driver) exited, ' +
      'and the kernel answers every access to the dead mount with "Transport endpoint is not connected" until it is unmounted and mounted again.',
    variants: [
      {
        id: 'csi',
        when: (ctx) => volumeOf(ctx, new Set(['csi', 'persistentVolumeClaim', 'ephemeral'])),
        summary: '{{path}} is a dead FUSE mount: the daemon of volume {{volume}} exited',
        explain:
          '{{path}} lies on volume "{{volume}}" ({{volumeKind}}) at {{mountPath}}, served by a FUSE daemon of ' +
          '{{driver}}. The daemon exited (killed for memory, ' +
          "crashed, or restarted with the driver's node pod on {{node}}), and a FUSE mount cannot be reattached to a new daemon: the pod keeps the dead mount.",
        knobs: [
          { place: 'cluster', path: 'the node pod of {{driver}} on {{node}}', change: 'read why its FUSE daemon exited (restarts, OOMKilled); give it memory' },
          { place: 'pod', path: 'the pod', change: 'delete it so the kubelet mounts the volume again with a live daemon' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'host-path',
        when: (ctx) => volumeOf(ctx, new Set(['hostPath'])),
        summary: '{{path}} is a dead FUSE mount under hostPath {{hostPath}}',
        explain:
          '{{path}} lies under hostPath {{hostPath}} of {{node}}, where a FUSE daemon on the node (or in another pod) ' +
          'mounts a filesystem. That daemon exited or ' +
          'remounted: the container keeps the mount it saw at start, which is dead, unless the mount propagates new mounts from the host.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts[{{volume}}].mountPropagation',
            change: "HostToContainer, so a remount on the node reaches the container (the daemon's own pod needs Bidirectional and privileged)",
          },
          { place: 'node', path: 'the FUSE daemon on {{node}}', change: 'restart it and unmount the dead mount (fusermount -uz)' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'in-container',
        summary: 'a FUSE mount in the {{kind}} lost its daemon',
        explain:
          'The path is a FUSE mount whose daemon exited: a daemon the container runs itself (s3fs or gcsfuse started by the entrypoint, killed for memory or ' +
          'crashed) or a sidecar that mounts for it. Every access fails until the mount is made again, usually by restarting the pod.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'give the FUSE daemon room (its cache grows with the files it serves)' },
          { place: 'pod', path: 'a CSI driver for the store', change: 'or mount the bucket through its CSI driver instead of a daemon in the app container' },
        ],
      },
    ],
  },
  {
    id: 'fs-corrupted',
    kind: 'dependency',
    resource: 'a consistent filesystem on the volume',
    doc:
      'The kernel found the filesystem under the path inconsistent (EUCLEAN "Structure needs cleaning", EXT4-fs error, XFS metadata corruption) and refuses ' +
      'the access, or remounts it read-only. Only a check and repair of the device (fsck, xfs_repair) on its node brings it back.',
    variants: [
      {
        id: 'device',
        when: (ctx) => ctx.groups.device !== undefined && data({ device: ctx.groups.device }),
        summary: 'the kernel reports corruption on device {{device}}',
        explain:
          'The kernel found the filesystem on {{device}} inconsistent (its metadata fails its checks): writes there fail, and ext4 remounts it read-only. ' +
          'A volume detached without a clean unmount, a snapshot taken without freezing the filesystem, or two nodes writing one disk corrupt it.',
        knobs: [
          { place: 'node', path: 'lsblk / findmnt on {{node}}', change: 'find which PersistentVolume {{device}} is' },
          {
            place: 'cluster',
            path: 'the volume on {{device}}',
            change: 'scale the workload to 0, then run fsck.ext4 -f or xfs_repair on the unmounted device; restore from a backup if it cannot be repaired',
          },
        ],
      },
      {
        id: 'volume',
        when: (ctx) => volumeOf(ctx),
        summary: 'the filesystem of volume {{volume}} at {{mountPath}} is corrupted',
        explain:
          '{{path}} lies on the {{volumeKind}} volume "{{volume}}" at {{mountPath}}, whose filesystem the kernel finds ' +
          'inconsistent (Structure needs cleaning): ' +
          'it refuses the access until the filesystem is checked and repaired.',
        knobs: [
          {
            place: 'cluster',
            path: 'the device of volume {{volume}}',
            change: 'scale the workload to 0, run fsck.ext4 -f or xfs_repair on the unmounted device on its node, then start it again',
          },
          { place: 'cluster', path: "the volume's storage backend", change: 'check it for detaches without unmount or snapshots taken without fsfreeze' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'filesystem',
        summary: 'the filesystem under {{path}} is corrupted',
        explain: 'The kernel finds the filesystem under {{path}} inconsistent and refuses the access (EUCLEAN) until it is checked and repaired.',
        knobs: [
          { place: 'node', path: 'dmesg on {{node}}', change: 'find the device with EXT4-fs or XFS errors' },
          { place: 'cluster', path: 'the volume', change: 'repair it unmounted (fsck.ext4 -f, xfs_repair) or restore it from a backup' },
        ],
      },
    ],
  },
  {
    id: 'file-size-limit',
    kind: 'resource',
    resource: 'the largest file the process may write',
    doc:
      "A write fails with EFBIG (File too large): the file would pass the process's RLIMIT_FSIZE (ulimit -f, from the runtime or the entrypoint) or " +
      "the filesystem's largest file (FAT's 4 GiB, a share's or an object store's cap).",
    variants: [
      {
        id: 'share',
        when: (ctx) => {
          const d = volumeOf(ctx);
          return d !== false && (SHARES.has(String(d.volumeKind)) || d.backend === 'nfs' || SHARE_DRIVERS.test(String(d.driver))) && d;
        },
        summary: '{{path}} outgrows what the share behind volume {{volume}} allows in one file',
        explain:
          '{{path}} lies on the {{volumeKind}} volume "{{volume}}" at {{mountPath}}: a network share whose server sets ' +
          'the largest file, and refuses a write past it.',
        knobs: [
          { place: 'cluster', path: "the share's server or storage class", change: 'raise its file size limit, or keep large files on a block volume' },
          { place: 'app', path: "the app's file rotation", change: 'or split the output into smaller files' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'volume',
        when: (ctx) => volumeOf(ctx),
        summary: '{{path}} outgrows the file size limit on volume {{volume}}',
        explain:
          '{{path}} lies on volume "{{volume}}" ({{volumeKind}}) at {{mountPath}}. The write passes the process\'s RLIMIT_FSIZE or the largest file that ' +
          "volume's filesystem holds (FAT/exFAT images, FUSE and object stores have small caps).",
        knobs: [
          {
            place: 'runtime',
            path: "the runtime's fsize rlimit on {{node}}",
            change: 'check ulimit -f in the container; containerd base_runtime_spec rlimits or CRI-O default_ulimits set it',
          },
          { place: 'cluster', path: 'the filesystem of volume {{volume}}', change: 'format it with ext4 or XFS for files this large' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'rlimit',
        summary: 'a write passes the largest file size the process may write',
        explain:
          "The write would make the file larger than the process's RLIMIT_FSIZE (a ulimit -f in the entrypoint, or the runtime's default rlimits) or than " +
          'the filesystem holds.',
        knobs: [
          { place: 'app', path: "the entrypoint's ulimit -f", change: 'raise or drop it (ulimit -f unlimited)' },
          { place: 'runtime', path: "the runtime's fsize rlimit on {{node}}", change: 'containerd base_runtime_spec rlimits or CRI-O default_ulimits' },
        ],
      },
    ],
  },
  {
    id: 'sqlite-locking',
    kind: 'setting',
    resource: "SQLite's file locks on its database (POSIX byte-range locks)",
    doc:
      'SQLite takes POSIX byte-range locks on its database file (and a shared-memory file in WAL mode); one it cannot take is SQLITE_BUSY ' +
      '("database is locked"), one the filesystem mishandles is SQLITE_IOERR ("disk I/O error") or SQLITE_PROTOCOL. On an SMB/CIFS share ' +
      '(Azure Files) the client sends byte-range locks to the server unless the share is mounted with nobrl; NFS locks depend on its lock service ' +
      'and WAL does not work there at all. On a local volume the lock is held by another connection, process or pod.',
    variants: [
      {
        id: 'smb-share',
        when: (ctx) => sqliteShare(ctx, 'SMB'),
        summary: 'SQLite cannot lock its database on the SMB share of volume {{volume}}: byte-range locks without the nobrl mount option',
        explain:
          'The database ({{path}}) lies on volume "{{volume}}" at {{mountPath}}, an SMB/CIFS share ({{share}}). SQLite locks the file with POSIX ' +
          'byte-range locks; the CIFS client sends them to the file server, which does not grant them the way SQLite needs, so every write finds the ' +
          'database locked (or fails with a disk I/O error). Mounted with nobrl, the client keeps byte-range locks local and SQLite works, ' +
          'with one pod writing.',
        knobs: [
          {
            place: 'cluster',
            path: 'mountOptions of {{storageClass}} (and of {{pvOptions}})',
            change:
              'add nobrl (the mount options of a provisioned PersistentVolume are copied from its class at creation: edit the PV too, then restart ' +
              'the pod so the share is mounted again)',
          },
          {
            place: 'cluster',
            path: 'the volume of claim {{claim}}',
            change: 'or keep the database on a disk-backed volume (Azure Disk, ReadWriteOnce), where locks are local',
          },
        ],
        facts: shareFacts,
      },
      {
        id: 'nfs',
        when: (ctx) => sqliteShare(ctx, 'NFS'),
        summary: 'SQLite cannot lock its database reliably on the NFS volume {{volume}}',
        explain:
          'The database ({{path}}) lies on volume "{{volume}}" at {{mountPath}}, an NFS export ({{share}}). NFS carries POSIX byte-range locks ' +
          "through its lock service (NLM for NFSv3, the protocol's own state for v4), which SQLite's documentation calls unreliable; WAL mode needs " +
          'shared memory on one host and does not work over a network filesystem at all.',
        knobs: [
          {
            place: 'cluster',
            path: 'the volume of claim {{claim}}',
            change: 'keep the database on a block volume (ReadWriteOnce), where locks are local',
          },
          {
            place: 'app',
            path: "the database's journal_mode",
            change: 'or, if it must stay on NFS: one writer, journal_mode=DELETE rather than WAL, and an NFSv4 mount with working locks',
          },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.mountPath)),
      },
      {
        id: 'io-error',
        when: (ctx) => /disk I\/O error|SQLITE_IOERR/i.test(ctx.line),
        summary: 'SQLite got an I/O error from the filesystem of its database',
        explain:
          'SQLITE_IOERR ("disk I/O error"): a read, write, fsync or lock call on the database failed in the filesystem: a full or failing disk, ' +
          'a volume gone read-only, or a network filesystem that refuses the lock.',
        knobs: [
          { place: 'node', path: 'the kernel log of {{node}}', change: 'look for I/O errors of the volume (dmesg) and check its free space' },
          { place: 'cluster', path: "the database's volume", change: 'keep SQLite on a local or block volume, never on a network share' },
        ],
      },
      {
        id: 'concurrency',
        summary: 'another connection holds the SQLite database lock',
        explain:
          'SQLite allows one writer at a time, and nothing in the pod puts the database on a network filesystem: another connection, process or pod ' +
          '(a second replica, or the old pod of a rolling update on the same volume) held the lock longer than this connection waits for it.',
        knobs: [
          {
            place: 'app',
            path: "the SQLite connection's busy timeout",
            change: 'wait for the lock (PRAGMA busy_timeout = 5000, or the driver option) and keep write transactions short',
          },
          {
            place: 'pod',
            path: "the workload's replicas and update strategy",
            change: 'one writer: replicas 1 and strategy Recreate, so the old pod closes the database before the new one opens it',
          },
        ],
      },
    ],
  },
]);

/** The object an AppArmor denial names (name=, or the target of a profile change). */
function targetOf(ctx: ReadingContext): string | undefined {
  return /\bname="([^"]+)"/.exec(ctx.line)?.[1] ?? /\btarget="([^"]+)"/.exec(ctx.line)?.[1] ?? 'its target';
}

// Signatures. Kernel lines are matched on their fixed wording (security/selinux/avc.c "avc:  %s", security/apparmor/lib.c
// apparmor="%s", fs/ext4/super.c, fs/xfs/xfs_message.c); the examples are lines as users pasted them in the reports each source names.
export const SIGNATURES = signatures([
  {
    id: 'runtime.selinux-avc-denied',
    family: 'runtime',
    mechanism: 'selinux-denied',
    needles: ['avc:'],
    patterns: [
      re(
        'avc:\\s+denied\\s+\\{ (?<perm>[\\w ]+?) \\}[^\\n]*?scontext=\\w+:\\w+:(?<stype>(?:container|svirt_lxc_net|svirt)\\w*_t):(?<slevel>\\S+)\\s+',
        'tcontext=\\w+:\\w+:(?<ttype>\\w+):(?<tlevel>\\S+)',
      ),
    ],
    // permissive=1: SELinux only logged it and allowed the access; a denial of another domain (init_t) is the node's.
    unless: /permissive=1/,
    source:
      'security/selinux/avc.c (avc_audit_pre_callback: "avc:  %s  {", scontext=/tcontext=, permissive=). Lines (GitHub): cyberFund/cybernode-archive#90, ' +
      'coreos/bugs#1757, containers/container-selinux#169; near misses containers/container-selinux#73 (init_t), ComplianceAsCode/content#1600 (permissive=1)',
    examples: [
      'type=AVC msg=audit(1503978775.261:360): avc:  denied  { write } for  pid=4546 comm="touch" name="xxx" dev="sdb5" ino=6947856 ' +
        'scontext=system_u:system_r:container_t:s0:c159,c177 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=dir permissive=0',
      'Jan 10 15:51:17 alien3 audit[20404]: AVC avc:  denied  { read } for  pid=20404 comm="nslookup" name="etc-hosts" dev="sda9" ino=1062417 ' +
        'scontext=system_u:system_r:svirt_lxc_net_t:s0:c15,c665 tcontext=system_u:object_r:svirt_lxc_file_t:s0:c354,c771 tclass=file permissive=0',
      'type=AVC msg=audit(1644242078.475:706): avc:  denied  { read } for  pid=3831 comm="date" path="/lib/ld-musl-x86_64.so.1" dev="vda1" ino=265972 ' +
        'scontext=system_u:system_r:container_t:s0:c196,c287 tcontext=unconfined_u:object_r:var_lib_t:s0 tclass=file permissive=0',
    ],
    nearMisses: [
      'type=AVC msg=audit(1481107511.432:1251): avc:  denied  { write } for  pid=13628 comm="xsltproc" name="output-docker" dev="sda1" ino=1972406 ' +
        'scontext=system_u:system_r:container_t:s0:c354,c369 tcontext=system_u:object_r:user_home_t:s0 tclass=dir permissive=1',
      'type=AVC msg=audit(1562587793.241:215): avc:  denied  { read } for  pid=8208 comm="systemd-user-ru" name="libpod" dev="tmpfs" ino=73106 ' +
        'scontext=system_u:system_r:init_t:s0 tcontext=unconfined_u:object_r:container_runtime_tmpfs_t:s0 tclass=dir permissive=0',
    ],
  },
  {
    id: 'runtime.selinux-relabel',
    family: 'runtime',
    mechanism: 'selinux-denied',
    needles: ['relabel', 'lsetxattr', 'set file label'],
    patterns: [
      re('SELinux relabeling of (?<path>/\\S+) is not allowed'),
      re('relabel(?: failed)? \\\\?"(?<path>/[^"\\\\]+)\\\\?"[^\\n]*?(?:operation not supported|operation not permitted|read-only file system)'),
      re('lsetxattr\\(label=[^)]*\\) (?<path>/[^\\s:]+): '),
      re('failed to set file label on (?<path>/[^\\s:]+): '),
    ],
    source:
      'opencontainers/go-selinux label (Relabel: "SELinux relabeling of %s is not allowed"; "relabel %q with %q failed"), containerd/CRI-O OCI options, ' +
      'podman. Lines (GitHub): moby/moby#31255, warm-metal/container-image-csi-driver#145, podman-container-tools/podman#2034, ' +
      'podman-container-tools/podman#27046, trajano/docker-volume-plugins#33',
    examples: [
      'docker: Error response from daemon: SELinux relabeling of /var/lib/docker/volumes/footest/_data is not allowed: "operation not supported".',
      'spec: failed to apply OCI options: relabel "/var/lib/kubelet/pods/ee74a41d-f2b5-4ac3-9722-80454387d5c9/volume-subpaths/source/nginx/18" with ' +
        '"system_u:object_r:data_t:s0:c246,c908" failed: lsetxattr ' +
        '/var/lib/kubelet/pods/ee74a41d-f2b5-4ac3-9722-80454387d5c9/volume-subpaths/source/nginx/18/p: ' +
        'read-only file system',
      'relabel failed "/run/netns": operation not supported',
      'lsetxattr(label=system_u:object_r:container_file_t:s0) /dir: operation not permitted',
      'docker: Error response from daemon: failed to set file label on ' +
        '/var/lib/docker/plugins/e3534cc8a654f232b07bd53094198ccd9b8039c17fc14964f2078d3e601a6c15/' +
        'propagated-mount/6bfc1351bcbc76e90518cb94a70fad08a5b3a9f5a477a0a2eca86696e2ace1ce: operation not supported.',
    ],
  },
  {
    id: 'runtime.apparmor-denied',
    family: 'runtime',
    mechanism: 'apparmor-denied',
    needles: ['apparmor="denied"'],
    patterns: [re('apparmor="DENIED" operation="(?<operation>[\\w_]+)"[^\\n]*?profile="(?<profile>[^"]+)"')],
    // containerd's and Docker's default profiles allow ptrace among their own processes: `ps` in a container logs this and carries on.
    unless: /operation="ptrace"[^\n]*peer="(?:cri-containerd\.apparmor\.d|docker-default|crio-default)"/,
    source:
      'security/apparmor/lib.c and audit.c (apparmor="DENIED" operation= profile= name=). Lines (GitHub): tor2web/Tor2web#163, docker/for-linux#1129, ' +
      'moby/moby#16911; near miss canonical/microk8s#538 (the paste wraps the profile name; joined here)',
    examples: [
      '/var/log/kern.log:Nov 12 10:12:46 torritus kernel: [60510.393391] type=1400 audit(1415779966.460:83): apparmor="DENIED" operation="exec" ' +
        'profile="usr.bin.tor2web" name="/bin/dash" pid=3452 comm="python" requested_mask="x" denied_mask="x" fsuid=0 ouid=0',
      '[65608.775072] audit: type=1400 audit(1602564380.386:31): apparmor="DENIED" operation="change_onexec" profile="/usr/bin/dockerd" pid=19306 ' +
        'comm="runc:[2:INIT]" target="docker-default"',
      'type=AVC msg=audit(1444521663.545:61650): apparmor="DENIED" operation="mount" info="failed srcname match" error=-13 profile="/usr/bin/docker" ' +
        'name="/.pivot_root465400889/" pid=1214931 comm="exe" flags="rw, rprivate"',
    ],
    nearMisses: [
      'audit: type=1400 audit(1562591111.463:2257): apparmor="DENIED" operation="ptrace" profile="cri-containerd.apparmor.d" pid=8029 comm="nginx-ingress-c" ' +
        'requested_mask="trace" denied_mask="trace" peer="cri-containerd.apparmor.d"',
    ],
  },
  {
    id: 'runtime.apparmor-apply-failed',
    family: 'runtime',
    mechanism: 'apparmor-denied',
    needles: ['apparmor failed to apply profile'],
    patterns: [re('apparmor failed to apply profile: ')],
    source:
      'opencontainers/runc libcontainer/apparmor ("apparmor failed to apply profile: %w"). Lines (GitHub): kubernetes/minikube#15919, docker/for-linux#1199, ' +
      'docker/for-linux#1129',
    examples: [
      'apparmor failed to apply profile: write /proc/self/attr/apparmor/exec: no such file or directory: unknown.',
      'apparmor failed to apply profile: write /proc/self/attr/exec: invalid argument: unknown.',
      'docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container process caused "process_linux.go:449: ' +
        'container init caused \\"apply apparmor profile: apparmor failed to apply profile: write /proc/self/attr/exec: permission denied\\"": unknown.',
    ],
  },
  {
    id: 'runtime.noexec-shared-object',
    family: 'runtime',
    mechanism: 'noexec-mount',
    needles: ['failed to map segment from shared object'],
    patterns: [re('(?<path>/[^\\s:\'"]+): failed to map segment from shared object'), re('failed to map segment from shared object')],
    // The same loader text with ENOMEM is an address-space or memory limit, not a mount option.
    unless: /failed to map segment from shared object:? cannot allocate memory/i,
    source:
      'glibc elf/dl-map-segments.h ("failed to map segment from shared object", EPERM from mmap on a noexec mount). Lines (GitHub): xerial/sqlite-jdbc#571, ' +
      'lavalink-devs/Lavalink#222, cappuccino/cappuccino#1512, dsuch/pymqi#226, mitmproxy/mitmproxy#8211, marcominetti/node-memwatch#11',
    examples: [
      'java.lang.UnsatisfiedLinkError: /tmp/sqlite-3.32.3.2-9c96fb8b-8402-43e1-bfd9-9974fbd99a84-libsqlitejdbc.so: ' +
        '/tmp/sqlite-3.32.3.2-9c96fb8b-8402-43e1-bfd9-9974fbd99a84-libsqlitejdbc.so: failed to map segment from shared object: Operation not permitted',
      'java.lang.RuntimeException: java.lang.UnsatisfiedLinkError: /tmp/lava-jni-natives/1568318308672/libconnector.so: ' +
        '/tmp/lava-jni-natives/1568318308672/libconnector.so: failed to map segment from shared object: Operation not permitted',
      'Exception in thread "main" java.lang.UnsatisfiedLinkError: /tmp/jna868211880998617115.tmp: /tmp/jna868211880998617115.tmp: ' +
        'failed to map segment from shared object: Operation not permitted',
      'ImportError: /home/mqm/.python-eggs/pymqi-1.11.1-py2.7-linux-x86_64.egg-tmp/pymqi/pymqe.so: failed to map ' +
        'segment from shared object: Operation not permitted',
      "[PYI-26028:ERROR] Failed to load Python shared library '/tmp/_MEIqeRUFt/libpython3.14.so.1.0': /tmp/_MEIqeRUFt/libpython3.14.so.1.0: " +
        'failed to map segment from shared object',
      'Error: /home/ubuntu/src/app/node_modules/memwatch-next/build/Release/memwatch.node: failed to map segment from shared object: Operation not permitted',
    ],
  },
  {
    id: 'errno.enotconn-path',
    family: 'errno',
    mechanism: 'fuse-disconnected',
    needles: errnoNeedles('ENOTCONN'),
    // Only with a path: a filesystem operation on a mount. A socket's ENOTCONN (shutdown, getpeername) names none and stays unread.
    patterns: [re('(?<path>/[^\\s:\'"‘’]+)[\'"‘’]?: ', ENOTCONN), re(ENOTCONN, ': [\'"](?<path>/[^\'"]+)[\'"]')],
    source:
      'ENOTCONN texts (upstream.json: glibc "Transport endpoint is not connected", musl "Socket not connected"); FUSE (fs/fuse/dev.c: ENOTCONN once the ' +
      'daemon is gone). Lines (GitHub): GoogleCloudPlatform/gcs-fuse-csi-driver#50, s3fs-fuse/s3fs-fuse#373, s3fs-fuse/s3fs-fuse#2176, kadalu/kadalu#1089, ' +
      'ceph/ceph-csi#2634, kublr/app-gluster#1, harababurel/gcsf#67; near misses FreeOpcUa/python-opcua#739, shadowsocks/shadowsocks#504 (socket shutdown)',
    examples: [
      "OSError: [Errno 107] Transport endpoint is not connected: '/opt/airflow/logbucket/dag_id=xxx/run_id=scheduled__2023-07-31T00:00:00+00:00/" +
        'task_id=begin_drop_day_driving_table\'"',
      'df: ‘/backup/tapes’: Transport endpoint is not connected',
      'May 29 09:16:58 prod-main-zemtu s3fs[2017306]: s3fs: unable to access MOUNTPOINT /var/www/zemtu/public/media: Transport endpoint is not connected',
      'df: ‘/mnt/gv1’: Transport endpoint is not connected',
      "stat: cannot statx '/var/lib/kubelet/pods/656f7d40-7c02-4790-bf81-eb7c1d753fd3/volumes/kubernetes.io~csi/" +
        "pvc-d89978df-6549-4fb0-a72b-0b610c1a8e0c/mount': " +
        'Transport endpoint is not connected',
      'ERROR gcsf > Could not mount to /root/mediaserver/drive: Transport endpoint is not connected (os error 107)',
    ],
    nearMisses: ['OSError: [Errno 107] Transport endpoint is not connected', 'error: [Errno 107] Transport endpoint is not connected'],
  },
  {
    id: 'errno.euclean',
    family: 'errno',
    mechanism: 'fs-corrupted',
    needles: ['structure needs cleaning', 'euclean', '[errno 117]'],
    patterns: [re(`(?:${EUCLEAN_TEXT})`)],
    source:
      'EUCLEAN texts of glibc and Go (upstream.json; musl has none), as ext4 and XFS return it for corrupted metadata. Lines (GitHub): ' +
      'Azure/kubernetes-volume-drivers#108, longhorn/longhorn#2330',
    examples: [
      "mkdir: cannot create directory 'test': Structure needs cleaning",
      '/bin/sh: 1: cannot create /mnt/localdisk/outfile: Structure needs cleaning',
      'Output: mount: /var/lib/kubelet/pods/fc0adaba-e995-42dd-8b6f-c7a9b67e80e7/volumes/kubernetes.io~csi/fiber-restore/mount: ' +
        'mount(2) system call failed: Structure needs cleaning.',
    ],
  },
  {
    id: 'runtime.fs-kernel-error',
    family: 'runtime',
    mechanism: 'fs-corrupted',
    needles: ['ext4-fs error', 'remounting filesystem read-only', 'corruption detected', 'run xfs_repair', 'crc error detected', 'metadata i/o error'],
    patterns: [
      re('EXT4-fs error \\(device (?<device>[\\w-]+)\\)'),
      re('EXT4-fs \\((?<device>[\\w-]+)\\): Remounting filesystem read-only'),
      re(
        'XFS \\((?<device>[\\w-]+)\\): (?:Metadata (?:corruption|CRC error) detected|Corruption (?:of in-memory data ' +
          ')?detected|Unmount and run xfs_repair|metadata I/O error)',
      ),
    ],
    source:
      'fs/ext4/super.c (__ext4_error "EXT4-fs error (device %s)", ext4_handle_error "Remounting filesystem read-only"), fs/xfs (xfs_verifier_error, ' +
      'xfs_corruption_error). Lines (GitHub): kubernetes/kubernetes#10664, longhorn/longhorn#2775, longhorn/longhorn#193, ' +
      'coreos/fedora-coreos-tracker#784, kubernetes/kubernetes#97014',
    examples: [
      "[81118.434987] EXT4-fs error (device sdc): ext4_put_super:790: Couldn't clean up the journal",
      'Jul 14 10:26:29 immortal kernel: [699646.295473] EXT4-fs error (device sdf): ext4_find_entry:1455: inode #2: comm minio: reading directory lblock 0',
      'EXT4-fs (sdb): Remounting filesystem read-only',
      '[   10.036682] XFS (vda4): Metadata corruption detected at xfs_buf_ioend+0x162/0x570 [xfs], xfs_inode block 0x2fc4e0 xfs_inode_buf_verify',
      '[   10.039337] XFS (vda4): Unmount and run xfs_repair',
      '[ 6489.218162] XFS (dm-152): Metadata CRC error detected at xfs_inobt_read_verify+0x79/0xb0 [xfs], xfs_inobt block 0x18',
      '[ 6489.218456] XFS (dm-152): metadata I/O error: block 0x18 ("xfs_trans_read_buf_map") error 74 numblks 8',
    ],
  },
  {
    id: 'errno.efbig',
    family: 'errno',
    mechanism: 'file-size-limit',
    needles: errnoNeedles('EFBIG'),
    patterns: [re(EFBIG)],
    // multer (Express uploads) says "File too large" for its own upload limit, a request refused, not a write.
    unless: /MulterError|LIMIT_FILE_SIZE/,
    source:
      'EFBIG texts (upstream.json); Node "EFBIG: file too large, write"; coreutils dd "writing to %s". Lines (GitHub): nbesli/pdf-merger-js#109 (ulimit -f), ' +
      'Barre/ZeroFS#322 (a filesystem maximum); near miss expressjs/multer#263',
    examples: ['Error: EFBIG: file too large, write', "dd: writing to '/zerofs/test01': File too large"],
    nearMisses: ["{ [Error: File too large] code: 'LIMIT_FILE_SIZE', field: 'image', storageErrors: [] }"],
  },
  {
    id: 'runtime.sqlite-locked',
    family: 'runtime',
    mechanism: 'sqlite-locking',
    needles: ['is locked', 'sqlite_busy', 'sqlite_protocol', 'sqlite_ioerr', 'disk i/o error'],
    patterns: [
      re('SQLITE_BUSY'),
      re('\\bdatabase (?:file )?is locked'),
      re('SQLITE_PROTOCOL'),
      re('SQLITE_IOERR'),
      // "disk I/O error" is SQLite's text for SQLITE_IOERR; only with SQLite named on the line (Python's sqlite3, SQLAlchemy, Qt's driver).
      re('sqlite[^\\n]*disk I/O error'),
    ],
    source:
      'sqlite3ErrStr (main.c: SQLITE_BUSY "database is locked", SQLITE_IOERR "disk I/O error", SQLITE_PROTOCOL "locking protocol"), as node-sqlite3, ' +
      "Python's sqlite3, System.Data.SQLite, SQLitePCL, sqlite-jdbc and sqlx print them. Lines (GitHub): kubernetes/kubernetes#59755 and #61767 " +
      '(Azure Files, nobrl), docker-archive/compose-cli#2180, louislam/uptime-kuma#1172, Sonarr/Sonarr#2797 and linuxserver/docker-jellyfin#27 (NFS), ' +
      'stanford-oval/genie-cloud#948, nipreps/sdcflows#267 (NFS), NVIDIA/OpenShell#2195 (a local volume: a second connection)',
    examples: [
      'Trace: [Error: PRAGMA journal_mode = WAL - SQLITE_BUSY: database is locked] {',
      'Error: PRAGMA journal_mode = WAL - SQLITE_BUSY: database is locked',
      'System.Data.SQLite.SQLiteException (0x80004005): database is locked',
      'SQLitePCL.pretty.SQLiteException: database is locked',
      'sqlite3.OperationalError: database is locked',
      'database error: error returned from database: (code: 5) database is locked',
      'SQLITE_PROTOCOL: locking protocol',
      '[Error: SQLITE_IOERR: disk I/O error',
      'sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) disk I/O error',
    ],
    nearMisses: [
      // SQLITE_LOCKED is a conflict inside one connection (a table in use by a statement), not the file lock.
      'sqlite3.OperationalError: database table is locked',
    ],
  },
]);
