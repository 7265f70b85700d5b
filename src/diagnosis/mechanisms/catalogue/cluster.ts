// Cluster mechanisms: an in-cluster client refused by RBAC (403), whose token the API server rejects (401), or left
// without its token.
import type { AccessFact, Evidence } from '../../types.js';
import { data, mechanisms, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** The collector's read of the identity's bindings for this very refusal (snapshot.access), if any. */
function accessOf(ctx: ReadingContext): AccessFact | undefined {
  const g = ctx.groups;
  return ctx.snapshot?.access?.find(
    (a) => a.user === g.user && a.verb === g.verb && a.resource === g.resource && a.group === (g.group ?? '') && (a.namespace ?? '') === (g.ns ?? ''),
  );
}

const bindingName = (b: AccessFact['bindings'][number]) => `${b.role} (${b.kind} ${b.namespace ? `${b.namespace}/` : ''}${b.name})`;

/** What the identity is bound to, in a sentence: the grants it has, and that none covers the call. */
function boundPhrase(a: AccessFact | undefined): string {
  if (!a) return '';
  if (a.bindings.length === 0) return 'It has no RoleBinding or ClusterRoleBinding at all.';
  const list = a.bindings.map(bindingName).join(', ');
  return `It is bound to ${list}, and none of ${a.bindings.length === 1 ? 'it' : 'them'} grants that.`;
}

function accessEvidence(a: AccessFact | undefined): Evidence[] {
  if (!a) return [];
  const text =
    a.bindings.length === 0
      ? 'no RoleBinding or ClusterRoleBinding names it (or a group it is in)'
      : a.bindings.map((b) => `${bindingName(b)}: ${b.grants === null ? 'role not found' : b.grants ? 'grants it' : 'does not grant it'}`).join('; ');
  return [{ source: `RBAC bindings of ${a.user}`, text }];
}

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
    bound: boundPhrase(accessOf(ctx)),
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
          'and nothing grants the default ServiceAccount that. {{bound}}',
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
        facts: (ctx) => [specFact(ctx, 'spec.serviceAccountName', '(not set: default)'), ...accessEvidence(accessOf(ctx))],
      },
      {
        id: 'granted-now',
        when: (ctx) => {
          const a = accessOf(ctx);
          const granting = a?.bindings.filter((b) => b.grants === true) ?? [];
          return granting.length > 0 && { ...refusal(ctx), granting: granting.map(bindingName).join(', ') };
        },
        summary: '{{user}} was refused {{verb}} on {{resource}}, which {{granting}} grants now',
        explain:
          'The app was refused {{verb}} on {{resource}} ({{groupLabel}}) {{where}} as {{user}}, but {{granting}} grants it now: the grant came after the refusal ' +
          '(the app may still be backing off), or the app calls with another identity than the one bound.',
        knobs: [{ place: 'pod', path: '{{containerPath}}', change: 'restart the app if the refusal is old; check which identity it uses with {{canI}}' }],
        facts: (ctx) => accessEvidence(accessOf(ctx)),
      },
      {
        id: 'missing-grant',
        when: (ctx) => refusal(ctx),
        summary: '{{user}} may not {{verb}} {{resource}} {{where}}',
        explain:
          'The app asks the API server to {{verb}} {{resource}} ({{groupLabel}}) {{where}} as {{user}}, and no {{roleKind}} bound to that identity grants it, ' +
          'so every call is refused (403). {{bound}}',
        knobs: [
          {
            place: 'cluster',
            path: 'a {{roleKind}} + {{bindingKind}}',
            change: 'grant apiGroups ["{{group}}"], resources ["{{resource}}"], verbs ["{{verb}}"] to {{user}}; check with {{canI}}',
          },
        ],
        facts: (ctx) => accessEvidence(accessOf(ctx)),
      },
    ],
  },
  {
    id: 'api-unauthorized',
    kind: 'permission',
    resource: 'a ServiceAccount token the API server accepts',
    doc: "The API server rejects the app's credentials (401 Unauthorized), before any RBAC check: the token is missing from the request, expired, or not one this cluster issued. An RBAC refusal is 403 Forbidden instead.",
    variants: [
      {
        id: 'token',
        summary: "the API server rejects the app's token (401 Unauthorized)",
        explain:
          'The API server did not accept the credentials the app sent (401, not the 403 of a missing RBAC grant): no token at all, a token of a ServiceAccount ' +
          'that was deleted and recreated, a token or kubeconfig from another cluster, or a projected token the client read once and kept after it expired ' +
          '(the kubelet rotates it in the file).',
        knobs: [
          {
            place: 'app',
            path: "the client's credentials",
            change: 'use the in-cluster config, which re-reads the rotated token file (update an old client library), not a copied token or kubeconfig',
          },
          {
            place: 'cluster',
            path: 'ServiceAccount {{serviceAccount}} in {{namespace}}',
            change: 'check it exists and is the one spec.serviceAccountName names',
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

/** A quote as the API server writes it, or escaped inside the JSON body a client prints (`User \"system:...\"`). */
const Q = '\\\\?"';

export const SIGNATURES = signatures([
  {
    id: 'kube-api.forbidden',
    family: 'kube-api',
    mechanism: 'rbac-forbidden',
    needles: ['is forbidden', 'cannot '],
    patterns: [
      re(
        `User ${Q}(?<user>system:serviceaccount:(?<saNs>[\\w.-]+):(?<sa>[\\w.-]+))${Q} cannot (?<verb>\\w+) resource ${Q}(?<resource>[\\w./-]+)${Q} ` +
          `in API group ${Q}(?<group>[\\w.-]*)${Q}(?: in the namespace ${Q}(?<ns>[\\w.-]+)${Q}| at the cluster scope)`,
      ),
      re(
        `User ${Q}(?<user>[^"\\\\]+)${Q} cannot (?<verb>\\w+) resource ${Q}(?<resource>[\\w./-]+)${Q} in API group ${Q}(?<group>[\\w.-]*)${Q}` +
          `(?: in the namespace ${Q}(?<ns>[\\w.-]+)${Q}| at the cluster scope)`,
      ),
      // Kubernetes 1.10 and older: no "resource" and no API group.
      re(
        `User ${Q}(?<user>system:serviceaccount:(?<saNs>[\\w.-]+):(?<sa>[\\w.-]+))${Q} cannot (?<verb>\\w+) (?<resource>[\\w./-]+)` +
          `(?: in the namespace ${Q}(?<ns>[\\w.-]+)${Q}| at the cluster scope)`,
      ),
    ],
    source:
      'kubernetes staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go (forbiddenMessage; older wording before 1.11). Lines (GitHub): ' +
      'GluuFederation/cloud-native-edition#543, lwolf/kube-cleanup-operator#81, vmware-archive/kubewatch#95, kubernetes-retired/dashboard#2328, cloudtty/cloudtty#469, ' +
      'denverdino/k8s-for-docker-desktop#183, kubernetes/kubernetes#127720',
    examples: [
      '"message":"pods is forbidden: User \\"system:serviceaccount:gluu:default\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"gluu\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403',
      'E1227 08:28:34.712122       1 reflector.go:178] pkg/controller/controller.go:154: Failed to list *v1.Pod: pods is forbidden: User "system:serviceaccount:default:cleanup-operator" cannot list resource "pods" in API group "" in the namespace "default"',
      'E0418 04:56:17.489683       1 reflector.go:201] github.com/skippbox/kubewatch/pkg/controller/controller.go:147: Failed to list *v1.Pod: pods is forbidden: User "system:serviceaccount:default:default" cannot list pods at the cluster scope',
      'User "system:serviceaccount:kube-system:default" cannot list pods in the namespace "default".: "Unknown user \\"system:serviceaccount:kube-system:default\\""',
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"',
      'events is forbidden: User "system:serviceaccount:kube-system:default" cannot list resource "events" in API group "" in the namespace "default"',
      '"message": "nodes is forbidden: User \\"system:serviceaccount:default:test\\" cannot list resource \\"nodes\\" in API group \\"\\" at the cluster scope",',
    ],
  },
  {
    id: 'kube-api.unauthorized',
    family: 'kube-api',
    mechanism: 'api-unauthorized',
    needles: ['unauthorized'],
    patterns: [re('Failed to (?:list|watch) \\*?[\\w./]+: Unauthorized'), re('You must be logged in to the server \\(Unauthorized\\)')],
    source:
      'client-go tools/cache/reflector.go ("Failed to list %v: %v"), kubectl ("You must be logged in to the server"). Lines (GitHub): ' +
      'kubernetes/kubernetes#126635, kubernetes/kubernetes#127720',
    examples: ['Failed to list *v1.Pod: Unauthorized', 'error: You must be logged in to the server (Unauthorized)'],
  },
  {
    id: 'kube-api.token-missing',
    family: 'kube-api',
    mechanism: 'service-account-token-missing',
    needles: ['serviceaccount'],
    patterns: [
      re(
        'var/run/secrets/kubernetes\\.io/serviceaccount/(?:token|ca\\.crt|namespace)[^\\n]*(?:no such file or directory|No such file|not found|does not exist)',
      ),
      re('Error reading service account token from: \\[/var/run/secrets/kubernetes\\.io/serviceaccount/token\\]'),
    ],
    source:
      'client-go rest/config.go InClusterConfig (reads tokenFile); fabric8 Config; the ENOENT text (upstream.json). Lines (GitHub): virtual-kubelet/tensile-kube#82, ' +
      'owncloud/ocis-charts#274, ericchiang/k8s#74, fabric8io/kubernetes-client#944; near miss hightouchio/injecto#5',
    examples: [
      'Error: error building in cluster config: open /var/run/secrets/kubernetes.io/serviceaccount/token: no such file or directory',
      'var/run/secrets/kubernetes.io/serviceaccount/token: No such file or directory',
      'open /var/run/secrets/kubernetes.io/serviceaccount/namespace: no such file or directory',
      'io.fabric8.kubernetes.client.Config      : Error reading service account token from: [/var/run/secrets/kubernetes.io/serviceaccount/token].',
    ],
    nearMisses: ['remove /var/run/secrets/kubernetes.io/serviceaccount/..data: read-only file system'],
  },
]);
