import { describe, expect, it } from 'vitest';
import { slackIds } from '../chat/adapters/slack/ids.js';
import { approvalRule, globMatch, mayDiagnose, PolicySchema, policySchema, whoMayDiagnose } from './policy.js';

const policy = PolicySchema.parse({
  channels: {
    C0SHOP: { clusters: ['prod-*'], namespaces: ['shop*'], defaultCluster: 'prod-eu' },
    C0PLATFORM: {},
  },
  usergroups: { S0SHOP: { namespaces: ['shop*'] }, S0SRE: {} },
  approvals: [
    { namespaces: ['shop*'], playbooks: ['restart-*', 'force-delete'], approvers: ['S0SHOPLEADS'], twoPersonRisks: ['medium', 'high'] },
    { clusters: ['prod-*'], namespaces: ['*'], approvers: ['S0SRE'] },
  ],
});

describe('globMatch', () => {
  it('matches names and * runs, and nothing else', () => {
    expect(globMatch('prod-*', 'prod-eu')).toBe(true);
    expect(globMatch('prod-*', 'staging-eu')).toBe(false);
    expect(globMatch('shop*', 'shop')).toBe(true);
    expect(globMatch('shop', 'shop-2')).toBe(false);
    expect(globMatch('*', 'anything')).toBe(true);
    expect(globMatch('a.b', 'axb')).toBe(false);
  });
});

describe('mayDiagnose', () => {
  it('lets #shop-oncall diagnose prod-*/shop* only, and refuses unlisted channels', () => {
    const shop = { channel: 'C0SHOP', groups: ['S0SHOP'] };
    expect(mayDiagnose(policy, shop, { cluster: 'prod-eu', namespace: 'shop-web' })).toEqual({ ok: true });
    expect(mayDiagnose(policy, shop, { cluster: 'prod-eu', namespace: 'payments' })).toMatchObject({ ok: false, reason: /this channel may not/ });
    expect(mayDiagnose(policy, shop, { cluster: 'staging', namespace: 'shop' })).toMatchObject({ ok: false });
    expect(mayDiagnose(policy, { channel: 'C0RANDOM', groups: ['S0SRE'] }, { cluster: 'prod-eu', namespace: 'shop' })).toMatchObject({
      ok: false,
      reason: /not set up/,
    });
  });

  it('also needs a user group whose scope allows the target', () => {
    const platform = { channel: 'C0PLATFORM', groups: ['S0SHOP'] };
    expect(mayDiagnose(policy, platform, { cluster: 'prod-eu', namespace: 'payments' })).toMatchObject({ ok: false, reason: /none of your user groups/ });
    expect(mayDiagnose(policy, { ...platform, groups: [] }, { cluster: 'prod-eu', namespace: 'shop' })).toMatchObject({ ok: false });
    expect(mayDiagnose(policy, { ...platform, groups: ['S0SRE'] }, { cluster: 'prod-eu', namespace: 'payments' })).toEqual({ ok: true });
  });

  it('treats a node as cluster-wide: only a scope of every namespace covers it', () => {
    expect(mayDiagnose(policy, { channel: 'C0SHOP', groups: ['S0SRE'] }, { cluster: 'prod-eu' })).toMatchObject({ ok: false });
    expect(mayDiagnose(policy, { channel: 'C0PLATFORM', groups: ['S0SRE'] }, { cluster: 'prod-eu' })).toEqual({ ok: true });
  });

  it('restricts nothing when the policy is empty', () => {
    expect(mayDiagnose(PolicySchema.parse({}), { channel: 'C0X', groups: [] }, { cluster: 'any', namespace: 'any' })).toEqual({ ok: true });
  });
});

describe('whoMayDiagnose', () => {
  it('names the listed channels and the user groups whose scope allows the place', () => {
    expect(whoMayDiagnose(policy, { cluster: 'prod-eu', namespace: 'shop-web' })).toEqual({
      channels: ['C0SHOP', 'C0PLATFORM'],
      usergroups: ['S0SHOP', 'S0SRE'],
    });
    expect(whoMayDiagnose(policy, { cluster: 'prod-eu', namespace: 'payments' })).toEqual({ channels: ['C0PLATFORM'], usergroups: ['S0SRE'] });
    expect(whoMayDiagnose(policy, { cluster: 'prod-eu' })).toEqual({ channels: ['C0PLATFORM'], usergroups: ['S0SRE'] });
    const wildcard = PolicySchema.parse({ channels: { '*': {} } });
    expect(whoMayDiagnose(wildcard, { cluster: 'x', namespace: 'y' })).toEqual({ channels: [], usergroups: [] });
  });
});

describe('approvalRule', () => {
  it('takes the first matching rule: approvers per namespace and playbook, two people per risk', () => {
    expect(approvalRule(policy, { cluster: 'prod-eu', namespace: 'shop' }, { id: 'force-delete', risk: 'medium' })).toEqual({
      approvers: ['S0SHOPLEADS'],
      people: 2,
    });
    expect(approvalRule(policy, { cluster: 'prod-eu', namespace: 'shop' }, { id: 'cordon-node', risk: 'medium' })).toEqual({ approvers: ['S0SRE'], people: 1 });
    expect(approvalRule(policy, { cluster: 'staging', namespace: 'shop' }, { id: 'cordon-node', risk: 'high' })).toBeUndefined();
  });
});

describe('PolicySchema', () => {
  it('lists every error of a bad policy', () => {
    const r = policySchema(slackIds).safeParse({ channels: { 'not-a-channel': {} }, approvals: [{ namespaces: [], approvers: ['bob'] }], extra: 1 });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['channels.not-a-channel', 'approvals.0.namespaces', 'approvals.0.approvers.0', '']));
    expect(r.error!.issues.map((i) => i.message)).toContain('expected a Slack user id (U…, W…) or user-group id (S…)');
  });

  it("takes any surface's ids until the surface's parser looks at them", () => {
    const input = { channels: { 'town-square': {} }, usergroups: { sre: {} }, approvals: [{ namespaces: ['*'], approvers: ['bob'] }] };
    expect(PolicySchema.safeParse(input).success).toBe(true);
    expect(
      policySchema(slackIds)
        .safeParse(input)
        .error?.issues.map((i) => i.path.join('.')),
    ).toEqual(['channels.town-square', 'usergroups.sre', 'approvals.0.approvers.0']);
    expect(PolicySchema.safeParse({ channels: { 'no spaces': {} } }).success).toBe(false);
  });
});
