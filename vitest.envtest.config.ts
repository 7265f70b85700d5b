import { defineConfig } from 'vitest/config';

// Integration tests against a real control plane (test/envtest/harness.ts). One file at a
// time in one fork: each file starts its own etcd + API server (~300 MB) on a 2-core machine.
export default defineConfig({
  test: {
    include: ['test/envtest/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
