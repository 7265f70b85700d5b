// Approval state of proposed plans, and who may decide. The state lives in Redis and every
// transition is one Lua script, so two people clicking at once (on two bot replicas) get one
// outcome each and the plan is handed to the runner once: pending → approved (enough distinct
// approvers) → running → done, or pending → denied / expired. The remediation job id is the plan
// id too, so even a repeated hand-off enqueues once.
import type { Logger } from 'pino';
import type { ChatIds } from '../../access/ids.js';
import { parseApprovalEntries } from '../../redis/approval-hash.js';
import type { RedisClient } from '../../redis/client.js';
import { keys } from '../../redis/keys.js';
import { LUA_NOW_MS, lua, runScript } from '../../redis/lua.js';
import { GroupLookupError } from '../errors.js';
import type { ChatMetrics } from '../metrics.js';

export type ApprovalStatus = 'pending' | 'approved' | 'running' | 'done' | 'denied' | 'expired';

export interface Decision {
  user: string;
  /** Epoch ms (Redis clock). */
  at: number;
}

export interface PromptRef {
  channel: string;
  ts: string;
  /** Thread the prompt sits in (decisions are posted there). */
  threadTs: string;
}

export interface ApprovalRecord {
  planId: string;
  cluster: string;
  status: ApprovalStatus;
  required: 1 | 2;
  /** Who asked for the diagnosis (may be barred from approving). */
  requester?: string;
  requireDifferent: boolean;
  expiresAt: number;
  approvals: Decision[];
  denied?: Decision & { reason?: string };
  prompts: PromptRef[];
  /** Final words of the run (fixed / not fixed / refused…), once known. */
  outcome?: { ok: boolean; text: string };
}

export type ApproveOutcome =
  | { kind: 'unknown' }
  | { kind: 'expired'; record: ApprovalRecord }
  | { kind: 'not-pending'; record: ApprovalRecord }
  | { kind: 'requester'; record: ApprovalRecord }
  | { kind: 'duplicate'; record: ApprovalRecord }
  /** Counted; more approvers needed. */
  | { kind: 'recorded'; record: ApprovalRecord }
  /** The last approval needed: hand the plan to the runner now (exactly one caller gets this). */
  | { kind: 'approved'; record: ApprovalRecord };

export type DenyOutcome = { kind: 'unknown' } | { kind: 'expired' | 'not-pending' | 'denied'; record: ApprovalRecord };

// Checks shared by approve and deny. KEYS[1] approval hash. Returns nil when pending and valid.
const GATE = `local st = redis.call('HGET', KEYS[1], 'status')
if not st then return {'unknown'} end
if st == 'expired' then return {'expired'} end
if st ~= 'pending' then return {'not-pending'} end
if now >= tonumber(redis.call('HGET', KEYS[1], 'expiresAt')) then
  redis.call('HSET', KEYS[1], 'status', 'expired')
  return {'expired'}
end`;

// ARGV: 1 user. Approvals are stored as `user@ms` joined by commas (ids hold neither).
const APPROVE = lua(
  `${LUA_NOW_MS}
${GATE}
local user = ARGV[1]
if redis.call('HGET', KEYS[1], 'requireDifferent') == '1' and redis.call('HGET', KEYS[1], 'requester') == user then return {'requester'} end
local list = redis.call('HGET', KEYS[1], 'approvals') or ''
local n = 0
for entry in string.gmatch(list, '[^,]+') do
  n = n + 1
  if string.match(entry, '^(.-)@') == user then return {'duplicate'} end
end
local entry = user .. '@' .. now
if list == '' then list = entry else list = list .. ',' .. entry end
n = n + 1
redis.call('HSET', KEYS[1], 'approvals', list)
if n >= tonumber(redis.call('HGET', KEYS[1], 'required')) then
  redis.call('HSET', KEYS[1], 'status', 'approved')
  return {'approved'}
end
return {'recorded'}`,
  1,
);

// ARGV: 1 user, 2 reason ('' for none).
const DENY = lua(
  `${LUA_NOW_MS}
${GATE}
redis.call('HSET', KEYS[1], 'status', 'denied', 'deniedBy', ARGV[1], 'deniedAt', now, 'denyReason', ARGV[2])
return {'denied'}`,
  1,
);

// ARGV: 1 expected status, 2 new status, then field/value pairs. Returns 1 when moved.
const MOVE = lua(
  `if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1`,
  1,
);

// ARGV: 1 user, 2 reason. Only the person who denied may explain why.
const REASON = lua(
  `if redis.call('HGET', KEYS[1], 'status') ~= 'denied' or redis.call('HGET', KEYS[1], 'deniedBy') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'denyReason', ARGV[2])
return 1`,
  1,
);

// ARGV: 1 required (1|2), 2 requireDifferent ('1'|'0'). Raises a pending plan's bar, never lowers it.
const TIGHTEN = lua(
  `if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
local changed = 0
if tonumber(redis.call('HGET', KEYS[1], 'required')) < tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'required', ARGV[1])
  changed = 1
end
if ARGV[2] == '1' and redis.call('HGET', KEYS[1], 'requireDifferent') ~= '1' then
  redis.call('HSET', KEYS[1], 'requireDifferent', '1')
  changed = 1
end
return changed`,
  1,
);

export interface NewApproval {
  planId: string;
  cluster: string;
  required: 1 | 2;
  requester?: string;
  requireDifferent: boolean;
  expiresAt: number;
}

function parseRecord(planId: string, h: Record<string, string>): ApprovalRecord | null {
  if (!h.status) return null;
  const approvals = parseApprovalEntries(h.approvals);
  const prompts = (h.prompts ?? '')
    .split(',')
    .filter(Boolean)
    .map((p) => {
      const [channel = '', ts = '', threadTs = ''] = p.split('|');
      return { channel, ts, threadTs };
    });
  let outcome: ApprovalRecord['outcome'];
  try {
    outcome = h.outcome ? (JSON.parse(h.outcome) as ApprovalRecord['outcome']) : undefined;
  } catch {
    outcome = undefined;
  }
  return {
    planId,
    cluster: h.cluster ?? '',
    status: h.status as ApprovalStatus,
    required: h.required === '2' ? 2 : 1,
    ...(h.requester ? { requester: h.requester } : {}),
    requireDifferent: h.requireDifferent === '1',
    expiresAt: Number(h.expiresAt),
    approvals,
    ...(h.deniedBy ? { denied: { user: h.deniedBy, at: Number(h.deniedAt), ...(h.denyReason ? { reason: h.denyReason } : {}) } } : {}),
    prompts,
    ...(outcome ? { outcome } : {}),
  };
}

/** Records outlive their expiry by this much, so a late click is told "expired", not "unknown". */
const KEEP_AFTER_EXPIRY_S = 7 * 86_400;

export class ApprovalStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(planId: string): string {
    return keys.chat(this.prefix, 'approval', planId);
  }

  async create(a: NewApproval): Promise<void> {
    const key = this.key(a.planId);
    await this.redis
      .multi()
      .hsetnx(key, 'status', 'pending')
      .hset(key, {
        cluster: a.cluster,
        required: String(a.required),
        requester: a.requester ?? '',
        requireDifferent: a.requireDifferent ? '1' : '0',
        expiresAt: String(a.expiresAt),
      })
      .expireat(key, Math.ceil(a.expiresAt / 1000) + KEEP_AFTER_EXPIRY_S)
      .exec();
  }

  /** Remember where a prompt for this plan was posted (updated on every decision). */
  async addPrompt(planId: string, prompt: PromptRef): Promise<void> {
    const key = this.key(planId);
    const entry = `${prompt.channel}|${prompt.ts}|${prompt.threadTs}`;
    const current = (await this.redis.hget(key, 'prompts')) ?? '';
    if (current.split(',').includes(entry)) return;
    // Appending is not atomic with the read, but prompts of one plan are posted by one delivery.
    await this.redis.hset(key, 'prompts', current ? `${current},${entry}` : entry);
  }

  async get(planId: string): Promise<ApprovalRecord | null> {
    return parseRecord(planId, await this.redis.hgetall(this.key(planId)));
  }

  async approve(planId: string, user: string): Promise<ApproveOutcome> {
    const [kind] = await runScript<[string]>(this.redis, APPROVE, [this.key(planId)], [user]);
    const record = await this.get(planId);
    if (!record || kind === 'unknown') return { kind: 'unknown' };
    return { kind: kind as Exclude<ApproveOutcome['kind'], 'unknown'>, record };
  }

  async deny(planId: string, user: string, reason = ''): Promise<DenyOutcome> {
    const [kind] = await runScript<[string]>(this.redis, DENY, [this.key(planId)], [user, reason.slice(0, 500)]);
    const record = await this.get(planId);
    if (!record || kind === 'unknown') return { kind: 'unknown' };
    return { kind: kind as 'expired' | 'not-pending' | 'denied', record };
  }

  /**
   * A pending plan needs at least `required` approvers (and, with `requireDifferent`, not its
   * requester): what an access rule asks of it. Never lowers; true when it changed.
   */
  async tighten(planId: string, bar: { required: 1 | 2; requireDifferent: boolean }): Promise<boolean> {
    const args = [String(bar.required), bar.requireDifferent ? '1' : '0'];
    return Number(await runScript(this.redis, TIGHTEN, [this.key(planId)], args)) === 1;
  }

  async setDenyReason(planId: string, user: string, reason: string): Promise<boolean> {
    return Number(await runScript(this.redis, REASON, [this.key(planId)], [user, reason.slice(0, 500)])) === 1;
  }

  /** approved → running (the run started); false when it was not `approved`. */
  async markRunning(planId: string): Promise<boolean> {
    return Number(await runScript(this.redis, MOVE, [this.key(planId)], ['approved', 'running'])) === 1;
  }

  /** approved|running → done with the run's outcome. */
  async markDone(planId: string, outcome: { ok: boolean; text: string }): Promise<boolean> {
    const args = ['done', 'outcome', JSON.stringify(outcome)];
    if (Number(await runScript(this.redis, MOVE, [this.key(planId)], ['running', ...args])) === 1) return true;
    return Number(await runScript(this.redis, MOVE, [this.key(planId)], ['approved', ...args])) === 1;
  }
}

// ---- who may approve ----

export type GroupResolver = (groupId: string) => Promise<string[]>;

export interface ApproverPolicyOptions {
  /** User ids (U…/W…, or console names) and group ids (S…). */
  approvers: readonly string[];
  /** The chat surface's ids: which approvers are user groups (resolved through `resolveGroup`). */
  ids: Pick<ChatIds, 'isGroup'>;
  resolveGroup?: GroupResolver;
  /** How long looked-up members are trusted (default 60 s); never longer, even when Slack does not answer. */
  cacheMs?: number;
  /** Console: every local user may decide (still through the same state machine). */
  allowAll?: boolean;
  logger?: Logger;
  metrics?: Pick<ChatMetrics, 'groupLookupFailures'>;
  /** The clock the cache expires by (tests). */
  now?: () => number;
}

/**
 * Is someone in a list of users and user groups? `unresolved`: not found in what resolved, and
 * these groups could not be looked up (nor are they cached within their TTL), so it cannot be
 * told: fail closed, the person is refused until they resolve.
 */
export type Membership = { ok: true } | { ok: false; unresolved: string[] };

/** A user's groups among those asked about, and those that could not be looked up. */
export interface GroupsOf {
  groups: string[];
  unresolved: string[];
}

/**
 * Approver lists with user groups resolved through the chat platform, members cached for
 * `cacheMs` and never longer: a lookup that fails past that leaves the group unresolved (someone
 * removed from it cannot keep a right from a stale list). A per-playbook list replaces the global one.
 */
export class ApproverPolicy {
  private readonly cache = new Map<string, { users: Set<string>; until: number }>();
  private readonly inflight = new Map<string, Promise<Set<string> | undefined>>();

  constructor(private readonly options: ApproverPolicyOptions) {}

  /** Who may decide, for messages; `*` when everyone may (the console). */
  listFor(override?: readonly string[]): readonly string[] {
    if (this.options.allowAll) return ['*'];
    return override && override.length > 0 ? override : this.options.approvers;
  }

  /** Is `id` a user group (for messages: "user group S…")? */
  isGroup(id: string): boolean {
    return this.options.ids.isGroup(id);
  }

  get allowAll(): boolean {
    return Boolean(this.options.allowAll);
  }

  /** Is `user` one of the approvers (the override, else the global list), or can it not be told now? */
  async check(user: string, override?: readonly string[]): Promise<Membership> {
    if (this.options.allowAll) return { ok: true };
    const list = this.listFor(override);
    if (list.includes(user)) return { ok: true };
    const unresolved: string[] = [];
    for (const id of list.filter((id) => this.isGroup(id))) {
      const users = await this.members(id);
      if (users?.has(user)) return { ok: true };
      if (!users) unresolved.push(id);
    }
    return { ok: false, unresolved };
  }

  /** `check`, failing closed: false when it cannot be told. */
  async may(user: string, override?: readonly string[]): Promise<boolean> {
    return (await this.check(user, override)).ok;
  }

  /** The policy's user groups (of `groupIds`) `user` is in, resolved (and cached) like approver groups. */
  async groupsOf(user: string, groupIds: readonly string[]): Promise<GroupsOf> {
    const members = await Promise.all(groupIds.map((id) => this.members(id)));
    return {
      groups: groupIds.filter((_, i) => members[i]?.has(user)),
      unresolved: groupIds.filter((_, i) => !members[i]),
    };
  }

  /** The same from the cache alone (no I/O): undefined when a group is not cached now. */
  cachedGroupsOf(user: string, groupIds: readonly string[]): string[] | undefined {
    const out: string[] = [];
    for (const id of groupIds) {
      const users = this.cachedMembers(id);
      if (!users) return undefined;
      if (users.has(user)) out.push(id);
    }
    return out;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private cachedMembers(groupId: string): Set<string> | undefined {
    const cached = this.cache.get(groupId);
    return cached && cached.until > this.now() ? cached.users : undefined;
  }

  /**
   * Members of a user group, cached for `cacheMs`; undefined when the lookup fails and nothing is
   * cached within that time (fail closed: nobody's right may rest on it until it resolves).
   */
  private async members(groupId: string): Promise<Set<string> | undefined> {
    const cached = this.cachedMembers(groupId);
    if (cached) return cached;
    const resolve = this.options.resolveGroup;
    if (!resolve) return new Set();
    let p = this.inflight.get(groupId);
    if (!p) {
      p = resolve(groupId)
        .then((users) => {
          const set = new Set(users);
          this.cache.set(groupId, { users: set, until: this.now() + (this.options.cacheMs ?? 60_000) });
          return set;
        })
        .catch((err: unknown) => {
          // An expired entry is not trusted: dropped, so nothing can fall back on it.
          this.cache.delete(groupId);
          const failure = err instanceof GroupLookupError ? err.failure : 'unknown';
          this.options.metrics?.groupLookupFailures.inc({ failure });
          this.options.logger?.warn(
            { err, groupId, failure, detail: err instanceof GroupLookupError ? err.detail : undefined },
            'user group lookup failed; its members are refused until it resolves',
          );
          return undefined;
        })
        .finally(() => this.inflight.delete(groupId));
      this.inflight.set(groupId, p);
    }
    return p;
  }
}
