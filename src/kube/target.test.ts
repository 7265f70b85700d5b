import { describe, expect, it } from 'vitest';
import { isPodDoctorError } from '../errors.js';
import { formatTarget, isDns1123Label, isDns1123Subdomain, parseKubectlRef, parseTarget, refTarget, targetKey } from './target.js';

describe('parseTarget', () => {
  it.each([
    ['shop/web-7d9f-x2x', { kind: 'pod', namespace: 'shop', name: 'web-7d9f-x2x' }],
    ['  kube-system/coredns-5d78c9869d-abcde ', { kind: 'pod', namespace: 'kube-system', name: 'coredns-5d78c9869d-abcde' }],
    ['node/ip-10-0-1-23.ec2.internal', { kind: 'node', name: 'ip-10-0-1-23.ec2.internal' }],
    ['ns/team-a', { kind: 'namespace', name: 'team-a' }],
    ['namespace/team-a', { kind: 'namespace', name: 'team-a' }],
  ])('%s', (input, expected) => {
    expect(parseTarget(input)).toEqual(expected);
  });

  it('uses the default namespace for a bare pod name', () => {
    expect(parseTarget('web-1', 'shop')).toEqual({ kind: 'pod', namespace: 'shop', name: 'web-1' });
  });

  it.each(['', 'Shop/web', 'shop/Web_1', 'a/b/c', 'web-1', 'node/', 'ns/a.b', `shop/${'a'.repeat(254)}`, 'shop/-web'])('rejects %j', (input) => {
    let error: unknown;
    try {
      parseTarget(input);
    } catch (err) {
      error = err;
    }
    expect(isPodDoctorError(error, 'BAD_TARGET')).toBe(true);
    expect((error as Error).message).toMatch(/not a valid target/);
  });

  it('round-trips through formatTarget', () => {
    for (const t of ['shop/web-1', 'node/n1', 'ns/team-a']) expect(formatTarget(parseTarget(t))).toBe(t);
  });
});

describe('DNS-1123 names', () => {
  it('accepts what Kubernetes accepts, up to its length limits', () => {
    for (const name of ['a', 'web-1', 'ip-10-0-1-23.ec2.internal', 'a'.repeat(253)]) expect(isDns1123Subdomain(name)).toBe(true);
    for (const name of ['a', 'team-a', 'a'.repeat(63)]) expect(isDns1123Label(name)).toBe(true);
  });

  it('refuses empty labels, labels that start or end with "-", upper case and over-long names', () => {
    for (const name of ['', 'a..b', 'a.-b', 'a-.b', '.a', 'a.', 'Web', 'a_b', 'a'.repeat(254)]) expect(isDns1123Subdomain(name)).toBe(false);
    for (const name of ['a.b', '-a', 'a-', 'a'.repeat(64)]) expect(isDns1123Label(name)).toBe(false);
  });
});

describe('targetKey', () => {
  it('is the structured form stored in Redis and in finding subjects', () => {
    expect(['shop/web-1', 'node/n1', 'ns/team-a'].map((t) => targetKey(parseTarget(t)))).toEqual(['pod/shop/web-1', 'node/n1', 'namespace/team-a']);
  });
});

describe('parseKubectlRef and refTarget: what `pod-doctor diagnose` takes, as kubectl reads it', () => {
  it.each([
    ['web-1', 'shop', false, { target: { kind: 'pod', namespace: 'shop', name: 'web-1' } }],
    ['pod/web-1', 'shop', false, { target: { kind: 'pod', namespace: 'shop', name: 'web-1' } }],
    ['po/web-1', 'default', false, { target: { kind: 'pod', namespace: 'default', name: 'web-1' } }],
    ['pods/web-1', 'shop', true, { target: { kind: 'pod', namespace: 'shop', name: 'web-1' } }],
    ['shop/web-1', 'default', false, { target: { kind: 'pod', namespace: 'shop', name: 'web-1' } }],
    ['shop/web-1', 'shop', true, { target: { kind: 'pod', namespace: 'shop', name: 'web-1' } }],
    ['deploy/web', 'shop', false, { workload: { kind: 'Deployment', namespace: 'shop', name: 'web' } }],
    ['Deployment/web', 'shop', true, { workload: { kind: 'Deployment', namespace: 'shop', name: 'web' } }],
    ['deployment.apps/web', 'shop', false, { workload: { kind: 'Deployment', namespace: 'shop', name: 'web' } }],
    ['sts/db', 'data', false, { workload: { kind: 'StatefulSet', namespace: 'data', name: 'db' } }],
    ['statefulset/db', 'data', false, { workload: { kind: 'StatefulSet', namespace: 'data', name: 'db' } }],
    ['ds/node-exporter', 'monitoring', false, { workload: { kind: 'DaemonSet', namespace: 'monitoring', name: 'node-exporter' } }],
    ['daemonset/node-exporter', 'monitoring', false, { workload: { kind: 'DaemonSet', namespace: 'monitoring', name: 'node-exporter' } }],
    ['job/migrate-42', 'shop', false, { workload: { kind: 'Job', namespace: 'shop', name: 'migrate-42' } }],
    ['node/worker-3', 'shop', true, { target: { kind: 'node', name: 'worker-3' } }],
    ['no/worker-3', 'shop', false, { target: { kind: 'node', name: 'worker-3' } }],
    ['ns/team-a', 'shop', false, { target: { kind: 'namespace', name: 'team-a' } }],
  ])('%s in namespace %s (-n given: %s)', (input, namespace, explicit, expected) => {
    expect(refTarget(parseKubectlRef(input), namespace, explicit)).toEqual(expected);
  });

  it.each([
    ['', 'BAD_TARGET'],
    ['a/b/c', 'BAD_TARGET'],
    ['deploy/', 'BAD_TARGET'],
    ['Web_1', 'BAD_TARGET'],
    ['deploy/Web', 'BAD_TARGET'],
    ['Shop/web', 'BAD_TARGET'],
    ['ns/a.b', 'BAD_TARGET'],
  ])('refuses %j before any cluster is read', (input, code) => {
    expect(() => parseKubectlRef(input)).toThrow(expect.objectContaining({ code }));
  });

  it('refuses a <namespace>/<pod> that -n contradicts', () => {
    expect(() => refTarget(parseKubectlRef('shop/web-1'), 'payments', true)).toThrow(expect.objectContaining({ code: 'BAD_TARGET' }));
  });
});
