// An optional stand-in for kube-controller-manager's namespace controller. A bare
// kube-apiserver (what the fidelity suite compares against) only marks a deleted namespace
// Terminating; this controller then deletes its content (normal delete semantics, so bound
// pods wait for a kubelet and finalizers hold objects), reports the deletion conditions the
// real controller writes, and finalizes the namespace once nothing is left.
import type { KubeObject } from '../diagnosis/types.js';
import { clone, formatTime } from './json.js';
import type { Registry } from './registry.js';
import type { ResourceDef } from './resources.js';

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

const OK: Condition[] = [
  { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  {
    type: 'NamespaceDeletionContentFailure',
    status: 'False',
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
  { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
];

export class NamespaceController {
  private readonly pending = new Set<string>();
  private timer: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(
    private readonly registry: Registry,
    private readonly now: () => Date,
  ) {}

  /** Schedules a reconcile of `namespace` (coalesced, after the current request). */
  notify(namespace: string): void {
    if (this.closed) return;
    this.pending.add(namespace);
    this.timer ??= setImmediate(() => this.drain());
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearImmediate(this.timer);
  }

  private drain(): void {
    this.timer = undefined;
    const names = [...this.pending];
    this.pending.clear();
    for (const name of names) {
      try {
        this.reconcile(name);
      } catch {
        // Like the real controller, a failed pass is retried on the next change.
      }
    }
  }

  /** One pass of namespace_deleter: delete content, report what remains, finalize when empty. */
  reconcile(name: string): void {
    const store = this.registry.store;
    const nsDef = store.table.lookup('', 'v1', 'namespaces');
    if (!nsDef) return;
    const ns = store.get(nsDef, undefined, name);
    if (ns?.status?.phase !== 'Terminating') return;

    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const def of store.table.defs.filter((d) => d.namespaced)) {
      for (const obj of store.list(def, { namespace: name })) {
        if (obj.metadata?.deletionTimestamp) continue;
        try {
          this.registry.deleteObject(def, obj, {});
        } catch {
          // A failed delete is retried on the next pass, as the controller would.
        }
      }
      const left = store.list(def, { namespace: name });
      if (left.length) remaining.set(resourceLabel(def), left.length);
      for (const obj of left) for (const f of obj.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    }

    this.writeConditions(nsDef, ns, remaining, finalizers);
    if (remaining.size > 0) return;
    const current = store.get(nsDef, undefined, name);
    if (!current) return;
    const specFinalizers = (current.spec?.finalizers as string[] | undefined) ?? [];
    if (!specFinalizers.includes('kubernetes')) return;
    const next = clone(current);
    next.spec = { ...next.spec, finalizers: specFinalizers.filter((f) => f !== 'kubernetes') };
    this.registry.update(nsDef, undefined, name, next, 'finalize');
  }

  private writeConditions(nsDef: ResourceDef, ns: KubeObject, remaining: Map<string, number>, finalizers: Map<string, number>): void {
    const wanted = OK.map((c) => ({ ...c }));
    const set = (type: string, c: Omit<Condition, 'type'>): void => {
      const i = wanted.findIndex((w) => w.type === type);
      if (i >= 0) wanted[i] = { type, ...c };
    };
    if (remaining.size) {
      const parts = [...remaining].map(([r, n]) => `${r} has ${n} resource instances`).sort();
      set('NamespaceContentRemaining', { status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${parts.join(', ')}` });
    }
    if (finalizers.size) {
      const parts = [...finalizers].map(([f, n]) => `${f} in ${n} resource instances`).sort();
      set('NamespaceFinalizersRemaining', {
        status: 'True',
        reason: 'SomeFinalizersRemain',
        message: `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`,
      });
    }
    const old = Array.isArray(ns.status?.conditions) ? (ns.status.conditions as Condition[]) : [];
    const now = formatTime(this.now());
    let changed = old.length !== wanted.length;
    const conditions = wanted.map((w) => {
      const prev = old.find((o) => o.type === w.type);
      if (prev && prev.status === w.status && prev.reason === w.reason && prev.message === w.message) return prev;
      changed = true;
      return { ...w, lastTransitionTime: now };
    });
    if (!changed) return;
    const next = clone(ns);
    next.status = { ...next.status, conditions };
    this.registry.store.update(nsDef, next);
  }
}

/** GroupVersionResource as the controller prints it: `pods.` for core, `deployments.apps`. */
function resourceLabel(def: ResourceDef): string {
  return `${def.resource}.${def.group}`;
}
