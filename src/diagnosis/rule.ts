// A rule is metadata plus a pure check over a Snapshot. Metadata comes first so the
// collector, the README table, chat "why?" text and contract tests all read the same source.
import type { FactName, FindingDraft, Severity, Snapshot } from './types.js';

export type RuleCategory =
  | 'terminating'
  | 'pending'
  | 'sandbox'
  | 'resources'
  | 'image'
  | 'crash'
  | 'config'
  | 'evicted'
  | 'admission'
  | 'node'
  | 'network'
  | 'namespace'
  | 'static-pod'
  | 'readiness'
  | 'init'
  | 'container'
  | 'lifecycle'
  | 'security'
  | 'volume'
  | 'job'
  | 'runtime'
  | 'dns'
  | 'rollout'
  | 'statefulset'
  | 'pod';

export interface RuleMeta<M extends string = string> {
  /** Catalogue id, e.g. `terminating.finalizers`; the file name is the id with dashes. */
  id: string;
  title: string;
  category: RuleCategory;
  severity: Severity;
  /** Facts the collector must gather for this rule. */
  needs: FactName[];
  /** Playbook the finding suggests (a human approves it), if any. */
  playbook?: string;
  /**
   * How strongly a finding of this rule explains the problem: node-level root causes
   * (a holder process, a hung mount) outrank API symptoms (a stuck deletion).
   */
  priority: number;
  /**
   * Rules whose findings on the same subject are symptoms of this one: when both fire,
   * theirs is folded into this finding instead of being listed again.
   */
  supersedes?: string[];
  /** One paragraph for the README table and the chat "why?" text. */
  doc: string;
  /**
   * The rule's words: titles, causes, advice and prevention as templates with `{{placeholders}}`,
   * by message id. The check returns ids and values (`msg(id, data)`), never prose of its own.
   */
  messages: Readonly<Record<M, string>>;
  /**
   * Reads a line any specific rule may read better (crash.app-exit): when a specific rule quotes
   * the same line on the same subject, the specific finding ranks first.
   */
  generic?: boolean;
  /**
   * A catch-all: runs only when no other rule found anything of severity warning or worse, so
   * a visibly broken pod never gets an empty answer and a specific cause is never drowned.
   */
  fallback?: boolean;
}

export interface RuleContext {
  /** Seconds a pod may be Pending before Pending rules speak (default 60). */
  pendingGraceSeconds: number;
  /** How far before a failure "what changed" looks for rollouts, config edits and node changes (default 2 h). */
  changeWindowSeconds: number;
}

export const DEFAULT_RULE_CONTEXT: RuleContext = { pendingGraceSeconds: 60, changeWindowSeconds: 7200 };

export type RuleResult<M extends string = string> = FindingDraft<M> | readonly FindingDraft<M>[] | null | undefined;

export interface Rule<M extends string = string> {
  meta: RuleMeta<M>;
  check(snapshot: Snapshot, ctx: RuleContext): RuleResult<M>;
}

/** Types the check's message ids against the rule's own `meta.messages`. */
export function defineRule<const M extends string>(rule: { meta: RuleMeta<M>; check(snapshot: Snapshot, ctx: RuleContext): RuleResult<NoInfer<M>> }): Rule {
  return rule as Rule;
}

/** `terminating.mount-busy` → `terminating-mount-busy` (the rule's file name). */
export function ruleFileName(id: string): string {
  return id.replace(/\./g, '-');
}
