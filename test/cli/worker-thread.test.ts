// The bot's worker thread: `pod-doctor worker` on a thread, started and stopped by the bot.
// (Metrics and a full diagnosis through the results stream are covered by test/chat/slack-e2e.)
import { describe, expect, it } from 'vitest';
import { commandConfig } from '../../src/cli/config.js';
import { startWorkerThread } from '../../src/cli/worker-host.js';
import { silent } from '../helpers/logger.js';

describe('worker thread', () => {
  it('reports a worker that cannot start as the reason startWorkerThread rejects with', async () => {
    const started = startWorkerThread({
      // The configuration crosses to the thread as an object (structured clone), not argv.
      data: {
        options: { config: commandConfig({ LOG_LEVEL: 'silent' }), cluster: 'wt', concurrency: 2, port: 0, kubeconfig: '/nonexistent/pod-doctor/kubeconfig' },
      },
      logger: silent,
    });
    await expect(started).rejects.toThrow(/no kubeconfig: \/nonexistent\/pod-doctor\/kubeconfig/);
  });
});
