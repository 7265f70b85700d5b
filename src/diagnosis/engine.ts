// Runs rules over one snapshot, turns drafts into findings, then ranks and merges them.
// A rule that throws is reported in `ruleErrors` and the others still run.

import { targetKey } from '../kube/target.js';
import { attachChangeEvidence, whatChanged } from './changes.js';
import { ignoredRules, type Mark, markObjectOf } from './ignore.js';
import { renderList, renderProse } from './messages.js';
import { rankAndMerge } from './ranking.js';
import { DEFAULT_RULE_CONTEXT, type Rule, type RuleContext } from './rule.js';
import { type Change, type Diagnosis, type FactName, type Finding, type FindingDraft, SEVERITY_ORDER, type Snapshot } from './types.js';

export interface EngineOptions {
  rules: readonly Rule[];
  ctx?: Partial<RuleContext>;
  /** Per-rule overrides from configuration: disable or re-severity by id. */
  overrides?: Record<string, { enabled?: boolean; severity?: Finding['severity'] }>;
  /** Rules marked Not a problem for this snapshot's object (read by the caller: the engine does no I/O). */
  marks?: readonly Mark[];
}

/** Renders a draft's messages and fills in the rule's defaults; a bad message id or placeholder throws {@link MessageError}. */
export function toFinding(rule: Rule, draft: FindingDraft, snapshot: Snapshot, severityOverride?: Finding['severity']): Finding {
  const subject = draft.subject ?? targetKey(snapshot.target);
  const causeKey = draft.causeKey ?? subject;
  const playbook = draft.playbook === null ? null : (draft.playbook ?? rule.meta.playbook ?? null);
  const { messages } = rule.meta;
  return {
    rule: rule.meta.id,
    severity: severityOverride ?? draft.severity ?? rule.meta.severity,
    title: renderProse(messages, draft.title),
    cause: renderProse(messages, draft.cause),
    evidence: draft.evidence,
    advice: renderList(messages, draft.advice),
    prevent: renderList(messages, draft.prevent),
    playbook,
    subject,
    causeKey,
    fingerprint: `${rule.meta.id}|${subject}|${causeKey}`,
    params: draft.params ?? {},
    merged: [],
    ...(draft.mechanism ? { mechanism: draft.mechanism } : {}),
  };
}

/** Per registry: its specific rules and its catch-alls (split once, not per diagnosis). */
const partitions = new WeakMap<readonly Rule[], { specific: Rule[]; fallbacks: Rule[] }>();

function partition(rules: readonly Rule[]): { specific: Rule[]; fallbacks: Rule[] } {
  let p = partitions.get(rules);
  if (!p) partitions.set(rules, (p = { specific: rules.filter((r) => !r.meta.fallback), fallbacks: rules.filter((r) => r.meta.fallback) }));
  return p;
}

export function diagnose(snapshot: Snapshot, options: EngineOptions): Diagnosis {
  const ctx: RuleContext = { ...DEFAULT_RULE_CONTEXT, ...options.ctx };
  const findings: Finding[] = [];
  const ruleErrors: Diagnosis['ruleErrors'] = [];
  const run = (rules: readonly Rule[]) => {
    for (const rule of rules) {
      const override = options.overrides?.[rule.meta.id];
      if (override?.enabled === false) continue;
      // Rendering is part of the rule: a message it does not define is its error, not the engine's.
      try {
        const result = rule.check(snapshot, ctx);
        const drafts: readonly FindingDraft[] = !result ? [] : isDraftList(result) ? result : [result];
        findings.push(...drafts.map((draft) => toFinding(rule, draft, snapshot, override?.severity)));
      } catch (err) {
        ruleErrors.push({ rule: rule.meta.id, error: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  const { specific, fallbacks } = partition(options.rules);
  run(specific);
  // Catch-alls speak only when nothing specific did (a rule that threw counts as silent, an ignored finding as spoken).
  if (!findings.some((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning)) run(fallbacks);
  // `pod-doctor.io/ignore: rule[,rule]` on the pod or its owner, or a Not a problem mark on it:
  // those findings stay quiet, and the answer says what it left out and why.
  const annotated = ignoredRules(snapshot);
  const marked = new Map((options.marks ?? []).map((m) => [m.rule, m]));
  const ignoring = new Set([...annotated.keys(), ...marked.keys()]);
  const markedOn = marked.size > 0 ? (markObjectOf(snapshot) ?? '') : '';
  const ignored = findings
    .filter((f) => ignoring.has(f.rule))
    .map((f) => {
      const by = annotated.get(f.rule);
      const mark = marked.get(f.rule);
      return by !== undefined || !mark ? { rule: f.rule, by: by ?? '' } : { rule: f.rule, by: markedOn, mark: { user: mark.user, until: mark.until } };
    });
  const ranked = rankAndMerge(
    findings.filter((f) => !ignoring.has(f.rule)),
    options.rules,
  );
  // What changed before the failure: its own line in the answer, and evidence on the finding it explains.
  let changes: Change[] = [];
  try {
    changes = snapshot.pod ? whatChanged(snapshot, ctx.changeWindowSeconds) : [];
    attachChangeEvidence(ranked, changes, targetKey(snapshot.target));
  } catch (err) {
    // Like a rule: a history it cannot read is reported, the findings still stand.
    ruleErrors.push({ rule: 'what-changed', error: err instanceof Error ? err.message : String(err) });
  }
  return {
    target: snapshot.target,
    cluster: snapshot.cluster,
    findings: ranked,
    skipped: snapshot.gaps,
    ruleErrors,
    ...(snapshot.missingPod ? { missing: snapshot.missingPod } : {}),
    ...(changes.length > 0 ? { changes } : {}),
    ...workloadAndNode(snapshot),
    ...(ignored.length > 0 ? { ignored: [...new Map(ignored.map((i) => [i.rule, i])).values()] } : {}),
    at: snapshot.now,
  };
}

/** The pod's top owner (the last of the chain) and its node. */
function workloadAndNode(snapshot: Snapshot): { workload?: string; node?: string } {
  const top = snapshot.owners?.at(-1);
  const node = snapshot.pod?.spec?.nodeName;
  return { ...(top ? { workload: `${top.kind} ${top.name}` } : {}), ...(node ? { node } : {}) };
}

function isDraftList(result: FindingDraft | readonly FindingDraft[]): result is readonly FindingDraft[] {
  return Array.isArray(result);
}

/** The union of facts the given rules need: the collector fetches exactly these. */
export function factsNeeded(rules: readonly Rule[]): Set<FactName> {
  const needed = new Set<FactName>(['pod', 'events']);
  for (const rule of rules) for (const fact of rule.meta.needs) needed.add(fact);
  return needed;
}
