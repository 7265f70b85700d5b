// Extracts the event reasons, status reasons, condition reasons, scheduler filter reasons and
// admission refusals that the kubelet, the scheduler, the controllers and the API server's
// admission plugins emit, from a Kubernetes source tree, and
// writes them to src/diagnosis/reasons/upstream.json. test/reason-coverage.test.ts then fails
// for any of them that src/diagnosis/reasons/coverage.ts does not map to a rule or the catch-all.
//
//   npx tsx scripts/reasons/extract.ts <kubernetes-source-dir> [--version 1.20.2] [--out <file>] [--check]
//
// The source is the tree scripts/envtest-setup.sh unpacks (Debian's kubernetes 1.20.2, `apt-get
// source kubernetes`), by default at
//   ~/.cache/pod-doctor/envtest/src/1.20.5+really1.20.2-1.1+deb12u1/kubernetes-1.20.5+really1.20.2
// The version comes from debian/changelog there (or --version). The tree is only read.
// `--check` writes nothing and exits 1 when the file differs from what the tree gives.
//
// It reads Go with regular expressions, not a parser: each PROBE below names the files and the
// shape of the code that carries a reason (an event call, a `Reason:` field, an error constant),
// and a reason given as a constant is looked up in the package that defines it, through the
// file's imports. Reasons only a newer release has, and the runtimes' error strings, are kept
// by hand in src/diagnosis/reasons/additions.ts (each with its source and versions).
//
// Controllers that never touch a pod, its owners, its volumes or its node (HPA, certificates,
// service accounts, bootstrap tokens, cluster roles, TTL, quota, endpoint slice mirroring,
// storage version GC) are left out: their events land on objects pod-doctor does not read.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Kind = 'event' | 'status' | 'condition' | 'scheduler-filter' | 'admission-error';

export interface Extracted {
  reason: string;
  kind: Kind;
  component: string;
  from: string;
  versions: string;
}

export interface Probe {
  /** Files or folders (relative to the tree) to read; folders recurse, tests and fakes skipped. */
  paths: readonly string[];
  kind: Kind;
  /** Who emits it; by default from the path (COMPONENTS). */
  component?: string;
  /** Group 1 is a Go string literal (quotes included) or a constant (`x.Name`, `Name`) to look up. */
  pattern: RegExp;
  /** Values kept (others are variables' names, messages, ...). */
  accept?: RegExp;
  /** One value to several reasons (StatefulSet verbs to `Successful<Verb>`/`Failed<Verb>`). */
  expand?: (value: string) => string[];
}

const CAMEL = /^[A-Z][A-Za-z]+$/;

// Everything after an event type is the reason: `Eventf(obj, v1.EventTypeWarning, "FailedMount", …)`,
// the events API's `Eventf(obj, related, v1.EventTypeWarning, "FailedScheduling", "Scheduling", …)`
// and wrappers such as `recordContainerEvent(pod, c, id, v1.EventTypeWarning, events.X, …)`.
const EVENT_CALL = /\b(?:EventType(?:Warning|Normal)|eventtype|eventType)\s*,\s*("(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w.]*)/g;
const CONST_LINE = /^\s*[A-Z]\w*(?:\s+[\w.]+)?\s*=\s*("(?:[^"\\\n]|\\.)*")/gm;

/** The controllers whose events a pod's diagnosis reads (see the opening comment). */
const CONTROLLERS = [
  'pkg/controller/controller_utils.go',
  'pkg/controller/cronjob',
  'pkg/controller/daemon',
  'pkg/controller/deployment',
  'pkg/controller/disruption',
  'pkg/controller/endpoint',
  'pkg/controller/endpointslice',
  'pkg/controller/garbagecollector',
  'pkg/controller/job',
  'pkg/controller/namespace',
  'pkg/controller/nodeipam',
  'pkg/controller/nodelifecycle',
  'pkg/controller/podgc',
  'pkg/controller/replicaset',
  'pkg/controller/replication',
  'pkg/controller/statefulset',
  'pkg/controller/util/node',
  'pkg/controller/volume',
] as const;

/** Path prefix → component, longest first wins; other pkg/controller/<x> are `<x>-controller`. */
const COMPONENTS: readonly [string, string][] = [
  ['pkg/kubelet/dockershim/', 'dockershim'],
  ['pkg/kubelet/', 'kubelet'],
  // The operation executor runs in the kubelet (mount, resize) and in the attach/detach controller.
  ['pkg/volume/', 'kubelet'],
  ['pkg/scheduler/', 'scheduler'],
  ['pkg/controller/volume/scheduling/', 'scheduler'],
  ['pkg/controller/controller_utils.go', 'workload-controllers'],
  ['pkg/controller/daemon/', 'daemonset-controller'],
  ['pkg/controller/garbagecollector/', 'garbage-collector-controller'],
  ['pkg/controller/nodelifecycle/scheduler/', 'taint-eviction-controller'],
  ['pkg/controller/nodelifecycle/', 'node-lifecycle-controller'],
  ['pkg/controller/util/node/', 'node-lifecycle-controller'],
  ['pkg/controller/volume/persistentvolume/', 'persistentvolume-controller'],
  ['pkg/controller/volume/attachdetach/', 'attachdetach-controller'],
  ['pkg/controller/volume/expand/', 'expand-controller'],
  ['pkg/controller/volume/ephemeral/', 'ephemeral-volume-controller'],
  ['pkg/util/node/', 'node-lifecycle-controller'],
];

export function componentOf(path: string): string {
  const hit = COMPONENTS.filter(([prefix]) => path.startsWith(prefix)).sort((a, b) => b[0].length - a[0].length)[0];
  if (hit) return hit[1];
  const controller = /^pkg\/controller\/([^/]+)\//.exec(path);
  if (controller) return `${controller[1]}-controller`;
  throw new Error(`no component for ${path}`);
}

const title = (verb: string) => verb.charAt(0).toUpperCase() + verb.slice(1);

export const PROBES: readonly Probe[] = [
  // Events: every call with a literal or constant reason, then the reasons passed through variables.
  {
    paths: ['pkg/kubelet', 'pkg/volume', 'pkg/scheduler', ...CONTROLLERS],
    kind: 'event',
    pattern: EVENT_CALL,
    accept: CAMEL,
  },
  { paths: ['pkg/kubelet/events/event.go'], kind: 'event', component: 'kubelet', pattern: CONST_LINE },
  // The PV controller passes its reasons to helpers as `events.X`.
  { paths: ['pkg/controller/volume/persistentvolume'], kind: 'event', pattern: /\b(events\.[A-Z]\w*)/g },
  { paths: ['pkg/controller/job/job_controller.go'], kind: 'event', pattern: /\bfailureReason\s*=\s*("\w+")/g },
  { paths: ['pkg/controller/deployment/util/deployment_util.go'], kind: 'event', pattern: /^\s*Rollback\w*\s*=\s*("\w+")/gm },
  {
    paths: ['pkg/controller/statefulset/stateful_pod_control.go'],
    kind: 'event',
    pattern: /\brecord(?:Pod|Claim)Event\(("\w+")/g,
    expand: (verb) => [`Successful${title(verb)}`, `Failed${title(verb)}`],
  },
  { paths: ['pkg/controller/nodelifecycle', 'pkg/controller/nodeipam'], kind: 'event', pattern: /\bRecordNodeStatusChange\([^()\n]*,\s*("\w+")\)/g },

  // Container waiting reasons and the kubelet's sync errors (`failed to "StartContainer" … with CrashLoopBackOff`).
  {
    paths: ['pkg/kubelet/images/types.go', 'pkg/kubelet/container/sync_result.go', 'pkg/kubelet/kuberuntime/kuberuntime_container.go'],
    kind: 'status',
    component: 'kubelet',
    pattern: /\berrors\.New\(("[A-Z][A-Za-z]+")\)/g,
  },
  // Pod and container status reasons the kubelet writes: admission rejections, evictions, shutdown, defaults.
  {
    paths: [
      'pkg/kubelet/lifecycle',
      'pkg/kubelet/cm',
      'pkg/kubelet/sysctl',
      'pkg/kubelet/eviction',
      'pkg/kubelet/nodeshutdown',
      'pkg/kubelet/preemption',
      'pkg/kubelet/active_deadline.go',
      'pkg/kubelet/kubelet_pods.go',
      'pkg/kubelet/status/status_manager.go',
    ],
    kind: 'status',
    pattern: /\bReason:\s*("[^"\n]*"|[A-Za-z_][\w.]*)/g,
    accept: CAMEL,
  },
  { paths: ['pkg/kubelet/kubelet.go', 'pkg/kubelet/lifecycle/predicate.go'], kind: 'status', pattern: /\b\w*[Rr]eason\s*:?=\s*("[A-Z]\w+")/g },
  // `OutOf<resource>`, and the scheduler plugin names the kubelet re-checks (NodeAffinity, NodePorts, …).
  { paths: ['pkg/kubelet/lifecycle/predicate.go'], kind: 'status', pattern: /\bSprintf\(("OutOf%s")/g },
  { paths: ['pkg/kubelet/lifecycle/predicate.go'], kind: 'status', pattern: /PredicateFailureError\{(\w+\.Name)\b/g },
  { paths: ['pkg/kubelet/dockershim/docker_container.go'], kind: 'status', pattern: /\breason\s*=\s*("\w+")/g },
  { paths: ['pkg/util/node/node.go'], kind: 'status', pattern: /\bNodeUnreachablePodReason\s*=\s*("\w+")/g },

  // Conditions: the pod's (kubelet, scheduler), the node's (kubelet, runtime, node controller), the owners'.
  { paths: ['pkg/kubelet/status/generate.go'], kind: 'condition', pattern: CONST_LINE },
  { paths: ['pkg/scheduler/scheduler.go'], kind: 'condition', pattern: /\brecordSchedulingFailure\([^,\n]+,[^,\n]+,[^,\n]+,\s*([A-Za-z_][\w.]*)/g },
  {
    paths: [
      'pkg/kubelet/nodestatus/setters.go',
      'pkg/kubelet/kubelet_node_status.go',
      'pkg/kubelet/dockershim/docker_service.go',
      'pkg/controller/nodelifecycle/node_lifecycle_controller.go',
    ],
    kind: 'condition',
    pattern: /\bReason\s*[:=]\s*("[A-Z]\w+")/g,
  },
  { paths: ['pkg/controller/job/job_controller.go'], kind: 'condition', pattern: /\bfailureReason\s*=\s*("\w+")/g },
  { paths: ['pkg/controller/replicaset/replica_set_utils.go'], kind: 'condition', pattern: /\breason\s*=\s*("\w+")/g },
  {
    paths: ['pkg/controller/deployment/util/deployment_util.go'],
    kind: 'condition',
    pattern: /^\s*\w+(?:Reason|ReplicasAvailable|ReplicasUnavailable)\s*=\s*("\w+")/gm,
  },
  { paths: ['pkg/controller/namespace/deletion'], kind: 'condition', pattern: /\bReason:\s*("[A-Z]\w+")/g },

  // Scheduler filter reasons: what FailedScheduling says per node (`0/3 nodes are available: 3 <reason>.`).
  {
    paths: ['pkg/scheduler/framework/plugins', 'pkg/controller/volume/scheduling'],
    kind: 'scheduler-filter',
    component: 'scheduler',
    pattern:
      /\bErrReason\w*\s*(?:\w+\s*)?=\s*("[^"\n]+")|NewStatus\(framework\.Unschedulable\w*,\s*("[^"\n]+")|AppendReason\(("[^"\n]+")|Sprintf\(("(?:node\(s\)|Insufficient)[^"\n]*")|^\s*("(?:Too many|Insufficient) [^"\n]*"),$/gm,
  },

  // Admission refusals: why the API server refuses a pod, quoted in its owner's FailedCreate.
  {
    paths: [
      'staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go',
      'pkg/quota/v1/evaluator/core/pods.go',
      'plugin/pkg/admission/limitranger/admission.go',
      'plugin/pkg/admission/serviceaccount/admission.go',
      'plugin/pkg/admission/security/podsecuritypolicy/admission.go',
      'staging/src/k8s.io/apiserver/pkg/util/webhook/error.go',
      'staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go',
    ],
    kind: 'admission-error',
    component: 'apiserver',
    pattern: /\b(?:Errorf|Sprintf)\(("[^"\n]*")/g,
    // Internal errors (quota scopes that do not parse, dry-run support) are left out.
    accept:
      /^(?:exceeded quota|failed quota|insufficient quota|resource quota evaluation timed out|status unknown for quota|must specify|(?:maximum|minimum) %s usage per|%s max limit to request ratio per|error looking up service account %s|No API token found|PodSecurityPolicy: unable|failed calling webhook|admission webhook %q denied)/,
  },
];

/** Folders and files a probe never reads: tests, fakes, examples. */
function skipped(path: string): boolean {
  return /_test\.go$|\/(?:testing|testutil|fake\w*|examples)\/|\/fake_\w+\.go$|_windows\.go$|_unsupported\.go$|_others\.go$/.test(path);
}

function goFiles(root: string, rel: string): string[] {
  const abs = join(root, rel);
  if (!existsSync(abs)) throw new Error(`${rel} is not in ${root}: not a Kubernetes source tree?`);
  if (statSync(abs).isFile()) return [rel];
  const out: string[] = [];
  for (const entry of readdirSync(abs, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const child = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...goFiles(root, child));
    else if (entry.name.endsWith('.go')) out.push(child);
  }
  return out.filter((f) => !skipped(f));
}

/** A Go interpreted string literal's value (the escapes these files use). */
function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** Reads string constants of a Go package (a folder), and a file's imports, to resolve `x.Name`. */
class GoTree {
  private readonly consts = new Map<string, Map<string, string>>();
  private readonly texts = new Map<string, string>();

  constructor(readonly root: string) {}

  text(file: string): string {
    let t = this.texts.get(file);
    if (t === undefined) this.texts.set(file, (t = readFileSync(join(this.root, file), 'utf8')));
    return t;
  }

  /** String constants declared in one file (blocks, single lines, local consts). */
  fileConstants(file: string): Map<string, string> {
    let table = this.consts.get(file);
    if (table) return table;
    table = new Map();
    this.consts.set(file, table);
    const text = this.text(file);
    const blocks = [...text.matchAll(/\bconst\s*\(([\s\S]*?)^\s*\)/gm)].map((m) => m[1] ?? '');
    const singles = [...text.matchAll(/\bconst\s+(\w+(?:\s+[\w.]+)?\s*=\s*"(?:[^"\\\n]|\\.)*")/g)].map((m) => m[1] ?? '');
    for (const body of [...blocks, ...singles]) {
      for (const m of body.matchAll(/^\s*(\w+)(?:\s+[\w.]+)?\s*=\s*("(?:[^"\\\n]|\\.)*")/gm)) {
        if (!table.has(m[1]!)) table.set(m[1]!, unquote(m[2]!));
      }
    }
    return table;
  }

  /** String constants of the package (the folder `dir`). */
  constantsOf(dir: string): Map<string, string> {
    const key = `${dir}/`;
    let table = this.consts.get(key);
    if (table) return table;
    table = new Map();
    this.consts.set(key, table);
    const abs = join(this.root, dir);
    if (!existsSync(abs)) return table;
    for (const name of readdirSync(abs).sort()) {
      if (!name.endsWith('.go') || name.endsWith('_test.go')) continue;
      for (const [k, v] of this.fileConstants(`${dir}/${name}`)) if (!table.has(k)) table.set(k, v);
    }
    return table;
  }

  /** Import alias → folder in the tree, for the packages this tree holds. */
  importsOf(file: string): Map<string, string> {
    const text = this.text(file);
    const specs = [...text.matchAll(/^import\s*\(([\s\S]*?)^\)/gm)].flatMap((m) => (m[1] ?? '').split('\n'));
    specs.push(...[...text.matchAll(/^import\s+((?:\w+\s+)?"[^"]+")/gm)].map((m) => m[1] ?? ''));
    const out = new Map<string, string>();
    for (const spec of specs) {
      const m = /^\s*(\w+\s+)?"([^"]+)"/.exec(spec);
      if (!m) continue;
      const path = m[2]!;
      const dir = path.startsWith('k8s.io/kubernetes/')
        ? path.slice('k8s.io/kubernetes/'.length)
        : path.startsWith('k8s.io/')
          ? `staging/src/${path}`
          : undefined;
      if (dir) out.set(m[1]?.trim() ?? basename(path), dir);
    }
    return out;
  }

  /** A literal's value, or a constant's through the file's package or imports; undefined for a variable. */
  resolve(token: string, file: string): string | undefined {
    if (token.startsWith('"')) return unquote(token);
    const parts = token.split('.');
    // Go's convention: a lower-case name is the file's own (a local const, or else a parameter);
    // an exported one may come from any file of the package.
    if (parts.length === 1) return /^[a-z]/.test(token) ? this.fileConstants(file).get(token) : this.constantsOf(dirname(file)).get(token);
    if (parts.length !== 2) return undefined;
    const dir = this.importsOf(file).get(parts[0]!);
    return dir ? this.constantsOf(dir).get(parts[1]!) : undefined;
  }
}

export interface Extraction {
  reasons: Extracted[];
  /** Tokens after an event type that are variables (their values are caught by other probes). */
  unresolved: string[];
}

export function extract(root: string, version: string, probes: readonly Probe[] = PROBES): Extraction {
  const tree = new GoTree(root);
  const found = new Map<string, Extracted & { files: Set<string> }>();
  const unresolved: string[] = [];
  for (const probe of probes) {
    for (const file of [...new Set(probe.paths.flatMap((p) => goFiles(root, p)))]) {
      const text = tree.text(file);
      for (const m of text.matchAll(probe.pattern)) {
        const token = m.slice(1).find((g) => g !== undefined);
        if (!token) continue;
        const value = tree.resolve(token, file);
        if (value === undefined) {
          if (probe.kind === 'event') unresolved.push(`${file}:${text.slice(0, m.index).split('\n').length} ${token}`);
          continue;
        }
        if (probe.accept && !probe.accept.test(value)) continue;
        for (const reason of probe.expand ? probe.expand(value) : [value]) {
          const component = probe.component ?? componentOf(file);
          const key = `${probe.kind}\0${component}\0${reason}`;
          const hit = found.get(key) ?? { reason, kind: probe.kind, component, from: '', versions: version, files: new Set<string>() };
          hit.files.add(file);
          found.set(key, hit);
        }
      }
    }
  }
  const reasons = [...found.values()]
    .map(({ files, ...r }) => ({ ...r, from: `kubernetes v${version}: ${[...files].sort().join(', ')}` }))
    .sort((a, b) => a.component.localeCompare(b.component) || a.kind.localeCompare(b.kind) || a.reason.localeCompare(b.reason));
  return { reasons, unresolved };
}

/** `1.20.2` from Debian's `kubernetes (1.20.5+really1.20.2-1.1+deb12u1)`, else from `kubernetes-1.x.y`. */
export function detectVersion(root: string): string | undefined {
  const changelog = join(root, 'debian/changelog');
  if (existsSync(changelog)) {
    const head = /^\S+\s+\(([^)]+)\)/.exec(readFileSync(changelog, 'utf8'))?.[1] ?? '';
    const v = /really(\d+\.\d+\.\d+)/.exec(head)?.[1] ?? /^(\d+\.\d+\.\d+)/.exec(head)?.[1];
    if (v) return v;
  }
  return /kubernetes-(?:[\d.]+\+really)?(\d+\.\d+\.\d+)/.exec(basename(root))?.[1];
}

/** One reason a line, so a new release's extraction reads as a diff. */
export function render(version: string, reasons: readonly Extracted[]): string {
  const lines = reasons.map((r) => `    ${JSON.stringify(r)}`);
  return `{\n  "kubernetes": ${JSON.stringify(version)},\n  "generatedBy": "scripts/reasons/extract.ts",\n  "reasons": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const UPSTREAM_JSON = 'src/diagnosis/reasons/upstream.json';

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const check = args.includes('--check');
  const version = option('--version');
  const out = resolve(REPO_ROOT, option('--out') ?? UPSTREAM_JSON);
  const root = args.find((a) => !a.startsWith('--'));
  if (!root) {
    process.stderr.write('usage: npx tsx scripts/reasons/extract.ts <kubernetes-source-dir> [--version X.Y.Z] [--out file] [--check]\n');
    process.exit(2);
  }
  const v = version ?? detectVersion(resolve(root));
  if (!v) {
    process.stderr.write(`cannot tell the Kubernetes version of ${root}: pass --version\n`);
    process.exit(2);
  }
  const { reasons, unresolved } = extract(resolve(root), v);
  const text = render(v, reasons);
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(`${r.component} ${r.kind}`, (counts.get(`${r.component} ${r.kind}`) ?? 0) + 1);
  process.stdout.write(`${reasons.length} reasons from kubernetes ${v}\n`);
  for (const [k, n] of [...counts].sort()) process.stdout.write(`  ${k}: ${n}\n`);
  if (unresolved.length) process.stdout.write(`event reasons passed in variables (read by other probes or not reasons): ${unresolved.length}\n`);
  for (const u of unresolved) process.stdout.write(`  ${u}\n`);
  const rel = relative(REPO_ROOT, out);
  if (check) {
    if (!existsSync(out) || readFileSync(out, 'utf8') !== text) {
      process.stderr.write(`${rel} differs from what ${root} gives: run without --check\n`);
      process.exitCode = 1;
    } else process.stdout.write(`${rel} is up to date\n`);
  } else {
    writeFileSync(out, text);
    process.stdout.write(`wrote ${rel}\n`);
  }
}
