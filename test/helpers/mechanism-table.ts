// The table behind every mechanism family test: a line, the mechanism and variant it means for a
// pod spec, and the knob (with its path) that changes it; then, through the engine, the family's
// first line decides a crash and leaves quiet a pod that recovered long ago or a Ready pod that lived
// through it. test/mechanism-families.test.ts and test/mechanisms/*.test.ts each pass a table.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/engine.js';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { RULES } from '../../src/diagnosis/rules/index.js';
import type { Container, Pod } from '../../src/diagnosis/types.js';
import { crashedPod, logTail, pod, snapshot } from './factories.js';

export type ContainerPatch = Partial<Container>;

export function scopeOf(container: ContainerPatch = {}, spec: Partial<NonNullable<Pod['spec']>> = {}) {
  const c: Container = { name: 'app', image: 'registry.example.com/shop/app:1', ...container };
  const p = { metadata: { name: 'web-0', namespace: 'shop' }, spec: { nodeName: 'node-1', containers: [c], ...spec } } satisfies Pod;
  return { pod: p, container: c, init: false };
}

export interface Row {
  line: string;
  mechanism: string;
  variant: string;
  /** A knob path (or part of one) the reading must name. */
  knob: string;
  container?: ContainerPatch;
  spec?: Partial<NonNullable<Pod['spec']>>;
  /** What the variant found, when it says: the program, the limit, the path... */
  data?: Record<string, string | number>;
}

/** Runs a family table: each line alone, then the family's first line through the engine. */
export function describeFamilies(FAMILIES: Record<string, Row[]>): void {
  describe('mechanism families: a line, its mechanism for this spec, and the knob with its path', () => {
    for (const [family, rows] of Object.entries(FAMILIES)) {
      it(`${family}: every line reads as its mechanism and variant and names its knob`, () => {
        for (const row of rows) {
          const r = readTexts([{ text: row.line, source: 'logs app' }], scopeOf(row.container, row.spec));
          expect({ mechanism: r?.mechanism, variant: r?.variant }, row.line).toEqual({ mechanism: row.mechanism, variant: row.variant });
          expect(
            r?.knobPaths.some((p) => p.includes(row.knob)),
            `${row.line}: ${r?.knobPaths.join(' | ')}`,
          ).toBe(true);
          if (row.data) expect(r?.data, row.line).toMatchObject(row.data);
        }
      });
    }
  });

  describe('mechanism families through the engine', () => {
    const first = (rows: Row[]) => rows[0]!;
    for (const [family, rows] of Object.entries(FAMILIES)) {
      const row = first(rows);
      it(`${family}: a crash-looping container whose log ends in the line gets a finding that names ${row.mechanism}`, () => {
        const p = crashedPod({ exitCode: 1, restarts: 6 });
        const d = diagnose(snapshot(p, { logs: [logTail('web', ['starting', row.line])] }), { rules: RULES });
        const top = d.findings[0];
        expect(top?.mechanism?.id, row.line).toBe(row.mechanism);
        expect(top?.severity).not.toBe('info');
      });
      it(`${family}: a pod Ready for a day after one old crash with the line stays without a warning`, () => {
        const p = crashedPod({ exitCode: 1, restarts: 1, now: 'running', finishedAgo: 86400 });
        const d = diagnose(snapshot(p, { logs: [logTail('web', ['starting', row.line])] }), { rules: RULES });
        expect(d.findings.filter((f) => f.severity !== 'info').map((f) => f.rule)).toEqual([]);
      });
      it(`${family}: a Ready pod whose running log carries the line (a warning it lived through) stays without a warning`, () => {
        const d = diagnose(snapshot(pod(), { logs: [logTail('web', ['starting', row.line, 'listening on :8080'], false)] }), { rules: RULES });
        expect(d.findings.filter((f) => f.severity !== 'info').map((f) => f.rule)).toEqual([]);
      });
    }
  });
}
