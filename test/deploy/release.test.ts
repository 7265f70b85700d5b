// What an operator installs: every pod-doctor container of every rendered variant runs the
// release's image (package.json's version), and deploy/release/ holds one install file per
// overlay equal to its render — compared as text with `kubectl kustomize` where a kubectl >= 1.21
// is on the PATH, as objects with the local renderer everywhere. And the LICENSE file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RELEASE_DIR, releaseFile, releaseHeader, releaseOverlays } from '../../scripts/release-manifests.js';
import {
  containersOf,
  DEPLOY,
  detectKubectl,
  isPodDoctorImage,
  isWorkload,
  type KubeObject,
  normalizeRender,
  OVERLAYS,
  parseObjects,
  REPO,
  renderLocal,
  VARIANTS,
} from '../helpers/deploy.js';

const kubectl = detectKubectl();
const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** Every container image of a render, with where it is. */
function images(objects: readonly KubeObject[]): { where: string; image: string }[] {
  return objects.filter(isWorkload).flatMap((w) => containersOf(w).map((c) => ({ where: `${w.kind}/${w.metadata?.name} ${c.name}`, image: c.image ?? '' })));
}

/** Problems of one image: pod-doctor's must be the release, the others pinned to a version. */
function imageProblems(image: string): string[] {
  if (isPodDoctorImage(image)) return image === `pod-doctor:${version}` ? [] : [`is ${image}, not the release pod-doctor:${version}`];
  const tag = /:([^/@]+)(@sha256:[0-9a-f]{64})?$/.exec(image)?.[1];
  if (!tag && !image.includes('@sha256:')) return [`${image} has no tag`];
  return tag === 'latest' ? [`${image} is :latest`] : [];
}

describe('images of every render', () => {
  it('finds the problems it looks for', () => {
    expect(imageProblems(`pod-doctor:${version}`)).toEqual([]);
    expect(imageProblems('pod-doctor')).toHaveLength(1);
    expect(imageProblems('pod-doctor:0.0.1')).toHaveLength(1);
    expect(imageProblems('redis:7.2-alpine')).toEqual([]);
    expect(imageProblems('redis')).toHaveLength(1);
    expect(imageProblems('redis:latest')).toHaveLength(1);
  });

  it.each(VARIANTS.map((v) => [v.name, v] as const))('%s: every pod-doctor container runs the release tag', (_, v) => {
    const all = images(renderLocal(v));
    expect(all.filter((i) => isPodDoctorImage(i.image)).length).toBeGreaterThanOrEqual(v.overlay === 'split' ? 3 : 2);
    expect(all.flatMap((i) => imageProblems(i.image).map((p) => `${i.where}: ${p}`))).toEqual([]);
  });
});

describe(`${RELEASE_DIR}/`, () => {
  it('holds one install file per overlay, nothing else', () => {
    expect(releaseOverlays()).toEqual([...OVERLAYS].sort());
    expect(readdirSync(join(REPO, RELEASE_DIR)).sort()).toEqual(OVERLAYS.map((o) => `${o}.yaml`).sort());
  });

  it.each(OVERLAYS.map((o) => [o]))('%s.yaml names the version and equals the render of its overlay (else: npm run release:manifests)', (overlay) => {
    const text = readFileSync(join(DEPLOY, 'release', `${overlay}.yaml`), 'utf8');
    expect(text.startsWith(releaseHeader(overlay, version))).toBe(true);
    const objects = parseObjects(text);
    expect(images(objects).flatMap((i) => imageProblems(i.image))).toEqual([]);
    expect(normalizeRender(objects)).toEqual(normalizeRender(renderLocal({ name: overlay, overlay, components: [] })));
  });

  it.skipIf(!kubectl.usable).each(OVERLAYS.map((o) => [o]))(`%s.yaml is byte for byte \`kubectl kustomize\` (${kubectl.reason})`, (overlay) => {
    expect(readFileSync(join(DEPLOY, 'release', `${overlay}.yaml`), 'utf8')).toBe(releaseFile(overlay));
  });
});

describe('the licence', () => {
  it('LICENSE is the Apache License 2.0 that package.json and the image label name', () => {
    const text = readFileSync(join(REPO, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004\s+http:\/\/www\.apache\.org\/licenses\//);
    // The full text: its nine sections and the appendix, not a pointer to it.
    for (const section of [
      '1. Definitions.',
      '4. Redistribution.',
      '9. Accepting Warranty or Additional Liability.',
      'END OF TERMS AND CONDITIONS',
      'APPENDIX: How to apply the Apache License',
    ]) {
      expect(text).toContain(section);
    }
    expect((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { license: string }).license).toBe('Apache-2.0');
    expect(readFileSync(join(REPO, 'Dockerfile'), 'utf8')).toContain('org.opencontainers.image.licenses="Apache-2.0"');
  });
});
