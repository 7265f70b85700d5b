// Loads playbooks/*.yaml and refuses anything a reviewer could miss: schema errors, unknown
// step kinds, step parameters the action does not take or that have the wrong type, rule ids
// not in the registry, placeholders that name no parameter, duplicate ids. Every problem is
// reported with its file and field path; a bad file stops startup (principle 7).
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { approverIdSchema, type ChatIds } from '../access/ids.js';
import { RULES } from '../diagnosis/rules/index.js';
import { PodDoctorError } from '../errors.js';
import { ACTIONS, type ActionRegistry } from './actions/index.js';
import { type CheckDecl, type ParamType, PLACEHOLDER, type Playbook, playbookSchema, WHOLE_PLACEHOLDER } from './schema.js';

export interface PlaybookIssue {
  file: string;
  /** Path inside the document: `steps[1].with.finalizers`; `(file)` for the file as a whole. */
  field: string;
  message: string;
}

export class PlaybookLoadError extends PodDoctorError {
  constructor(readonly issues: PlaybookIssue[]) {
    super('PLAYBOOK_INVALID', `invalid playbooks:\n  ${issues.map(formatIssue).join('\n  ')}`);
  }
}

export function formatIssue(i: PlaybookIssue): string {
  return `${i.file}: ${i.field}: ${i.message}`;
}

export interface LoadOptions {
  /** Known rule ids (default: the registry). */
  ruleIds?: readonly string[];
  actions?: ActionRegistry;
  /** The chat surface's id parser: `approvers` are checked with it (unset: any surface's ids pass). */
  ids?: ChatIds;
}

export interface LoadedPlaybook {
  file: string;
  playbook: Playbook;
}

/** `<package>/playbooks`, whether running from src/ (tsx) or dist/. */
export function defaultPlaybookDir(): string {
  // src/remediation/ and dist/remediation/ are both two levels below the package root.
  return resolve(fileURLToPath(new URL('.', import.meta.url)), '../../playbooks');
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || '(document)';
}

/** Samples per parameter type: a placeholder fits a step field if one sample of its type does. */
const SAMPLES: Record<ParamType, unknown[]> = {
  string: [
    'x',
    'node-1',
    'ntpd.service',
    '/var/lib/kubelet/pods/x/volumes/y',
    '00000000-0000-4000-8000-000000000000',
    'registry.example.com/app:1',
    'Deployment',
    'terminating.finalizers',
    'a'.repeat(64),
  ],
  'string[]': [[], ['x'], ['a'.repeat(64)], ['node-1']],
  number: [0, 1, 30],
  boolean: [true, false],
};

function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** Cross-checks of one parsed playbook against the registries. */
function crossCheck(pb: Playbook, file: string, ruleIds: ReadonlySet<string>, actions: ActionRegistry): PlaybookIssue[] {
  const issues: PlaybookIssue[] = [];
  const add = (field: string, message: string) => issues.push({ file, field, message });
  const params = pb.params;
  const declared = new Set(Object.keys(params));
  const rule = (field: string, id: string) => {
    if (!ruleIds.has(id)) add(field, `unknown rule id "${id}" (not in src/diagnosis/rules/index.ts)`);
  };

  const expected = basename(file).replace(/\.ya?ml$/, '');
  if (pb.id !== expected) add('id', `id "${pb.id}" must equal the file name "${expected}"`);
  for (const [i, id] of pb.matches.entries()) rule(`matches[${i}]`, id);
  for (const [i, id] of pb.verify.entries()) rule(`verify[${i}]`, id);

  for (const name of placeholders(pb.summary)) if (!declared.has(name)) add('summary', `placeholder {${name}} names no declared parameter`);

  for (const [name, decl] of Object.entries(params)) {
    if (decl.from === 'live' && decl.value.startsWith('pod.') && pb.targets.some((t) => t !== 'pod')) {
      add(`params.${name}.value`, `${decl.value} needs a pod target, but targets are [${pb.targets.join(', ')}]`);
    }
    if (decl.from === 'target' && decl.field === 'namespace' && pb.targets.includes('node') && !decl.optional) {
      add(`params.${name}.field`, 'a node target has no namespace: make the parameter optional or drop the node target');
    }
  }

  const checkChecks = (checks: readonly CheckDecl[], at: string) => {
    checks.forEach((c, i) => {
      const field = `${at}[${i}]`;
      for (const [key, value] of Object.entries(c)) {
        if (key === 'check') continue;
        for (const s of stringsIn(value))
          for (const name of placeholders(s)) if (!declared.has(name)) add(`${field}.${key}`, `placeholder {${name}} names no declared parameter`);
      }
      if (c.check === 'finding-present') rule(`${field}.rule`, c.rule);
      if (c.check === 'param-is' && !declared.has(c.param)) add(`${field}.param`, `"${c.param}" is not a declared parameter`);
    });
  };
  checkChecks(pb.preconditions, 'preconditions');
  checkChecks(pb.expect, 'expect');
  checkChecks(
    pb.guards.map((g) => g.when),
    'guards',
  );
  pb.guards.forEach((g, i) => {
    for (const name of placeholders(g.warning ?? '')) if (!declared.has(name)) add(`guards[${i}].warning`, `placeholder {${name}} names no declared parameter`);
  });

  pb.steps.forEach((step, i) => {
    const at = `steps[${i}]`;
    const before = issues.length;
    const action = Object.hasOwn(actions, step.action) ? actions[step.action] : undefined;
    if (!action) {
      add(`${at}.action`, `unknown step kind "${step.action}" (known: ${Object.keys(actions).sort().join(', ')})`);
      return;
    }
    const shape = action.params.shape as Record<string, z.ZodType>;
    for (const [key, value] of Object.entries(step.with)) {
      const field = shape[key];
      if (!field) {
        add(`${at}.with.${key}`, `${step.action} takes no parameter "${key}" (it takes: ${Object.keys(shape).join(', ')})`);
        continue;
      }
      const whole = typeof value === 'string' ? WHOLE_PLACEHOLDER.exec(value) : null;
      if (whole) {
        const name = whole[1] ?? '';
        const decl = params[name];
        if (!decl) add(`${at}.with.${key}`, `placeholder {${name}} names no declared parameter`);
        else if (!SAMPLES[decl.type].some((s) => field.safeParse(s).success))
          add(`${at}.with.${key}`, `parameter ${name} is ${decl.type}, which ${step.action}.${key} does not accept`);
        continue;
      }
      const embedded = stringsIn(value).flatMap(placeholders);
      if (embedded.length > 0) {
        for (const name of embedded) if (!declared.has(name)) add(`${at}.with.${key}`, `placeholder {${name}} names no declared parameter`);
        continue;
      }
      const parsed = field.safeParse(value);
      if (!parsed.success) add(`${at}.with.${key}`, parsed.error.issues.map((iss) => iss.message).join('; '));
    }
    // Omitted action parameters come from a playbook parameter of the same name (when it fits);
    // required ones must come from somewhere.
    for (const [key, field] of Object.entries(shape)) {
      if (key in step.with) continue;
      const decl = params[key];
      if (decl) {
        if (!SAMPLES[decl.type].some((s) => field.safeParse(s).success))
          add(`${at}.with`, `parameter ${key} is ${decl.type}, which ${step.action}.${key} does not accept (set ${key} in \`with\`)`);
      } else if (!field.safeParse(undefined).success) {
        add(`${at}.with`, `${step.action} needs "${key}": set it in \`with\` or declare a parameter "${key}"`);
      }
    }
    // Literal-only steps can be checked whole (cross-field rules such as wait's `until`).
    const literal = Object.fromEntries(Object.entries(step.with).filter(([, v]) => stringsIn(v).flatMap(placeholders).length === 0));
    const inherited = Object.fromEntries(
      Object.keys(shape)
        .filter((k) => !(k in step.with) && params[k])
        .map((k) => [k, SAMPLES[params[k]!.type].find((s) => shape[k]!.safeParse(s).success)]),
    );
    const placeholderKeys = Object.keys(step.with).filter((k) => !(k in literal));
    // Whole-step rules only once each field is fine, so one mistake is reported once.
    if (placeholderKeys.length === 0 && issues.length === before) {
      const whole = action.params.safeParse({ ...inherited, ...literal });
      if (!whole.success) {
        for (const iss of whole.error.issues) if (iss.code === 'custom') add(`${at}.with${iss.path.length ? `.${formatPath(iss.path)}` : ''}`, iss.message);
      }
    }
    if (step.action === 'wait' && typeof step.with.rule === 'string' && !WHOLE_PLACEHOLDER.test(step.with.rule)) rule(`${at}.with.rule`, step.with.rule);
    if (step.action === 'rediagnose' && Array.isArray(step.with.requireGone))
      for (const [j, r] of step.with.requireGone.entries()) if (typeof r === 'string') rule(`${at}.with.requireGone[${j}]`, r);
  });
  return issues;
}

/** Validate one document (already read); `file` is for messages and the id check. */
export function validatePlaybook(text: string, file: string, options: LoadOptions = {}): { playbook?: Playbook; issues: PlaybookIssue[] } {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    return { issues: doc.errors.map((e) => ({ file, field: '(file)', message: `YAML: ${e.message.split('\n')[0]}` })) };
  }
  const parsed = playbookSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    return {
      issues: parsed.error.issues.map((i) => ({
        file,
        field: formatPath(i.path),
        message: /received undefined$/.test(i.message) ? 'required field is missing' : i.message,
      })),
    };
  }
  const approvers = options.ids && parsed.data.approvers ? z.array(approverIdSchema(options.ids)).safeParse(parsed.data.approvers) : undefined;
  if (approvers?.error) return { issues: approvers.error.issues.map((i) => ({ file, field: formatPath(['approvers', ...i.path]), message: i.message })) };
  const ruleIds = new Set(options.ruleIds ?? RULES.map((r) => r.meta.id));
  const issues = crossCheck(parsed.data, file, ruleIds, options.actions ?? ACTIONS);
  return issues.length > 0 ? { issues } : { playbook: parsed.data, issues };
}

/** Read and validate every `*.yaml`/`*.yml` in `dir`; never throws for bad content. */
export async function validatePlaybookDir(dir: string, options: LoadOptions = {}): Promise<{ playbooks: LoadedPlaybook[]; issues: PlaybookIssue[] }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  } catch (err) {
    return { playbooks: [], issues: [{ file: dir, field: '(dir)', message: `cannot read the playbook directory: ${(err as Error).message}` }] };
  }
  const playbooks: LoadedPlaybook[] = [];
  const issues: PlaybookIssue[] = [];
  if (names.length === 0) issues.push({ file: dir, field: '(dir)', message: 'no playbooks (*.yaml) found' });
  for (const name of names) {
    const file = join(dir, name);
    const out = validatePlaybook(await readFile(file, 'utf8'), file, options);
    issues.push(...out.issues);
    if (!out.playbook) continue;
    const dup = playbooks.find((p) => p.playbook.id === out.playbook?.id);
    if (dup) issues.push({ file, field: 'id', message: `duplicate id "${out.playbook.id}" (also in ${dup.file})` });
    else playbooks.push({ file, playbook: out.playbook });
  }
  return { playbooks, issues };
}

/** Startup: every playbook valid, or a PlaybookLoadError listing all problems. */
export async function loadPlaybooks(dir: string = defaultPlaybookDir(), options: LoadOptions = {}): Promise<Playbook[]> {
  const { playbooks, issues } = await validatePlaybookDir(dir, options);
  if (issues.length > 0) throw new PlaybookLoadError(issues);
  return playbooks.map((p) => p.playbook);
}
