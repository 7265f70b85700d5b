// The Slack HTTP receiver, mounted on the bot's server as the bot mounts it: a correctly signed
// command is started once and answered with what the command flow says once it is done (for a
// diagnosis: queued); anything unsigned, forged, tampered with, stale or from the future is
// refused with 401 and a reason (Bolt's verifySlackRequest, behind the receiver's replay window)
// and nothing is started; everything else is a Bolt ReceiverEvent for app.processEvent, and with
// a real Bolt App a signed click reaches its app.action listener, an unsigned one never does.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type App as BoltApp, type ReceiverEvent } from '@slack/bolt';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpServer, type HttpServer } from '../../../http/server.js';
import type { ChatContext } from '../../context.js';
import type { CommandInput, CommandOutcome, CommandReply } from '../../flows/requests.js';
import { noteMessage } from '../../messages/messages.js';
import { SlackHttpReceiver } from './receiver.js';
import { slackLogger } from './web-client.js';

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

const logger = pino({ level: 'silent' });

/** The receiver's route on the bot's server (src/http/), as the bot mounts it. */
async function serve(receiver: SlackHttpReceiver, servers: HttpServer[]) {
  const server = createHttpServer({ logger });
  server.mount(receiver.route);
  servers.push(server);
  const port = await server.listen(0, '127.0.0.1');
  /** POST `body` with Slack's headers (`headers`: these instead). */
  return async (body: string, headers: Record<string, string> = signed(body), type = 'application/x-www-form-urlencoded') => {
    const res = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
    return { status: res.status, text: await res.text() };
  };
}

describe('SlackHttpReceiver', () => {
  const servers: Server[] = [];
  const https: HttpServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    await Promise.all(https.splice(0).map((s) => s.close(0)));
  });

  /** The receiver in front of a stand-in for Bolt's App (acknowledges each event), with a stand-in command flow. */
  async function start(outcome: (input: CommandInput) => Promise<CommandOutcome>) {
    const bolt: ReceiverEvent[] = [];
    const responses: { path: string; body: { text: string } }[] = [];
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
    const receiver = new SlackHttpReceiver({ signingSecret: SECRET, chat: { cluster: 'prod' } as ChatContext, logger });
    const app = {
      processEvent: async (event: ReceiverEvent) => {
        bolt.push(event);
        await event.ack();
      },
    };
    receiver.init(app as unknown as BoltApp);
    await receiver.start();
    const post = await serve(receiver, https);
    const hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
    const command = (text: string) =>
      new URLSearchParams({ command: '/pod-doctor', text, channel_id: 'C0OPS', user_id: 'U0ALICE', response_url: `${hooksUrl}/commands/T1/42/abc` }).toString();
    return { post, command, bolt, responses, started, receiver };
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

  it("answers help from the text alone and hands buttons to Bolt as a ReceiverEvent, with Slack's retry headers", async () => {
    const edge = await start(async () => ({ message: noteMessage('prod', 'Diagnosing…') }));
    const help = await edge.post(edge.command('help'));
    expect(JSON.parse(help.text).text).toBe('[prod] usage: /pod-doctor ns/pod');
    const click = new URLSearchParams({ payload: '{"type":"block_actions","actions":[]}' }).toString();
    expect((await edge.post(click, { ...signed(click), 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' })).status).toBe(200);
    expect(edge.bolt).toEqual([expect.objectContaining({ body: { type: 'block_actions', actions: [] }, retryNum: 1, retryReason: 'http_timeout' })]);
    // The Events API comes as JSON, verified the same way.
    const event = JSON.stringify({ type: 'event_callback', event: { type: 'app_mention' } });
    expect((await edge.post(event, signed(event), 'application/json')).status).toBe(200);
    expect(edge.bolt[1]?.body).toEqual({ type: 'event_callback', event: { type: 'app_mention' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(edge.started).toEqual([]);
  });

  it("answers Slack's URL verification and certificate check itself, and refuses a malformed or oversized body", async () => {
    const edge = await start(async () => ({ message: noteMessage('prod', 'Diagnosing…') }));
    const challenge = JSON.stringify({ type: 'url_verification', challenge: 'c-123', token: 'legacy' });
    const verified = await edge.post(challenge, signed(challenge), 'application/json');
    expect(verified).toEqual({ status: 200, text: '{"challenge":"c-123"}' });
    // The certificate check is not signed; a smuggled payload beside it reaches nothing.
    const ssl = 'ssl_check=1&token=legacy&payload=%7B%22type%22%3A%22block_actions%22%7D';
    expect((await edge.post(ssl, { 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) })).status).toBe(200);
    const malformed = 'payload=%7Bnot-json';
    expect((await edge.post(malformed)).status).toBe(400);
    const big = `payload=${'x'.repeat(4 * 1024 * 1024)}`;
    expect((await edge.post(big)).status).toBe(413);
    expect(edge.bolt).toEqual([]);
  });

  it('refuses a click that is unsigned, forged or stale with 401 and never hands it to Bolt', async () => {
    const edge = await start(async () => ({ message: noteMessage('prod', 'Diagnosing…') }));
    const click = new URLSearchParams({ payload: '{"type":"block_actions","actions":[]}' }).toString();
    const now = Math.floor(Date.now() / 1000);
    expect((await edge.post(click, { 'x-slack-request-timestamp': String(now) })).text).toMatch(/unsigned request/);
    expect((await edge.post(click, signed(click, now, 'another-secret'))).status).toBe(401);
    expect((await edge.post(click, signed(click, now - 301))).status).toBe(401);
    expect((await edge.post(click, signed(click, now + 302))).status).toBe(401);
    const json = JSON.stringify({ type: 'event_callback', event: { type: 'app_mention' } });
    expect((await edge.post(json, {}, 'application/json')).status).toBe(401);
    expect(edge.bolt).toEqual([]);
  });

  it('dispatches nothing before start and after stop (503: Slack retries)', async () => {
    const edge = await start(async () => ({ message: noteMessage('prod', 'Diagnosing…') }));
    await edge.receiver.stop();
    const click = new URLSearchParams({ payload: '{"type":"block_actions","actions":[]}' }).toString();
    expect((await edge.post(click)).status).toBe(503);
    expect((await edge.post(edge.command('shop/web-1'))).status).toBe(503);
    expect(edge.bolt).toEqual([]);
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

describe('SlackHttpReceiver as a Bolt receiver', () => {
  const https: HttpServer[] = [];
  afterEach(async () => {
    await Promise.all(https.splice(0).map((s) => s.close(0)));
  });

  it("is a real Bolt App's receiver on the bot's server: a signed click reaches app.action, an unsigned one gets 401 and never does", async () => {
    const receiver = new SlackHttpReceiver({ signingSecret: SECRET, chat: { cluster: 'prod' } as ChatContext, logger });
    const app = new App({
      receiver,
      authorize: async () => ({ botToken: 'xoxb-test', botId: 'B0BOT', botUserId: 'U0BOT' }),
      logger: slackLogger(logger),
      convoStore: false,
    });
    const clicks: { user: string; value: string | undefined }[] = [];
    app.action('pd_approve', async ({ ack, body, action }) => {
      await ack();
      clicks.push({ user: body.user.id, value: 'value' in action ? action.value : undefined });
    });
    await app.start();
    const post = await serve(receiver, https);
    const payload = {
      type: 'block_actions',
      team: { id: 'T0FAKE', domain: 'fake' },
      user: { id: 'U0ALICE', username: 'alice', team_id: 'T0FAKE' },
      api_app_id: 'A0FAKE',
      token: 'legacy',
      trigger_id: '1.2.3',
      channel: { id: 'C0OPS', name: 'ops' },
      container: { type: 'message', message_ts: '1.000001', channel_id: 'C0OPS', is_ephemeral: false },
      actions: [{ type: 'button', action_id: 'pd_approve', block_id: 'b', value: 'pl_123', action_ts: '1.2' }],
    };
    const click = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

    const unsigned = await post(click, { 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) });
    expect(unsigned.status).toBe(401);
    expect(unsigned.text).toMatch(/unsigned request/);
    expect((await post(click, signed(click, Math.floor(Date.now() / 1000), 'another-secret'))).status).toBe(401);
    expect(clicks).toEqual([]);

    expect((await post(click)).status).toBe(200);
    await expect.poll(() => clicks).toEqual([{ user: 'U0ALICE', value: 'pl_123' }]);
    await app.stop();
    expect((await post(click)).status).toBe(503);
    expect(clicks).toHaveLength(1);
  });
});
