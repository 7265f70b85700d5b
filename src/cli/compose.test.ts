// composeChat reads the configuration once: the Alertmanager API gives group threads their
// Silence buttons, the audit retention and the policy reach the chat flows.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { silent } from '../../test/helpers/logger.js';
import { ConsoleAdapter } from '../chat/adapters/console/adapter.js';
import { consoleIds } from '../chat/adapters/console/ids.js';
import { ApproverPolicy } from '../chat/store/approvals.js';
import { loadConfig } from '../config/schema.js';
import { JobQueues } from '../jobs/queues.js';
import { redisFromUrl } from '../redis/client.js';
import { composeChat } from './compose.js';
import { jobSettingsFromConfig } from './wiring.js';

describe('composeChat', () => {
  const redis = redisFromUrl(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {}, { role: 'producer' });
  const compose = (env: Record<string, string>) => {
    const config = loadConfig({ POD_DOCTOR_CLUSTER: 'c1', ...env });
    return composeChat(config, {
      adapter: new ConsoleAdapter({ out: new PassThrough(), color: false }),
      redis,
      queues: new JobQueues(redis, { ...jobSettingsFromConfig(config), prefix: 'compose-test' }, silent),
      cluster: 'c1',
      logger: silent,
      approvers: new ApproverPolicy({ approvers: [], ids: consoleIds }),
      playbooks: [],
    });
  };

  it('offers silences only with an Alertmanager API URL, and carries the retention and the policy', () => {
    expect(compose({}).options.silences).toBeUndefined();
    const chat = compose({
      POD_DOCTOR_ALERTMANAGER_URL: 'http://alertmanager:9093',
      POD_DOCTOR_AUDIT_RETENTION_DAYS: '7',
      POD_DOCTOR_POLICY: JSON.stringify({ channels: { C0SHOP: { namespaces: ['shop*'] } } }),
    });
    expect(chat.options.silences).toBeDefined();
    expect(chat.options.auditRetentionMs).toBe(7 * 86_400_000);
    expect(chat.options.policy?.channels.C0SHOP?.namespaces).toEqual(['shop*']);
    redis.disconnect();
  });
});
