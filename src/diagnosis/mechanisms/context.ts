// Questions the variants ask about the pod around a line: which volume a path lies on, who the
// container runs as, whether it shares the node's network. Pure, over the spec.
import type { Container, MessageData, Pod } from '../types.js';
import type { ReadingContext } from './types.js';

type Volume = NonNullable<NonNullable<Pod['spec']>['volumes']>[number];
type Mount = NonNullable<Container['volumeMounts']>[number];

/** A volume's source kind as the spec names it: `configMap`, `emptyDir`, `persistentVolumeClaim`, `nfs`... */
export function volumeKind(volume: Volume | undefined): string | undefined {
  if (!volume) return undefined;
  return Object.keys(volume).find((k) => k !== 'name');
}

/** Kinds the kubelet always mounts read-only (since 1.9.4 / CVE-2017-1002102), whatever the mount says. */
export const ALWAYS_READ_ONLY = new Set(['configMap', 'secret', 'downwardAPI', 'projected']);

export interface MountOf {
  mount: Mount;
  volume?: Volume;
  kind?: string;
  /**
   * What a claim is backed by, when the collector read its PersistentVolume: `nfs` for an NFS
   * export (in-tree, or an NFS CSI driver), else the PV's source kind (`csi`, `hostPath`...).
   */
  backend?: string;
}

/** CSI drivers that mount NFS exports: ownership and root squashing are the export's. */
const NFS_DRIVERS = /^(?:nfs\.csi\.k8s\.io|efs\.csi\.aws\.com|filestore\.csi\.storage\.gke\.io|.*\bnfs\b.*)$/i;

/** The backend of a claim's volume, from the PersistentVolume the collector read (snapshot.claims). */
function claimBackend(ctx: ReadingContext, claim: string | undefined): string | undefined {
  if (!claim) return undefined;
  const pv = ctx.snapshot?.claims?.find((c) => c.name === claim)?.volume?.spec as { nfs?: unknown; csi?: { driver?: string } } | undefined;
  if (!pv) return undefined;
  if (pv.nfs || NFS_DRIVERS.test(pv.csi?.driver ?? '')) return 'nfs';
  return Object.keys(pv).find((k) => ['csi', 'hostPath', 'local', 'iscsi', 'rbd', 'cephfs', 'fc'].includes(k));
}

/** The container's mount a path lies on: the longest mountPath that is the path or a parent of it. */
export function mountOf(ctx: ReadingContext, path: string | undefined): MountOf | undefined {
  if (!path) return undefined;
  let best: Mount | undefined;
  for (const m of ctx.container?.volumeMounts ?? []) {
    const mp = m.mountPath.replace(/\/+$/, '') || '/';
    if ((path === mp || path.startsWith(`${mp}/`) || mp === '/') && (!best || mp.length > best.mountPath.length)) best = m;
  }
  if (!best) return undefined;
  const volume = ctx.pod?.spec?.volumes?.find((v) => v.name === best.name);
  const kind = volumeKind(volume);
  const backend = claimBackend(ctx, volume?.persistentVolumeClaim?.claimName);
  return { mount: best, ...(volume ? { volume } : {}), ...(kind ? { kind } : {}), ...(backend ? { backend } : {}) };
}

/** `spec.containers[web]` / `spec.initContainers[setup]`: where a container's knobs live. */
export function containerPath(ctx: ReadingContext): string {
  const name = ctx.container?.name ?? ctx.status?.name ?? '<container>';
  return `spec.${ctx.init ? 'initContainers' : 'containers'}[${name}]`;
}

/** The user the container runs as, when the spec says (container over pod). */
export function runAsUser(ctx: ReadingContext): number | undefined {
  return ctx.container?.securityContext?.runAsUser ?? ctx.pod?.spec?.securityContext?.runAsUser ?? undefined;
}

export function runAsNonRoot(ctx: ReadingContext): boolean {
  const u = runAsUser(ctx);
  if (u !== undefined) return u !== 0;
  return (ctx.container?.securityContext?.runAsNonRoot ?? ctx.pod?.spec?.securityContext?.runAsNonRoot) === true;
}

export function fsGroup(ctx: ReadingContext): number | undefined {
  return ctx.pod?.spec?.securityContext?.fsGroup ?? undefined;
}

export function hostNetwork(ctx: ReadingContext): boolean {
  return ctx.pod?.spec?.hostNetwork === true;
}

/** Capabilities the container drops and adds (upper case, without the CAP_ prefix). */
export function capabilities(ctx: ReadingContext): { drop: string[]; add: string[] } {
  const caps = ctx.container?.securityContext?.capabilities;
  const norm = (l: string[] | undefined) => (l ?? []).map((c) => c.toUpperCase().replace(/^CAP_/, ''));
  return { drop: norm(caps?.drop), add: norm(caps?.add) };
}

export function drops(ctx: ReadingContext, cap: string): boolean {
  const { drop, add } = capabilities(ctx);
  return (drop.includes('ALL') || drop.includes(cap)) && !add.includes(cap);
}

/** The seccomp profile type in force (container over pod); undefined: the runtime's default for this kubelet. */
export function seccompProfile(ctx: ReadingContext): string | undefined {
  return ctx.container?.securityContext?.seccompProfile?.type ?? ctx.pod?.spec?.securityContext?.seccompProfile?.type ?? undefined;
}

/** The memory limit as written (`512Mi`), if any. */
export function memoryLimit(ctx: ReadingContext): string | undefined {
  const v = ctx.container?.resources?.limits?.memory;
  return v === undefined ? undefined : String(v);
}

/** An env var's literal value in the container spec (not from a reference). */
export function envValue(ctx: ReadingContext, name: string): string | undefined {
  return ctx.container?.env?.find((e) => e.name === name)?.value ?? undefined;
}

/** The directory of a path: `/var/cache/nginx/client_temp` → `/var/cache/nginx`. */
export function dirOf(path: string): string {
  return path.replace(/\/+$/, '').replace(/\/[^/]*$/, '') || '/';
}

const QUOTED_PATH = /["'`‘“](\/[^"'`’”\s]+)["'`’”]/;
/** A quote the paste left open at the end of the line (`mkdir '/root/.pm2`). */
const OPEN_QUOTE_PATH = /["'`‘“](\/[^"'`’”\s]+)$/;
const GO_PATH =
  /(?:^|[\s(])(?:open|mkdir|mkdirat|stat|lstat|create|remove|rename|chmod|chown|lchown|unlink|write|read|symlink|link|opendir|readdir)\s+(\/[^\s:]+):/i;
const JAVA_PATH = /(?:Exception|Error):\s+(\/[^\s:(]+)(?:\s*\(|:|$)/;
const BARE_PATH = /(?:^|\s)(\/(?:[\w.@+-]+\/)*[\w.@+-]+)(?::|\s|$)/;
/**
 * What a shell or coreutils says it was writing: `cannot create <path>`, `can't touch '<path>'`,
 * `can't move '<tmp>' to '<path>'` (the destination, not the temporary file).
 */
const SHELL_TARGET = /(?:cannot|can't|can not)\s+(?:create(?: regular file| directory| temp file)?|touch|move\s+\S+\s+to|open)\s+["'‘]?(\/[^\s"'’:]+)/i;
/** A script's own name leading a shell error (`/docker-entrypoint.sh: line 5: ...`, dash's `script.sh: 33: ...`). */
const SCRIPT_PREFIX = /^\s*\/?[\w./-]+\.(?:sh|bash|py):(?:\s*line)?\s*\d+:\s*/;

/** sed and mktemp name their temporary file (`default.confXXXXXX`, `sedRjs8rf`): the file being edited is meant. */
function untemp(path: string): string {
  return path.replace(/X{6}$/, '').replace(/\/sed[A-Za-z0-9]{6}$/, '');
}

/**
 * The path a line names: the target of a shell or coreutils write, a quoted path (coreutils,
 * nginx, Python, Node), Go's `open /x: ...`, Java's `Exception: /x (...)`; else the first absolute
 * path after any leading script name.
 */
export function pathIn(line: string): string | undefined {
  const rest = line.replace(SCRIPT_PREFIX, '');
  const found =
    SHELL_TARGET.exec(rest)?.[1] ??
    QUOTED_PATH.exec(rest)?.[1] ??
    GO_PATH.exec(rest)?.[1] ??
    JAVA_PATH.exec(rest)?.[1] ??
    OPEN_QUOTE_PATH.exec(rest)?.[1] ??
    BARE_PATH.exec(rest)?.[1];
  return found === undefined ? undefined : untemp(found);
}

/** npm's and Node's own report of the path an error was about (`npm ERR! path /app/.npm`, `path: '/app/x'`). */
const REPORTED_PATH = /(?:npm ERR! path|npm error path|\bpath:)\s+["']?(\/[^\s"',]+)/;

// Temporary files: the JVM's java.io.tmpdir, Python's tempfile, mkstemp(3) default to /tmp.
const TEMP_FILE = /File\.createTempFile|Files\.createTemp|createTempFile|TempFileHelper|tempfile\.|mkstemp|NamedTemporaryFile|TemporaryDirectory|os\.tmpdir/;

/**
 * The path a failed write was aimed at: the one the line names, else one named by the lines right
 * after it (a stack trace), else /tmp when the trace shows a temporary file being created.
 */
export function pathOfWrite(ctx: ReadingContext): string | undefined {
  const own = ctx.groups.path ?? pathIn(ctx.line);
  if (own) return own;
  for (const l of ctx.around) {
    const reported = REPORTED_PATH.exec(l)?.[1];
    if (reported) return reported;
  }
  for (const l of ctx.around) {
    if (TEMP_FILE.test(l)) return '/tmp';
  }
  return undefined;
}

/** Data every template may use: the container and where its knobs live. */
export function baseData(ctx: ReadingContext): MessageData {
  return {
    container: ctx.container?.name ?? ctx.status?.name ?? 'the container',
    containerPath: containerPath(ctx),
    kind: ctx.init ? 'init container' : 'container',
    node: ctx.pod?.spec?.nodeName ?? ctx.node?.metadata?.name ?? 'the node',
    namespace: ctx.pod?.metadata?.namespace ?? '',
    pod: ctx.pod?.metadata?.name ?? '',
    serviceAccount: ctx.pod?.spec?.serviceAccountName ?? 'default',
  };
}

/** Distributions whose nodes enforce SELinux by default: only a hint that SELinux is in play, stated as such. */
const SELINUX_OS = /Red Hat|RHEL|CentOS|Fedora|Rocky|AlmaLinux|Oracle Linux|Bottlerocket|CoreOS|OpenShift/i;

/** The node's OS image when it is a distribution that enforces SELinux by default. */
export function selinuxNodeOs(ctx: ReadingContext): string | undefined {
  const os = ctx.node?.status?.nodeInfo?.osImage ?? ctx.snapshot?.node?.status?.nodeInfo?.osImage;
  return os && SELINUX_OS.test(os) ? os : undefined;
}
