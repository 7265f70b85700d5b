// RBAC equals the code: every (resource, verb) the product requests (src/collect/operations.ts)
// is granted by exactly the role meant for it, and no role grants anything the code does not
// request. No wildcards. Then, per rendered variant, each workload's identity has exactly the
// rights its job needs.
import { describe, expect, it } from 'vitest';
import { RBAC_FILES, renderRbacFile, syncRbac } from '../../scripts/gen-rbac.js';
import { API_OPERATIONS, type ApiOperation, NON_RESOURCE_OPERATIONS } from '../../src/collect/operations.js';
import {
  detectKubectl,
  isWorkload,
  type KubeObject,
  kustomizeTreeFiles,
  NAMESPACE,
  objectsOfKind,
  podSpecOf,
  renderLocal,
  renderVariant,
  VARIANTS,
  type Variant,
} from '../helpers/deploy.js';

interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}
type ClusterRole = KubeObject & { rules?: PolicyRule[] };
type Binding = KubeObject & { roleRef: { kind: string; name: string }; subjects?: { kind: string; name: string; namespace?: string }[] };

/** `pods/log get`, `apps deployments/scale patch` (RBAC has no versions). */
function opKeys(ops: readonly ApiOperation[]): string[] {
  const keys = ops.flatMap((o) => o.verbs.map((v) => `${o.group ? `${o.group} ` : ''}${o.resource}${o.subresource ? `/${o.subresource}` : ''} ${v}`));
  return [...new Set(keys)].sort();
}

function ruleKeys(rules: readonly PolicyRule[]): string[] {
  const keys = rules.flatMap((r) =>
    (r.apiGroups ?? []).flatMap((g) => (r.resources ?? []).flatMap((res) => (r.verbs ?? []).map((v) => `${g ? `${g} ` : ''}${res} ${v}`))),
  );
  return [...new Set(keys)].sort();
}

function wildcardProblems(role: ClusterRole): string[] {
  return (role.rules ?? []).flatMap((r, i) => {
    const out: string[] = [];
    for (const field of ['apiGroups', 'resources', 'verbs'] as const)
      if (r[field]?.some((x) => x.includes('*'))) out.push(`rules[${i}].${field} has a wildcard`);
    if (r.nonResourceURLs) out.push(`rules[${i}] grants nonResourceURLs`);
    if (!r.verbs?.length || !r.resources?.length || !r.apiGroups?.length) out.push(`rules[${i}] is incomplete`);
    return out;
  });
}

const files = kustomizeTreeFiles();
// Deletion patches (components/read-only) name a role without being one.
const allDocs = files.flatMap((f) => f.docs).filter((d) => !('$patch' in d));
const clusterRoles = objectsOfKind<ClusterRole>(allDocs, 'ClusterRole');
const bindings = objectsOfKind<Binding>(allDocs, 'ClusterRoleBinding');

describe('RBAC and the operations list (src/collect/operations.ts)', () => {
  it('lists operations of both roles', () => {
    expect(API_OPERATIONS.some((o) => o.role === 'diagnose')).toBe(true);
    expect(API_OPERATIONS.some((o) => o.role === 'remediate')).toBe(true);
  });

  it.each(RBAC_FILES.map((spec) => [spec.clusterRole, spec] as const))('ClusterRole %s grants exactly what its operations request', (name, spec) => {
    const role = clusterRoles.find((r) => r.metadata?.name === name);
    expect(role, `no ClusterRole ${name} under deploy/`).toBeDefined();
    const want = opKeys(API_OPERATIONS.filter((o) => spec.select(o)));
    const have = ruleKeys(role!.rules ?? []);
    expect(want.length).toBeGreaterThan(0);
    // Both directions, with the missing and the extra named.
    expect({ requestedByCodeButNotGranted: want.filter((k) => !have.includes(k)), grantedButNotRequested: have.filter((k) => !want.includes(k)) }).toEqual({
      requestedByCodeButNotGranted: [],
      grantedButNotRequested: [],
    });
  });

  it('every operation belongs to exactly one ClusterRole', () => {
    const orphans = API_OPERATIONS.filter((o) => RBAC_FILES.filter((s) => s.select(o)).length !== 1);
    expect(orphans).toEqual([]);
  });

  it('no ClusterRole uses wildcards or non-resource URLs', () => {
    expect(clusterRoles.flatMap((r) => wildcardProblems(r).map((p) => `${r.metadata?.name}: ${p}`))).toEqual([]);
  });

  it('there are no other roles', () => {
    expect(clusterRoles.map((r) => r.metadata?.name).sort()).toEqual(RBAC_FILES.map((s) => s.clusterRole).sort());
    expect(objectsOfKind(allDocs, 'Role')).toEqual([]);
    expect(objectsOfKind(allDocs, 'RoleBinding')).toEqual([]);
  });

  it('non-resource URLs requested are ones every identity may read by default', () => {
    // system:public-info-viewer grants /version, /healthz, /livez, /readyz to everyone.
    const publicInfo = ['/version', '/healthz', '/livez', '/readyz'];
    expect(NON_RESOURCE_OPERATIONS.map((o) => o.path).filter((p) => !publicInfo.includes(p))).toEqual([]);
  });

  it.each(RBAC_FILES.map((spec) => [spec.clusterRole, spec] as const))('the binding of %s names its service accounts', (name, spec) => {
    const binding = bindings.find((b) => b.metadata?.name === name);
    expect(binding?.roleRef).toMatchObject({ kind: 'ClusterRole', name });
    expect((binding?.subjects ?? []).map((s) => `${s.kind}:${s.namespace}/${s.name}`).sort()).toEqual(
      spec.serviceAccounts.map((sa) => `ServiceAccount:${NAMESPACE}/${sa}`).sort(),
    );
  });

  it('the RBAC files are what `npm run rbac` generates (comments name the code that needs each rule)', () => {
    expect(syncRbac({ check: true })).toEqual([]);
  });

  it('the comparison catches drift in both directions', () => {
    const spec = RBAC_FILES[1]!;
    const role = clusterRoles.find((r) => r.metadata?.name === spec.clusterRole)!;
    const fewer = API_OPERATIONS.filter((o) => spec.select(o)).slice(1);
    expect(opKeys(fewer)).not.toEqual(ruleKeys(role.rules ?? []));
    const more: ApiOperation[] = [
      ...API_OPERATIONS.filter((o) => spec.select(o)),
      { group: '', version: 'v1', resource: 'secrets', verbs: ['delete'], role: 'remediate', namespaced: true, usedBy: ['x'] },
    ];
    expect(opKeys(more)).not.toEqual(ruleKeys(role.rules ?? []));
    expect(renderRbacFile(spec, more)).toContain('resources: ["secrets"]');
    expect(wildcardProblems({ rules: [{ apiGroups: ['*'], resources: ['pods'], verbs: ['get'] }] })).toEqual(['rules[0].apiGroups has a wildcard']);
  });
});

const kubectl = detectKubectl();
const render = (v: Variant): KubeObject[] => (kubectl.usable ? renderVariant(v).objects : renderLocal(v));

describe.each(VARIANTS.map((v) => [v.name, v] as const))('identities in %s', (_, variant) => {
  const objects = render(variant);
  const roles = objectsOfKind<ClusterRole>(objects, 'ClusterRole');
  const rights = (sa: string) =>
    ruleKeys(
      objectsOfKind<Binding>(objects, 'ClusterRoleBinding')
        .filter((b) => b.subjects?.some((s) => s.kind === 'ServiceAccount' && s.name === sa && s.namespace === NAMESPACE))
        .flatMap((b) => roles.find((r) => r.metadata?.name === b.roleRef.name)?.rules ?? []),
    );
  const expected = (...sets: ('diagnose' | 'remediate' | 'secrets')[]) =>
    opKeys(API_OPERATIONS.filter((o) => sets.some((s) => (s === 'secrets' ? Boolean(o.optIn) : o.role === s && !o.optIn))));
  const identity = (workload: string) => podSpecOf(objects.filter(isWorkload).find((w) => w.metadata?.name === workload)!).serviceAccountName;

  it('the process that runs jobs reads what diagnosis needs, and writes only if remediation is allowed', () => {
    const runner = identity(variant.overlay === 'split' ? 'pod-doctor-worker' : 'pod-doctor-bot')!;
    const sets: ('diagnose' | 'remediate' | 'secrets')[] = ['diagnose'];
    if (!variant.components.includes('read-only')) sets.push('remediate');
    if (variant.components.includes('check-secrets')) sets.push('secrets');
    expect(rights(runner)).toEqual(expected(...sets));
  });

  it('the bot without a worker has no Kubernetes rights (the workers propose the fixes); neither has the agent', () => {
    if (variant.overlay === 'split') {
      expect(identity('pod-doctor-bot')).toBe('pod-doctor-bot');
      expect(rights('pod-doctor-bot')).toEqual([]);
      const botSa = objectsOfKind<KubeObject & { automountServiceAccountToken?: boolean }>(objects, 'ServiceAccount').find(
        (s) => s.metadata?.name === 'pod-doctor-bot',
      );
      expect(botSa?.automountServiceAccountToken).toBe(false);
    }
    expect(rights(identity('pod-doctor-agent')!)).toEqual([]);
    const agentSa = objectsOfKind<KubeObject & { automountServiceAccountToken?: boolean }>(objects, 'ServiceAccount').find(
      (s) => s.metadata?.name === 'pod-doctor-agent',
    );
    expect(agentSa?.automountServiceAccountToken).toBe(false);
  });

  it('the diagnose identity reads and never writes, Secrets included', () => {
    expect(rights('pod-doctor-diagnose')).toEqual(expected('diagnose'));
  });
});
