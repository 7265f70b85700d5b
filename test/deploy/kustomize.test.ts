// `kubectl kustomize` renders each overlay, alone and with its components, without errors or
// deprecation warnings; and the local renderer the other deploy tests fall back on gives the
// same objects. Skipped, saying why, when no kubectl >= 1.21 is on the PATH (Debian bookworm's
// kubernetes-client is 1.20, whose kustomize v2.0.3 predates components).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentNames, DEPLOY, detectKubectl, normalizeRender, OVERLAYS, renderDir, renderLocal, renderVariant, VARIANTS } from '../helpers/deploy.js';

const kubectl = detectKubectl();

describe.skipIf(!kubectl.usable)(`kubectl kustomize (${kubectl.reason})`, () => {
  it.each(OVERLAYS.map((o) => [o]))('kubectl kustomize deploy/overlays/%s renders without warnings', (overlay) => {
    const { objects, stderr } = renderDir(join(DEPLOY, 'overlays', overlay));
    expect(stderr).toBe('');
    expect(objects.map((o) => o.kind)).toEqual(expect.arrayContaining(['Namespace', 'Deployment', 'DaemonSet', 'StatefulSet', 'ClusterRole', 'NetworkPolicy']));
  });

  it.each(VARIANTS.map((v) => [v.name, v] as const))('renders %s', (_, v) => {
    expect(renderVariant(v).stderr).toBe('');
  });

  it('every component is rendered by some variant', () => {
    const used = new Set(VARIANTS.flatMap((v) => v.components));
    expect(componentNames().filter((c) => !used.has(c))).toEqual([]);
  });

  it.each(VARIANTS.map((v) => [v.name, v] as const))('the local renderer matches kubectl for %s', (_, v) => {
    expect(normalizeRender(renderLocal(v))).toEqual(normalizeRender(renderVariant(v).objects));
  });

  it('worker-hpa refuses overlays/single-process (there is no worker Deployment to scale)', () => {
    expect(() => renderVariant({ name: 'single-process+worker-hpa', overlay: 'single-process', components: ['worker-hpa'] })).toThrow(/pod-doctor-worker/);
  });
});

describe('the local renderer', () => {
  it('renders every variant', () => {
    for (const v of VARIANTS) expect(renderLocal(v).length, v.name).toBeGreaterThan(15);
  });

  it('refuses a patch whose target does not exist, like kustomize', () => {
    expect(() => renderLocal({ name: 'x', overlay: 'single-process', components: ['worker-hpa'] })).toThrow(
      /patch target Deployment pod-doctor-worker not found/,
    );
  });
});
