import { defineConfig } from 'vitest/config';

// A real node (test/realnode/node.ts): control plane + containerd + kubelet, one file at a time
// in one fork, inside the network namespace scripts/realnode-run.sh makes.
export default defineConfig({
  test: {
    include: ['test/realnode/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
