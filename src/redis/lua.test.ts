import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../../test/helpers/jobs.js';
import { redisFromUrl } from './client.js';
import { loadScripts, loadScriptsOnReady, lua } from './lua.js';

describe('scripts loaded before the first burst', () => {
  const redis = redisFromUrl(REDIS_URL, {}, { role: 'producer' });
  afterAll(() => redis.quit());
  const exists = async (sha: string) => ((await redis.script('EXISTS', sha)) as number[])[0];

  it('loadScripts puts every script this process defined into the server cache', async () => {
    // A script no server has seen: its own text.
    const fresh = lua(`return '${randomUUID()}'`, 0);
    expect(await exists(fresh.sha)).toBe(0);
    expect(await loadScripts(redis)).toBeGreaterThanOrEqual(1);
    expect(await exists(fresh.sha)).toBe(1);
  });

  it('loadScriptsOnReady loads them when the connection is (or becomes) ready', async () => {
    await redis.ping();
    const fresh = lua(`return '${randomUUID()}'`, 0);
    const errors: unknown[] = [];
    loadScriptsOnReady(redis, (err) => errors.push(err));
    await expect.poll(() => exists(fresh.sha), { timeout: 5000 }).toBe(1);
    expect(errors).toEqual([]);
  });
});
