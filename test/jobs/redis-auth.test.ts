// Redis with credentials and TLS, against real redis-servers started here: a password
// (`requirepass`, the default user's) and an ACL user, taken from REDIS_URL or from
// REDIS_USERNAME / REDIS_PASSWORD; `rediss://` with a private CA (POD_DOCTOR_REDIS_CA_FILE);
// Sentinel (sentinels with a password of their own) and Redis Cluster with an ACL user.
// Jobs go through BullMQ's scripts as the ACL user; a wrong password is named in /readyz as
// Redis' refusal, and the password itself appears in no log line or error; the real worker
// process and `audit export` read the same variables.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobSettingsFromConfig } from '../../src/cli/wiring.js';
import { loadConfig } from '../../src/config/schema.js';
import { isPodDoctorError } from '../../src/errors.js';
import { enqueueDiagnosis } from '../../src/jobs/dedup.js';
import { JobQueues } from '../../src/jobs/queues.js';
import { createLogger } from '../../src/log.js';
import { checkRedis, closeRedis, dropRedis, type RedisClient, redisConnections, redisOptionsFrom } from '../../src/redis/client.js';
import { type AgentCerts, makeAgentCerts } from '../helpers/agent-tls.js';
import { cli } from '../helpers/cli.js';
import { cleanup, eventually, freePort, testPrefix } from '../helpers/jobs.js';
import { silent } from '../helpers/logger.js';
import { type RedisClusterTopology, type SentinelTopology, startRedisCluster, startSentinel } from '../helpers/redis-topology.js';
import { type PrivateRedis, type RoleProcess, spawnRole, startPrivateRedis, timedGet } from '../helpers/roles.js';

const USER = 'pod-doctor';
const USER_PASSWORD = 'acl-Pa55-9f8e7d6c5b4a';
const DEFAULT_PASSWORD = 'requirepass-3c2b1a0f9e';
/** An ACL user as deploy/base/redis.yaml makes it, beside the default user's `requirepass`. */
const AUTH_ARGS = ['--requirepass', DEFAULT_PASSWORD, '--user', USER, 'on', `>${USER_PASSWORD}`, '~*', '&*', '+@all'];

/** A log destination that keeps every line. */
function capture(): { stream: Writable; text: () => string } {
  let text = '';
  return {
    stream: new Writable({
      write(chunk, _enc, cb) {
        text += String(chunk);
        cb();
      },
    }),
    text: () => text,
  };
}

/** Connects as `env` configures, enqueues a diagnosis through BullMQ's scripts and reads it back. */
async function roundTrip(env: Record<string, string>): Promise<void> {
  const config = loadConfig({ POD_DOCTOR_REDIS_PREFIX: testPrefix('auth'), ...env });
  const connections = redisConnections(config, silent);
  const redis = connections.connect('producer');
  const queues = new JobQueues(redis, jobSettingsFromConfig(config), silent);
  try {
    await eventually(async () => {
      try {
        await checkRedis(redis);
        return true;
      } catch {
        return false;
      }
    }, 5000);
    const { jobId } = await enqueueDiagnosis(queues, { cluster: 'auth', target: { kind: 'pod', namespace: 'ns', name: 'p' }, reason: 'cli' });
    expect((await queues.diagnose('auth').getJob(jobId))?.data.target).toEqual({ kind: 'pod', namespace: 'ns', name: 'p' });
  } finally {
    await cleanup(redis, config.redisPrefix);
    await queues.close();
    await Promise.all(connections.all.map(closeRedis));
  }
}

/** What readiness says of a connection `env` configures (it never gets ready), and every log line meanwhile. */
async function refusal(env: Record<string, string>): Promise<{ why: string; logs: string }> {
  const logs = capture();
  const logger = createLogger({ level: 'debug', destination: logs.stream });
  const connections = redisConnections(loadConfig(env), logger);
  const redis: RedisClient = connections.connect('worker');
  try {
    const why = await eventually(async () => {
      const problem = await checkRedis(redis).then(
        () => 'ready',
        (err: Error) => err.message,
      );
      // Until the first refusal, readiness can only name the connection's state.
      return problem !== 'ready' && !/\((wait|connecting|connect|reconnecting)\)$/.test(problem) ? problem : undefined;
    }, 5000);
    return { why, logs: logs.text() };
  } finally {
    dropRedis(redis);
  }
}

describe('Redis with a password and an ACL user', () => {
  let redis: PrivateRedis;

  beforeAll(async () => {
    redis = await startPrivateRedis({ args: AUTH_ARGS, url: (port) => `redis://${USER}:${USER_PASSWORD}@127.0.0.1:${port}` });
  });

  afterAll(async () => {
    await redis?.kill();
  });

  const bare = () => `redis://127.0.0.1:${redis.port}`;

  it('takes the ACL user from REDIS_URL', async () => {
    await roundTrip({ REDIS_URL: redis.url });
  });

  it('takes the ACL user from REDIS_USERNAME and REDIS_PASSWORD, the URL naming none', async () => {
    await roundTrip({ REDIS_URL: bare(), REDIS_USERNAME: USER, REDIS_PASSWORD: USER_PASSWORD });
  });

  it("takes `requirepass` (the default user's) from REDIS_PASSWORD alone", async () => {
    await roundTrip({ REDIS_URL: bare(), REDIS_PASSWORD: DEFAULT_PASSWORD });
  });

  it('lets the URL win over the variables, as it says who to be', async () => {
    await roundTrip({ REDIS_URL: redis.url, REDIS_USERNAME: 'nobody', REDIS_PASSWORD: 'not-this-one' });
  });

  it('names a wrong password and a missing one in readiness, and prints the password nowhere', async () => {
    const wrong = 'wrong-Pa55-0a1b2c3d4e5f';
    const fromVariable = await refusal({ REDIS_URL: bare(), REDIS_USERNAME: USER, REDIS_PASSWORD: wrong });
    expect(fromVariable.why).toMatch(/^unreachable \(WRONGPASS/);
    const fromUrl = await refusal({ REDIS_URL: `redis://${USER}:${wrong}@127.0.0.1:${redis.port}` });
    expect(fromUrl.why).toMatch(/^unreachable \(WRONGPASS/);
    for (const { why, logs } of [fromVariable, fromUrl]) {
      expect(logs).toMatch(/"msg":"redis connection error"/);
      expect(`${why}\n${logs}`).not.toContain(wrong);
    }
    expect((await refusal({ REDIS_URL: bare() })).why).toMatch(/^unreachable \(NOAUTH/);
  });

  it('`audit export` reads the same variables', async () => {
    const out = await cli(['audit', 'export', '--since', '1h'], {
      REDIS_URL: bare(),
      REDIS_USERNAME: USER,
      REDIS_PASSWORD: USER_PASSWORD,
      POD_DOCTOR_CLUSTER: 'auth',
    });
    expect(out.stderr).toMatch(/^pod-doctor audit: 0 entries/);
    expect(out.code).toBe(0);
    const refused = await cli(['audit', 'export', '--since', '1h'], {
      REDIS_URL: `redis://${USER}:nope-${USER_PASSWORD}@127.0.0.1:${redis.port}`,
      POD_DOCTOR_CLUSTER: 'auth',
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/WRONGPASS/);
    expect(refused.stderr).not.toContain(USER_PASSWORD);
  });
});

describe('Redis over TLS (rediss://) with a private CA', () => {
  let certs: AgentCerts;
  let redis: PrivateRedis;
  let worker: RoleProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'pd-redis-tls-'));

  beforeAll(async () => {
    // The certificate names `localhost`; the client dials 127.0.0.1 and checks that name.
    certs = makeAgentCerts({ serverName: 'localhost' });
    const port = await freePort();
    redis = await startPrivateRedis({
      port,
      args: [
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--tls-cert-file',
        certs.certFile,
        '--tls-key-file',
        certs.keyFile,
        '--tls-ca-cert-file',
        certs.caFile,
        '--tls-auth-clients',
        'no',
        ...AUTH_ARGS,
      ],
      url: (p) => `rediss://127.0.0.1:${p}`,
      options: { username: USER, password: USER_PASSWORD, tls: { ca: certs.ca, servername: 'localhost' } },
    });
  });

  afterAll(async () => {
    await worker?.kill();
    await redis?.kill();
    certs?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const tlsEnv = () => ({
    REDIS_URL: redis.url,
    REDIS_USERNAME: USER,
    REDIS_PASSWORD: USER_PASSWORD,
    POD_DOCTOR_REDIS_CA_FILE: certs.caFile,
    POD_DOCTOR_REDIS_OPTIONS: JSON.stringify({ tls: { servername: 'localhost' } }),
  });

  it('connects with the CA of POD_DOCTOR_REDIS_CA_FILE, its own TLS options kept', async () => {
    expect(redisOptionsFrom(loadConfig(tlsEnv())).tls).toEqual({ ca: expect.any(Buffer), servername: 'localhost' });
    await roundTrip(tlsEnv());
  });

  it('refuses a server its CA did not sign, and says why', async () => {
    const { POD_DOCTOR_REDIS_CA_FILE: _ca, ...withoutCa } = tlsEnv();
    expect((await refusal(withoutCa)).why).toMatch(/^unreachable \(.*(self-signed|unable to verify|certificate)/i);
  });

  it('stops at start on a CA file it cannot read, naming the variable', () => {
    let thrown: unknown;
    try {
      redisConnections(loadConfig({ ...tlsEnv(), POD_DOCTOR_REDIS_CA_FILE: join(dir, 'missing.pem') }), silent);
    } catch (err) {
      thrown = err;
    }
    expect(isPodDoctorError(thrown) && thrown.code).toBe('BAD_CONFIG');
    expect((thrown as Error).message).toMatch(/^POD_DOCTOR_REDIS_CA_FILE: cannot read .*missing\.pem \(ENOENT\)$/);
  });

  it('`pod-doctor worker` as its own process: ready on Redis over TLS as an ACL user, the password in no output', { timeout: 40_000 }, async () => {
    writeFileSync(
      join(dir, 'kubeconfig'),
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
        'users: [{name: u, user: {token: t}}]',
        '',
      ].join('\n'),
    );
    worker = spawnRole(['worker'], {
      ...tlsEnv(),
      KUBECONFIG: join(dir, 'kubeconfig'),
      POD_DOCTOR_CLUSTER: 'auth',
      POD_DOCTOR_REDIS_PREFIX: testPrefix('auth-worker'),
      POD_DOCTOR_METRICS_PORT: '0',
      LOG_LEVEL: 'debug',
    });
    const [, port] = (await worker.line(/metrics on :(\d+)/)) as unknown as [string, string];
    // Redis answers; the API server (nothing on port 1) is what keeps it unready here.
    await eventually(async () => /^redis: ok$/m.test((await timedGet(`http://127.0.0.1:${port}/readyz`)).body), 10_000, 200);
    expect((await timedGet(`http://127.0.0.1:${port}/metrics`)).body).toMatch(/^pod_doctor_redis_up 1$/m);
    expect(worker.stderr()).not.toContain(USER_PASSWORD);
  });
});

describe('Sentinel with auth: an ACL user on the primary and replica, a password on the sentinels', () => {
  let topo: SentinelTopology;
  const auth = { user: USER, password: USER_PASSWORD, sentinelPassword: 'sentinel-7e6d5c4b3a29' };

  beforeAll(async () => {
    topo = await startSentinel({ auth });
  }, 60_000);

  afterAll(async () => {
    await topo?.stop();
  });

  const env = (extra: Record<string, string> = {}) => ({
    REDIS_URL: 'redis://unused:6379',
    POD_DOCTOR_REDIS_OPTIONS: JSON.stringify({ ...topo.options, sentinelPassword: auth.sentinelPassword }),
    ...extra,
  });

  it('enqueues as the ACL user of REDIS_USERNAME / REDIS_PASSWORD, found through the sentinels', async () => {
    await roundTrip(env({ REDIS_USERNAME: USER, REDIS_PASSWORD: USER_PASSWORD }));
  });

  it('names the primary’s refusal without the password, and prints the wrong one nowhere', async () => {
    expect((await refusal(env())).why).toMatch(/^unreachable \(NOAUTH/);
    const wrong = 'wrong-sentinel-Pa55-1234';
    const { why, logs } = await refusal(env({ REDIS_USERNAME: USER, REDIS_PASSWORD: wrong }));
    expect(why).toMatch(/^unreachable \(WRONGPASS/);
    expect(`${why}\n${logs}`).not.toContain(wrong);
  });
});

describe('Redis Cluster with auth: an ACL user on every node', () => {
  let topo: RedisClusterTopology;

  beforeAll(async () => {
    topo = await startRedisCluster({ primaries: 3, replicasPerPrimary: 0, auth: { user: USER, password: USER_PASSWORD } });
  }, 60_000);

  afterAll(async () => {
    await topo?.stop();
  });

  const env = (extra: Record<string, string> = {}) => ({
    REDIS_URL: 'redis://unused:6379',
    POD_DOCTOR_REDIS_OPTIONS: JSON.stringify({ clusterNodes: topo.clusterNodes }),
    ...extra,
  });

  it('enqueues as the ACL user of REDIS_USERNAME / REDIS_PASSWORD on every node', async () => {
    await roundTrip(env({ REDIS_USERNAME: USER, REDIS_PASSWORD: USER_PASSWORD }));
  });

  it('and as the user of the URL', async () => {
    await roundTrip(env({ REDIS_URL: `redis://${USER}:${USER_PASSWORD}@unused:6379` }));
  });

  it('is not ready with a wrong password, and prints it nowhere', async () => {
    const wrong = 'wrong-cluster-Pa55-5678';
    const { why, logs } = await refusal(env({ REDIS_USERNAME: USER, REDIS_PASSWORD: wrong }));
    expect(why).toMatch(/^unreachable \(.+\)$/);
    expect(`${why}\n${logs}`).not.toContain(wrong);
  });
});
