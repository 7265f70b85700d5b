// Bad input still gets an answer (issue 32): megabytes of log, binary bytes, megabyte lines and
// thousands of containers go through the whole diagnosis (collector, mechanism catalogue, rules)
// from saved objects, and nothing throws. How fast is bench/engine.ts's business, not this test's.
import { describe, expect, it } from 'vitest';
import { ObjectsSource } from '../src/collect/objects-source.js';
import { readTexts } from '../src/diagnosis/mechanisms/index.js';
import type { KubeObject } from '../src/diagnosis/types.js';
import { diagnoseTarget } from '../src/usecases/diagnose.js';
import { ago, containerStatus, NOW, pod } from './helpers/factories.js';

// Every byte value, control characters and invalid UTF-16 halves included; lines are windows into it.
const BYTES = Array.from({ length: 8192 }, (_, i) => String.fromCharCode((i * 7919) % 256, 0xd800 + (i % 7))).join('');
const binary = (n: number, seed: number) => BYTES.slice(seed % 4096, (seed % 4096) + n);

function hostilePod(containers: number): KubeObject[] {
  const names = Array.from({ length: containers }, (_, i) => `c${i}`);
  const p = pod({
    spec: { containers: names.map((name) => ({ name, image: 'registry.example.com/shop/x:1' })) },
    status: {
      conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: ago(3600) }],
      containerStatuses: names.map((name, i) =>
        containerStatus({
          name,
          ready: false,
          restartCount: 9,
          state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=${name}` } },
          lastState: { terminated: { exitCode: i % 3 === 0 ? 139 : 1, reason: 'Error', startedAt: ago(200), finishedAt: ago(190) } },
        }),
      ),
    },
  });
  const log = (container: string, lines: string[]) => ({
    apiVersion: 'pod-doctor.dev/v1',
    kind: 'PodLog',
    metadata: { namespace: 'shop', name: p.metadata?.name },
    container,
    previous: true,
    lines,
  });
  return [
    p,
    // A megabyte line that ends with the decisive error, binary noise, and a long tail of noise.
    log('c0', ['starting', `${'x'.repeat(1_000_000)} open /data/x: permission denied`]),
    log(
      'c1',
      Array.from({ length: 2000 }, (_, i) => binary(200, i)),
    ),
    log(
      'c2',
      Array.from({ length: 20_000 }, (_, i) => `INFO request ${i} served in 3ms`),
    ),
    ...names.slice(3, 40).map((n) => log(n, [binary(5000, 1), 'panic: runtime error: invalid memory address or nil pointer dereference'])),
  ] as KubeObject[];
}

describe('hostile input', () => {
  it('thousands of containers, megabyte lines, binary bytes and long logs: an answer, nothing thrown', async () => {
    const objects = hostilePod(3000);
    const d = await diagnoseTarget(
      new ObjectsSource(objects, 'hostile'),
      { kind: 'pod', namespace: 'shop', name: 'web-7d9f8c6b5-x2k4q' },
      { cluster: 'c', now: () => new Date(NOW) },
    );
    expect(d.ruleErrors).toEqual([]);
    expect(d.findings.length).toBeGreaterThan(0);
    expect(d.findings[0]?.severity).toBe('error');
    // Every quote stays bounded however long the line it comes from.
    for (const f of d.findings) for (const e of f.evidence) expect(e.text.length, `${f.rule} ${e.source}`).toBeLessThan(20_000);
  });

  it('the catalogue reads megabytes of binary noise and finds the decisive line at the end of a megabyte line', () => {
    const noise = Array.from({ length: 5000 }, (_, i) => binary(1000, i));
    const r = readTexts([{ lines: [...noise, `${'y'.repeat(2_000_000)} write /data/wal: no space left on device`], source: 'logs x' }], { init: false });
    expect(r?.mechanism).toBe('disk-full');
    expect(r?.line.length).toBeLessThanOrEqual(400);
    expect(readTexts([{ lines: noise, source: 'logs x' }], { init: false })).toBeUndefined();
  });
});
