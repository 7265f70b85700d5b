// The registry equals the files: every rule file is registered, ids match file names,
// every rule has its own test file, ids have the `area.name` shape, and no published id is
// ever renamed or dropped (findings, alert routes and rule overrides name them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholders } from '../src/diagnosis/messages.js';
import { ruleFileName } from '../src/diagnosis/rule.js';
import { RULES } from '../src/diagnosis/rules/index.js';

const dir = join(import.meta.dirname, '../src/diagnosis/rules');
const files = readdirSync(dir);
const ruleFiles = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts');
/**
 * Ids already published (the failure-mode catalogue the product started from, 2026-11). New
 * rules need not be listed here; this list only guards against renaming or removing one.
 */
const PUBLISHED_IDS = [
  'terminating.finalizers',
  'terminating.node-lost',
  'terminating.mount-busy',
  'terminating.runtime-hung',
  'terminating.exec-hang',
  'terminating.subpath-umount-busy',
  'terminating.cni-teardown',
  'terminating.status-lag',
  'terminating.stuck',
  'pending.scheduler-down',
  'pending.unschedulable-selector',
  'pending.insufficient-resources',
  'pending.too-many-pods',
  'pending.hostport-conflict',
  'pending.taint',
  'pending.pvc',
  'sandbox.create-failed',
  'resources.memory-units',
  'image.not-found',
  'image.auth',
  'image.insecure-registry',
  'image.untrusted-ca',
  'image.registry-unreachable',
  'image.corrupt-blob',
  'image.pull-throttled',
  'image.pull-timeout',
  'image.corrupt-local',
  'crash.oomkilled',
  'crash.subpath-missing',
  'crash.probe-failing',
  'crash.app-exit',
  'crash.ipv6-disabled',
  'config.missing-reference',
  'evicted.node-pressure',
  'admission.rejected',
  'node.notready-cascade',
  'node.runtime-unresponsive',
  'network.calico-endpoint-missing',
  'namespace.terminating',
  'static-pod.stale',
];

describe('rule registry', () => {
  it('registers exactly the rule files', () => {
    expect(RULES.map((r) => `${ruleFileName(r.meta.id)}.ts`).sort()).toEqual(ruleFiles.sort());
  });
  it('has unique ids in area.name form', () => {
    const ids = RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z-]+\.[a-z0-9-]+$/);
  });
  it('gives every rule a test file beside it', () => {
    for (const r of RULES) expect(files).toContain(`${ruleFileName(r.meta.id)}.test.ts`);
  });
  it('keeps every published id', () => {
    const ids = new Set(RULES.map((r) => r.meta.id));
    expect(PUBLISHED_IDS.filter((id) => !ids.has(id))).toEqual([]);
  });
  it('suggests only playbooks that exist', () => {
    for (const r of RULES)
      if (r.meta.playbook)
        expect(existsSync(join(import.meta.dirname, '../playbooks', `${r.meta.playbook}.yaml`)), `${r.meta.id} → ${r.meta.playbook}`).toBe(true);
  });
  it('has meta a human can read', () => {
    for (const r of RULES) {
      expect(r.meta.title.length).toBeGreaterThan(5);
      expect(r.meta.doc.length).toBeGreaterThan(20);
      expect(r.meta.id.startsWith(r.meta.category) || r.meta.id.split('.')[0] === r.meta.category).toBe(true);
    }
  });
});

// The rules' words are data (typescript-eslint's meta.messages): checks return message ids and
// values; the templates live in meta.messages, each one used, none left unused.
describe("the rules' words", () => {
  const sourceOf = (id: string) => readFileSync(join(dir, `${ruleFileName(id)}.ts`), 'utf8');
  it('every rule words its findings in meta.messages, and uses every message it defines', () => {
    for (const r of RULES) {
      const source = sourceOf(r.meta.id);
      const ids = Object.keys(r.meta.messages);
      expect(ids.length, r.meta.id).toBeGreaterThan(0);
      const unused = ids.filter((id) => !source.includes(`'${id}'`) && !source.includes(`"${id}"`));
      expect(unused, `${r.meta.id}: messages never referenced`).toEqual([]);
    }
  });
  it('says what it says here, once: every message of every rule, by id (rule tests assert ids and values)', () => {
    const wording = Object.fromEntries(RULES.map((r) => [r.meta.id, r.meta.messages]));
    expect(wording).toMatchSnapshot();
  });
  it('writes placeholders as {{name}} only', () => {
    for (const r of RULES)
      for (const [id, template] of Object.entries(r.meta.messages)) {
        expect(template.trim().length, `${r.meta.id}.${id}`).toBeGreaterThan(0);
        expect(template.split('{{').length - 1, `${r.meta.id}.${id}: a malformed placeholder`).toBe(placeholders(template).length);
      }
  });
  it('never puts prose of its own in a finding: title, cause, advice and prevent are message references', () => {
    const literalProse = /\b(title|cause|advice|prevent):\s*\[?\s*['"`]/;
    for (const r of RULES) {
      const check = sourceOf(r.meta.id).split(/\n {2}check\(/)[1] ?? '';
      expect(literalProse.exec(check)?.[0], r.meta.id).toBeUndefined();
    }
  });
  it('keeps its lines within 160 characters (long templates and docs are split with +)', () => {
    for (const r of RULES) {
      const long = sourceOf(r.meta.id)
        .split('\n')
        .map((line, i) => ({ line: i + 1, length: line.length }))
        .filter((l) => l.length > 160);
      expect(long, r.meta.id).toEqual([]);
    }
  });
});

// Precision before playbooks (issue 21): wrong advice is worse than generic advice, so a rule that
// can offer a cluster change must show in its own tests that the wording of neighbouring classes
// does not set it off: at least two `valid` cases named `near miss (<neighbour> vs <this class>): ...`.
const NEAR_MISS = /\bname:\s*(['"`])near miss \([^)]*\bvs\b[^)]*\): /g;

/** Whether a `playbook:` value in a rule's source can name a playbook (`'x'`, `fix`, `c ? undefined : fix`), not only none. */
function offersPlaybook(expression: string): boolean {
  const e = expression.trim();
  const q = e.indexOf('?');
  const branches = q >= 0 && e.indexOf(':', q) > q ? [e.slice(q + 1, e.indexOf(':', q)), e.slice(e.indexOf(':', q) + 1)] : [e];
  return branches.some((b) => !['null', 'undefined'].includes(b.trim()));
}

/** Playbooks a rule's meta or drafts can offer, read from its source. */
function playbookValues(source: string): string[] {
  return [...source.matchAll(/\bplaybook:\s*([^,\n}]+)/g)].map((m) => m[1] ?? '').filter(offersPlaybook);
}

/** Names of the `valid` cases (not `invalid`) of every testRule table in a test file that are near misses. */
function validNearMisses(testText: string): string[] {
  return testText.split(/\binvalid:\s*\[/).flatMap((chunk) => {
    const start = chunk.search(/\bvalid:\s*\[/);
    return start < 0 ? [] : [...chunk.slice(start).matchAll(NEAR_MISS)].map((m) => m[0]);
  });
}

describe('rules that offer a playbook', () => {
  const offering = RULES.filter(
    (r) => r.meta.playbook !== undefined || playbookValues(readFileSync(join(dir, `${ruleFileName(r.meta.id)}.ts`), 'utf8')).length > 0,
  );

  it('are found from meta and drafts', () => {
    expect(offering.length).toBeGreaterThan(0);
    expect(playbookValues('playbook: null, playbook: fuse ? undefined : null, playbook: deleting ? null : undefined')).toEqual([]);
    expect(playbookValues("playbook: 'recreate-pod', playbook: fix === 'a' ? undefined : fix")).toHaveLength(2);
  });

  it('count near misses only among valid cases', () => {
    const text = `testRule(rule, { valid: [{ name: 'near miss (a vs b): x' }, { name: 'plain' }], invalid: [{ name: 'near miss (c vs d): y' }] });`;
    expect(validNearMisses(text)).toHaveLength(1);
  });

  it('each have at least two near-miss negatives named `near miss (<neighbour> vs <this class>): ...`', () => {
    const short = offering
      .map((r) => ({ id: r.meta.id, nearMisses: validNearMisses(readFileSync(join(dir, `${ruleFileName(r.meta.id)}.test.ts`), 'utf8')).length }))
      .filter((r) => r.nearMisses < 2);
    expect(short, 'add valid cases with the wording of neighbouring classes (see image-corrupt-local.test.ts)').toEqual([]);
  });
});

// A fresh clone has nothing beside the repository: no code or test may read a path above it.
describe('the repository stands alone', () => {
  const root = join(import.meta.dirname, '..');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : /\.(ts|js|mjs|sh|py)$/.test(e.name) ? [join(dir, e.name)] : [],
    );
  it('has no reference to ../shared in src/, test/, scripts/ or bench/', () => {
    const offenders = ['src', 'test', 'scripts', 'bench']
      .flatMap((d) => walk(join(root, d)))
      .filter((f) => /\.\.\/(\.\.\/)*shared\//.test(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => f.slice(root.length + 1))).toEqual([]);
  });
});
