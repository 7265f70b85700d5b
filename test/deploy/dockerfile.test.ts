// The Dockerfile, read without a Docker engine: a build stage (npm ci, npm run build), a
// runtime stage on a small Node 24 image pinned by digest, without npm, with production
// dependencies only, user 10001, the
// one entrypoint; .dockerignore lets in only what the build reads. Then `npm run build` into a
// copy of the image's /app layout, and the commands the manifests run answer --help there.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/schema.js';
import { containersOf, isPodDoctorImage, isWorkload, REPO, renderLocal, VARIANTS } from '../helpers/deploy.js';

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions grouped by stage, with line continuations joined, comments dropped and FROM's ARGs filled in. */
function parseDockerfile(text: string): { globalArgs: Record<string, string>; stages: Stage[] } {
  const instructions: Instruction[] = [];
  let pending: Instruction | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (!pending && (line.trim() === '' || line.trimStart().startsWith('#'))) return;
    if (pending && line.trimStart().startsWith('#')) return;
    const continued = line.endsWith('\\');
    const body = continued ? line.slice(0, -1) : line;
    if (pending) pending.args += ` ${body.trim()}`;
    else {
      const m = /^\s*(\w+)\s*(.*)$/.exec(body);
      pending = { keyword: (m?.[1] ?? '').toUpperCase(), args: (m?.[2] ?? '').trim(), line: i + 1 };
    }
    if (!continued) {
      instructions.push(pending);
      pending = undefined;
    }
  });
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      const from = (m?.[1] ?? '').replace(/\$\{?(\w+)\}?/g, (_, v: string) => globalArgs[v] ?? '');
      stages.push({ from, name: m?.[2], instructions: [] });
    } else if (stages.length === 0) {
      if (ins.keyword === 'ARG') {
        const [k, v] = ins.args.split('=');
        if (k) globalArgs[k.trim()] = (v ?? '').trim();
      }
    } else stages[stages.length - 1]!.instructions.push(ins);
  }
  return { globalArgs, stages };
}

/** .dockerignore semantics: patterns in order, the last match wins, `!` re-includes, a directory match covers what is inside. */
function dockerIgnored(patterns: readonly string[], path: string): boolean {
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const p = (negate ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, '');
    const re = new RegExp(
      `^${p
        .split('')
        .map((ch, i, all) =>
          ch === '*' ? (all[i + 1] === '*' ? '' : all[i - 1] === '*' ? '.*' : '[^/]*') : ch === '?' ? '[^/]' : /[.+^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch,
        )
        .join('')
        .replace(/\.\*\//g, '(?:.*/)?')}(?:/.*)?$`,
    );
    if (re.test(path)) ignored = !negate;
  }
  return ignored;
}

/** A base must be Node 24 (slim or alpine) by tag and digest: the tag says which, the digest makes it reproducible. */
function pinProblems(from: string): string[] {
  const [image = '', digest] = from.split('@');
  if (!/^node:24(\.\d+){0,2}-(bookworm-slim|bullseye-slim|slim|alpine\d*(\.\d+)?)$/.test(image)) return [`${from} is not a small Node 24 image`];
  if (!digest || !/^sha256:[0-9a-f]{64}$/.test(digest)) return [`${from} is not pinned by digest`];
  return [];
}

const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
const { stages } = parseDockerfile(dockerfile);
const ignore = readFileSync(join(REPO, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const final = stages[stages.length - 1]!;
const runs = (s: Stage) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const copies = (s: Stage) => s.instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD');
const stageNamed = (name: string | undefined) => stages.find((s) => s.name === name);
const settingDefault = (env: string) =>
  Object.values(SETTINGS)
    .find((s) => s.env === env)!
    .schema.parse(undefined) as unknown;

describe('Dockerfile', () => {
  it('is multi-stage, every stage named, on one small Node 24 image pinned by digest', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages.every((s) => s.name)).toBe(true);
    expect(stages.filter((s) => s.from !== 'scratch').flatMap((s) => pinProblems(s.from).map((p) => `${s.name}: ${p}`))).toEqual([]);
    expect(new Set(stages.filter((s) => s.from !== 'scratch').map((s) => s.from)).size).toBe(1);
  });

  it('the pin check refuses a tag alone or a digest that is not one', () => {
    const from = (text: string) => parseDockerfile(text).stages.map((s) => pinProblems(s.from));
    expect(from(['ARG NODE_IMAGE=node:24-bookworm-slim', 'FROM $' + '{NODE_IMAGE} AS build'].join('\n'))).toEqual([
      ['node:24-bookworm-slim is not pinned by digest'],
    ]);
    expect(from('FROM node:24-bookworm-slim@sha256:abc AS build\n')[0]).toHaveLength(1);
    expect(from(`FROM node:24-bookworm-slim@sha256:${'a'.repeat(64)} AS build\n`)).toEqual([[]]);
    expect(from(`FROM node:22-bookworm-slim@sha256:${'a'.repeat(64)} AS build\n`)[0]).toHaveLength(1);
  });

  it('leaves npm out of the runtime image: a file system without package managers, copied onto scratch', () => {
    expect(final.from).toBe('scratch');
    const root = copies(final).find((i) => /^--from=\S+\s+\/\s+\/$/.test(i.args));
    expect(root, 'COPY --from=<stage> / /').toBeDefined();
    const source = stageNamed(/--from=(\S+)/.exec(root!.args)?.[1]);
    const removed = runs(source!).join(' ');
    for (const path of ['/usr/local/lib/node_modules', '/usr/local/bin/npm', '/usr/local/bin/npx', '/usr/local/bin/corepack']) expect(removed).toContain(path);
    expect(runs(final).filter((r) => /\b(npm|npx|corepack|yarn)\b/.test(r))).toEqual([]);
  });

  it('builds in a stage with all dependencies: npm ci, then npm run build', () => {
    const build = stages.find((s) => runs(s).some((r) => /\bnpm run build\b/.test(r)));
    expect(build).toBeDefined();
    const commands = runs(build!);
    const ci = commands.findIndex((r) => /\bnpm ci\b/.test(r) && !/--omit=dev|--production/.test(r));
    expect(ci).toBeGreaterThanOrEqual(0);
    expect(ci).toBeLessThan(commands.findIndex((r) => /\bnpm run build\b/.test(r)));
    expect(build).not.toBe(final);
  });

  it('runs with production dependencies only, the compiled code and the playbooks', () => {
    expect(runs(final).some((r) => /\bnpm (ci|install)\b/.test(r) && !/--omit=dev/.test(r))).toBe(false);
    const fromStage = (dest: RegExp) => {
      const c = copies(final).find((i) => dest.test(i.args));
      return { copy: c, stage: stageNamed(/--from=(\S+)/.exec(c?.args ?? '')?.[1]) };
    };
    const modules = fromStage(/node_modules/);
    expect(modules.stage, 'node_modules copied from another stage').toBeDefined();
    expect(runs(modules.stage!).some((r) => /\bnpm ci\b.*--omit=dev/.test(r))).toBe(true);
    const dist = fromStage(/\bdist\b/);
    expect(runs(dist.stage!).some((r) => /\bnpm run build\b/.test(r))).toBe(true);
    expect(copies(final).some((i) => /^playbooks\s/.test(i.args))).toBe(true);
    // No sources or compiler configuration in the runtime image.
    expect(copies(final).filter((i) => !i.args.startsWith('--from') && /\b(src|tsconfig[\w.]*\.json)\b/.test(i.args))).toEqual([]);
  });

  it('runs as user 10001, created in the image', () => {
    const users = final.instructions.filter((i) => i.keyword === 'USER');
    expect(users.at(-1)?.args).toMatch(/^10001(:10001)?$/);
    expect(runs(final).some((r) => /useradd\b.*--uid 10001\b/.test(r))).toBe(true);
  });

  it('has the one entrypoint: node dist/bin/pod-doctor.js', () => {
    const entry = final.instructions.filter((i) => i.keyword === 'ENTRYPOINT');
    expect(entry).toHaveLength(1);
    expect(JSON.parse(entry[0]!.args)).toEqual(['node', 'dist/bin/pod-doctor.js']);
  });

  it('sets only PATH, NODE_ENV, NODE_OPTIONS and settings the schema knows; the playbook directory is where the playbooks are copied', () => {
    const env: Record<string, string> = {};
    for (const i of final.instructions.filter((x) => x.keyword === 'ENV')) {
      for (const m of i.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]!] = m[2]!.replace(/^"|"$/g, '');
    }
    const known = new Set(Object.values(SETTINGS).map((s) => s.env as string));
    // PATH: the base image's, which a stage on scratch does not inherit.
    expect(Object.keys(env).filter((k) => k !== 'NODE_ENV' && k !== 'NODE_OPTIONS' && k !== 'PATH' && !known.has(k))).toEqual([]);
    expect(env.PATH?.split(':')).toContain('/usr/local/bin');
    expect(env.NODE_ENV).toBe('production');
    // Only V8 heap sizing (bench:rss), never flags that change behaviour.
    expect(env.NODE_OPTIONS ?? '').toMatch(/^(--max-(semi|old)-space-size=\d+\s*)*$/);
    const workdir = final.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args;
    const playbooks = copies(final)
      .find((i) => /^playbooks\s/.test(i.args))!
      .args.split(/\s+/)[1]!;
    expect(env.POD_DOCTOR_PLAYBOOK_DIR).toBe(join(workdir ?? '/', playbooks));
  });

  it('exposes the default ports of the bot, the worker and the agent', () => {
    const ports = final.instructions.filter((i) => i.keyword === 'EXPOSE').flatMap((i) => i.args.split(/\s+/).map(Number));
    const agentPort = Number(/:(\d+)$/.exec(String(settingDefault('POD_DOCTOR_AGENT_URL_TEMPLATE')))?.[1]);
    expect(ports.sort()).toEqual([settingDefault('PORT'), settingDefault('POD_DOCTOR_METRICS_PORT'), agentPort].sort());
  });

  it('copies only files that exist and that .dockerignore lets in', () => {
    const sources = stages.flatMap((s) =>
      copies(s)
        .filter((i) => !i.args.startsWith('--from'))
        .flatMap((i) => i.args.split(/\s+/).slice(0, -1)),
    );
    expect(sources.length).toBeGreaterThan(3);
    for (const src of sources) {
      expect(existsSync(join(REPO, src)), src).toBe(true);
      expect(dockerIgnored(ignore, src), `${src} is excluded by .dockerignore`).toBe(false);
    }
  });
});

describe('.dockerignore', () => {
  it.each([['src/bin/pod-doctor.ts'], ['src/config/schema.ts'], ['playbooks/remove-finalizers.yaml'], ['package-lock.json'], ['tsconfig.build.json']])(
    'lets in %s',
    (path) => {
      expect(dockerIgnored(ignore, path)).toBe(false);
    },
  );

  it.each([
    ['node_modules/zod/package.json'],
    ['dist/bin/pod-doctor.js'],
    ['.git/HEAD'],
    ['test/cli.test.ts'],
    ['src/config/schema.test.ts'],
    ['deploy/base/secrets.example.yaml'],
    ['.env'],
    ['README.md'],
  ])('keeps out %s', (path) => {
    expect(dockerIgnored(ignore, path)).toBe(true);
  });

  it('matches like Docker does (checked on a few patterns)', () => {
    expect(dockerIgnored(['*', '!src/', '**/*.test.ts'], 'src/a/b.test.ts')).toBe(true);
    expect(dockerIgnored(['*', '!src/'], 'src/a/b.ts')).toBe(false);
    expect(dockerIgnored(['node_modules'], 'node_modules/x/y.js')).toBe(true);
    expect(dockerIgnored(['*.md', '!README.md'], 'README.md')).toBe(false);
  });
});

describe('npm run build, in the layout of the image', () => {
  let app: string;
  let build: ReturnType<typeof spawnSync>;
  const playbookDir = () => join(app, 'playbooks');
  const run = (args: string[]) =>
    spawnSync(process.execPath, [join(app, 'dist/bin/pod-doctor.js'), ...args], {
      cwd: app,
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', POD_DOCTOR_PLAYBOOK_DIR: playbookDir() },
    });

  beforeAll(() => {
    // The image's /app: dist/, package.json (ESM), node_modules, playbooks/. Built outside the
    // work tree: a dist/ there would be picked up by bin/pod-doctor.js for everyone else.
    app = mkdtempSync(join(tmpdir(), 'pod-doctor-image-'));
    build = spawnSync('npm', ['run', 'build', '--', '--outDir', join(app, 'dist')], { cwd: REPO, encoding: 'utf8', timeout: 240_000 });
    copyFileSync(join(REPO, 'package.json'), join(app, 'package.json'));
    symlinkSync(join(REPO, 'node_modules'), join(app, 'node_modules'));
    symlinkSync(join(REPO, 'playbooks'), playbookDir());
  }, 300_000);

  afterAll(() => {
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('compiles to dist/bin/pod-doctor.js', () => {
    expect(build.status, String(build.stdout) + String(build.stderr)).toBe(0);
    expect(existsSync(join(app, 'dist/bin/pod-doctor.js'))).toBe(true);
    expect(existsSync(join(app, 'dist/config/schema.test.js'))).toBe(false);
  });

  it('the entrypoint runs --help', () => {
    const r = run(['--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Usage: pod-doctor <command>/);
  });

  // Every command and flag the manifests use exists in the compiled CLI.
  const commands = new Map<string, Set<string>>();
  for (const v of VARIANTS) {
    for (const w of renderLocal(v).filter(isWorkload)) {
      for (const c of containersOf(w).filter((x) => isPodDoctorImage(x.image))) {
        const [command, ...rest] = c.args ?? [];
        if (!command) continue;
        const flags = commands.get(command) ?? new Set<string>();
        for (const a of rest) if (a.startsWith('--')) flags.add(a.split('=')[0]!);
        commands.set(command, flags);
      }
    }
  }

  it.each([...commands].map(([command, flags]) => [command, [...flags]] as const))(
    '`%s --help` answers and knows the flags the manifests pass',
    (command, flags) => {
      const r = run([command, '--help']);
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
      for (const flag of flags) expect(`${r.stdout}${r.stderr}`, `${command} ${flag}`).toContain(flag);
    },
  );

  it('loads the playbooks shipped in the image', () => {
    const r = run(['playbook', 'validate']);
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  });
});
