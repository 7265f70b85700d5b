// Lua scripts run by SHA, loaded on demand: after a Redis restart (empty script cache) the
// first call gets NOSCRIPT and falls back to EVAL, which caches the script again.
import { createHash } from 'node:crypto';
import type { RedisClient } from './client.js';

export interface LuaScript {
  readonly sha: string;
  readonly source: string;
  readonly numberOfKeys: number;
}

export function lua(source: string, numberOfKeys: number): LuaScript {
  return { source, numberOfKeys, sha: createHash('sha1').update(source).digest('hex') };
}

export async function runScript<T = unknown>(redis: RedisClient, script: LuaScript, keys: string[], args: (string | number)[]): Promise<T> {
  if (keys.length !== script.numberOfKeys) throw new Error(`script expects ${script.numberOfKeys} keys, got ${keys.length}`);
  try {
    return (await redis.evalsha(script.sha, script.numberOfKeys, ...keys, ...args)) as T;
  } catch (err) {
    if (!String((err as Error)?.message ?? '').startsWith('NOSCRIPT')) throw err;
    return (await redis.eval(script.source, script.numberOfKeys, ...keys, ...args)) as T;
  }
}

/** Server time in ms inside a script: one clock for every process, whatever their skew. */
export const LUA_NOW_MS = `local __t = redis.call('TIME')
local now = tonumber(__t[1]) * 1000 + math.floor(tonumber(__t[2]) / 1000)`;

/** Deletes a lock only while it still holds the caller's token (1 if released, 0 if someone else holds it). */
export const RELEASE_LOCK = lua(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`, 1);

export function releaseLock(redis: RedisClient, key: string, token: string): Promise<number> {
  return runScript<number>(redis, RELEASE_LOCK, [key], [token]);
}
