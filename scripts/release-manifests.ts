// Writes one install file per overlay, deploy/release/<overlay>.yaml: `kubectl kustomize
// deploy/overlays/<overlay>` under a header naming the version, so an operator can
// `kubectl apply -f` a release without kustomize. `--check` exits 1 when a file differs from the
// render (test/deploy/release.test.ts checks the same without kubectl, with the local renderer).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const RELEASE_DIR = 'deploy/release';

/** The overlays under deploy/overlays/, each one install file. */
export function releaseOverlays(root: string = ROOT): string[] {
  return readdirSync(join(root, 'deploy/overlays'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

export function releaseVersion(root: string = ROOT): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

export function releaseHeader(overlay: string, version: string): string {
  return [
    `# pod-doctor ${version}, overlay ${overlay}: \`kubectl kustomize deploy/overlays/${overlay}\`, written by`,
    '# `npm run release:manifests`. Do not edit: change deploy/ and run it again (CI fails on drift).',
    '# Create the Secret first (deploy/base/secrets.example.yaml), then: kubectl apply -f this file.',
    '',
  ].join('\n');
}

export class RenderError extends Error {
  readonly code = 'RENDER_FAILED';
}

/** `kubectl kustomize` of one overlay (kubectl >= 1.21: its kustomize knows components). */
export function renderOverlay(overlay: string, root: string = ROOT): string {
  const r = spawnSync('kubectl', ['kustomize', join(root, 'deploy/overlays', overlay)], { encoding: 'utf8', timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  if (r.error) throw new RenderError(`cannot run kubectl (${r.error.message}): release manifests need kubectl >= 1.21 on PATH`, { cause: r.error });
  if (r.status !== 0) throw new RenderError(`kubectl kustomize deploy/overlays/${overlay} failed: ${r.stderr.trim().split('\n')[0] ?? ''}`);
  return r.stdout;
}

export function releaseFile(overlay: string, root: string = ROOT): string {
  return releaseHeader(overlay, releaseVersion(root)) + renderOverlay(overlay, root);
}

/** Overlays whose file differs from the render (all of them written unless `check`). */
export function syncRelease(options: { check: boolean; root?: string }): string[] {
  const root = options.root ?? ROOT;
  mkdirSync(join(root, RELEASE_DIR), { recursive: true });
  const stale: string[] = [];
  for (const overlay of releaseOverlays(root)) {
    const path = join(root, RELEASE_DIR, `${overlay}.yaml`);
    const want = releaseFile(overlay, root);
    let have = '';
    try {
      have = readFileSync(path, 'utf8');
    } catch {
      // A missing file is stale like a different one.
    }
    if (have === want) continue;
    stale.push(`${RELEASE_DIR}/${overlay}.yaml`);
    if (!options.check) writeFileSync(path, want);
  }
  return stale;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  try {
    const stale = syncRelease({ check });
    if (check && stale.length > 0) {
      console.error(`release manifests differ from the render: ${stale.join(', ')} (run npm run release:manifests)`);
      process.exitCode = 1;
    } else if (!check) {
      console.log(stale.length ? `wrote ${stale.join(', ')}` : 'release manifests are up to date');
    }
  } catch (err) {
    if (!(err instanceof RenderError)) throw err;
    console.error(err.message);
    process.exitCode = 2;
  }
}
