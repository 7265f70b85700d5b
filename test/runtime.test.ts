// The suite runs on the Node.js the project supports, whatever the machine's own Node is: npm
// scripts find the `node` dev dependency's Node 24 first on PATH (README, .ci/run).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const major = (v: string) => Number(/(\d+)/.exec(v)?.[1]);

describe('runtime', () => {
  it('runs on the Node major the package brings, which meets engines', () => {
    expect(major(process.version)).toBe(major(pkg.devDependencies.node ?? ''));
    expect(major(process.version)).toBeGreaterThanOrEqual(major(pkg.engines.node));
    expect(major(pkg.engines.node)).toBeGreaterThanOrEqual(24);
  });

  it('builds the image on the same Node major', () => {
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    expect(/^ARG NODE_IMAGE=node:(\d+)-/m.exec(dockerfile)?.[1]).toBe(String(major(process.version)));
  });
});
