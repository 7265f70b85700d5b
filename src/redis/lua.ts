// Lua scripts run by SHA, loaded on demand: after a Redis restart (empty script cache) the
// first call gets NOSCRIPT and falls back to EVAL, which caches the script again.
import { createHash } from 'node:crypto';
import type { RedisClient } from './client.js';

export interface LuaScript {
  readonly sha: string;
  readonly source: string;
  readonly numberOfKeys: number;
}

/** Every script this process defined (module constants), for loadScripts. */
const defined = new Map<string, LuaScript>();

export function lua(source: string, numberOfKeys: number): LuaScript {
  const script = { source, numberOfKeys, sha: createHash('sha1').update(source).digest('hex') };
  defined.set(script.sha, script);
  return script;
}

/**
 * SCRIPT LOAD of every script defined so far, in one round trip: a Redis that has just started
 * (or restarted, or failed over) has an empty script cache, and without this each call of a
 * burst's first moments would pay a NOSCRIPT answer and an EVAL. How many were loaded.
 */
export async function loadScripts(redis: RedisClient): Promise<number> {
  const scripts = [...defined.values()];
  if (scripts.length === 0) return 0;
  const pipeline = redis.pipeline();
  for (const s of scripts) pipeline.script('LOAD', s.source);
  const results = (await pipeline.exec()) ?? [];
  return results.filter(([err]) => !err).length;
}

/** loadScripts whenever `redis` (re)connects: at start, and after Redis lost its script cache. */
export function loadScriptsOnReady(redis: RedisClient, onError: (err: unknown) => void): void {
  const load = () => void loadScripts(redis).catch(onError);
  redis.on('ready', load);
  if (redis.status === 'ready') load();
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
