// Folders under src/ import downward only: no folder imports (through any chain) a folder that
// imports it back. A cycle makes "what does this change touch" unanswerable; this test names the
// folders of any new one and the imports that close it. Tests (*.test.ts) are not counted.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderGraph, folderOf, renderFolderGraph, SRC, sources } from '../scripts/folder-graph.js';

/** Files outside `folder` (relative to src/) that its files import. */
function importedFrom(folder: string): string[] {
  const out = new Set<string>();
  for (const file of sources(join(SRC, folder))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = normalize(join(dirname(file), m[1]!));
      if (folderOf(target) !== folder) out.add(relative(SRC, target));
    }
  }
  return [...out].sort();
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let n = 0;
  const visit = (v: string) => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('src/ folder imports', () => {
  it('finds a cycle when there is one (the check can fail)', () => {
    const g = new Map([
      ['a', new Map([['b', 'a/x.ts imports ../b/y.js']])],
      ['b', new Map([['c', '']])],
      ['c', new Map([['a', '']])],
      ['d', new Map([['a', '']])],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
  });

  it('go downward only: no folder cycle', () => {
    const graph = folderGraph();
    const found = cycles(graph).map((comp) =>
      comp.flatMap((from) => comp.filter((to) => graph.get(from)?.has(to)).map((to) => `${from} → ${to} (${graph.get(from)!.get(to)})`)),
    );
    expect(found).toEqual([]);
  });

  it('keep the pure and the shared layers free of I/O layers', () => {
    const graph = folderGraph();
    const imports = (from: string) => [...(graph.get(from)?.keys() ?? [])].sort();
    expect(imports('diagnosis').filter((f) => ['collect', 'sim', 'jobs', 'chat', 'alerts', 'cli'].includes(f))).toEqual([]);
    // kube/ is the bottom layer: besides itself it uses only the coded errors (errors.ts imports nothing).
    expect(importedFrom('kube')).toEqual(['errors.js']);
    expect(imports('collect')).not.toContain('sim');
    expect(imports('sim')).not.toContain('collect');
    expect(imports('config')).not.toContain('alerts');
  });
});

describe('rules (src/diagnosis/rules)', () => {
  const RULES_DIR = join(SRC, 'diagnosis/rules');
  const ruleFiles = sources(RULES_DIR).filter((f) => !f.endsWith('index.ts'));

  it('each file opens with a one-line header: its id and what it detects', () => {
    const bad = ruleFiles.filter((f) => {
      const id = /\bid: '([^']+)'/.exec(readFileSync(f, 'utf8'))?.[1];
      return !id || !readFileSync(f, 'utf8').startsWith(`// ${id}: `);
    });
    expect(bad.map((f) => relative(SRC, f))).toEqual([]);
  });

  it('never import another rule (shared helpers live in src/diagnosis)', () => {
    const crossing = ruleFiles.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/(?:from|import) '(\.{1,2}\/[^']+)'/g)]
        .map((m) => normalize(join(dirname(f), m[1]!)))
        .filter((target) => dirname(target) === RULES_DIR)
        .map((target) => `${relative(SRC, f)} → ${relative(SRC, target)}`),
    );
    expect(crossing).toEqual([]);
  });
});

describe('src/ files', () => {
  /** file → file it imports → the import (within `dir`; type-only and re-exports count too). */
  function fileGraph(dir: string): Map<string, Map<string, string>> {
    const graph = new Map<string, Map<string, string>>();
    for (const file of sources(dir)) {
      const from = relative(SRC, file);
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?'(\.{1,2}\/[^']+)'/g)) {
        const target = normalize(join(dirname(file), m[1]!)).replace(/\.js$/, '.ts');
        if (!target.startsWith(dir)) continue;
        const edges = graph.get(from) ?? new Map<string, string>();
        edges.set(relative(SRC, target), m[0]);
        graph.set(from, edges);
      }
    }
    return graph;
  }

  it('finds a file cycle planted in any folder (the check can fail)', () => {
    const dir = mkdtempSync(join(SRC, '..', '.cycle-'));
    try {
      mkdirSync(join(dir, 'deep'));
      writeFileSync(join(dir, 'deep', 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
      writeFileSync(join(dir, 'deep', 'b.ts'), "export type { A as B } from './a.js';\n");
      writeFileSync(join(dir, 'c.ts'), "import './deep/a.js';\n");
      expect(cycles(fileGraph(dir)).map((c) => c.map((f) => f.slice(f.indexOf('deep'))).sort())).toEqual([['deep/a.ts', 'deep/b.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('import each other in one direction only, in every folder: no file cycle', () => {
    expect(cycles(fileGraph(SRC))).toEqual([]);
  });
});

describe('one home for each repeated fact', () => {
  it('the DNS-1123 name patterns are written only in src/kube/names.ts', () => {
    const pattern = /\[-a-z0-9\.?\]\*\[a-z0-9\]/;
    const homes = sources(SRC).filter((f) => pattern.test(readFileSync(f, 'utf8')));
    expect(homes.map((f) => relative(SRC, f))).toEqual([join('kube', 'names.ts')]);
  });

  /** Files under `dir` that write one of Slack's id formats (channels C/G/D…, users U/W…, user groups S…). */
  const slackIdHomes = (dir: string) => {
    const format = /\[[CDGSUW]{2,3}\]\[A-Z0-9\]|\^\(?S\[A-Z0-9\]/;
    return sources(dir)
      .filter((f) => format.test(readFileSync(f, 'utf8')))
      .map((f) => relative(dir, f));
  };

  it('finds a Slack id format written outside its adapter (the check can fail)', () => {
    const dir = mkdtempSync(join(SRC, '..', '.ids-'));
    try {
      for (const [i, copy] of ['/^([CGD][A-Z0-9]{2,}|\\*)$/', '/^S[A-Z0-9]{2,20}$/', '/^[UW][A-Z0-9]+$/', '/^[UWS][A-Z0-9]{2,20}$/'].entries()) {
        writeFileSync(join(dir, `planted-${i}.ts`), `export const id = ${copy};\n`);
      }
      writeFileSync(join(dir, 'clean.ts'), "export const id = 'S0SRE';\n");
      expect(slackIdHomes(dir).sort()).toEqual(['planted-0.ts', 'planted-1.ts', 'planted-2.ts', 'planted-3.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Slack's id formats are written only in src/chat/adapters/slack/ids.ts (the policy, config and playbooks take ids through a ChatIds)", () => {
    expect(slackIdHomes(SRC)).toEqual([join('chat', 'adapters', 'slack', 'ids.ts')]);
  });

  it('request bodies are read only by src/body.ts (size limit, declared length, aborts)', () => {
    const reader = /\breq\.on\('data'|for await \(const \w+ of req\)/;
    const homes = sources(SRC).filter((f) => reader.test(readFileSync(f, 'utf8')));
    expect(homes.map((f) => relative(SRC, f))).toEqual(['body.ts']);
  });

  it('the Lua lock release is written once, in src/redis/lua.ts', () => {
    const release = /redis\.call\('(?:GET|get)', KEYS\[1\]\) == ARGV\[1\] then (?:return )?redis\.call\('(?:DEL|del)'/;
    const homes = sources(SRC).filter((f) => release.test(readFileSync(f, 'utf8')));
    expect(homes.map((f) => relative(SRC, f))).toEqual([join('redis', 'lua.ts')]);
  });

  it("docs/CONTRIBUTING.md's folder graph is the code's (npm run readme rewrites it)", () => {
    const doc = readFileSync(join(SRC, '..', 'docs', 'CONTRIBUTING.md'), 'utf8');
    const section = doc.slice(doc.indexOf('<!-- BEGIN GENERATED: folders -->'), doc.indexOf('<!-- END GENERATED: folders -->'));
    expect(section.trim()).toBe(`<!-- BEGIN GENERATED: folders -->\n${renderFolderGraph()}`);
    // Each folder's own line, so a new folder or import shows up here by name.
    for (const [folder, edges] of folderGraph()) {
      if (folder === '(root)') continue;
      const to = [...edges.keys()].filter((t) => t !== '(root)').sort();
      expect(section).toContain(`| \`${folder}/\` | ${to.length ? to.join(', ') : '—'} |`);
    }
  });

  it('deadlines go through src/bounded.ts: no hand-written timer that rejects a promise', () => {
    const handWritten = /setTimeout\(\(\) => reject\(/;
    const homes = sources(SRC).filter((f) => handWritten.test(readFileSync(f, 'utf8')));
    expect(homes.map((f) => relative(SRC, f))).toEqual([]);
    expect(handWritten.test('const t = setTimeout(() => reject(new Error("late")), ms);')).toBe(true);
  });
});

describe('the configuration object', () => {
  /**
   * Files under `dir` outside cli/ and config/ that import from config/ (where the loaded
   * `Config` type, loadConfig and the file reader live), with what they import. Domain modules
   * take the values they need as options; cli/wiring.ts turns the configuration into them. The
   * one exception is config/alerts.ts: pure schema pieces (the alert label mapping and route
   * types, the default labels) that alerts/ parses with, not the configuration object.
   */
  function configReaders(dir: string): string[] {
    const allowed = join(dir, 'config', 'alerts.ts');
    return sources(dir).flatMap((file) => {
      if (['cli', 'config'].includes(folderOf(file, dir))) return [];
      return [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?'(\.{1,2}\/[^']+)'/g)]
        .map((m) => normalize(join(dirname(file), m[1]!)).replace(/\.js$/, '.ts'))
        .filter((target) => folderOf(target, dir) === 'config' && target !== allowed)
        .map((target) => `${relative(dir, file)} → ${relative(dir, target)}`);
    });
  }

  it('finds a domain module that imports the Config type (the check can fail)', () => {
    const dir = mkdtempSync(join(SRC, '..', '.config-'));
    try {
      for (const d of ['config', 'cli', 'jobs', 'alerts']) mkdirSync(join(dir, d));
      writeFileSync(join(dir, 'config', 'schema.ts'), 'export type Config = { a: number };\n');
      writeFileSync(join(dir, 'config', 'alerts.ts'), 'export type AlertRoute = { channel: string };\n');
      writeFileSync(join(dir, 'cli', 'wiring.ts'), "import type { Config } from '../config/schema.js';\nexport const a = (c: Config) => c.a;\n");
      writeFileSync(join(dir, 'jobs', 'q.ts'), "import type { Config } from '../config/schema.js';\nexport const b = (c: Config) => c.a;\n");
      writeFileSync(join(dir, 'alerts', 'r.ts'), "import type { AlertRoute } from '../config/alerts.js';\nexport const c = (r: AlertRoute) => r.channel;\n");
      expect(configReaders(dir)).toEqual([`${join('jobs', 'q.ts')} → ${join('config', 'schema.ts')}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is read only in cli/ (the wiring of each role) and config/', () => {
    // The loaded configuration's type, as the check assumes it.
    expect(readFileSync(join(SRC, 'config', 'schema.ts'), 'utf8')).toMatch(/export type Config = /);
    expect(configReaders(SRC)).toEqual([]);
  });
});
