import { describe, expect, it } from 'vitest';
import { isDns1123Subdomain } from '../kube/target.js';
import type { AuditEntry } from './entry.js';
import { AUDIT_EVENT_REASON, auditEvent, auditEventName, eventNamespace } from './events.js';

const entry: AuditEntry = {
  at: '2026-03-01T10:00:00.000Z',
  cluster: 'prod-eu',
  kind: 'run',
  planId: 'pl_AbCdEfGhIjKlMnOp',
  playbook: 'remove-finalizers',
  target: { kind: 'pod', namespace: 'shop', name: 'web-0' },
  uid: '0b9f8e2a-1111-4222-8333-444455556666',
  actors: ['U0ALICE'],
  outcome: 'not-fixed',
  reason: 'still reported: terminating.finalizers',
};

describe('the Event of an audit entry', () => {
  it('is a core/v1 Event on the target, reason PodDoctorRemediation, from pod-doctor, typed by outcome', () => {
    const e = auditEvent(entry, '1772359200000-0', 'worker-7');
    expect(e.metadata?.namespace).toBe('shop');
    expect(e.involvedObject).toEqual({ apiVersion: 'v1', kind: 'Pod', namespace: 'shop', name: 'web-0', uid: entry.uid });
    expect(e).toMatchObject({ reason: AUDIT_EVENT_REASON, type: 'Warning', action: 'Remediate', source: { component: 'pod-doctor' } });
    expect(e).toMatchObject({ reportingComponent: 'pod-doctor', reportingInstance: 'worker-7', count: 1 });
    expect(e.firstTimestamp?.toISOString()).toBe(entry.at);
    expect(e.message).toContain('pl_AbCdEfGhIjKlMnOp');
    expect(e.message).toContain('U0ALICE');
    expect(e.metadata?.annotations).toMatchObject({ 'pod-doctor.io/plan-id': entry.planId, 'pod-doctor.io/actors': 'U0ALICE' });
    expect(auditEvent({ ...entry, kind: 'approval', outcome: 'approved' }, '1-0').type).toBe('Normal');
  });

  it('puts events of nodes and namespaces in default, as the kubelet and controllers do', () => {
    expect(eventNamespace({ kind: 'node', name: 'node-a' })).toBe('default');
    expect(eventNamespace({ kind: 'namespace', name: 'shop' })).toBe('default');
    const e = auditEvent({ ...entry, target: { kind: 'node', name: 'node-a' }, uid: undefined }, '1-0');
    expect(e.involvedObject).toEqual({ apiVersion: 'v1', kind: 'Node', name: 'node-a' });
  });

  it('is named after the stream entry: the same name on a retry, another for another entry or cluster, always a DNS subdomain', () => {
    const a = auditEventName(entry, '1772359200000-0');
    expect(auditEventName(entry, '1772359200000-0')).toBe(a);
    expect(auditEventName(entry, '1772359200000-1')).not.toBe(a);
    expect(auditEventName({ ...entry, cluster: 'prod-us' }, '1772359200000-0')).not.toBe(a);
    expect(a).toMatch(/^web-0\.[0-9a-f]{16}$/);
    const long = auditEventName({ ...entry, target: { kind: 'pod', namespace: 'shop', name: `${'a'.repeat(199)}-b.c` } }, '1-0');
    expect(isDns1123Subdomain(long)).toBe(true);
  });

  it('keeps the message within 1024 characters', () => {
    const e = auditEvent({ ...entry, reason: 'x'.repeat(1000) }, '1-0');
    expect(e.message?.length).toBe(1024);
    expect(e.message?.endsWith('…')).toBe(true);
  });
});
