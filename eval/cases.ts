// The evaluation corpus: real incidents from public issue trackers and docs, each saved as the
// objects `kubectl get … -o yaml` would show (eval/corpus/<slug>/objects.yaml) with what a
// correct diagnosis says (case.yaml). Cases are written from the report, never from the rules.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import type { KubeObject } from '../src/diagnosis/types.js';
import { loadObjects } from '../src/sim/load.js';

export const CaseMeta = z
  .object({
    title: z.string().min(1),
    /** Where the incident was reported: an issue, a discussion, a documentation page. */
    url: z.url().refine((u) => u.startsWith('https://'), 'an https URL'),
    /** The decisive line as the report quotes it (provenance: the fixture's wording comes from here). */
    reported: z.string().min(1),
    target: z.string(),
    now: z.string(),
    /**
     * `dev` cases guided the rules; `holdout` cases were scored once, unseen, after the dev work
     * (then their gaps were closed too); `fresh` cases were written after the rules and never
     * changed them: the honest figure for incidents nobody named. `fresh2` cases were written after
     * the mechanism work (issue 32) by someone who had seen only that issue, scored once; `fresh3`
     * the same, a session later, `fresh4` a session after that and `fresh5` after a further round of
     * work in the same session: measurements, outside the test's 90% gate (test/eval.test.ts).
     */
    split: z.enum(['dev', 'holdout', 'fresh', 'fresh2', 'fresh3', 'fresh4', 'fresh5']),
    expect: z.object({
      /**
       * The rule that must rank first; `null` for a negative (nothing of severity warning or worse);
       * `any` when no rule names the class and only the mechanism counts (with `mechanism`).
       */
      first: z.string().nullable(),
      /** Other rules that are an equally right first answer (the report itself cannot tell them apart). */
      acceptable: z.array(z.string()).default([]),
      /**
       * The playbook the first finding may offer: omitted = whatever the right rule offers,
       * `null` = none (the evidence does not justify a change).
       */
      playbook: z.string().nullable().optional(),
      /** A substring of the decisive line that the first finding must quote (evidence or cause). */
      decisive: z.string().optional(),
      /**
       * The mechanism the first finding must name in its own words (quotes do not count): each group
       * lists alternatives, one of which must appear in its title, cause or advice; `id`, when
       * given, is the catalogue's mechanism id the finding must carry.
       */
      mechanism: z
        .object({
          id: z.string().optional(),
          terms: z.array(z.array(z.string().min(1)).min(1)).min(1),
        })
        .optional(),
    }),
  })
  .refine((m) => m.expect.first !== null || m.expect.decisive === undefined, 'a negative has no decisive line')
  .refine((m) => m.expect.first !== null || m.expect.mechanism === undefined, 'a negative names no mechanism')
  .refine((m) => m.expect.first !== 'any' || m.expect.mechanism !== undefined, '`first: any` needs a mechanism');
export type CaseMeta = z.infer<typeof CaseMeta>;

export interface EvalCase {
  slug: string;
  meta: CaseMeta;
  objects: KubeObject[];
}

export async function loadCases(root: string): Promise<EvalCase[]> {
  const out: EvalCase[] = [];
  for (const slug of (await readdir(root)).sort()) {
    const dir = join(root, slug);
    if (!(await stat(dir)).isDirectory()) continue;
    const parsed = CaseMeta.safeParse(parse(await readFile(join(dir, 'case.yaml'), 'utf8')));
    if (!parsed.success) throw new Error(`${slug}/case.yaml: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    out.push({ slug, meta: parsed.data, objects: await loadObjects([join(dir, 'objects.yaml')]) });
  }
  return out;
}
