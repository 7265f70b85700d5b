// The Slack HTTP edge: a correctly signed command is started once and answered with what the
// command flow says once it is done (for a diagnosis: queued); anything unsigned, forged,
// tampered with, stale or from the future is refused with 401 and a reason (Bolt's
// verifySlackRequest, behind the receiver's replay window) and nothing is started.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HTTPReceiver } from '@slack/bolt';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatContext } from '../../context.js';
import type { CommandInput, CommandOutcome, CommandReply } from '../../flows/requests.js';
import { noteMessage } from '../../messages/messages.js';
import { receiveSlashCommands } from './receiver.js';

// The command flow behind the edge is a stand-in: this file tests the edge (verify once, answer
// with the flow's outcome, then what follows), not what a diagnosis does.
const flow = vi.hoisted(() => ({ diagnosisCommand: async (_input: unknown): Promise<unknown> => undefined }));
vi.mock('../../flows/requests.js', () => ({
  parseChatCommand: (_chat: unknown, text: string): CommandReply =>
    text === 'help'
      ? { kind: 'reply', message: noteMessage('prod', 'usage: /pod-doctor ns/pod') }
      : { kind: 'diagnose', target: { kind: 'pod', namespace: 'shop', name: text.split('/')[1] ?? '' } },
  diagnosisCommand: (_chat: unknown, input: unknown) => flow.diagnosisCommand(input),
}));

const SECRET = 'test-signing-secret-0123456789';
const sign = (body: string, ts: number, secret = SECRET) => `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
/** Slack's headers for `body` signed at `ts`. */
const signed = (body: string, ts = Math.floor(Date.now() / 1000), secret = SECRET) => ({
  'x-slack-request-timestamp': String(ts),
  'x-slack-signature': sign(body, ts, secret),
});

describe('receiveSlashCommands', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  /** The receiver in front of a stand-in for Bolt (answers 418), with a stand-in command flow. */
  async function start(outcome: (input: CommandInput) => Promise<CommandOutcome>) {
    const bolt: string[] = [];
    const responses: { path: string; body: { text: string } }[] = [];
    const receiver = {
      requestListener: (req: IncomingMessage, res: ServerResponse) => {
        bolt.push(req.url ?? '');
        res.writeHead(418).end();
      },
    };
    const started: CommandInput[] = [];
    flow.diagnosisCommand = async (input) => {
      started.push(input as CommandInput);
      return outcome(input as CommandInput);
    };
    const hooks = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c));
      req.on('end', () => {
        responses.push({ path: req.url ?? '', body: JSON.parse(raw) as { text: string } });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
    servers.push(hooks);
    receiveSlashCommands({
      receiver: receiver as unknown as HTTPReceiver,
      signingSecret: SECRET,
      chat: { cluster: 'prod' } as ChatContext,
      logger: pino({ level: 'silent' }),
    });
    const edge = createServer((req, res) => receiver.requestListener(req, res));
    await new Promise<void>((r) => edge.listen(0, '127.0.0.1', r));
    servers.push(edge);
    const hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
    /** POST `body` with Slack's headers (`headers`: these instead). */
    const post = async (body: string, headers: Record<string, string> = signed(body)) => {
      const res = await fetch(`http://127.0.0.1:${(edge.address() as AddressInfo).port}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
      return { status: res.status, text: await res.text() };
    };
    const command = (text: string) =>
      new URLSearchParams({ command: '/pod-doctor', text, channel_id: 'C0OPS', user_id: 'U0ALICE', response_url: `${hooksUrl}/commands/T1/42/abc` }).toString();
    return { post, command, bolt, responses, started };
  }

  it('answers a diagnosis once the flow has queued it, with the typed command, and then follows it', async () => {
    let queued = false;
    let followed = 0;
    const edge = await start(async () => {
      await new Promise((r) => setTimeout(r, 100));
      queued = true;
      return { message: noteMessage('prod', 'Diagnosing shop/web-1…'), follow: async () => void followed++ };
    });
    const r = await edge.post(edge.command('shop/web-1'));
    expect(queued).toBe(true);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toMatchObject({ response_type: 'ephemeral', text: '[prod] Diagnosing shop/web-1…' });
    expect(edge.started).toEqual([expect.objectContaining({ channel: 'C0OPS', user: 'U0ALICE', target: { kind: 'pod', namespace: 'shop', name: 'web-1' } })]);
    await expect.poll(() => followed).toBe(1);
    expect(edge.bolt).toEqual([]);
  });

  it('gives what follows the answer the response_url, for the person alone', async () => {
    const edge = await start(async (input) => ({
      message: noteMessage('prod', 'Diagnosing shop/web-1…'),
      follow: () => input.respond!(noteMessage('prod', 'I cannot post in this channel')),
    }));
    expect((await edge.post(edge.command('shop/web-1'))).status).toBe(200);
    await expect.poll(() => edge.responses.length).toBe(1);
    expect(edge.responses[0]).toMatchObject({ path: '/commands/T1/42/abc', body: { text: '[prod] I cannot post in this channel' } });
  });

  it('answers 500 when the flow itself fails (a bug: Redis trouble is an answer, "try again")', async () => {
    const edge = await start(async () => {
      throw new TypeError('undefined is not a function');
    });
    expect((await edge.post(edge.command('shop/web-1'))).status).toBe(500);
  });

  it('answers help from the text alone and hands buttons to Bolt', async () => {
    const edge = await start(async () => ({ message: noteMessage('prod', 'Diagnosing…') }));
    const help = await edge.post(edge.command('help'));
    expect(JSON.parse(help.text).text).toBe('[prod] usage: /pod-doctor ns/pod');
    const click = await edge.post(new URLSearchParams({ payload: '{"type":"block_actions"}' }).toString());
    expect(click.status).toBe(418);
    expect(edge.bolt).toEqual(['/slack/events']);
    await new Promise((r) => setTimeout(r, 50));
    expect(edge.started).toEqual([]);
  });

  it('refuses unsigned, forged, tampered, stale and future commands with 401 and why, and starts none', async () => {
    const edge = await start(async () => ({ message: noteMessage('prod', 'Diagnosing…') }));
    const body = edge.command('shop/web-1');
    // Headers are signed as each case is sent, not all before the first one.
    const cases: { name: string; body: string; headers: (now: number) => Record<string, string>; why: RegExp }[] = [
      { name: 'unsigned', body, headers: (now) => ({ 'x-slack-request-timestamp': String(now) }), why: /unsigned request/ },
      { name: 'no timestamp', body, headers: (now) => ({ 'x-slack-signature': sign(body, now) }), why: /stale or future request timestamp/ },
      { name: 'another secret', body, headers: (now) => signed(body, now, 'another-secret'), why: /signature mismatch/ },
      { name: 'tampered body', body: `${body}&text=kube-system%2Fcoredns`, headers: (now) => signed(body, now), why: /signature mismatch/ },
      {
        name: 'tampered timestamp',
        body,
        headers: (now) => ({ ...signed(body, now - 10), 'x-slack-request-timestamp': String(now) }),
        why: /signature mismatch/,
      },
      { name: 'stale', body, headers: (now) => signed(body, now - 301), why: /stale or future request timestamp/ },
      // Past the window by two seconds: the timestamp is whole seconds, and the request takes a while on a busy machine.
      { name: 'future', body, headers: (now) => signed(body, now + 302), why: /stale or future request timestamp/ },
      {
        name: 'unknown version',
        body,
        headers: (now) => ({ ...signed(body, now), 'x-slack-signature': sign(body, now).replace('v0=', 'v1=') }),
        why: /unknown signature version/,
      },
      { name: 'truncated', body, headers: (now) => ({ ...signed(body, now), 'x-slack-signature': sign(body, now).slice(0, -2) }), why: /signature mismatch/ },
    ];
    for (const c of cases) {
      const r = await edge.post(c.body, c.headers(Math.floor(Date.now() / 1000)));
      expect(r.status, c.name).toBe(401);
      expect(r.text, c.name).toMatch(c.why);
    }
    // The same command, correctly signed, passes (so the refusals above were about the signature).
    expect((await edge.post(body)).status).toBe(200);
    await expect.poll(() => edge.started.length).toBe(1);
    expect(edge.bolt).toEqual([]);
  });
});
