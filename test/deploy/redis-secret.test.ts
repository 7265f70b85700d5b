// The bundled Redis requires a password from the Secret: its container's own start script and
// redis.conf, taken from the render and run here with a real redis-server (paths moved into a
// temp dir), refuse a client without the Secret's user and password and serve one with them;
// the readiness probe's command passes only with them; every bot and worker container reads
// the same Secret keys; and the password never reaches a command line.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { closeRedis, redisFromUrl } from '../../src/redis/client.js';
import {
  containersOf,
  detectKubectl,
  isWorkload,
  type KubeObject,
  named,
  objectsOfKind,
  renderLocal,
  renderVariant,
  rolesOf,
  SECRET_NAME,
  secretTemplate,
  VARIANTS,
  type Variant,
} from '../helpers/deploy.js';
import { eventually, freePort } from '../helpers/jobs.js';
import { track } from '../helpers/redis-topology.js';

const run = promisify(execFile);
const kubectl = detectKubectl();
const render = (v: Variant): KubeObject[] => (kubectl.usable ? renderVariant(v).objects : renderLocal(v));
const base = VARIANTS.find((v) => !v.components.includes('external-redis'))!;
const objects = render(base);
const statefulSet = named(objects.filter(isWorkload), 'pod-doctor-redis')!;
const redis = containersOf(statefulSet)[0]!;
const conf = named(objectsOfKind<KubeObject & { data: Record<string, string> }>(objects, 'ConfigMap'), 'pod-doctor-redis')!.data['redis.conf']!;

describe('the bundled Redis and its Secret', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-redis-secret-'));

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes its user and password from the Secret, required, and the clients take the same keys', () => {
    const fromSecret = (name: string) => redis.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
    expect(fromSecret('REDIS_USERNAME')).toEqual({ name: SECRET_NAME, key: 'REDIS_USERNAME' });
    expect(fromSecret('REDIS_PASSWORD')).toEqual({ name: SECRET_NAME, key: 'REDIS_PASSWORD' });
    expect(secretTemplate().REDIS_USERNAME).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(secretTemplate().REDIS_PASSWORD).toMatch(/^[A-Za-z0-9._-]+$/);
    // Every bot and worker container of every variant that ships this Redis reads both keys.
    for (const v of VARIANTS.filter((x) => !x.components.includes('external-redis'))) {
      const clients = render(v)
        .filter(isWorkload)
        .flatMap(containersOf)
        .filter((c) => rolesOf(c).roles.some((r) => r === 'bot' || r === 'worker'));
      expect(clients.length, v.overlay).toBeGreaterThan(0);
      for (const c of clients) {
        for (const key of ['REDIS_USERNAME', 'REDIS_PASSWORD'])
          expect(c.env?.find((e) => e.name === key)?.valueFrom?.secretKeyRef, `${v.overlay} ${c.name} ${key}`).toMatchObject({ name: SECRET_NAME, key });
      }
    }
    // The password is in no command line and in no file on the data volume.
    const commandLines = [...(redis.command ?? []), ...(redis.args ?? []), ...(redis.readinessProbe?.exec?.command ?? [])].join('\n');
    expect(commandLines).not.toMatch(/redis-server[^\n]*REDIS_PASSWORD|--pass|-a "\$REDIS_PASSWORD"/);
    expect(conf).toMatch(/^aclfile \/run\/redis\/users\.acl$/m);
    expect(redis.volumeMounts?.find((m) => m.mountPath === '/run/redis')).toBeDefined();
  });

  it('its start script and redis.conf, run for real: no password, no entry; the Secret’s user gets in', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const password = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    for (const d of ['run', 'etc', 'data']) mkdirSync(join(dir, d), { recursive: true });
    // The container's paths, moved into the temp dir; the port and bind, loopback's.
    const moved = (text: string) =>
      text.replaceAll('/run/redis', join(dir, 'run')).replaceAll('/etc/redis', join(dir, 'etc')).replaceAll('/data', join(dir, 'data'));
    writeFileSync(
      join(dir, 'etc/redis.conf'),
      moved(conf)
        .replace(/^bind .*$/m, 'bind 127.0.0.1')
        .replace(/^port .*$/m, `port ${port}`)
        .replace(/^appendonly .*$/m, 'appendonly no'),
    );
    const script = moved(redis.args![0]!);
    const env = { PATH: process.env.PATH ?? '', REDIS_USERNAME: secretTemplate().REDIS_USERNAME!, REDIS_PASSWORD: password };
    const server = track(spawn(redis.command![0]!, [...redis.command!.slice(1), script], { env, stdio: 'ignore' }));
    try {
      const ping = async (url: string) => {
        const client = redisFromUrl(url, { lazyConnect: true, enableReadyCheck: false, retryStrategy: () => null }, { role: 'producer' });
        // A refused AUTH (or NOAUTH) ends the connection: its first error says why.
        let first: string | undefined;
        client.on('error', (err: Error) => {
          first ??= err.message;
        });
        try {
          await client.connect();
          return await client.ping();
        } catch (err) {
          return first ?? (err as Error).message;
        } finally {
          await closeRedis(client).catch(() => undefined);
        }
      };
      const user = env.REDIS_USERNAME;
      await eventually(async () => (await ping(`redis://${user}:${password}@127.0.0.1:${port}`)) === 'PONG', 10_000, 100);
      expect(await ping(`redis://127.0.0.1:${port}`)).toMatch(/NOAUTH/);
      expect(await ping(`redis://${user}:wrong-${password}@127.0.0.1:${port}`)).toMatch(/WRONGPASS/);
      // `default` is off, whatever password it is offered.
      expect(await ping(`redis://default:${password}@127.0.0.1:${port}`)).toMatch(/WRONGPASS/);

      // The readiness probe's own command, with the container's environment.
      const probe = redis.readinessProbe!.exec!.command!;
      const probeRun = (e: Record<string, string>) =>
        run(probe[0]!, [...probe.slice(1, -1), probe.at(-1)!.replace('-p 6379', `-p ${port}`)], { env: e }).then(
          () => 'ready',
          () => 'not ready',
        );
      expect(await probeRun(env)).toBe('ready');
      expect(await probeRun({ ...env, REDIS_PASSWORD: 'wrong' })).toBe('not ready');
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('refuses to start without the Secret’s keys, or with a password the ACL file cannot hold', async () => {
    const start = (e: Record<string, string>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(redis.command![0]!, [...redis.command!.slice(1), redis.args![0]!.replaceAll('/run/redis', join(dir, 'nowhere'))], {
          env: { PATH: process.env.PATH ?? '', ...e },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.once('close', (code) => resolve({ code, stderr }));
      });
    const empty = await start({ REDIS_USERNAME: 'pod-doctor', REDIS_PASSWORD: '' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/must be set/);
    const spaced = await start({ REDIS_USERNAME: 'pod-doctor', REDIS_PASSWORD: 'two words' });
    expect(spaced.code).toBe(1);
    expect(spaced.stderr).toMatch(/letters, digits/);
    expect(spaced.stderr).not.toContain('two words');
  });
});
