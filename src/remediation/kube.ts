// Kubernetes helpers the steps share: patch content types, API error text, the owner chain up to
// the workload a human scales, and the strict name patterns step parameters are checked against.
import * as k8s from '@kubernetes/client-node';
import { z } from 'zod';
import type { FactSource } from '../collect/source.js';
import type { Pod } from '../diagnosis/types.js';
import { DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_MAX, LABEL_RE, SUBDOMAIN_RE } from '../kube/names.js';

// The checks of isDns1123Label/isDns1123Subdomain (src/kube/target.ts), as a pattern and a limit
// so that a parameter error says which of the two failed.
export const namespaceName = z.string().regex(LABEL_RE, 'expected a namespace name').max(DNS1123_LABEL_MAX);
export const objectName = z.string().regex(SUBDOMAIN_RE, 'expected a DNS-1123 name').max(DNS1123_SUBDOMAIN_MAX);
export const uidValue = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'expected a UID');

/** client-node 1.4.0 picks the first patch type it knows (JSON patch); say which one we send. */
export function patchAs(strategy: (typeof k8s.PatchStrategy)[keyof typeof k8s.PatchStrategy]) {
  return k8s.setHeaderOptions('Content-Type', strategy);
}

export function apiStatus(err: unknown): number | undefined {
  return err instanceof k8s.ApiException ? err.code : undefined;
}

export function isNotFound(err: unknown): boolean {
  return apiStatus(err) === 404;
}

/** `HTTP 409: Precondition failed: UID in precondition: …` from an ApiException's Status body. */
export function apiMessage(err: unknown): string {
  if (err instanceof k8s.ApiException) {
    let reason = '';
    const body: unknown = err.body;
    try {
      const parsed = typeof body === 'string' ? (JSON.parse(body) as { message?: string }) : (body as { message?: string } | undefined);
      reason = parsed?.message ?? '';
    } catch {
      reason = typeof body === 'string' ? body.slice(0, 300) : '';
    }
    return `HTTP ${err.code}${reason ? `: ${reason}` : ''}`;
  }
  return err instanceof Error ? err.message : String(err);
}

export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'ReplicaSet';
export const WORKLOAD_KINDS: readonly WorkloadKind[] = ['Deployment', 'StatefulSet', 'ReplicaSet'];

export interface WorkloadRef {
  kind: WorkloadKind;
  name: string;
}

/** The scalable workload of a pod: its StatefulSet, or its ReplicaSet's Deployment (else the ReplicaSet). */
export async function workloadOf(kube: Pick<FactSource, 'getOwner'>, pod: Pod): Promise<WorkloadRef | undefined> {
  const ns = pod.metadata?.namespace ?? '';
  const owner = (pod.metadata?.ownerReferences ?? []).find((o) => o.controller) ?? pod.metadata?.ownerReferences?.[0];
  if (!owner) return undefined;
  if (owner.kind === 'StatefulSet') return { kind: 'StatefulSet', name: owner.name };
  if (owner.kind !== 'ReplicaSet') return undefined;
  const rs = await kube.getOwner(ns, 'ReplicaSet', owner.name);
  const top = (rs?.metadata?.ownerReferences ?? []).find((o) => o.controller && o.kind === 'Deployment');
  return top ? { kind: 'Deployment', name: top.name } : { kind: 'ReplicaSet', name: owner.name };
}
