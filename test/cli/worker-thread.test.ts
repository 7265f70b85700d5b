// The bot's worker thread: `pod-doctor worker` on a thread, started and stopped by the bot.
// (Metrics and a full diagnosis through the results stream are covered by test/chat/slack-e2e.)
import { describe, expect, it } from 'vitest';
import { startWorkerThread } from '../../src/cli/worker-host.js';
import { silent } from '../helpers/logger.js';

describe('worker thread', () => {
  it('reports a worker that cannot start as the reason startWorkerThread rejects with', async () => {
    const started = startWorkerThread({
      data: { argv: ['--concurrency', 'lots'], env: { LOG_LEVEL: 'silent', POD_DOCTOR_CLUSTER: 'wt' } },
      logger: silent,
    });
    await expect(started).rejects.toThrow(/--concurrency "lots" is not a whole number/);
  });
});
