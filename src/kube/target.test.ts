import { describe, expect, it } from 'vitest';
import { isPodDoctorError } from '../errors.js';
import { formatTarget, isDns1123Label, isDns1123Subdomain, parseTarget, targetKey } from './target.js';

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
