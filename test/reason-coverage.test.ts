// Every reason the kubelet, the scheduler, the controllers, admission and the runtimes emit
// (src/diagnosis/reasons/upstream.ts) is mapped to the rules that handle it or to the catch-all
// with a reason why (coverage.ts). A new extraction or a new addition fails here until it is
// mapped; a renamed or removed rule fails here until its mappings move. Where a rule's own
// parser can be asked (scheduler reasons, admission refusals, kubelet rejections), the mapping
// must agree with what that parser says.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { componentOf, detectVersion, type Extracted, extract, type Probe, render, UPSTREAM_JSON } from '../scripts/reasons/extract.js';
import { diagnose } from '../src/diagnosis/engine.js';
import { classifyPullError } from '../src/diagnosis/pull-errors.js';
import { COVERAGE, type Coverage, coverageOf, PROPOSED } from '../src/diagnosis/reasons/coverage.js';
import { coverageKey, EXTRACTED_FROM, type ExampleSurface, UPSTREAM_REASONS, type UpstreamReason } from '../src/diagnosis/reasons/upstream.js';
import { DEFAULT_RULE_CONTEXT } from '../src/diagnosis/rule.js';
import { rule as kubeletRejected } from '../src/diagnosis/rules/admission-kubelet-rejected.js';
import { parseRejection } from '../src/diagnosis/rules/admission-rejected.js';
import { RULES } from '../src/diagnosis/rules/index.js';
import { type FitReasonKind, parseFitError } from '../src/diagnosis/scheduling.js';
import { SEVERITY_ORDER, type Snapshot } from '../src/diagnosis/types.js';
import { REPO } from './helpers/deploy.js';
import { ago, crashedPod, event, logTail, node, pod, snapshot, waitingPod } from './helpers/factories.js';

const REGISTERED = new Set(RULES.map((r) => r.meta.id));
const PROPOSED_IDS = new Set(Object.keys(PROPOSED));
const label = (r: UpstreamReason) => `${r.component} ${coverageKey(r)}`;
const rulesOf = (c: Coverage | undefined): readonly string[] => (c && 'rules' in c ? c.rules : []);

/** A Go template with sample values, so a rule's parser can read it. */
function fill(template: string): string {
  return template.replace(/%[sqvfdw]/g, (verb, at: number) => {
    const before = template.slice(0, at);
    if (/(?:usage|ratio) per $/.test(before)) return 'Container';
    if (/failed quota: \S+: $/.test(before)) return 'must specify limits.cpu';
    if (/\{$/.test(before)) return 'dedicated';
    if (/\{\S+: $/.test(before)) return 'gpu';
    if (verb === '%q') return '"web"';
    if (verb === '%f') return '1.5';
    if (verb === '%d') return '1';
    return /^Insufficient $/.test(before) ? 'nvidia.com/gpu' : 'cpu';
  });
}

describe('the upstream reason catalogue', () => {
  it(`holds the ${EXTRACTED_FROM} extraction and the additions, each reason once per component and kind`, () => {
    expect(EXTRACTED_FROM).toMatch(/^\d+\.\d+\.\d+$/);
    const labels = UPSTREAM_REASONS.map(label);
    expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
    for (const kind of ['event', 'status', 'condition', 'scheduler-filter', 'admission-error', 'runtime-error'] as const) {
      expect(
        UPSTREAM_REASONS.some((r) => r.kind === kind),
        kind,
      ).toBe(true);
    }
  });
});

describe('every upstream reason is mapped', () => {
  for (const r of UPSTREAM_REASONS) {
    it(`maps ${label(r)}`, () => {
      const c = coverageOf(r);
      expect(c, `add "${coverageKey(r)}" under ${r.component} in src/diagnosis/reasons/coverage.ts`).toBeDefined();
      if (!c) return;
      if ('catchAll' in c) {
        expect(c.catchAll.trim(), 'a catch-all says why in one line').not.toBe('');
        expect(c.catchAll).not.toMatch(/\n/);
        return;
      }
      expect(c.rules.length).toBeGreaterThan(0);
      for (const id of c.rules) expect(REGISTERED.has(id) || PROPOSED_IDS.has(id), `${id} is neither registered (rules/index.ts) nor PROPOSED`).toBe(true);
    });
  }
});

describe('the coverage map', () => {
  it('maps nothing that the catalogue does not hold (a stale entry after a new extraction)', () => {
    const known = new Set(UPSTREAM_REASONS.map(label));
    const stale = Object.entries(COVERAGE).flatMap(([component, entries]) => Object.keys(entries).map((key) => `${component} ${key}`));
    expect(stale.filter((l) => !known.has(l))).toEqual([]);
  });

  it('proposes only ids no rule has yet, each used by some reason', () => {
    const used = new Set(UPSTREAM_REASONS.flatMap((r) => rulesOf(coverageOf(r))));
    for (const id of PROPOSED_IDS) {
      expect(REGISTERED.has(id), `${id} is registered now: move its reasons out of PROPOSED`).toBe(false);
      expect(used.has(id), `${id} covers no reason`).toBe(true);
      expect(id).toMatch(/^[a-z-]+\.[a-z-]+$/);
    }
  });

  // The lead turns each PROPOSED class into a rule (or maps its reasons elsewhere); until then
  // this fails on purpose and lists what is missing.
  it('has no PROPOSED rule left', () => {
    expect(Object.entries(PROPOSED).map(([id, what]) => `${id}: ${what}`)).toEqual([]);
  });
});

describe('mappings agree with the parsers of the rules they name', () => {
  const KIND_RULE: Partial<Record<FitReasonKind, string>> = {
    resources: 'pending.insufficient-resources',
    pods: 'pending.too-many-pods',
    selector: 'pending.unschedulable-selector',
    taint: 'pending.taint',
    hostport: 'pending.hostport-conflict',
    'pod-affinity': 'pending.pod-affinity',
    volume: 'pending.pvc',
    'volume-limit': 'pending.volume-limit',
    unschedulable: 'pending.nodes-cordoned',
  };
  const pendingRules = new Set(Object.values(KIND_RULE));

  for (const r of UPSTREAM_REASONS.filter((x) => x.kind === 'scheduler-filter')) {
    it(`scheduler: ${r.reason}`, () => {
      const fit = parseFitError(`0/3 nodes are available: 3 ${fill(r.reason)}.`);
      const kind = fit?.reasons[0]?.kind ?? 'other';
      const expected = KIND_RULE[kind];
      const mapped = rulesOf(coverageOf(r));
      if (expected) expect(mapped, `parseFitError calls it ${kind}`).toContain(expected);
      else
        expect(
          mapped.filter((id) => pendingRules.has(id)),
          `parseFitError calls it ${kind}: no pending rule reads it`,
        ).toEqual([]);
    });
  }

  for (const r of UPSTREAM_REASONS.filter((x) => x.kind === 'admission-error')) {
    it(`admission: ${r.reason}`, () => {
      // `must specify` only ever appears inside a `failed quota` refusal.
      const text = r.reason.startsWith('must specify') ? `failed quota: compute: ${fill(r.reason)}` : fill(r.reason);
      const parsed = parseRejection(`pods "web-1" is forbidden: ${text}`);
      expect(rulesOf(coverageOf(r)).includes('admission.rejected'), parsed ? `parsed as ${parsed.policy}` : 'not parsed').toBe(parsed !== undefined);
    });
  }

  const PULL_CLASS_RULE: Record<string, string> = {
    'not-found': 'image.not-found',
    auth: 'image.auth',
    'insecure-registry': 'image.insecure-registry',
    'untrusted-ca': 'image.untrusted-ca',
    'registry-unreachable': 'image.registry-unreachable',
    'corrupt-blob': 'image.corrupt-blob',
    throttled: 'image.pull-throttled',
    timeout: 'image.pull-timeout',
    platform: 'image.wrong-arch',
    'short-name': 'image.short-name',
    forbidden: 'image.forbidden',
    'disk-full': 'image.node-disk-full',
    transfer: 'image.transfer-interrupted',
    signature: 'image.signature-rejected',
  };
  for (const r of UPSTREAM_REASONS.filter((x) => x.kind === 'runtime-error')) {
    it(`pull error: ${r.reason}`, () => {
      const { class: cls } = classifyPullError(`Failed to pull image "web:1": ${fill(r.reason)}`);
      const c = coverageOf(r);
      // A wrapper says nothing by itself: the pull classifier must not take it for a class.
      if (c && 'catchAll' in c && /^wrapper/.test(c.catchAll)) expect(cls, 'a wrapper is no pull class').toBe('unknown');
      if (cls === 'unknown') return;
      expect(PULL_CLASS_RULE[cls], `no rule known for pull class ${cls}`).toBeDefined();
      expect(rulesOf(c), `classifyPullError calls it ${cls}`).toContain(PULL_CLASS_RULE[cls]);
    });
  }

  const rejections = UPSTREAM_REASONS.filter((r) => {
    const c = coverageOf(r);
    return (
      r.kind === 'status' && (rulesOf(c).includes('admission.kubelet-rejected') || (c && 'catchAll' in c && /admission\.kubelet-rejected/.test(c.catchAll)))
    );
  });
  for (const r of rejections) {
    it(`kubelet rejection: ${r.reason}`, () => {
      const reason = r.reason.replace('%s', 'cpu');
      const p = pod({ status: { phase: 'Failed', reason, message: `Pod was rejected: ${reason}` } });
      const found = kubeletRejected.check(snapshot(p), DEFAULT_RULE_CONTEXT);
      expect(Boolean(found), found ? 'the rule reports it' : 'the rule ignores it').toBe(rulesOf(coverageOf(r)).includes('admission.kubelet-rejected'));
    });
  }
});

// The runtimes' own words (containerd, CRI-O, crun, runc) reach the pod as a container's waiting or
// termination message, a log line, an event or the node's condition; a text mapped to a rule must be read
// by it there, in a snapshot where nothing else is wrong: the first finding of warning or worse is one of
// the rules the text maps to. Each such text carries a real example (additions.ts), and a new runtime
// text mapped to a rule fails here until it has one.
const RUNTIMES = new Set(['containerd', 'cri-o', 'crun', 'runc']);
const RUNTIME_VERSION: Record<string, string> = {
  containerd: 'containerd://2.0.4',
  'cri-o': 'cri-o://1.31.3',
  crun: 'cri-o://1.31.3',
  runc: 'containerd://2.1.1',
};

function exampleSnapshot(surface: ExampleSurface, text: string, component: string): Snapshot {
  const onNode = node({ status: { nodeInfo: { containerRuntimeVersion: RUNTIME_VERSION[component] ?? 'containerd://2.0.4' } } });
  switch (surface) {
    case 'pull':
      return snapshot(
        waitingPod('ErrImagePull', text, {
          spec: { containers: [{ name: 'web', image: classifyPullError(text).image ?? 'registry.example.com/shop/web:1.4.2' }] },
        }),
        {
          node: onNode,
        },
      );
    case 'create':
      return snapshot(waitingPod('CreateContainerError', text), { node: onNode });
    case 'start':
      return snapshot(crashedPod({ exitCode: 128, reason: 'StartError', message: text, restarts: 5 }), { node: onNode });
    case 'log':
      return snapshot(crashedPod({ exitCode: 1, restarts: 5 }), { node: onNode, logs: [logTail('web', [text])] });
    case 'probe': {
      const p = crashedPod(
        { exitCode: 137, restarts: 6 },
        { spec: { containers: [{ name: 'web', image: 'redis:7.2', livenessProbe: { exec: { command: ['redis-cli', 'ping'] }, periodSeconds: 10 } }] } },
      );
      return snapshot(p, {
        node: onNode,
        events: [
          event(p, { reason: 'Unhealthy', count: 18, fieldPath: 'spec.containers{web}', message: text }),
          event(p, {
            reason: 'Killing',
            type: 'Normal',
            count: 6,
            fieldPath: 'spec.containers{web}',
            message: 'Container web failed liveness probe, will be restarted',
          }),
        ],
      });
    }
    case 'sandbox': {
      const p = waitingPod('ContainerCreating', undefined, { metadata: { creationTimestamp: ago(900) } });
      return snapshot(p, { node: onNode, events: [event(p, { reason: 'FailedCreatePodSandBox', count: 12, message: text })] });
    }
    case 'teardown': {
      const p = pod({ metadata: { deletionTimestamp: ago(900), deletionGracePeriodSeconds: 30 } });
      return snapshot(p, { node: onNode, events: [event(p, { reason: 'FailedKillPod', count: 20, message: text })] });
    }
    case 'node': {
      const notReady = node({
        status: {
          nodeInfo: { containerRuntimeVersion: RUNTIME_VERSION[component] ?? 'containerd://2.0.4' },
          conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: text, lastHeartbeatTime: ago(10), lastTransitionTime: ago(1800) }],
        },
      });
      return snapshot(waitingPod('ContainerCreating', undefined, { metadata: { creationTimestamp: ago(1800) } }), { node: notReady });
    }
  }
}

describe('runtime wording reaches a rule it maps to', () => {
  const mapped = UPSTREAM_REASONS.filter((r) => r.kind === 'runtime-error' && RUNTIMES.has(r.component) && rulesOf(coverageOf(r)).length > 0);

  it('has a real example for every runtime text mapped to a rule', () => {
    expect(mapped.filter((r) => !r.example).map(label)).toEqual([]);
    for (const component of RUNTIMES)
      expect(
        mapped.some((r) => r.component === component),
        component,
      ).toBe(true);
  });

  for (const r of UPSTREAM_REASONS.filter((x) => x.example)) {
    it(`${label(r)}: ${r.example?.surface}`, () => {
      const example = r.example!;
      // The example speaks the reason's own words (its Go verbs aside).
      const words = r.reason.split(/%[sqvwdf]/).filter((w) => w.trim().length > 3);
      for (const w of words) expect(example.text, 'the example quotes the reason').toContain(w);
      const rules = rulesOf(coverageOf(r));
      expect(rules.length, 'an example belongs to a reason mapped to rules').toBeGreaterThan(0);
      const d = diagnose(exampleSnapshot(example.surface, example.text, r.component), { rules: RULES });
      expect(d.ruleErrors).toEqual([]);
      const first = d.findings.find((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning);
      expect(first?.rule, `findings: ${d.findings.map((f) => `${f.rule} (${f.severity})`).join(', ') || 'none'}`).toBeOneOf([...rules]);
    });
  }
});

describe('the extractor (scripts/reasons/extract.ts)', () => {
  const root = mkdtempSync(join(tmpdir(), 'reasons-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'debian/changelog': 'kubernetes (1.20.5+really1.20.2-1.1+deb12u1) bookworm; urgency=medium\n',
    'pkg/kubelet/events/event.go': 'package events\n\nconst (\n\tFailedMountVolume = "FailedMount"\n\tBackOffPullImage  = "BackOff"\n)\n',
    'pkg/kubelet/volumes.go': [
      'package kubelet',
      '',
      'import (',
      '\tv1 "k8s.io/api/core/v1"',
      '\tkevents "k8s.io/kubernetes/pkg/kubelet/events"',
      ')',
      '',
      'const reason = "DeadlineExceeded"',
      '',
      'func f() {',
      '\tr.Eventf(pod, v1.EventTypeWarning, kevents.FailedMountVolume, "Unable to attach or mount volumes: %v", err)',
      '\tr.Event(ref, v1.EventTypeNormal, "Pulled", msg)',
      '\tr.Eventf(pod, v1.EventTypeNormal, reason, message)',
      '}',
    ].join('\n'),
    // `reason` is a parameter here: the constant of volumes.go must not be taken for it.
    'pkg/kubelet/reject.go': 'package kubelet\n\nfunc reject(reason string) {\n\tr.Eventf(pod, v1.EventTypeWarning, reason, message)\n}\n',
    'pkg/kubelet/volumes_test.go': 'package kubelet\n\nfunc t() { r.Event(pod, v1.EventTypeWarning, "TestOnly", "") }\n',
    'pkg/controller/statefulset/pods.go': 'package statefulset\n\nfunc g() {\n\tspc.recordPodEvent("create", set, pod, err)\n}\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const probes: Probe[] = [
    { paths: ['pkg/kubelet'], kind: 'event', pattern: /\bEventType(?:Warning|Normal)\s*,\s*("[^"]*"|[A-Za-z_][\w.]*)/g, accept: /^[A-Z][A-Za-z]+$/ },
    { paths: ['pkg/kubelet/events/event.go'], kind: 'event', component: 'kubelet', pattern: /^\s*[A-Z]\w*\s*=\s*("[^"]*")/gm },
    {
      paths: ['pkg/controller/statefulset/pods.go'],
      kind: 'event',
      pattern: /\brecordPodEvent\(("\w+")/g,
      expand: (verb) => [`Successful${verb[0]!.toUpperCase()}${verb.slice(1)}`, `Failed${verb[0]!.toUpperCase()}${verb.slice(1)}`],
    },
  ];
  const version = detectVersion(root) ?? '';
  const { reasons, unresolved } = extract(root, version, probes);
  const find = (reason: string) => reasons.find((r) => r.reason === reason);

  it("reads the version from Debian's changelog", () => {
    expect(version).toBe('1.20.2');
  });

  it.each([
    ['FailedMount', 'kubelet', 'kubernetes v1.20.2: pkg/kubelet/events/event.go, pkg/kubelet/volumes.go'],
    ['BackOff', 'kubelet', 'kubernetes v1.20.2: pkg/kubelet/events/event.go'],
    ['Pulled', 'kubelet', 'kubernetes v1.20.2: pkg/kubelet/volumes.go'],
    ['DeadlineExceeded', 'kubelet', 'kubernetes v1.20.2: pkg/kubelet/volumes.go'],
    ['SuccessfulCreate', 'statefulset-controller', 'kubernetes v1.20.2: pkg/controller/statefulset/pods.go'],
    ['FailedCreate', 'statefulset-controller', 'kubernetes v1.20.2: pkg/controller/statefulset/pods.go'],
  ])('finds %s (%s), a literal or a constant through the imports', (reason, component, from) => {
    expect(find(reason)).toEqual({ reason, kind: 'event', component, from, versions: '1.20.2' } satisfies Extracted);
  });

  it('skips tests, and reports reasons passed in variables instead of guessing them', () => {
    expect(find('TestOnly')).toBeUndefined();
    expect(reasons).toHaveLength(6);
    expect(unresolved).toEqual(['pkg/kubelet/reject.go:4 reason']);
  });

  it.each([
    ['pkg/kubelet/kuberuntime/kuberuntime_manager.go', 'kubelet'],
    ['pkg/kubelet/dockershim/docker_container.go', 'dockershim'],
    ['pkg/volume/util/operationexecutor/operation_generator.go', 'kubelet'],
    ['pkg/controller/job/job_controller.go', 'job-controller'],
    ['pkg/controller/daemon/daemon_controller.go', 'daemonset-controller'],
    ['pkg/controller/nodelifecycle/scheduler/taint_manager.go', 'taint-eviction-controller'],
    ['pkg/controller/volume/scheduling/scheduler_binder.go', 'scheduler'],
  ])('names the component of %s: %s', (path, component) => {
    expect(componentOf(path)).toBe(component);
  });

  it('writes upstream.json exactly as the extractor renders it (no hand edits), one reason a line', () => {
    const text = readFileSync(join(REPO, UPSTREAM_JSON), 'utf8');
    const parsed = JSON.parse(text) as { kubernetes: string; reasons: Extracted[] };
    expect(render(parsed.kubernetes, parsed.reasons)).toBe(text);
    expect(text.split('\n').filter((l) => l.startsWith('    {'))).toHaveLength(parsed.reasons.length);
  });
});
