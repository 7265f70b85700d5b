// host: node facts rules compare against known-bad combinations: the kernel (3.10 umount bug),
// docker.service's MountFlags (slave stops mount leaks into service namespaces), the kubelet
// settings behind throttling and sandbox failures, from its command line or its --config file,
// and the static pod manifests in the kubelet's manifest dir (a mirror pod that no longer
// matches its manifest means the kubelet missed the change, seed 003). The manifests live here
// rather than in a probe of their own because finding the kubelet's flags is the costly part.
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { z } from 'zod';
import { capped, checkAborted, clipText, defineProbe, type ProbeEnv } from './probe.js';
import { listPids, mapPool, readText } from './proc.js';
import { readUnit } from './systemd.js';

/**
 * The YAML parser, loaded by the first kubelet config or static pod manifest read: the node
 * agent keeps about 3.5 MB less resident while it only idles (npm run bench:rss).
 */
async function parseYaml(text: string): Promise<unknown> {
  return (await import('yaml')).parse(text);
}

export const params = z.object({});

/** Kubelet flags rules read, and their KubeletConfiguration field names. */
export const KUBELET_SETTINGS = {
  maxPods: { flag: 'max-pods', field: 'maxPods' },
  kubeAPIQPS: { flag: 'kube-api-qps', field: 'kubeAPIQPS' },
  kubeAPIBurst: { flag: 'kube-api-burst', field: 'kubeAPIBurst' },
  eventRecordQPS: { flag: 'event-qps', field: 'eventRecordQPS' },
  eventBurst: { flag: 'event-burst', field: 'eventBurst' },
  registryPullQPS: { flag: 'registry-qps', field: 'registryPullQPS' },
  registryBurst: { flag: 'registry-burst', field: 'registryBurst' },
  serializeImagePulls: { flag: 'serialize-image-pulls', field: 'serializeImagePulls' },
  runtimeRequestTimeout: { flag: 'runtime-request-timeout', field: 'runtimeRequestTimeout' },
  imagePullProgressDeadline: { flag: 'image-pull-progress-deadline', field: undefined },
  podInfraContainerImage: { flag: 'pod-infra-container-image', field: undefined },
  containerRuntimeEndpoint: { flag: 'container-runtime-endpoint', field: 'containerRuntimeEndpoint' },
} as const;
export type KubeletSettingName = keyof typeof KUBELET_SETTINGS;

const setting = z.object({
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  /** `unset`: neither flag nor config file sets it, so the kubelet's default applies. */
  source: z.enum(['flag', 'config', 'unset']),
});

/** Where kubeadm and most installers put static pods; the kubelet itself has no default. */
export const DEFAULT_MANIFEST_PATH = '/etc/kubernetes/manifests';
/** Bounds of the static pod scan: files read, bytes per file, containers per pod, argv text. */
export const STATIC_POD_LIMITS = { files: 32, fileBytes: 256 * 1024, containers: 16, argvChars: 16 * 1024, totalArgvChars: 128 * 1024 } as const;

const manifestContainer = z.object({
  name: z.string(),
  init: z.boolean(),
  image: z.string().optional(),
  /** As written, credentials redacted; absent when over the size budget (`argvOmitted`). */
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  argvOmitted: z.boolean().optional(),
  /** sha256 of the canonical JSON of `{command, args}` as written (before redaction). */
  argvHash: z.string(),
});

const manifest = z.object({
  /** File name in the manifest dir. */
  file: z.string(),
  mtime: z.string().optional(),
  /** Inode change time: moves with any write, rename or chmod, even a copy that keeps the old mtime. */
  ctime: z.string().optional(),
  size: z.number().optional(),
  /** Where a symlinked manifest points (on the host): edits there raise no inotify event in the dir. */
  linkTarget: z.string().optional(),
  /** Unreadable, too large, not YAML, or not a pod the kubelet would accept. */
  error: z.string().optional(),
  pod: z
    .object({
      name: z.string(),
      /** `default` when the manifest names none (as the kubelet does). */
      namespace: z.string(),
      /** metadata.uid when the manifest sets one: the kubelet then uses it as config.hash. */
      uid: z.string().optional(),
      /** sha256 of the canonical JSON of `spec` as written (not the kubelet's config.hash). */
      specHash: z.string(),
      containers: z.array(manifestContainer),
      containersTruncated: z.boolean().optional(),
    })
    .optional(),
});

export const staticPodsSchema = z.object({
  /** The kubelet's static pod path on the host. */
  path: z.string(),
  /** `default`: neither --pod-manifest-path nor staticPodPath is set; the kubeadm path was tried. */
  source: z.enum(['flag', 'config', 'default']),
  kind: z.enum(['dir', 'file']).optional(),
  /** The dir's mtime: it changes when a manifest is added, removed or renamed. */
  mtime: z.string().optional(),
  error: z.string().optional(),
  manifests: z.array(manifest),
  truncated: z.boolean(),
});
export type StaticPods = z.infer<typeof staticPodsSchema>;

export const result = z.object({
  kernel: z.string().optional(),
  os: z.string().optional(),
  dockerService: z.object({ unitFile: z.string(), mountFlags: z.string().optional(), dropIns: z.array(z.string()) }).optional(),
  kubelet: z.object({
    pid: z.number().optional(),
    command: z.string().optional(),
    configFile: z.string().optional(),
    configError: z.string().optional(),
    settings: z.record(z.string(), setting),
  }),
  /** Absent from agents older than the static-pod.stale rule. */
  staticPods: staticPodsSchema.optional(),
});
export type HostResult = z.infer<typeof result>;

/** `--name=value` / `--name value` / bare `--name` (true) from an argv. */
export function parseFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        flags.set(arg.slice(2), next);
        i += 1;
      } else flags.set(arg.slice(2), 'true');
    }
  }
  return flags;
}

async function findKubelet(env: ProbeEnv): Promise<{ pid: number; argv: string[] } | undefined> {
  const pids = await listPids(env.procRoot);
  const comms = await mapPool(pids, env.concurrency ?? 64, (pid) => readText(join(env.procRoot, String(pid), 'comm')), env.signal);
  const candidates = pids.filter((_, i) => {
    const c = comms[i]?.trim();
    return c === 'kubelet' || c === 'hyperkube';
  });
  for (const pid of candidates) {
    const raw = await readText(join(env.procRoot, String(pid), 'cmdline'));
    if (!raw) continue;
    const argv = raw.replace(/\0+$/, '').split('\0');
    const bin = argv[0]?.split('/').pop();
    if (bin === 'kubelet' || (bin === 'hyperkube' && argv[1] === 'kubelet')) return { pid, argv };
  }
  return undefined;
}

/** Hide values of flags that may carry credentials (`--token=...`, `--password ...`). */
export function redactArgs(argv: readonly string[]): string[] {
  const secret = /token|password|secret/i;
  return argv.map((arg, i) => {
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0 && secret.test(arg.slice(0, eq))) return `${arg.slice(0, eq)}=[redacted]`;
    const prev = argv[i - 1];
    if (prev?.startsWith('--') && !prev.includes('=') && secret.test(prev) && !arg.startsWith('--')) return '[redacted]';
    return arg;
  });
}

function coerce(v: unknown): string | number | boolean | undefined {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** JSON with object keys sorted, so the same content hashes the same whatever its key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The hash a manifest container's `argvHash` carries: sha256 of `{args, command}` (absent = []).
 * A rule can recompute it from a mirror pod's container to compare without the text.
 */
export function argvHash(command: readonly string[] | undefined, args: readonly string[] | undefined): string {
  return createHash('sha256')
    .update(canonicalJson({ args: args ?? [], command: command ?? [] }))
    .digest('hex');
}

/**
 * lstat a host path under the host root, following symlinks the way the host would: an absolute
 * target is resolved under the host root, never in the agent's own filesystem.
 */
async function hostStat(hostRoot: string, hostPath: string): Promise<{ local: string; stats: Stats; linkTarget?: string }> {
  let p = posix.normalize(hostPath);
  let linkTarget: string | undefined;
  for (let hop = 0; hop < 8; hop++) {
    const local = join(hostRoot, p);
    const stats = await lstat(local);
    if (!stats.isSymbolicLink()) return { local, stats, linkTarget };
    p = posix.resolve(posix.dirname(p), await readlink(local));
    linkTarget = p;
  }
  throw new Error(`${hostPath}: too many levels of symbolic links`);
}

type Manifest = z.infer<typeof manifest>;
type ManifestPod = NonNullable<Manifest['pod']>;

/** A string list field of a container: the list, undefined when absent, or why the kubelet rejects it. */
function stringList(c: Record<string, unknown>, field: 'command' | 'args'): string[] | undefined | { error: string } {
  const v = c[field];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  return { error: `container ${String(c.name)}: ${field} must be a list of strings (the kubelet rejects this manifest)` };
}

/** The facts of one parsed manifest, or why it is not a pod the kubelet would load. */
export function manifestPod(doc: unknown, budget: { argvChars: number } = { argvChars: STATIC_POD_LIMITS.totalArgvChars }): ManifestPod | { error: string } {
  if (!isRecord(doc)) return { error: 'not a YAML mapping' };
  if (doc.kind !== 'Pod') return { error: `not a Pod (kind: ${typeof doc.kind === 'string' ? doc.kind : 'missing'})` };
  const md = isRecord(doc.metadata) ? doc.metadata : {};
  if (typeof md.name !== 'string' || md.name === '') return { error: 'metadata.name is missing' };
  const spec = doc.spec;
  if (!isRecord(spec)) return { error: 'spec is missing' };
  const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]) : []);
  if (list(spec.containers).length === 0) return { error: 'spec.containers is empty' };
  const all = [...list(spec.initContainers).map((c) => [c, true] as const), ...list(spec.containers).map((c) => [c, false] as const)];
  const containers: ManifestPod['containers'] = [];
  for (const [c, init] of all.slice(0, STATIC_POD_LIMITS.containers)) {
    if (!isRecord(c) || typeof c.name !== 'string' || c.name === '') return { error: `a${init ? 'n init' : ''} container has no name` };
    if (c.image !== undefined && c.image !== null && typeof c.image !== 'string') return { error: `container ${c.name}: image must be a string` };
    const command = stringList(c, 'command');
    const args = stringList(c, 'args');
    if (command && 'error' in command) return command;
    if (args && 'error' in args) return args;
    const argv = [...(command ?? []), ...(args ?? [])];
    const chars = argv.reduce((n, a) => n + a.length, 0);
    const fits = chars <= STATIC_POD_LIMITS.argvChars && chars <= budget.argvChars;
    let text: Pick<ManifestPod['containers'][number], 'command' | 'args' | 'argvOmitted'> = { argvOmitted: true };
    if (fits) {
      budget.argvChars -= chars;
      // Redact across command and args together: `--token` may end one and its value start the other.
      const redacted = redactArgs(argv);
      const n = command?.length ?? 0;
      text = { ...(command ? { command: redacted.slice(0, n) } : {}), ...(args ? { args: redacted.slice(n) } : {}) };
    }
    containers.push({ name: c.name, init, ...(typeof c.image === 'string' ? { image: c.image } : {}), ...text, argvHash: argvHash(command, args) });
  }
  return {
    name: md.name,
    namespace: typeof md.namespace === 'string' && md.namespace !== '' ? md.namespace : 'default',
    ...(typeof md.uid === 'string' && md.uid !== '' ? { uid: md.uid } : {}),
    specHash: createHash('sha256').update(canonicalJson(spec)).digest('hex'),
    containers,
    ...(all.length > STATIC_POD_LIMITS.containers ? { containersTruncated: true } : {}),
  };
}

/** One manifest file read and parsed as YAML; undefined for what the kubelet skips (dirs). */
async function loadManifest(env: ProbeEnv, hostPath: string): Promise<{ base: Manifest; doc?: unknown } | undefined> {
  const file = posix.basename(hostPath);
  let st: Awaited<ReturnType<typeof hostStat>>;
  try {
    st = await hostStat(env.hostRoot, hostPath);
  } catch (err) {
    return { base: { file, error: `cannot stat: ${clipText(errText(err), 200)}` } };
  }
  if (!st.stats.isFile()) return undefined; // the kubelet does not recurse into dirs
  const base: Manifest = { file, mtime: st.stats.mtime.toISOString(), ctime: st.stats.ctime.toISOString(), size: st.stats.size };
  if (st.linkTarget) base.linkTarget = st.linkTarget;
  if (st.stats.size > STATIC_POD_LIMITS.fileBytes) return { base: { ...base, error: `larger than ${STATIC_POD_LIMITS.fileBytes / 1024} KiB, not read` } };
  let text: string;
  try {
    text = await readFile(st.local, 'utf8');
  } catch (err) {
    return { base: { ...base, error: `cannot read: ${clipText(errText(err), 200)}` } };
  }
  try {
    return { base, doc: await parseYaml(text) };
  } catch (err) {
    // Only the first line: the rest is a code frame quoting the file (which may hold credentials).
    return { base: { ...base, error: `not valid YAML: ${clipText(errText(err).split('\n')[0]!.replace(/:$/, ''), 200)}` } };
  }
}

/** Files are read concurrently, then turned into facts in name order so the argv budget is spent deterministically. */
function toManifests(loaded: readonly ({ base: Manifest; doc?: unknown } | undefined)[]): Manifest[] {
  const budget = { argvChars: STATIC_POD_LIMITS.totalArgvChars };
  const out: Manifest[] = [];
  for (const l of loaded) {
    if (!l) continue;
    if (l.base.error) out.push(l.base);
    else {
      const pod = manifestPod(l.doc, budget);
      out.push('error' in pod ? { ...l.base, error: pod.error } : { ...l.base, pod });
    }
  }
  return out;
}

/**
 * The kubelet's static pods: every non-hidden regular file of its manifest dir in name order (it
 * neither recurses nor reads dotfiles), or the one file the path names.
 */
export async function readStaticPods(env: ProbeEnv, path: string, source: StaticPods['source']): Promise<StaticPods> {
  const out: StaticPods = { path, source, manifests: [], truncated: false };
  if (!path.startsWith('/')) return { ...out, error: `not an absolute path: ${clipText(path, 200)}` };
  let top: Awaited<ReturnType<typeof hostStat>>;
  try {
    top = await hostStat(env.hostRoot, path);
  } catch (err) {
    const code = (err as { code?: string }).code;
    return { ...out, error: code === 'ENOENT' ? `${path} does not exist on the node` : `cannot stat ${path}: ${clipText(errText(err), 200)}` };
  }
  if (top.stats.isFile()) return { ...out, kind: 'file', manifests: toManifests([await loadManifest(env, path)]) };
  if (!top.stats.isDirectory()) return { ...out, error: `${path} is neither a directory nor a file` };
  out.kind = 'dir';
  out.mtime = top.stats.mtime.toISOString();
  let names: string[];
  try {
    names = (await readdir(top.local)).filter((n) => !n.startsWith('.')).sort();
  } catch (err) {
    return { ...out, error: `cannot list ${path}: ${clipText(errText(err), 200)}` };
  }
  checkAborted(env.signal);
  // Entries beyond the cap are dropped unread; dirs among the first ones only make room for fewer.
  const { items, truncated } = capped(names, STATIC_POD_LIMITS.files);
  const dir = top.linkTarget ?? posix.normalize(path); // entries of a symlinked dir live where it points
  const loaded = await mapPool(items, 8, (name) => loadManifest(env, posix.join(dir, name)), env.signal);
  return { ...out, manifests: toManifests(loaded), truncated };
}

/**
 * Where the kubelet reads static pods: --pod-manifest-path, else staticPodPath of its config file
 * (relative to that file), else a pre-1.10 kubelet's --config naming the manifest dir itself,
 * else the kubeadm default (marked `default`: the kubelet may read none).
 */
async function staticPodPath(
  env: ProbeEnv,
  flags: Map<string, string>,
  config: Record<string, unknown>,
  configPath: string | undefined,
): Promise<{ path: string; source: StaticPods['source'] }> {
  const flag = flags.get('pod-manifest-path');
  if (flag !== undefined && flag !== 'true') return { path: flag, source: 'flag' };
  const field = config.staticPodPath;
  if (typeof field === 'string' && field !== '') return { path: configPath ? posix.resolve(posix.dirname(configPath), field) : field, source: 'config' };
  if (configPath?.startsWith('/')) {
    const st = await hostStat(env.hostRoot, configPath).catch(() => undefined);
    if (st?.stats.isDirectory()) return { path: configPath, source: 'flag' };
  }
  return { path: DEFAULT_MANIFEST_PATH, source: 'default' };
}

export async function inspectHost(_p: z.infer<typeof params>, env: ProbeEnv): Promise<HostResult> {
  const [kernel, osRelease, redhat, docker, kubelet] = await Promise.all([
    readText(join(env.procRoot, 'sys', 'kernel', 'osrelease')),
    readText(join(env.hostRoot, 'etc', 'os-release')),
    readText(join(env.hostRoot, 'etc', 'redhat-release')),
    readUnit(env.hostRoot, 'docker.service'),
    findKubelet(env),
  ]);
  const pretty = osRelease ? /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1] : undefined;

  const settings: HostResult['kubelet']['settings'] = {};
  let configFile: string | undefined;
  let configError: string | undefined;
  let config: Record<string, unknown> = {};
  const flags = kubelet ? parseFlags(kubelet.argv.slice(1)) : new Map<string, string>();
  const configPath = flags.get('config');
  if (configPath?.startsWith('/')) {
    configFile = configPath;
    const text = await readText(join(env.hostRoot, configPath));
    if (text === undefined) configError = `cannot read ${configPath} under the host root`;
    else if (text.length > 1024 * 1024) configError = `${configPath} is larger than 1 MiB`;
    else {
      try {
        const parsed: unknown = await parseYaml(text);
        if (typeof parsed === 'object' && parsed !== null) config = parsed as Record<string, unknown>;
      } catch (err) {
        configError = `cannot parse ${configPath}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  }
  for (const [name, def] of Object.entries(KUBELET_SETTINGS) as [KubeletSettingName, (typeof KUBELET_SETTINGS)[KubeletSettingName]][]) {
    const flag = flags.get(def.flag);
    if (flag !== undefined) {
      const n = Number(flag);
      settings[name] = { value: flag !== '' && Number.isFinite(n) ? n : flag, source: 'flag' };
      continue;
    }
    const fromConfig = def.field ? coerce(config[def.field]) : undefined;
    settings[name] = fromConfig !== undefined ? { value: fromConfig, source: 'config' } : { source: 'unset' };
  }

  checkAborted(env.signal);
  const manifests = await staticPodPath(env, flags, config, configPath);
  const staticPods = await readStaticPods(env, manifests.path, manifests.source);

  return {
    kernel: kernel?.trim() || undefined,
    os: pretty ?? redhat?.trim() ?? undefined,
    dockerService: docker ? { unitFile: docker.file, mountFlags: docker.service.MountFlags, dropIns: docker.dropIns } : undefined,
    kubelet: {
      pid: kubelet?.pid,
      command: kubelet ? redactArgs(kubelet.argv).join(' ').slice(0, 2000) : undefined,
      configFile,
      configError,
      settings,
    },
    staticPods,
  };
}

export const probe = defineProbe({
  name: 'host',
  description:
    'Kernel version, docker.service MountFlags, kubelet settings (--max-pods, --kube-api-qps, --registry-qps, --pod-infra-container-image) from its command line or --config file, and the static pod manifests in its --pod-manifest-path / staticPodPath (name, mtime, images, command hashes).',
  params,
  result,
  timeoutMs: 3000,
  run: inspectHost,
});
