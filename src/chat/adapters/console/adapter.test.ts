// The console adapter prints what Slack would get: redacted text, the same action numbers.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../types.js';
import { ConsoleAdapter } from './adapter.js';

describe('ConsoleAdapter redaction', () => {
  it('prints no credential and keeps the buttons a user presses', async () => {
    let printed = '';
    const out = new PassThrough();
    out.on('data', (b: Buffer) => (printed += b.toString('utf8')));
    const chat = new ConsoleAdapter({ out });
    const message: ChatMessage = {
      text: 'shop/api: crash',
      parts: [
        { kind: 'quote', source: 'logs api (previous)', text: 'dial redis://:r3d1sP4ss@redis:6379 failed\nPGPASSWORD=Pg-S3cret-99 psql' },
        {
          kind: 'code',
          lines: ['-----BEGIN EC PRIVATE KEY-----', 'MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oEXAMPLEKEYoAoGCCqGSM49', '-----END EC PRIVATE KEY-----'],
        },
        { kind: 'actions', buttons: [{ action: 'rerun', label: 'Re-run', value: 'th_1' }] },
      ],
    };
    const root = await chat.postRoot('C1', message);
    await chat.postInThread(root, message);
    await chat.update(root, { ...message, text: 'token=ghp_16C7e42F292c6912E7710c838347Ae178B4a' });
    await chat.ephemeral('C1', 'U1', message);
    chat.say('echo password=hunter2');
    await chat.postFile(root, { filename: 'post-incident.md', title: 'Report', content: '# Report\nPGPASSWORD=Pg-S3cret-99 psql', comment: 'Write-up' });
    await new Promise((r) => setImmediate(r));
    for (const secret of ['r3d1sP4ss', 'Pg-S3cret-99', 'MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5', '16C7e42F292c', 'hunter2'])
      expect(printed).not.toContain(secret);
    expect(printed).toContain('redis://:[redacted]@redis:6379');
    expect(printed).toContain('-----BEGIN EC PRIVATE KEY-----[redacted]-----END EC PRIVATE KEY-----');
    expect(printed).toMatch(/thread 1 · file post-incident\.md\n {2}│ Write-up\n {2}│ # Report\n/);
    expect(chat.buttons(1)).toEqual([expect.objectContaining({ action: 'rerun', value: 'th_1' })]);
  });
});
