// The receiver's signature check must agree with Slack's scheme and with Bolt's own check
// (which still verifies the buttons and modals the receiver hands to Bolt).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HTTPReceiver, isValidSlackRequest } from '@slack/bolt';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatContext } from '../../context.js';
import type { CommandInput, CommandReply } from '../../flows/requests.js';
import { noteMessage } from '../../messages/messages.js';
import { receiveSlashCommands, validSlackSignature } from './receiver.js';

// The command flow behind the edge is a stand-in: this file tests the edge (verify once, answer,
// hand off), not what a diagnosis does.
const flow = vi.hoisted(() => ({ startDiagnosis: async (_input: unknown): Promise<{ jobId: string }> => ({ jobId: 'j1' }) }));
vi.mock('../../flows/requests.js', () => ({
  parseChatCommand: (_chat: unknown, text: string): CommandReply =>
    text === 'help'
      ? { kind: 'reply', message: noteMessage('prod', 'usage: /pod-doctor ns/pod') }
      : { kind: 'diagnose', target: { kind: 'pod', namespace: 'shop', name: text.split('/')[1] ?? '' }, ack: noteMessage('prod', `Diagnosing ${text}…`) },
  startDiagnosis: (_chat: unknown, input: unknown) => flow.startDiagnosis(input),
}));

const SECRET = 'test-signing-secret-0123456789';
const BODY = 'command=%2Fpod-doctor&text=shop%2Fweb-1&channel_id=C0OPS&user_id=U0ALICE';
const sign = (body: string, ts: number, secret = SECRET) => `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;

describe('validSlackSignature', () => {
  it("accepts Slack's documented example", () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    const sig = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';
    expect(validSlackSignature('8f742231b10e8888abcd99yyyzzz85a5', body, sig, '1531420618', 1531420618_000)).toBe(true);
  });

  it('agrees with Bolt on good, forged, tampered, stale, future and malformed requests', () => {
    const now = Math.floor(Date.now() / 1000);
    // `bolt`: where Bolt differs. It only bounds the past, so a future timestamp is refused by the
    // receiver and would be accepted by Bolt.
    const cases: { body: string; sig: string | undefined; ts: string | undefined; ok: boolean; bolt?: boolean }[] = [
      { body: BODY, sig: sign(BODY, now), ts: String(now), ok: true },
      { body: BODY, sig: sign(BODY, now - 290), ts: String(now - 290), ok: true },
      { body: BODY, sig: sign(BODY, now, 'another-secret'), ts: String(now), ok: false },
      { body: `${BODY}&x=1`, sig: sign(BODY, now), ts: String(now), ok: false },
      { body: BODY, sig: sign(BODY, now - 301), ts: String(now - 301), ok: false },
      { body: BODY, sig: sign(BODY, now + 301), ts: String(now + 301), ok: false, bolt: true },
      { body: BODY, sig: sign(BODY, now).slice(0, -2), ts: String(now), ok: false },
      { body: BODY, sig: sign(BODY, now).replace('v0=', 'v1='), ts: String(now), ok: false },
      { body: BODY, sig: `v0=${'zz'.repeat(32)}`, ts: String(now), ok: false },
      { body: BODY, sig: undefined, ts: String(now), ok: false },
      { body: BODY, sig: sign(BODY, now), ts: undefined, ok: false },
      { body: BODY, sig: sign(BODY, now), ts: `${now}x`, ok: false },
    ];
    for (const c of cases) {
      // At the same instant as the cases were made: a loaded machine may cross a second in between.
      expect(validSlackSignature(SECRET, c.body, c.sig, c.ts, now * 1000), JSON.stringify(c)).toBe(c.ok);
      const bolt =
        c.sig && c.ts && /^\d+$/.test(c.ts)
          ? isValidSlackRequest({ signingSecret: SECRET, body: c.body, headers: { 'x-slack-signature': c.sig, 'x-slack-request-timestamp': Number(c.ts) } })
          : false;
      expect(bolt, `bolt: ${JSON.stringify(c)}`).toBe(c.bolt ?? c.ok);
    }
  });
});

describe('receiveSlashCommands', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  /** The receiver in front of a stand-in for Bolt (answers 418), with a stand-in command flow. */
  async function start(startDiagnosis: (input: CommandInput) => Promise<void>) {
    const bolt: string[] = [];
    const responses: { path: string; body: { text: string } }[] = [];
    const receiver = {
      requestListener: (req: IncomingMessage, res: ServerResponse) => {
        bolt.push(req.url ?? '');
        res.writeHead(418).end();
      },
    };
    const started: CommandInput[] = [];
    flow.startDiagnosis = async (input) => {
      started.push(input as CommandInput);
      await startDiagnosis(input as CommandInput);
      return { jobId: 'j1' };
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
      fetch,
      chat: { cluster: 'prod' } as ChatContext,
      logger: pino({ level: 'silent' }),
    });
    const edge = createServer((req, res) => receiver.requestListener(req, res));
    await new Promise<void>((r) => edge.listen(0, '127.0.0.1', r));
    servers.push(edge);
    const hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
    const post = async (body: string, headers: Record<string, string> = {}) => {
      const ts = Math.floor(Date.now() / 1000);
      const res = await fetch(`http://127.0.0.1:${(edge.address() as AddressInfo).port}/slack/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-slack-request-timestamp': String(ts),
          'x-slack-signature': sign(body, ts),
          ...headers,
        },
        body,
      });
      return { status: res.status, text: await res.text() };
    };
    const command = (text: string) =>
      new URLSearchParams({ command: '/pod-doctor', text, channel_id: 'C0OPS', user_id: 'U0ALICE', response_url: `${hooksUrl}/commands/T1/42/abc` }).toString();
    return { post, command, bolt, responses, started };
  }

  it('answers a diagnosis in the acknowledgement, then starts it once with the typed command', async () => {
    const edge = await start(async () => undefined);
    const r = await edge.post(edge.command('shop/web-1'));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toMatchObject({ response_type: 'ephemeral', text: '[prod] Diagnosing shop/web-1…' });
    await expect.poll(() => edge.started.length).toBe(1);
    expect(edge.started[0]).toMatchObject({ channel: 'C0OPS', user: 'U0ALICE', target: { kind: 'pod', namespace: 'shop', name: 'web-1' } });
    expect(edge.bolt).toEqual([]);
  });

  it('tells the person privately, through response_url, when the diagnosis could not be queued', async () => {
    const edge = await start(async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    });
    expect((await edge.post(edge.command('shop/web-1'))).status).toBe(200);
    await expect.poll(() => edge.responses.length).toBe(1);
    expect(edge.responses[0]!.path).toBe('/commands/T1/42/abc');
    expect(edge.responses[0]!.body.text).toMatch(/Something went wrong queueing the diagnosis/);
  });

  it('answers help from the text alone, refuses a forged command with 401, and hands buttons to Bolt', async () => {
    const edge = await start(async () => undefined);
    const help = await edge.post(edge.command('help'));
    expect(JSON.parse(help.text).text).toBe('[prod] usage: /pod-doctor ns/pod');
    const forged = await edge.post(edge.command('shop/web-1'), { 'x-slack-signature': sign(edge.command('shop/web-2'), Math.floor(Date.now() / 1000)) });
    expect(forged.status).toBe(401);
    const click = await edge.post(new URLSearchParams({ payload: '{"type":"block_actions"}' }).toString());
    expect(click.status).toBe(418);
    expect(edge.bolt).toEqual(['/slack/events']);
    await new Promise((r) => setTimeout(r, 50));
    expect(edge.started).toEqual([]);
  });
});
