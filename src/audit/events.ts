// An audit entry as a Kubernetes Event on the plan's target, so `kubectl describe` and every
// event exporter show who approved, denied or ran what. core/v1 Events (what `kubectl describe`
// reads), written by the worker of the target's cluster (the bot holds no cluster credentials).
// The name is derived from the stream entry, so a retried entry finds its Event already there.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type * as k8s from '@kubernetes/client-node';
import { ApiException } from '@kubernetes/client-node';
import type { Target } from '../kube/target.js';
import { type AuditEntry, describeEntry, eventTypeOf } from './entry.js';

export const AUDIT_EVENT_REASON = 'PodDoctorRemediation';
export const AUDIT_COMPONENT = 'pod-doctor';
/** core/v1 validates nothing longer than this for new-style Events (events.k8s.io note limit). */
const MESSAGE_MAX = 1024;

const ACTIONS: Record<AuditEntry['kind'], string> = { approval: 'Approve', denial: 'Deny', expiry: 'Expire', run: 'Remediate', mark: 'MarkNotAProblem' };

function involved(target: Target, uid: string | undefined): k8s.V1ObjectReference {
  const ref: k8s.V1ObjectReference =
    target.kind === 'pod'
      ? { apiVersion: 'v1', kind: 'Pod', namespace: target.namespace, name: target.name }
      : { apiVersion: 'v1', kind: target.kind === 'node' ? 'Node' : 'Namespace', name: target.name };
  return uid ? { ...ref, uid } : ref;
}

/** Events of cluster-scoped objects live in `default`, as the kubelet and controllers put them. */
export function eventNamespace(target: Target): string {
  return target.kind === 'pod' ? target.namespace : 'default';
}

/** `<object>.<16 hex of cluster and stream id>`: a DNS subdomain, the same for a retried entry. */
export function auditEventName(entry: Pick<AuditEntry, 'cluster' | 'target'>, streamId: string): string {
  const base = entry.target.name.slice(0, 200).replace(/[-.]+$/, '');
  return `${base}.${createHash('sha256').update(`${entry.cluster}/${streamId}`).digest('hex').slice(0, 16)}`;
}

export function auditEvent(entry: AuditEntry, streamId: string, instance = hostname()): k8s.CoreV1Event {
  const at = new Date(entry.at);
  const message = describeEntry(entry);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: auditEventName(entry, streamId),
      namespace: eventNamespace(entry.target),
      annotations: {
        'pod-doctor.io/plan-id': entry.planId,
        'pod-doctor.io/playbook': entry.playbook,
        'pod-doctor.io/audit-kind': entry.kind,
        'pod-doctor.io/outcome': entry.outcome,
        'pod-doctor.io/actors': entry.actors.join(','),
        'pod-doctor.io/cluster': entry.cluster,
      },
    },
    involvedObject: involved(entry.target, entry.uid),
    reason: AUDIT_EVENT_REASON,
    type: eventTypeOf(entry),
    message: message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX - 1)}…` : message,
    action: ACTIONS[entry.kind],
    source: { component: AUDIT_COMPONENT },
    reportingComponent: AUDIT_COMPONENT,
    reportingInstance: instance.slice(0, 128),
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  };
}

export type EventWrite = 'created' | 'exists' | 'refused';

/**
 * Creates the entry's Event. 409 means a previous attempt created it; any other 4xx (the
 * namespace is gone or terminating, RBAC without `events create`) will not change by retrying
 * and is reported as `refused`; 5xx and network errors throw, so the entry is retried.
 */
export async function writeAuditEvent(
  core: Pick<k8s.CoreV1Api, 'createNamespacedEvent'>,
  entry: AuditEntry,
  streamId: string,
  instance?: string,
): Promise<{ result: EventWrite; status?: number; message?: string }> {
  const body = auditEvent(entry, streamId, instance);
  try {
    await core.createNamespacedEvent({ namespace: body.metadata?.namespace ?? 'default', body });
    return { result: 'created' };
  } catch (err) {
    if (!(err instanceof ApiException) || err.code >= 500 || err.code === 429) throw err;
    if (err.code === 409) return { result: 'exists' };
    const detail = err.body as { message?: string } | string | undefined;
    return { result: 'refused', status: err.code, message: typeof detail === 'string' ? detail.slice(0, 300) : (detail?.message ?? '') };
  }
}
