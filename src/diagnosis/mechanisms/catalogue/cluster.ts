// Cluster mechanisms: an in-cluster client refused by RBAC, or left without its token.
import { data, mechanisms, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** What the API server's refusal names, with the scope as a phrase for templates. */
function refusal(ctx: ReadingContext) {
  const g = ctx.groups;
  const group = g.group ?? '';
  const where = g.ns ? `in namespace ${g.ns}` : 'at the cluster scope';
  return data({
    user: g.user,
    sa: g.sa,
    saNamespace: g.saNs,
    verb: g.verb,
    resource: g.resource,
    group,
    groupLabel: group === '' ? 'the core API group' : `API group ${group}`,
    targetNamespace: g.ns,
    where,
    roleKind: g.ns ? 'Role' : 'ClusterRole',
    bindingKind: g.ns ? `RoleBinding in ${g.ns}` : 'ClusterRoleBinding',
    canI: `kubectl auth can-i ${g.verb ?? '<verb>'} ${g.resource ?? '<resource>'}${group ? `.${group}` : ''} --as=${g.user ?? 'system:serviceaccount:<ns>:<sa>'}${g.ns ? ` -n ${g.ns}` : ''}`,
  });
}

export const MECHANISMS = mechanisms([
  {
    id: 'rbac-forbidden',
    kind: 'permission',
    resource: "an RBAC permission of the pod's ServiceAccount",
    doc: "The app calls the Kubernetes API with its ServiceAccount's token and the API server refuses the verb on the resource: no Role or ClusterRole bound to that ServiceAccount grants it.",
    variants: [
      {
        id: 'default-service-account',
        when: (ctx) => {
          const d = refusal(ctx);
          return d.sa === 'default' && !ctx.pod?.spec?.serviceAccountName ? d : false;
        },
        summary: 'ServiceAccount default may not {{verb}} {{resource}} {{where}}',
        explain:
          'The app asks the API server to {{verb}} {{resource}} ({{groupLabel}}) {{where}} as ServiceAccount {{saNamespace}}/default, because the pod names no serviceAccountName, ' +
          'and nothing grants the default ServiceAccount that.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.serviceAccountName',
            change: 'use the ServiceAccount made for this app (its chart or manifests create one with the role)',
          },
          {
            place: 'cluster',
            path: 'a {{roleKind}} + {{bindingKind}}',
            change: 'or grant {{verb}} on {{resource}} to that ServiceAccount; check with {{canI}}',
          },
        ],
        facts: (ctx) => [specFact(ctx, 'spec.serviceAccountName', '(not set: default)')],
      },
      {
        id: 'missing-grant',
        when: (ctx) => refusal(ctx),
        summary: '{{user}} may not {{verb}} {{resource}} {{where}}',
        explain:
          'The app asks the API server to {{verb}} {{resource}} ({{groupLabel}}) {{where}} as {{user}}, and no {{roleKind}} bound to that identity grants it, so every call is refused (403).',
        knobs: [
          {
            place: 'cluster',
            path: 'a {{roleKind}} + {{bindingKind}}',
            change: 'grant apiGroups ["{{group}}"], resources ["{{resource}}"], verbs ["{{verb}}"] to {{user}}; check with {{canI}}',
          },
        ],
      },
    ],
  },
  {
    id: 'service-account-token-missing',
    kind: 'setting',
    resource: 'the ServiceAccount token mounted in the pod',
    doc: 'The app reads the in-cluster token at /var/run/secrets/kubernetes.io/serviceaccount and it is not there: automountServiceAccountToken is false on the pod or its ServiceAccount.',
    variants: [
      {
        id: 'pod',
        when: (ctx) => ctx.pod?.spec?.automountServiceAccountToken === false,
        summary: 'no ServiceAccount token is mounted: the pod turns it off',
        explain: 'The app reads the in-cluster ServiceAccount token, and the pod sets automountServiceAccountToken: false, so the kubelet does not mount it.',
        knobs: [{ place: 'pod', path: 'spec.automountServiceAccountToken', change: 'set true (or mount a projected serviceAccountToken volume at that path)' }],
        facts: (ctx) => [specFact(ctx, 'spec.automountServiceAccountToken', 'false')],
      },
      {
        id: 'service-account',
        summary: 'no ServiceAccount token is mounted',
        explain:
          'The app reads the in-cluster ServiceAccount token, which is not mounted: the ServiceAccount {{serviceAccount}} sets automountServiceAccountToken: false (or the path is covered by another volume).',
        knobs: [
          { place: 'pod', path: 'spec.automountServiceAccountToken', change: "set true on the pod (it overrides the ServiceAccount's setting)" },
          { place: 'cluster', path: 'ServiceAccount {{serviceAccount}} automountServiceAccountToken', change: 'or allow it there' },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'kube-api.forbidden',
    family: 'kube-api',
    mechanism: 'rbac-forbidden',
    needles: ['is forbidden', 'cannot '],
    patterns: [
      re(
        'User "(?<user>system:serviceaccount:(?<saNs>[\\w.-]+):(?<sa>[\\w.-]+))" cannot (?<verb>\\w+) resource "(?<resource>[\\w./-]+)" in API group "(?<group>[\\w.-]*)"' +
          '(?: in the namespace "(?<ns>[\\w.-]+)"| at the cluster scope)',
      ),
      re(
        'User "(?<user>[^"]+)" cannot (?<verb>\\w+) resource "(?<resource>[\\w./-]+)" in API group "(?<group>[\\w.-]*)"(?: in the namespace "(?<ns>[\\w.-]+)"| at the cluster scope)',
      ),
    ],
    source: 'kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go (forbiddenMessage)',
    examples: [
      'pods is forbidden: User "system:serviceaccount:shop:default" cannot list resource "pods" in API group "" in the namespace "shop"',
      'E0301 10:00:00.000000       1 reflector.go:147] failed to list *v1.Node: nodes is forbidden: User "system:serviceaccount:monitoring:exporter" cannot list resource "nodes" in API group "" at the cluster scope',
    ],
  },
  {
    id: 'kube-api.token-missing',
    family: 'kube-api',
    mechanism: 'service-account-token-missing',
    needles: ['serviceaccount/token', 'serviceaccount'],
    patterns: [
      re(
        '/var/run/secrets/kubernetes\\.io/serviceaccount/(?:token|ca\\.crt|namespace)[^\\n]*(?:no such file or directory|No such file|not found|does not exist)',
      ),
    ],
    source: 'client-go rest/config.go InClusterConfig (reads tokenFile); the ENOENT text (upstream.json)',
    examples: ['open /var/run/secrets/kubernetes.io/serviceaccount/token: no such file or directory'],
  },
]);
