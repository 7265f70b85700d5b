// Shared by test/deploy/*.test.ts: reading every YAML file under deploy/, rendering the
// overlays with `kubectl kustomize` when a kubectl with a modern kustomize is on the PATH, and
// the facts about a container (its role, its environment) the checks compare with the code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DEPLOY = join(REPO, 'deploy');
export const NAMESPACE = 'pod-doctor';
export const SECRET_NAME = 'pod-doctor';
export const CONFIG_MAP = 'pod-doctor-config';
/** deploy/ folders kustomize does not build: other teams' (Slack app manifest, Alertmanager examples) and the release renders. */
export const FOREIGN_DIRS = ['slack', 'alertmanager', 'release'];

// Loose shapes: the checks look at what they need and report what is missing.
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    fieldRef?: { fieldPath: string };
  };
}

export interface Container {
  name: string;
  image?: string;
  args?: string[];
  command?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string; optional?: boolean } }[];
  ports?: { name?: string; containerPort: number; hostPort?: number; protocol?: string }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  securityContext?: Record<string, unknown> & { capabilities?: { add?: string[]; drop?: string[] } };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean; mountPropagation?: string }[];
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
  exec?: { command: string[] };
}

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  volumes?: ({ name: string; hostPath?: { path: string; type?: string } } & Record<string, unknown>)[];
  securityContext?: Record<string, unknown>;
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  hostPID?: boolean;
  hostNetwork?: boolean;
  hostIPC?: boolean;
  terminationGracePeriodSeconds?: number;
}

export interface Workload extends KubeObject {
  spec: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
    template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: PodSpec };
  };
}

export const WORKLOAD_KINDS = ['Deployment', 'DaemonSet', 'StatefulSet'];

export function isWorkload(o: KubeObject): o is Workload {
  return WORKLOAD_KINDS.includes(o.kind ?? '') && typeof o.spec === 'object';
}

export function isKustomizeFile(o: KubeObject): boolean {
  return (o.apiVersion ?? '').startsWith('kustomize.config.k8s.io/');
}

/** Every .yaml/.yml file under `dir`, sorted. */
export function yamlFiles(dir: string = DEPLOY): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

export interface ParsedFile {
  file: string;
  /** Path from deploy/. */
  rel: string;
  docs: KubeObject[];
  errors: string[];
}

export function parseYamlFile(file: string): ParsedFile {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const errors = docs.flatMap((d) => [...d.errors, ...d.warnings].map((e) => e.message));
  const objects = docs.map((d) => d.toJS() as unknown).filter((o): o is KubeObject => o !== null && typeof o === 'object');
  return { file, rel: relative(DEPLOY, file), docs: objects, errors };
}

export function parseObjects(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as unknown)
    .filter((o): o is KubeObject => o !== null && typeof o === 'object');
}

/** The kustomize-managed files: everything under deploy/ but the other teams' folders. */
export function kustomizeTreeFiles(): ParsedFile[] {
  return yamlFiles()
    .filter((f) => !FOREIGN_DIRS.some((d) => relative(DEPLOY, f).startsWith(`${d}/`)))
    .map(parseYamlFile);
}

interface KustomizationDoc {
  resources?: string[];
  components?: string[];
  patches?: ({ path?: string; patch?: string } | string)[];
  patchesStrategicMerge?: string[];
}

/** Files a kustomization directory refers to: resources (files), patches; and the directories (resources, components). */
export function kustomizationRefs(dir: string): { files: string[]; dirs: string[]; patches: string[] } {
  const k = parseYamlFile(join(dir, 'kustomization.yaml')).docs[0] as KustomizationDoc | undefined;
  const files: string[] = [];
  const dirs: string[] = [];
  const patches: string[] = [];
  for (const r of [...(k?.resources ?? []), ...(k?.components ?? [])]) {
    const p = resolve(dir, r);
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      // A missing reference is reported by the caller as a missing file.
    }
    (isDir ? dirs : files).push(p);
  }
  for (const p of [...(k?.patches ?? []), ...(k?.patchesStrategicMerge ?? [])]) {
    const path = typeof p === 'string' ? p : p.path;
    if (path) patches.push(resolve(dir, path));
  }
  return { files, dirs, patches };
}

/** Directories under deploy/ that hold a kustomization.yaml. */
export function kustomizationDirs(): string[] {
  return yamlFiles()
    .filter((f) => f.endsWith('/kustomization.yaml'))
    .map((f) => dirname(f))
    .filter((d) => !FOREIGN_DIRS.some((x) => relative(DEPLOY, d).startsWith(x)));
}

// ---- rendering

export const OVERLAYS = ['single-process', 'split'] as const;
export type OverlayName = (typeof OVERLAYS)[number];

export interface Variant {
  name: string;
  overlay: OverlayName;
  components: string[];
}

/** What test/deploy renders: each overlay alone and with the components that fit it. */
export const VARIANTS: readonly Variant[] = [
  { name: 'single-process', overlay: 'single-process', components: [] },
  { name: 'split', overlay: 'split', components: [] },
  { name: 'single-process+actions+docker+check-secrets', overlay: 'single-process', components: ['agent-actions', 'docker-runtime', 'check-secrets'] },
  { name: 'split+actions+worker-hpa+check-secrets', overlay: 'split', components: ['agent-actions', 'worker-hpa', 'check-secrets'] },
  { name: 'split+read-only+external-redis', overlay: 'split', components: ['read-only', 'external-redis'] },
  { name: 'single-process+read-only', overlay: 'single-process', components: ['read-only'] },
  { name: 'split+monitoring', overlay: 'split', components: ['monitoring'] },
  { name: 'single-process+agent-tls-cert-manager', overlay: 'single-process', components: ['agent-tls-cert-manager'] },
  { name: 'split+mattermost', overlay: 'split', components: ['mattermost'] },
];

export function componentNames(): string[] {
  return readdirSync(join(DEPLOY, 'components'))
    .filter((n) => statSync(join(DEPLOY, 'components', n)).isDirectory())
    .sort();
}

export interface Kubectl {
  usable: boolean;
  /** Why rendering is skipped, or which kubectl renders. */
  reason: string;
}

/**
 * kubectl ≥ 1.21 embeds kustomize ≥ v4 (components, directory resources, `patches`). Debian
 * bookworm's kubernetes-client is kubectl 1.20 with kustomize v2.0.3, which cannot render them.
 */
export function detectKubectl(): Kubectl {
  const r = spawnSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8', timeout: 20_000 });
  if (r.error || r.status !== 0) return { usable: false, reason: 'kubectl not found on PATH: kustomize rendering not checked' };
  let info: { clientVersion?: { major?: string; minor?: string; gitVersion?: string }; kustomizeVersion?: string };
  try {
    info = JSON.parse(r.stdout) as typeof info;
  } catch {
    return { usable: false, reason: 'cannot read `kubectl version --client -o json`: kustomize rendering not checked' };
  }
  const minor = Number.parseInt(info.clientVersion?.minor ?? '0', 10);
  const version = info.clientVersion?.gitVersion ?? `1.${minor}`;
  if (info.clientVersion?.major !== '1' || minor < 21) {
    return { usable: false, reason: `kubectl ${version} embeds kustomize v2 (no components); need kubectl >= 1.21: kustomize rendering not checked` };
  }
  return { usable: true, reason: `kubectl ${version}, kustomize ${info.kustomizeVersion ?? '?'}` };
}

const renders = new Map<string, { objects: KubeObject[]; stderr: string }>();

/** `kubectl kustomize` of an overlay plus components, from a throw-away kustomization. */
export function renderVariant(v: Variant): { objects: KubeObject[]; stderr: string } {
  const cached = renders.get(v.name);
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'pod-doctor-kustomize-'));
  try {
    // kustomize refuses absolute paths; relative ones may leave the kustomization's folder.
    const rel = (p: string) => relative(dir, join(DEPLOY, p));
    const lines = [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'resources:',
      `  - ${rel(`overlays/${v.overlay}`)}`,
      ...(v.components.length ? ['components:', ...v.components.map((c) => `  - ${rel(`components/${c}`)}`)] : []),
    ];
    writeFileSync(join(dir, 'kustomization.yaml'), `${lines.join('\n')}\n`);
    const out = renderDir(dir);
    renders.set(v.name, out);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderDir(dir: string): { objects: KubeObject[]; stderr: string } {
  const r = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`kubectl kustomize ${relative(REPO, dir) || dir} failed (exit ${r.status}):\n${r.stderr}`);
  return { objects: parseObjects(r.stdout), stderr: r.stderr };
}

// ---- containers and their roles

export type Role = 'bot' | 'worker' | 'agent' | 'cli';

export function isPodDoctorImage(image: string | undefined): boolean {
  return /(^|\/)pod-doctor(:|@|$)/.test(image ?? '');
}

/** The pod-doctor command a container runs (args[0]) and the roles whose settings it reads. */
export function rolesOf(c: Container): { command: string | undefined; roles: Role[] } {
  const command = c.args?.[0];
  if (command === 'bot') return { command, roles: c.args?.includes('--no-worker') ? ['bot'] : ['bot', 'worker'] };
  if (command === 'worker') return { command, roles: ['worker'] };
  if (command === 'agent') return { command, roles: ['agent'] };
  return { command, roles: [] };
}

export function podSpecOf(w: Workload): PodSpec {
  return w.spec.template?.spec ?? {};
}

export function containersOf(w: Workload): Container[] {
  const spec = podSpecOf(w);
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

export function objectsOfKind<T extends KubeObject = KubeObject>(objects: readonly KubeObject[], kind: string): T[] {
  return objects.filter((o) => o.kind === kind) as T[];
}

export function named<T extends KubeObject>(objects: readonly T[], name: string): T | undefined {
  return objects.find((o) => o.metadata?.name === name);
}

/** The Secret template's keys and values (deploy/base/secrets.example.yaml). */
export function secretTemplate(): Record<string, string> {
  const doc = parseYamlFile(join(DEPLOY, 'base/secrets.example.yaml')).docs.find((d) => d.kind === 'Secret') as
    | (KubeObject & { stringData?: Record<string, string>; data?: Record<string, string> })
    | undefined;
  if (!doc) throw new Error('deploy/base/secrets.example.yaml has no Secret');
  const decoded = Object.fromEntries(Object.entries(doc.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
  return { ...decoded, ...(doc.stringData ?? {}) };
}

// ---- a local renderer for the kustomize features deploy/ uses

/**
 * Renders a kustomization with the subset of kustomize deploy/ uses: resources (files and
 * directories), components, `patches` by path (strategic merge: maps merge, lists of
 * containers/env/volumes/mounts/ports merge by their key, `null` deletes, `$patch: delete`),
 * `namespace`, `images` and `replacements` (field paths with `*`, `delimiter`/`index`). It lets the per-overlay checks run where no kubectl ≥ 1.21 is
 * installed; where one is, test/deploy/kustomize.test.ts checks that both render the same.
 */
export function renderLocal(v: Variant): KubeObject[] {
  let objects = buildKustomization(join(DEPLOY, 'overlays', v.overlay));
  for (const c of v.components) objects = applyComponent(join(DEPLOY, 'components', c), objects);
  return objects;
}

interface LocalKustomization {
  kind?: string;
  namespace?: string;
  resources?: string[];
  components?: string[];
  patches?: { path?: string }[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  replacements?: Replacement[];
  configMapGenerator?: { name: string; namespace?: string; files?: string[]; options?: { labels?: Record<string, string>; disableNameSuffixHash?: boolean } }[];
}

/** ConfigMaps of `configMapGenerator` from files (`key=path`, or a path whose file name is the key); names without kustomize's hash suffix only. */
function generatedConfigMaps(dir: string, k: LocalKustomization): KubeObject[] {
  return (k.configMapGenerator ?? []).map((g) => {
    if (!g.options?.disableNameSuffixHash) throw new Error(`${dir}: configMapGenerator ${g.name}: the local renderer needs disableNameSuffixHash`);
    const data = Object.fromEntries(
      (g.files ?? []).map((f) => {
        const [key, path] = f.includes('=') ? (f.split('=', 2) as [string, string]) : [basename(f), f];
        return [key, readFileSync(resolve(dir, path), 'utf8')];
      }),
    );
    const metadata = { name: g.name, ...(g.namespace ? { namespace: g.namespace } : {}), ...(g.options.labels ? { labels: g.options.labels } : {}) };
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data };
  });
}

interface Replacement {
  source: { kind: string; name: string; fieldPath: string };
  targets: { select: { kind: string; name?: string }; fieldPaths: string[]; options?: { delimiter?: string; index?: number } }[];
}

/** Values at a kustomize field path (`a.b.*.c`: `*` is every item of a list), with a setter each. */
function fieldRefs(root: unknown, path: string): { get(): unknown; set(v: unknown): void }[] {
  let refs: { get(): unknown; set(v: unknown): void }[] = [{ get: () => root, set: () => undefined }];
  for (const key of path.split('.')) {
    refs = refs.flatMap((ref) => {
      const v = ref.get();
      if (key === '*') return Array.isArray(v) ? v.map((_, i) => ({ get: () => v[i], set: (x: unknown) => (v[i] = x) })) : [];
      if (!isMap(v) || !(key in v)) return [];
      return [{ get: () => v[key], set: (x: unknown) => (v[key] = x) }];
    });
  }
  return refs;
}

/** kustomize `replacements`: a source field's value into target fields, whole or one `delimiter`-separated part. */
function applyReplacements(dir: string, replacements: readonly Replacement[], objects: KubeObject[]): void {
  for (const r of replacements) {
    const source = objects.find((o) => o.kind === r.source.kind && o.metadata?.name === r.source.name);
    const value = source ? fieldRefs(source, r.source.fieldPath)[0]?.get() : undefined;
    if (value === undefined) throw new Error(`${dir}: replacement source ${r.source.kind}/${r.source.name} ${r.source.fieldPath} not found`);
    for (const t of r.targets) {
      for (const o of objects.filter((x) => x.kind === t.select.kind && (!t.select.name || x.metadata?.name === t.select.name))) {
        for (const ref of t.fieldPaths.flatMap((p) => fieldRefs(o, p))) {
          const { delimiter, index = 0 } = t.options ?? {};
          if (delimiter === undefined) ref.set(value);
          else {
            const parts = String(ref.get()).split(delimiter);
            parts[index] = String(value);
            ref.set(parts.join(delimiter));
          }
        }
      }
    }
  }
}

function readKustomization(dir: string): LocalKustomization {
  return (parseYamlFile(join(dir, 'kustomization.yaml')).docs[0] ?? {}) as LocalKustomization;
}

function buildKustomization(dir: string): KubeObject[] {
  const k = readKustomization(dir);
  let objects: KubeObject[] = [];
  for (const r of k.resources ?? []) {
    const p = resolve(dir, r);
    objects.push(...(statSync(p).isDirectory() ? buildKustomization(p) : parseYamlFile(p).docs));
  }
  for (const c of k.components ?? []) objects = applyComponent(resolve(dir, c), objects);
  return transform(dir, k, objects);
}

function applyComponent(dir: string, objects: KubeObject[]): KubeObject[] {
  const k = readKustomization(dir);
  const all = [...objects];
  for (const r of k.resources ?? []) all.push(...parseYamlFile(resolve(dir, r)).docs);
  all.push(...generatedConfigMaps(dir, k));
  return transform(dir, k, all);
}

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PersistentVolume', 'StorageClass', 'PriorityClass']);

function transform(dir: string, k: LocalKustomization, input: KubeObject[]): KubeObject[] {
  let objects = input.map((o) => structuredClone(o));
  for (const p of k.patches ?? []) {
    if (!p.path) throw new Error(`${dir}: only \`patches: - path:\` is supported by the local renderer`);
    for (const patch of parseYamlFile(resolve(dir, p.path)).docs) objects = applyPatch(objects, patch);
  }
  if (k.namespace) {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind ?? '')) o.metadata = { ...o.metadata, namespace: k.namespace };
  }
  for (const image of k.images ?? []) {
    for (const o of objects) {
      if (!isWorkload(o)) continue;
      for (const c of containersOf(o)) {
        if (c.image !== image.name) continue;
        c.image = `${image.newName ?? image.name}${image.digest ? `@${image.digest}` : image.newTag ? `:${image.newTag}` : ''}`;
      }
    }
  }
  // Last, as kustomize runs them: after the patches of the same kustomization.
  applyReplacements(dir, k.replacements ?? [], objects);
  return objects;
}

function applyPatch(objects: KubeObject[], patch: KubeObject): KubeObject[] {
  const i = objects.findIndex(
    (o) =>
      o.kind === patch.kind &&
      o.metadata?.name === patch.metadata?.name &&
      (!patch.metadata?.namespace || !o.metadata?.namespace || o.metadata.namespace === patch.metadata.namespace),
  );
  if (i < 0) throw new Error(`patch target ${patch.kind} ${patch.metadata?.name} not found`);
  if ((patch as { $patch?: string }).$patch === 'delete') return objects.filter((_, j) => j !== i);
  const out = [...objects];
  out[i] = mergeValue(objects[i], patch, '') as KubeObject;
  return out;
}

const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function mergeValue(target: unknown, patch: unknown, field: string): unknown {
  if (isMap(patch)) {
    const out: Record<string, unknown> = isMap(target) ? { ...target } : {};
    for (const [k, v] of Object.entries(patch)) {
      if (k === '$patch') continue;
      if (v === null) delete out[k];
      else out[k] = mergeValue(out[k], v, k);
    }
    return out;
  }
  const key = MERGE_KEYS[field];
  if (Array.isArray(patch) && Array.isArray(target) && key) {
    const out = [...target] as Record<string, unknown>[];
    for (const item of patch as Record<string, unknown>[]) {
      const at = out.findIndex((t) => t[key] === item[key]);
      if (item.$patch === 'delete') {
        if (at >= 0) out.splice(at, 1);
      } else if (at >= 0) out[at] = mergeValue(out[at], item, '') as Record<string, unknown>;
      else out.push(mergeValue(undefined, item, '') as Record<string, unknown>);
    }
    return out;
  }
  return structuredClone(patch);
}

/** Objects keyed by kind/namespace/name, lists of objects in a stable order: for comparing renders. */
export function normalizeRender(objects: readonly KubeObject[]): Record<string, unknown> {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const items = v.map(norm);
      return items.every(isMap) ? [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : items;
    }
    if (isMap(v))
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, norm(v[k])]),
      );
    return v;
  };
  return Object.fromEntries(objects.map((o) => [`${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`, norm(o)]));
}
