// Registry contracts: every playbook a rule can suggest exists and matches that rule; every
// playbook matches real rule ids and has an end-to-end test; step kinds and agent actions are
// exactly their files.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_ACTIONS, isAgentActionName } from '../../src/agent/actions/types.js';
import { RULES } from '../../src/diagnosis/rules/index.js';
import { ACTIONS } from '../../src/remediation/actions/index.js';
import { defaultPlaybookDir, loadPlaybooks } from '../../src/remediation/load.js';

const playbooks = await loadPlaybooks();
const ids = playbooks.map((p) => p.id);
const RULE_DIR = join(import.meta.dirname, '../../src/diagnosis/rules');

/** Playbook ids named anywhere in rule sources: meta.playbook and per-finding overrides. */
function playbooksNamedByRules(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of readdirSync(RULE_DIR).filter((x) => x.endsWith('.ts') && !x.endsWith('.test.ts') && x !== 'index.ts')) {
    for (const m of readFileSync(join(RULE_DIR, f), 'utf8').matchAll(/\bplaybook:\s*'([a-z0-9-]+)'/g)) {
      out.set(m[1]!, [...(out.get(m[1]!) ?? []), f]);
    }
  }
  return out;
}

describe('playbook registry', () => {
  it('has a playbook for every playbook a rule suggests, matching that rule', () => {
    for (const rule of RULES) {
      if (!rule.meta.playbook) continue;
      const book = playbooks.find((p) => p.id === rule.meta.playbook);
      expect(book, `${rule.meta.id} suggests ${rule.meta.playbook}`).toBeDefined();
      expect(book?.matches, `${rule.meta.playbook} must match ${rule.meta.id}`).toContain(rule.meta.id);
    }
    for (const [id, files] of playbooksNamedByRules()) expect(ids, `named in ${files.join(', ')}`).toContain(id);
  });

  it('matches and verifies only real rule ids', () => {
    const ruleIds = new Set(RULES.map((r) => r.meta.id));
    for (const p of playbooks) for (const id of [...p.matches, ...p.verify]) expect(ruleIds.has(id), `${p.id}: ${id}`).toBe(true);
  });

  it('ships the catalogue playbooks, each with an end-to-end test', () => {
    expect(ids.sort()).toEqual(
      [
        'clear-namespace-finalizers',
        'contain-cascade',
        'force-delete-pod',
        'recreate-pod',
        'release-mount-holder',
        'remove-finalizers',
        'remove-stuck-containers',
        'repull-image',
        'restart-kubelet',
        'rollback-to-revision',
        'stop-mount-holder',
        'unhang-fuse-mount',
      ].sort(),
    );
    const e2e = readFileSync(join(import.meta.dirname, 'playbooks.test.ts'), 'utf8');
    for (const id of ids) expect(e2e, id).toMatch(new RegExp(`describe\\('${id}[ ')]`));
    expect(readdirSync(defaultPlaybookDir()).filter((f) => f.endsWith('.yaml')).length).toBe(ids.length);
  });

  it('registers exactly the step kind files, and one step kind per agent action', () => {
    const files = readdirSync(join(import.meta.dirname, '../../src/remediation/actions')).filter(
      (f) => f.endsWith('.ts') && !['index.ts', 'types.ts', 'agent-step.ts'].includes(f),
    );
    expect(
      Object.keys(ACTIONS)
        .filter((k) => !isAgentActionName(k))
        .map((k) => `${k}.ts`)
        .sort(),
    ).toEqual(files.sort());
    for (const k of AGENT_ACTIONS) expect(ACTIONS[k]?.kind, k).toBe(k);
    for (const a of Object.values(ACTIONS)) expect(typeof a.destructive, a.kind).toBe('boolean');
  });

  it('registers exactly the agent action files', () => {
    const files = readdirSync(join(import.meta.dirname, '../../src/agent/actions')).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !['index.ts', 'types.ts'].includes(f) && !f.startsWith('host-exec'),
    );
    expect(AGENT_ACTIONS.map((k) => `${k}.ts`).sort()).toEqual(files.sort());
  });
});
