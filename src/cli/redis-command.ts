// A CLI command's own Redis connection (audit export, report, digest): the credentials and TLS of the
// config (redisFromConfig), an unreachable Redis said in one line (exit 2) instead of ioredis' retry
// arithmetic with its stack, and the connection closed whatever happens.
import { PodDoctorError } from '../errors.js';
import { closeRedis, type RedisClient, type RedisSettings, redisFromConfig } from '../redis/client.js';

/** `redis://host:port/db` without credentials, for a message. */
export function redisWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}:${u.port || '6379'}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'the configured URL';
  }
}

export async function withRedis<T>(config: RedisSettings, work: (redis: RedisClient) => Promise<T>): Promise<T> {
  const redis = redisFromConfig(config, { role: 'producer' });
  // A failed connection surfaces as the command's error, not as ioredis' unhandled-error print.
  let connectError: Error | undefined;
  redis.on('error', (err: Error) => {
    connectError = err;
  });
  try {
    return await work(redis);
  } catch (err) {
    // Never connected: say where it looked.
    if (redis.status !== 'ready' && !(err instanceof PodDoctorError))
      throw new PodDoctorError(
        'REDIS_UNREACHABLE',
        `cannot reach Redis at ${redisWhere(config.redisUrl)} (REDIS_URL): ${(connectError ?? (err as Error)).message}`,
        {
          cause: err,
        },
      );
    throw err;
  } finally {
    await closeRedis(redis).catch(() => redis.disconnect());
  }
}
