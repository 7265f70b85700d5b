// The generated README sections match their sources (the config schema, the rule registry),
// so CI fails on drift: run `npm run readme` after changing a setting or a rule's meta.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import {
  beginMarker,
  cell,
  endMarker,
  mechanismsDocStale,
  ReadmeError,
  renderConfigSection,
  renderRulesDoc,
  renderRulesSection,
  replaceSection,
  rulesDocStale,
  settingDefault,
  staleSections,
} from '../../scripts/gen-readme.js';
import { loadConfig, SETTINGS } from '../../src/config/schema.js';
import { RULES } from '../../src/diagnosis/rules/index.js';
import { REPO } from '../helpers/deploy.js';

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');

describe('README.md', () => {
  it('has both generated sections, each once', () => {
    for (const name of ['config', 'rules'] as const) {
      expect(readme.split(beginMarker(name))).toHaveLength(2);
      expect(readme.indexOf(endMarker(name))).toBeGreaterThan(readme.indexOf(beginMarker(name)));
    }
  });

  it('is up to date with the config schema and the rule registry (npm run readme)', () => {
    expect(staleSections(readme)).toEqual([]);
  });

  it('has docs/mechanisms.md up to date with the mechanism catalogue (npm run readme)', () => {
    expect(mechanismsDocStale(REPO)).toBe(false);
  });

  it('has docs/rules.md up to date, every rule under its family with its doc', () => {
    expect(rulesDocStale(REPO)).toBe(false);
    const doc = renderRulesDoc();
    for (const r of RULES) {
      expect(
        doc.split('\n').filter((l) => l === `### \`${r.meta.id}\``),
        r.meta.id,
      ).toHaveLength(1);
      expect(doc).toContain(cell(r.meta.doc));
    }
  });
});

describe('the config file examples in the docs', () => {
  const yamlBlocks = (file: string) => [...readFileSync(join(REPO, file), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const load = (path: string, text: string) =>
    loadConfig(
      {},
      RULES.map((r) => r.meta.id),
      { file: { path, text } },
    );

  it('README.md and docs/configuration.md show files pod-doctor accepts, with a policy', () => {
    const examples = [...yamlBlocks('README.md').filter((b) => /^policy:/m.test(b)), ...yamlBlocks('docs/configuration.md').filter((b) => /^policy:/m.test(b))];
    expect(examples).toHaveLength(2);
    for (const text of examples) {
      const config = load('example', text);
      expect(Object.keys(config.policy.channels).length).toBeGreaterThan(0);
      expect(config.policy.approvals.length).toBeGreaterThan(0);
    }
  });

  it("deploy/README.md's ConfigMap patch carries a file pod-doctor accepts", () => {
    const kustomization = yamlBlocks('deploy/README.md')
      .map((b) => parse(b) as { kind?: string; patches?: { patch?: string }[] })
      .find((k) => k?.kind === 'Kustomization');
    const patch = parse(kustomization?.patches?.[0]?.patch ?? '') as { metadata: { name: string }; data: Record<string, string> };
    expect(patch.metadata.name).toBe('pod-doctor-config');
    expect(load('deploy/README.md', patch.data['config.yaml']!).policy.approvals).toHaveLength(1);
  });

  it('the check fails on a bad example', () => {
    expect(() => load('example', 'policy:\n  channel: {}\n')).toThrow(/policy\.channel: unknown key; did you mean "channels"\?/);
  });
});

describe('the generated sections', () => {
  const config = renderConfigSection();
  const rules = renderRulesSection();

  it('list every setting once, secrets marked, with its key in the config file (none for secrets)', () => {
    for (const [key, s] of Object.entries(SETTINGS)) {
      const rows = config.split('\n').filter((l) => l.startsWith(`| \`${s.env}\` |`));
      expect(rows, s.env).toHaveLength(1);
      const cells = rows[0]!.split(' | ');
      const secret = 'secret' in s && s.secret;
      expect(cells[4], s.env).toBe(secret ? 'yes' : '');
      expect(cells[1], s.env).toBe(secret ? '(environment only)' : 'file' in s && s.file === false ? '—' : `\`${key}\``);
    }
  });

  it('list every rule once with its severity and playbook', () => {
    for (const r of RULES) {
      const row = rules.split('\n').find((l) => l.startsWith(`| \`${r.meta.id}\` |`));
      expect(row, r.meta.id).toContain(`| ${r.meta.severity} |`);
      if (r.meta.playbook) expect(row).toContain(r.meta.playbook);
    }
    expect(rules.split('\n').filter((l) => l.startsWith('| `')).length).toBe(RULES.length);
  });

  it('show defaults as an operator writes them', () => {
    expect(settingDefault(z.string().default('x'))).toEqual({ kind: 'value', value: 'x' });
    expect(
      settingDefault(
        z
          .enum(['true', 'false'])
          .default('false')
          .transform((v) => v === 'true'),
      ),
    ).toEqual({ kind: 'value', value: 'false' });
    expect(settingDefault(z.string().optional())).toEqual({ kind: 'unset' });
    expect(settingDefault(z.string())).toEqual({ kind: 'required' });
    expect(cell('a | b\nc')).toBe('a \\| b c');
  });
});

describe('replacing a section', () => {
  const text = ['# Title', 'before', beginMarker('config'), 'old', endMarker('config'), 'after', ''].join('\n');

  it('changes only what is between the markers', () => {
    expect(replaceSection(text, 'config', 'new')).toBe(['# Title', 'before', beginMarker('config'), 'new', endMarker('config'), 'after', ''].join('\n'));
  });

  it('notices a stale section', () => {
    expect(staleSections(replaceSection(readme, 'rules', 'hand-edited'))).toEqual(['rules']);
  });

  it('refuses a missing or doubled marker', () => {
    expect(() => replaceSection('no markers', 'config', 'x')).toThrow(ReadmeError);
    expect(() => replaceSection(`${text}${beginMarker('config')}`, 'config', 'x')).toThrow(/twice/);
    expect(() => replaceSection(beginMarker('rules'), 'rules', 'x')).toThrow(/no <!-- END GENERATED: rules -->/);
  });
});
