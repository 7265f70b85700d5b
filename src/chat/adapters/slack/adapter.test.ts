// The Slack adapter's last pass: whatever a flow hands it, no credential reaches the Web API (the
// fake Slack's record of what arrived), and the ids the click handler looks up (button values) go
// as they came.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../../../../test/helpers/fake-slack.js';
import { silent } from '../../../../test/helpers/logger.js';
import type { ChatMessage } from '../../types.js';
import { SlackAdapter } from './adapter.js';
import { createSlackWebClient } from './web-client.js';

const SECRETS = ['S3cr3t!', 'hunter2', 'pdFZKVeTuE8sk7oOcBrzbqgy', 'IOSFODNN7EXAMPLE', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', '9f86d081884c7d659a2f'];

/** A finding as a flow would post it, with credentials in every kind of text. */
const message: ChatMessage = {
  text: 'shop/api: crash (password=hunter2)',
  parts: [
    { kind: 'header', text: 'api exited with code 1' },
    { kind: 'section', label: 'Cause', text: 'The log ends: "dial postgres://app:S3cr3t!@db:5432/shop: refused"' },
    { kind: 'fields', fields: [{ label: 'Key', value: 'AKIAIOSFODNN7EXAMPLE' }] },
    {
      kind: 'quote',
      source: 'logs api (previous)',
      text: 'Authorization: Bearer 9f86d081884c7d659a2f\nslack xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
    },
    { kind: 'code', lines: ['-----BEGIN PRIVATE KEY-----', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', '-----END PRIVATE KEY-----'] },
    { kind: 'list', items: ['check password=hunter2'] },
    { kind: 'context', text: 'cluster prod' },
    { kind: 'actions', buttons: [{ action: 'approve', label: 'Approve', value: 'pl_Zx4nQ1c2Ab3dEf6h', style: 'primary' }] },
  ],
};

let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(() => fake.close());

function adapter() {
  fake.calls.length = 0;
  const client = createSlackWebClient('xoxb-test', { slackApiUrl: fake.apiUrl, logger: silent });
  return { slack: new SlackAdapter({ client, logger: silent }), calls: fake.calls };
}

describe('SlackAdapter redaction', () => {
  it('sends no credential through postRoot, postInThread, update or ephemeral, and keeps button values', async () => {
    const { slack, calls } = adapter();
    const root = await slack.postRoot('C1', message);
    await slack.postInThread(root, message);
    await slack.update(root, message);
    await slack.ephemeral('C1', 'U1', message, root);
    expect(calls.map((c) => c.method)).toEqual(['chat.postMessage', 'chat.postMessage', 'chat.update', 'chat.postEphemeral']);
    for (const { method, args } of calls) {
      const sent = JSON.stringify(args);
      for (const secret of SECRETS) expect(sent, `${method} leaks ${secret}`).not.toContain(secret);
      expect(sent, method).toContain('postgres://app:[redacted]@db:5432/shop');
      expect(sent, method).toContain('-----BEGIN PRIVATE KEY-----[redacted]-----END PRIVATE KEY-----');
      expect(sent, method).toContain('"value":"pl_Zx4nQ1c2Ab3dEf6h"');
      expect(args.text, method).toBe('shop/api: crash (password=[redacted])');
    }
  });

  it('leaves the caller its message as it was', async () => {
    const { slack } = adapter();
    const before = JSON.stringify(message);
    await slack.postRoot('C1', message);
    expect(JSON.stringify(message)).toBe(before);
  });
});
