// The registry equals the files: every rule file is registered, ids match file names,
// every rule has its own test file, and ids follow the catalogue's `area.name` shape.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleFileName } from '../src/diagnosis/rule.js';
import { RULES } from '../src/diagnosis/rules/index.js';

const dir = join(import.meta.dirname, '../src/diagnosis/rules');
const files = readdirSync(dir);
const ruleFiles = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts');
const catalogue = readFileSync(join(import.meta.dirname, '../../shared/CATALOGUE.md'), 'utf8');
/** Ids pod-doctor adds to the catalogue (it allows new `area.name` ids; none is renamed). */
const ADDED_IDS = ['terminating.stuck'];

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
  it('uses catalogue ids', () => {
    for (const r of RULES) {
      if (ADDED_IDS.includes(r.meta.id)) expect(catalogue).not.toContain(`\`${r.meta.id}\``);
      else expect(catalogue, r.meta.id).toContain(`\`${r.meta.id}\``);
    }
  });
  it('has meta a human can read', () => {
    for (const r of RULES) {
      expect(r.meta.title.length).toBeGreaterThan(5);
      expect(r.meta.doc.length).toBeGreaterThan(20);
      expect(r.meta.id.startsWith(r.meta.category) || r.meta.id.split('.')[0] === r.meta.category).toBe(true);
    }
  });
});
