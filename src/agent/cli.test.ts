import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shutdownSecondsSchema } from '../config/schema.js';
import { RUNTIME_CHOICES } from './actions/host-exec-runtime.js';
import { agentMain, PLAIN_HTTP_VALUES, runProbeCli, runtimeOptionsFrom, transportFrom, wholeNumberIn } from './cli.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out, err };
}

describe('pod-doctor agent probe', () => {
  it('runs one probe on a fixture tree and prints its outcome as JSON', async () => {
    const { io: cio, out } = io();
    const code = await runProbeCli(
      [
        'mount-holders',
        '--proc-root',
        join(FIXTURES, '001/proc'),
        '--host-root',
        join(FIXTURES, '001/host'),
        '--match',
        '98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36',
        '--json',
      ],
      cio,
    );
    expect(code).toBe(0);
    const json = JSON.parse(out.join('')) as { ok: boolean; holders: { pid: number; unit: string; privateTmp: boolean }[] };
    expect(json.holders[0]).toMatchObject({ pid: 2725007, unit: 'ntpd.service', privateTmp: true });
  });

  it('agentMain dispatches `agent probe`', async () => {
    const { io: cio, out } = io();
    const code = await agentMain(
      ['agent', 'probe', 'processes', '--proc-root', join(FIXTURES, '000/proc'), '--pod-uid', '2b8e5882-5146-11e9-b3b3-525400dd6f19', '--json'],
      cio,
    );
    expect(code).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({ ok: true, zombies: [{ pid: 31238 }] });
  });

  it.each([
    [['nope'], /unknown probe "nope"/],
    [[], /usage/],
    [['processes', '--pod-uid', 'x'], /--podUid: expected a pod UID/],
    [['mount-holders', '--match', '../../etc'], /--match/],
    [['host', '--bogus'], /Unknown option/],
  ])('bad usage %j → exit 2', async (argv, message) => {
    const { io: cio, err } = io();
    expect(await runProbeCli(argv, cio)).toBe(2);
    expect(err.join('')).toMatch(message);
  });

  it('a probe that fails exits 1 with its error', async () => {
    const { io: cio, out } = io();
    expect(await runProbeCli(['journal', '--host-root', '/nonexistent', '--log-file', '/nonexistent/messages'], cio)).toBe(1);
    expect(JSON.parse(out.join(''))).toMatchObject({ ok: false, error: expect.stringMatching(/no log source/) });
  });

  it('serving needs a token', async () => {
    const { io: cio, err } = io();
    const saved = process.env.POD_DOCTOR_AGENT_TOKEN;
    delete process.env.POD_DOCTOR_AGENT_TOKEN;
    try {
      expect(await agentMain(['agent', '--port', '0'], cio)).toBe(2);
    } finally {
      if (saved !== undefined) process.env.POD_DOCTOR_AGENT_TOKEN = saved;
    }
    expect(err.join('')).toMatch(/bearer token is required/);
  });

  it('serving without a certificate: exit 2 and one line saying what to set', async () => {
    const { io: cio, err } = io();
    const saved = { ...process.env };
    process.env.POD_DOCTOR_AGENT_TOKEN = 'cli-test-token-0123456789';
    for (const k of ['POD_DOCTOR_AGENT_TLS_CERT', 'POD_DOCTOR_AGENT_TLS_KEY', 'POD_DOCTOR_AGENT_PLAIN_HTTP']) delete process.env[k];
    try {
      expect(await agentMain(['agent', '--port', '0', '--host', '127.0.0.1'], cio)).toBe(2);
      expect(await agentMain(['agent', '--port', '0', '--tls-cert', '/nonexistent/tls.crt', '--tls-key', '/nonexistent/tls.key'], cio)).toBe(2);
    } finally {
      process.env = saved;
    }
    const lines = err.join('').trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^the agent serves HTTPS: set POD_DOCTOR_AGENT_TLS_CERT and POD_DOCTOR_AGENT_TLS_KEY .* or POD_DOCTOR_AGENT_PLAIN_HTTP=true/),
      'cannot read the TLS certificate /nonexistent/tls.crt: ENOENT',
    ]);
  });
});

describe('the agent transport from flags and environment', () => {
  const CERT = { POD_DOCTOR_AGENT_TLS_CERT: '/tls/tls.crt', POD_DOCTOR_AGENT_TLS_KEY: '/tls/tls.key' };
  it.each([
    ['certificate and key from the environment', {}, CERT, { tls: { certFile: '/tls/tls.crt', keyFile: '/tls/tls.key' } }],
    ['flags win over the environment', { 'tls-cert': '/a.crt', 'tls-key': '/a.key' }, CERT, { tls: { certFile: '/a.crt', keyFile: '/a.key' } }],
    ['plain HTTP asked by the environment', {}, { POD_DOCTOR_AGENT_PLAIN_HTTP: 'true' }, { plainHttp: true }],
    ['plain HTTP asked by the flag', { 'plain-http': true }, {}, { plainHttp: true }],
    ['plain HTTP set to false still needs a certificate', {}, { POD_DOCTOR_AGENT_PLAIN_HTTP: 'false' }, /serves HTTPS/],
    ['nothing', {}, {}, /serves HTTPS/],
    ['a certificate without its key', { 'tls-cert': '/a.crt' }, {}, /go together/],
    ['both', {}, { ...CERT, POD_DOCTOR_AGENT_PLAIN_HTTP: 'yes' }, /choose one/],
    ['a misspelt switch', {}, { POD_DOCTOR_AGENT_PLAIN_HTTP: 'ture' }, /expected true or false/],
  ])('%s', (_name, values, env, want) => {
    const got = transportFrom(values, env);
    if (want instanceof RegExp) expect(got).toMatch(want);
    else expect(got).toEqual(want);
  });
});

// Serving checks its settings without zod (it must stay small idle): each check accepts exactly what its zod form would.
describe('the serving settings checked without zod', () => {
  const raws = ['0', '1', '8', '3600', '3601', '65535', '65536', '-1', '1.5', '1e3', ' 12 ', '0x10', 'abc', 'Infinity', 'NaN', '', '9477'];
  it.each([
    [0, 65535],
    [1, 3600],
  ])('whole numbers in [%i, %i] as z.coerce.number().int().min().max()', (min, max) => {
    const schema = z.coerce.number().int().min(min).max(max);
    for (const raw of raws) {
      const zod = schema.safeParse(raw);
      expect(wholeNumberIn(raw, min, max), raw).toEqual(zod.success ? zod.data : undefined);
    }
  });

  it('POD_DOCTOR_SHUTDOWN_SECONDS: the configuration’s schema has the same bounds', () => {
    for (const raw of raws) expect(wholeNumberIn(raw, 1, 3600) !== undefined, raw).toBe(shutdownSecondsSchema().safeParse(raw).success);
  });

  it('--runtime and POD_DOCTOR_AGENT_PLAIN_HTTP as z.enum', () => {
    for (const raw of ['auto', 'docker', 'cri', 'crio', 'Docker', '']) {
      const got = runtimeOptionsFrom({ runtime: raw }, {});
      expect(typeof got !== 'string', raw).toBe(z.enum(RUNTIME_CHOICES).optional().safeParse(raw).success);
    }
    for (const raw of ['true', 'false', '1', '0', 'yes', 'no', '', 'TRUE', 'on']) {
      const got = transportFrom({ 'plain-http': true }, { POD_DOCTOR_AGENT_PLAIN_HTTP: raw });
      expect(typeof got !== 'string', raw).toBe(z.enum(PLAIN_HTTP_VALUES).safeParse(raw).success);
    }
  });
});
