// The fast path's signature check must agree with Slack's scheme and with Bolt's own check
// (which still answers everything the fast path turns away).
import { createHmac } from 'node:crypto';
import { isValidSlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { validSlackSignature } from './fast-ack.js';

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
    // fast path and accepted by Bolt (the command still works, through Bolt's slower path).
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
      expect(validSlackSignature(SECRET, c.body, c.sig, c.ts), JSON.stringify(c)).toBe(c.ok);
      const bolt =
        c.sig && c.ts && /^\d+$/.test(c.ts)
          ? isValidSlackRequest({ signingSecret: SECRET, body: c.body, headers: { 'x-slack-signature': c.sig, 'x-slack-request-timestamp': Number(c.ts) } })
          : false;
      expect(bolt, `bolt: ${JSON.stringify(c)}`).toBe(c.bolt ?? c.ok);
    }
  });
});
