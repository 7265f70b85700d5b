// Where plans and runs live. Redis in the bot/worker (plans expire; a run's step states survive
// a crash; a run lock with SET NX PX keeps two runners off one run, and every state write is
// checked against the lock token in a Lua script so a runner that lost its lock cannot write).
// The operator CLI uses the in-memory store (one process, nobody to share with).

import type { RedisClient } from '../redis/client.js';
import { clusterTag } from '../redis/keys.js';
import { lua, releaseLock, runScript } from '../redis/lua.js';
import type { Plan } from './plan.js';

export type StepState = 'pending' | 'running' | 'done' | 'failed' | 'skipped';
export type RunStatus = 'running' | 'completed' | 'refused' | 'failed' | 'stopped';

export interface StepInfo {
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  detail?: string;
  error?: string;
  /** How a step found `running` after a crash was handled. */
  resumed?: string;
}

export interface StoredStep {
  state: StepState;
  info: StepInfo;
}

export interface RunRecord {
  runId: string;
  /** Undefined: the run was never started (only a lock or nothing). */
  status?: RunStatus;
  plan?: Plan;
  steps: StoredStep[];
  /** JSON of the final result, once finished. */
  result?: unknown;
}

export interface RunStore {
  savePlan(plan: Plan, ttlSeconds: number): Promise<void>;
  loadPlan(planId: string): Promise<Plan | null>;
  acquireLock(runId: string, token: string, ms: number): Promise<boolean>;
  renewLock(runId: string, token: string, ms: number): Promise<boolean>;
  releaseLock(runId: string, token: string): Promise<void>;
  readRun(runId: string): Promise<RunRecord | null>;
  /** The writes below succeed only while `token` holds the run lock; false means it was lost. */
  startRun(runId: string, token: string, plan: Plan): Promise<boolean>;
  setStep(runId: string, token: string, index: number, state: StepState, info: StepInfo): Promise<boolean>;
  finishRun(runId: string, token: string, status: RunStatus, result: unknown): Promise<boolean>;
}

export const storeKeys = {
  plan: (prefix: string, cluster: string, planId: string) => `${clusterTag(prefix, cluster)}:plan:${planId}`,
  run: (prefix: string, cluster: string, runId: string) => `${clusterTag(prefix, cluster)}:run:${runId}`,
  lock: (prefix: string, cluster: string, runId: string) => `${clusterTag(prefix, cluster)}:run:${runId}:lock`,
};

// KEYS[1] lock, KEYS[2] run hash; ARGV[1] token, ARGV[2] ttl seconds, ARGV[3..] field/value pairs.
const GUARDED_HSET = lua(
  `
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('hset', KEYS[2], unpack(ARGV, 3))
redis.call('expire', KEYS[2], tonumber(ARGV[2]))
return 1`,
  2,
);
const RENEW = lua(
  `
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('pexpire', KEYS[1], tonumber(ARGV[2]))
return 1`,
  1,
);

function parseJson<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

function recordFrom(runId: string, hash: Record<string, string>): RunRecord | null {
  if (Object.keys(hash).length === 0) return null;
  const plan = parseJson<Plan>(hash.plan);
  const count = plan?.steps.length ?? 0;
  const steps: StoredStep[] = [];
  for (let i = 0; i < count; i++) {
    steps.push({ state: (hash[String(i)] as StepState | undefined) ?? 'pending', info: parseJson<StepInfo>(hash[`${i}:info`]) ?? {} });
  }
  return { runId, status: hash.status as RunStatus | undefined, ...(plan ? { plan } : {}), steps, ...(hash.result ? { result: parseJson(hash.result) } : {}) };
}

export class RedisRunStore implements RunStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly cluster: string,
    private readonly prefix = 'pod-doctor',
    /** TTL applied to a run hash on every write. */
    private readonly runTtlSeconds = 7 * 86_400,
  ) {}

  async savePlan(plan: Plan, ttlSeconds: number): Promise<void> {
    await this.redis.set(storeKeys.plan(this.prefix, this.cluster, plan.id), JSON.stringify(plan), 'EX', Math.max(1, Math.round(ttlSeconds)));
  }

  async loadPlan(planId: string): Promise<Plan | null> {
    return parseJson<Plan>((await this.redis.get(storeKeys.plan(this.prefix, this.cluster, planId))) ?? undefined) ?? null;
  }

  async acquireLock(runId: string, token: string, ms: number): Promise<boolean> {
    return (await this.redis.set(storeKeys.lock(this.prefix, this.cluster, runId), token, 'PX', Math.max(1, Math.round(ms)), 'NX')) === 'OK';
  }

  async renewLock(runId: string, token: string, ms: number): Promise<boolean> {
    return Number(await runScript(this.redis, RENEW, [storeKeys.lock(this.prefix, this.cluster, runId)], [token, String(Math.round(ms))])) === 1;
  }

  async releaseLock(runId: string, token: string): Promise<void> {
    await releaseLock(this.redis, storeKeys.lock(this.prefix, this.cluster, runId), token);
  }

  async readRun(runId: string): Promise<RunRecord | null> {
    return recordFrom(runId, await this.redis.hgetall(storeKeys.run(this.prefix, this.cluster, runId)));
  }

  private async guarded(runId: string, token: string, fields: Record<string, string>): Promise<boolean> {
    const args = Object.entries(fields).flat();
    const ok = await runScript(
      this.redis,
      GUARDED_HSET,
      [storeKeys.lock(this.prefix, this.cluster, runId), storeKeys.run(this.prefix, this.cluster, runId)],
      [token, String(this.runTtlSeconds), ...args],
    );
    return Number(ok) === 1;
  }

  startRun(runId: string, token: string, plan: Plan): Promise<boolean> {
    const fields: Record<string, string> = { status: 'running', plan: JSON.stringify(plan), startedAt: new Date().toISOString() };
    for (let i = 0; i < plan.steps.length; i++) fields[String(i)] = 'pending';
    return this.guarded(runId, token, fields);
  }

  setStep(runId: string, token: string, index: number, state: StepState, info: StepInfo): Promise<boolean> {
    return this.guarded(runId, token, { [String(index)]: state, [`${index}:info`]: JSON.stringify(info) });
  }

  finishRun(runId: string, token: string, status: RunStatus, result: unknown): Promise<boolean> {
    return this.guarded(runId, token, { status, result: JSON.stringify(result), finishedAt: new Date().toISOString() });
  }
}

/** Same contract in one process (the operator CLI, unit tests of the state machine). */
export class MemoryRunStore implements RunStore {
  private readonly plans = new Map<string, { plan: Plan; until: number }>();
  private readonly locks = new Map<string, { token: string; until: number }>();
  private readonly runs = new Map<string, Record<string, string>>();

  constructor(private readonly now: () => number = Date.now) {}

  async savePlan(plan: Plan, ttlSeconds: number): Promise<void> {
    this.plans.set(plan.id, { plan: structuredClone(plan), until: this.now() + ttlSeconds * 1000 });
  }

  async loadPlan(planId: string): Promise<Plan | null> {
    const p = this.plans.get(planId);
    return p && p.until > this.now() ? structuredClone(p.plan) : null;
  }

  private holder(runId: string): string | undefined {
    const l = this.locks.get(runId);
    return l && l.until > this.now() ? l.token : undefined;
  }

  async acquireLock(runId: string, token: string, ms: number): Promise<boolean> {
    if (this.holder(runId) !== undefined) return false;
    this.locks.set(runId, { token, until: this.now() + ms });
    return true;
  }

  async renewLock(runId: string, token: string, ms: number): Promise<boolean> {
    if (this.holder(runId) !== token) return false;
    this.locks.set(runId, { token, until: this.now() + ms });
    return true;
  }

  async releaseLock(runId: string, token: string): Promise<void> {
    if (this.holder(runId) === token) this.locks.delete(runId);
  }

  async readRun(runId: string): Promise<RunRecord | null> {
    return recordFrom(runId, { ...(this.runs.get(runId) ?? {}) });
  }

  private guarded(runId: string, token: string, fields: Record<string, string>): boolean {
    if (this.holder(runId) !== token) return false;
    this.runs.set(runId, { ...(this.runs.get(runId) ?? {}), ...fields });
    return true;
  }

  async startRun(runId: string, token: string, plan: Plan): Promise<boolean> {
    const fields: Record<string, string> = { status: 'running', plan: JSON.stringify(plan) };
    for (let i = 0; i < plan.steps.length; i++) fields[String(i)] = 'pending';
    return this.guarded(runId, token, fields);
  }

  async setStep(runId: string, token: string, index: number, state: StepState, info: StepInfo): Promise<boolean> {
    return this.guarded(runId, token, { [String(index)]: state, [`${index}:info`]: JSON.stringify(info) });
  }

  async finishRun(runId: string, token: string, status: RunStatus, result: unknown): Promise<boolean> {
    return this.guarded(runId, token, { status, result: JSON.stringify(result) });
  }
}
