// Facts from saved objects (`diagnose --from`): the same questions as KubeSource, answered
// from memory with the API server's matching rules, for post-mortems without a cluster.

import { z } from 'zod';
import type { Event, KubeObject, Lease, Namespace, NamespaceContent, Node, PersistentVolumeClaim, Pod } from '../diagnosis/types.js';
import { matchesLabelSelector } from '../kube/selectors.js';
import { canonicalTimes } from '../kube/wire.js';
import { type FactSource, type OwnerKind, type PodQuery, UnanswerableError } from './source.js';

/** A saved container log (fixtures and post-mortems); not a Kubernetes API kind. */
const podLogDocSchema = z.object({
  apiVersion: z.literal('pod-doctor.dev/v1'),
  kind: z.literal('PodLog'),
  metadata: z.object({ namespace: z.string(), name: z.string() }),
  container: z.string(),
  previous: z.boolean().optional(),
  lines: z.array(z.string()),
});
export type PodLogDoc = z.infer<typeof podLogDocSchema>;

export function isPodLog(o: KubeObject): boolean {
  return o.kind === 'PodLog' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('pod-doctor.dev/');
}

const MAX_NAMES = 20;
const NAMESPACE_CONTENT_KINDS = ['Pod', 'Service', 'PersistentVolumeClaim', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job'];

export class ObjectsSource implements FactSource {
  readonly description: string;
  private readonly byKind = new Map<string, KubeObject[]>();
  private readonly logs: PodLogDoc[] = [];

  constructor(objects: readonly KubeObject[], description = 'saved objects') {
    this.description = description;
    for (const saved of objects) {
      const o = canonicalTimes(saved);
      if (isPodLog(o)) {
        // A malformed saved log is a broken dump: say where, rather than answer without it.
        const doc = podLogDocSchema.safeParse(o);
        if (!doc.success)
          throw new Error(
            `${description}: PodLog ${o.metadata?.namespace ?? '?'}/${o.metadata?.name ?? '?'}: ${doc.error.issues[0]?.path.join('.') ?? ''} ${doc.error.issues[0]?.message ?? 'invalid'}`,
          );
        this.logs.push(doc.data);
        continue;
      }
      const kind = o.kind ?? '';
      const list = this.byKind.get(kind) ?? [];
      list.push(o);
      this.byKind.set(kind, list);
    }
    // An API server lists by storage key (namespace/name), whatever order the objects were saved in:
    // answer in that order too, so what a rule quotes from a list is the same on both paths.
    const storageKey = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
    for (const list of this.byKind.values()) list.sort((a, b) => (storageKey(a) < storageKey(b) ? -1 : storageKey(a) > storageKey(b) ? 1 : 0));
  }

  private all(kind: string): KubeObject[] {
    return this.byKind.get(kind) ?? [];
  }

  /** Like `find`, for kinds a dump often leaves out: with none of that kind saved, absence proves nothing. */
  private findKnown(kind: string, namespace: string | undefined, name: string): KubeObject | null {
    if (this.all(kind).length === 0) throw new UnanswerableError(`${this.description} hold no ${kind}`);
    return this.find(kind, namespace, name);
  }

  private find(kind: string, namespace: string | undefined, name: string): KubeObject | null {
    return this.all(kind).find((o) => o.metadata?.name === name && (namespace === undefined || o.metadata?.namespace === namespace)) ?? null;
  }

  private events(match: (e: Event) => boolean): Event[] {
    return (this.all('Event') as unknown as Event[]).filter(match);
  }

  async getPod(namespace: string, name: string): Promise<Pod | null> {
    return this.find('Pod', namespace, name) as Pod | null;
  }

  async listPodEvents(namespace: string, name: string): Promise<Event[]> {
    return this.events(
      (e) => e.involvedObject.kind === 'Pod' && e.involvedObject.name === name && (e.metadata?.namespace ?? e.involvedObject.namespace) === namespace,
    );
  }

  async getNode(name: string): Promise<Node | null> {
    return this.find('Node', undefined, name) as Node | null;
  }

  async listNodeEvents(name: string): Promise<Event[]> {
    return this.events((e) => e.involvedObject.kind === 'Node' && e.involvedObject.name === name);
  }

  async listNodes(): Promise<Node[]> {
    return this.all('Node') as Node[];
  }

  async listPods(query: PodQuery): Promise<Pod[]> {
    return (this.all('Pod') as Pod[]).filter(
      (p) =>
        (query.namespace === undefined || p.metadata?.namespace === query.namespace) &&
        (query.nodeName === undefined || p.spec?.nodeName === query.nodeName) &&
        (query.labelSelector === undefined || matchesLabelSelector(query.labelSelector, p.metadata?.labels ?? {})),
    );
  }

  async getNamespace(name: string): Promise<Namespace | null> {
    return this.find('Namespace', undefined, name) as Namespace | null;
  }

  async getOwner(namespace: string, kind: OwnerKind, name: string): Promise<KubeObject | null> {
    return this.find(kind, namespace, name);
  }

  async listObjectEvents(namespace: string, kind: string, name: string): Promise<Event[]> {
    return this.events(
      (e) => e.involvedObject.kind === kind && e.involvedObject.name === name && (e.metadata?.namespace ?? e.involvedObject.namespace) === namespace,
    );
  }

  async getStorageClass(name: string): Promise<KubeObject | null> {
    return this.findKnown('StorageClass', undefined, name);
  }

  async getVolumeAttachment(name: string): Promise<KubeObject | null> {
    return this.findKnown('VolumeAttachment', undefined, name);
  }

  async getCsiNode(name: string): Promise<KubeObject | null> {
    return this.findKnown('CSINode', undefined, name);
  }

  async listWebhookConfigurations(): Promise<KubeObject[]> {
    const all = [...this.all('ValidatingWebhookConfiguration'), ...this.all('MutatingWebhookConfiguration')];
    if (all.length === 0) throw new UnanswerableError(`${this.description} hold no webhook configuration`);
    return all;
  }

  async getService(namespace: string, name: string): Promise<KubeObject | null> {
    return this.find('Service', namespace, name);
  }

  async getEndpoints(namespace: string, name: string): Promise<KubeObject | null> {
    return this.findKnown('Endpoints', namespace, name);
  }

  async serviceAccountMetadata(namespace: string, name: string): Promise<KubeObject | null> {
    const sa = this.findKnown('ServiceAccount', namespace, name);
    return sa ? { apiVersion: 'v1', kind: 'ServiceAccount', metadata: sa.metadata ?? {} } : null;
  }

  async getPersistentVolume(name: string): Promise<KubeObject | null> {
    return this.find('PersistentVolume', undefined, name);
  }

  async listRoleBindings(namespace: string): Promise<KubeObject[]> {
    if (this.all('RoleBinding').length === 0 && this.all('ClusterRoleBinding').length === 0)
      throw new UnanswerableError(`${this.description} hold no RBAC bindings`);
    return this.all('RoleBinding').filter((o) => o.metadata?.namespace === namespace);
  }

  async listClusterRoleBindings(): Promise<KubeObject[]> {
    if (this.all('RoleBinding').length === 0 && this.all('ClusterRoleBinding').length === 0)
      throw new UnanswerableError(`${this.description} hold no RBAC bindings`);
    return this.all('ClusterRoleBinding');
  }

  async getRole(namespace: string | undefined, name: string): Promise<KubeObject | null> {
    return namespace ? this.findKnown('Role', namespace, name) : this.findKnown('ClusterRole', undefined, name);
  }

  async listServices(namespace: string): Promise<KubeObject[]> {
    return this.all('Service').filter((o) => o.metadata?.namespace === namespace);
  }

  async listDisruptionBudgets(namespace: string): Promise<KubeObject[]> {
    return this.all('PodDisruptionBudget').filter((o) => o.metadata?.namespace === namespace);
  }

  async listAutoscalers(namespace: string): Promise<KubeObject[]> {
    return this.all('HorizontalPodAutoscaler').filter((o) => o.metadata?.namespace === namespace);
  }

  async listNetworkPolicies(namespace: string): Promise<KubeObject[]> {
    return this.all('NetworkPolicy').filter((o) => o.metadata?.namespace === namespace);
  }

  async listNamespaceWarnings(namespace: string): Promise<Event[]> {
    return this.events((e) => e.type === 'Warning' && (e.metadata?.namespace ?? e.involvedObject.namespace) === namespace);
  }

  async configMapExists(namespace: string, name: string): Promise<boolean> {
    return this.find('ConfigMap', namespace, name) !== null;
  }

  async secretExists(namespace: string, name: string): Promise<boolean> {
    return this.find('Secret', namespace, name) !== null;
  }

  async configMetadata(namespace: string, kind: 'ConfigMap' | 'Secret', name: string): Promise<KubeObject | null> {
    const found = this.find(kind, namespace, name);
    // What a metadata-only read answers: a saved Secret's data never leaves this method.
    return found ? { apiVersion: 'v1', kind, metadata: found.metadata ?? {} } : null;
  }

  async listRevisions(namespace: string, kind: 'ReplicaSet' | 'ControllerRevision', labelSelector: string): Promise<KubeObject[]> {
    // A dump without any of the kind says nothing about the history.
    if (this.all(kind).length === 0) throw new UnanswerableError(`${this.description} hold no ${kind}`);
    return this.all(kind).filter((o) => o.metadata?.namespace === namespace && matchesLabelSelector(labelSelector, o.metadata?.labels ?? {}));
  }

  async getPvc(namespace: string, name: string): Promise<PersistentVolumeClaim | null> {
    return this.find('PersistentVolumeClaim', namespace, name) as PersistentVolumeClaim | null;
  }

  async getLease(namespace: string, name: string): Promise<Lease | null> {
    return this.find('Lease', namespace, name) as Lease | null;
  }

  async listWorkloadEndpoints(namespace: string): Promise<KubeObject[] | null> {
    const weps = this.all('WorkloadEndpoint');
    // Saved objects without any WorkloadEndpoint say nothing about Calico: treat as absent.
    if (weps.length === 0) return null;
    return weps.filter((w) => w.metadata?.namespace === namespace);
  }

  async podLog(namespace: string, pod: string, container: string, previous: boolean, tailLines: number): Promise<string[] | null> {
    const doc = this.logs.find(
      (l) => l.metadata.namespace === namespace && l.metadata.name === pod && l.container === container && Boolean(l.previous) === previous,
    );
    // As the API path: the server tails raw lines, blank ones are dropped after.
    return doc ? doc.lines.slice(-tailLines).filter((l) => l.length > 0) : null;
  }

  async listNamespaceContents(namespace: string): Promise<NamespaceContent[]> {
    const out: NamespaceContent[] = [];
    for (const kind of NAMESPACE_CONTENT_KINDS) {
      const names = this.all(kind)
        .filter((o) => o.metadata?.namespace === namespace)
        .map((o) => o.metadata?.name ?? '')
        .slice(0, MAX_NAMES);
      if (names.length > 0) out.push({ kind, names });
    }
    return out;
  }
}
