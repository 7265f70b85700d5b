// namespace.terminating: Namespace stuck in Terminating.

import { clip, formatDuration, isFinished, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, MessageData } from '../types.js';

/**
 * Deleting a namespace's content normally takes seconds to a couple of minutes (the namespace
 * controller deletes kind by kind, then waits for finalizers). Longer than this is stuck.
 */
export const NAMESPACE_STUCK_SECONDS = 300;

/** Namespace conditions (1.16+) the namespace controller sets while deletion cannot finish. */
const BLOCKING_CONDITIONS = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
];

const messages = {
  stillDeletingTitle: 'Namespace {{name}} is still deleting its content ({{since}})',
  stillDeleting:
    'Namespace {{name}} was deleted {{since}} ago and content remains, but the namespace controller reports no finalizer holding it ' +
    'and no discovery or delete failure: it is waiting for those objects to go ' +
    '(pods within their termination grace period, or many objects to delete) and retries until they are gone.',
  stillDeletingRemaining:
    'Namespace {{name}} was deleted {{since}} ago and content remains ({{remaining}}), ' +
    'but the namespace controller reports no finalizer holding it and no discovery or delete failure: it is waiting for those objects to go ' +
    '(pods within their termination grace period, or many objects to delete) and retries until they are gone.',
  watchRemaining:
    'Watch what is left (`kubectl get pods -n {{name}}`); a pod that stays Terminating past its grace period has its own finding. ' +
    'Do not clear the namespace finalizers: that only orphans these objects.',
  stuckTitle: 'Namespace {{name}} stuck Terminating for {{since}}',
  cannotFinish: 'Namespace {{name}} was deleted {{since}} ago and cannot finish:',
  // The reasons of `cannotFinish`, one after another: {{end}} is `;` between them and `.` after the last.
  discoveryFailure: 'the namespace controller cannot list every API group ({{detail}}), so it cannot prove the namespace is empty{{end}}',
  finalizersRemaining: 'objects keep finalizers no controller removes ({{detail}}){{end}}',
  contentLeft: '{{objects}} still exists{{end}}',
  contentsLeft: '{{objects}} still exist{{end}}',
  namespaceFinalizers: 'finalizers {{finalizers}} on the namespace itself are waiting for their controller{{end}}',
  controllerUnfinished:
    'no content is reported, yet spec.finalizers ["kubernetes"] is still set: the namespace controller (kube-controller-manager) has not finished{{end}}',
  noNewPod: 'No new pod can be created in it, and its pods are being deleted.',
  fixApiService:
    'Fix or delete the unavailable APIService (`kubectl get apiservices | grep False`), e.g. a metrics-server that is gone; deletion then proceeds by itself.',
  listRemaining:
    'List what remains (`kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n {{name}}`) ' +
    'and fix or remove the finalizers of those objects whose controller is gone.',
  lastResort:
    'Last resort, after the list above is understood: clear the namespace finalizers (playbook clear-namespace-finalizers, two approvers). ' +
    'Objects still in etcd and external resources (load balancers, disks) are then orphaned.',
  preventOrder: 'Delete the workloads and custom resources (while their operators still run) before the namespace, and uninstall operators last.',
  preventApiServices: 'Remove APIServices of uninstalled add-ons (metrics-server, custom metrics) together with them.',
} as const;

type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'namespace.terminating',
    title: 'Namespace stuck in Terminating',
    category: 'namespace',
    severity: 'error',
    needs: ['namespace', 'namespaceContents'],
    playbook: 'clear-namespace-finalizers',
    priority: 60,
    doc:
      'A namespace stays Terminating while content remains (objects whose finalizers nobody removes) ' +
      'or the namespace controller cannot list every API group (an unavailable APIService). ' +
      'Lists what remains, the blocking conditions and `spec.finalizers`. ' +
      'When the controller reports content remaining but no finalizer, discovery or delete failure, ' +
      'it is still deleting (graceful pod deletions, many objects): that is info, with no playbook.',
    messages,
  },
  check(snapshot): FindingDraft<Id> | null {
    if (isFinished(snapshot.pod)) return null;
    const ns = snapshot.namespace;
    const name = ns?.metadata?.name;
    if (!ns || !name) return null;
    if (ns.status?.phase !== 'Terminating' && !ns.metadata?.deletionTimestamp) return null;
    const since = secondsSince(snapshot, ns.metadata?.deletionTimestamp);
    if (since === undefined || since <= NAMESPACE_STUCK_SECONDS) return null;

    const conditions = (ns.status?.conditions ?? []).filter((c) => BLOCKING_CONDITIONS.includes(c.type) && c.status === 'True');
    const contents = (snapshot.namespaceContents ?? []).filter((c) => c.names.length > 0);
    const specFinalizers = ns.spec?.finalizers ?? [];
    const metaFinalizers = ns.metadata?.finalizers ?? [];

    const evidence: Evidence[] = [
      { source: `namespace ${name} status.phase`, text: `${ns.status?.phase ?? 'Terminating'} since ${ns.metadata?.deletionTimestamp ?? '?'}` },
    ];
    for (const c of conditions)
      evidence.push({ source: `namespace ${name} status.conditions[${c.type}]`, text: clip(`${c.reason ?? ''}: ${c.message ?? ''}`) });
    if (contents.length) {
      evidence.push({
        source: `objects left in namespace ${name}`,
        text: contents.map((c) => `${c.kind}: ${c.names.slice(0, 10).join(', ')}${c.names.length > 10 ? ` (+${c.names.length - 10})` : ''}`).join('; '),
      });
    }
    if (specFinalizers.length) evidence.push({ source: `namespace ${name} spec.finalizers`, text: JSON.stringify(specFinalizers) });
    if (metaFinalizers.length) evidence.push({ source: `namespace ${name} metadata.finalizers`, text: JSON.stringify(metaFinalizers) });

    // The 1.16+ controller reports each condition (False when fine). Content remaining while no
    // finalizer, discovery or delete failure is reported is the controller at work: pods inside
    // their grace period, many objects still being deleted. Clearing the namespace finalizer then
    // only orphans them; a pod stuck on its node has its own terminating.* finding.
    const reported = (ns.status?.conditions ?? []).some((c) => BLOCKING_CONDITIONS.includes(c.type));
    const blocked = conditions.some((c) => c.type !== 'NamespaceContentRemaining');
    const remaining = conditions.find((c) => c.type === 'NamespaceContentRemaining');
    const onlyKubernetes = specFinalizers.every((f) => f === 'kubernetes') && metaFinalizers.length === 0;
    if (reported && !blocked && onlyKubernetes && (remaining || contents.length > 0)) {
      return {
        severity: 'info',
        title: msg('stillDeletingTitle', { name, since: formatDuration(since) }),
        cause: remaining?.message
          ? msg('stillDeletingRemaining', { name, since: formatDuration(since), remaining: clip(remaining.message, 200) })
          : msg('stillDeleting', { name, since: formatDuration(since) }),
        evidence,
        advice: [msg('watchRemaining', { name })],
        playbook: null,
        causeKey: `namespace/${name}`,
        params: { namespace: name, remaining: contents.map((c) => c.kind) },
      } satisfies FindingDraft<Id>;
    }

    const discovery = conditions.find((c) => c.type === 'NamespaceDeletionDiscoveryFailure' || c.type === 'NamespaceDeletionGroupVersionParsingFailure');
    const finalizersLeft = conditions.find((c) => c.type === 'NamespaceFinalizersRemaining');
    const customSpec = specFinalizers.filter((f) => f !== 'kubernetes');
    const reasons: { id: Id; data?: MessageData }[] = [];
    if (discovery) reasons.push({ id: 'discoveryFailure', data: { detail: clip(discovery.message ?? discovery.reason ?? '', 200) } });
    if (finalizersLeft) reasons.push({ id: 'finalizersRemaining', data: { detail: clip(finalizersLeft.message ?? '', 200) } });
    const leftCount = contents.reduce((n, c) => n + c.names.length, 0);
    if (contents.length)
      reasons.push({ id: leftCount === 1 ? 'contentLeft' : 'contentsLeft', data: { objects: contents.map((c) => `${c.names.length} ${c.kind}`).join(', ') } });
    if (customSpec.length || metaFinalizers.length)
      reasons.push({ id: 'namespaceFinalizers', data: { finalizers: [...customSpec, ...metaFinalizers].join(', ') } });
    if (reasons.length === 0) reasons.push({ id: 'controllerUnfinished' });

    const forPod = snapshot.target.kind === 'pod';
    return {
      // For a pod the namespace is context (why it was deleted / cannot be re-created), not its own fault.
      severity: forPod && snapshot.pod ? 'warning' : 'error',
      title: msg('stuckTitle', { name, since: formatDuration(since) }),
      cause: [
        msg('cannotFinish', { name, since: formatDuration(since) }),
        ...reasons.map((r, i) => msg(r.id, { ...r.data, end: i === reasons.length - 1 ? '.' : ';' })),
        forPod && msg('noNewPod'),
      ],
      evidence,
      advice: [discovery && msg('fixApiService'), (finalizersLeft !== undefined || contents.length > 0) && msg('listRemaining', { name }), msg('lastResort')],
      prevent: [msg('preventOrder'), msg('preventApiServices')],
      causeKey: `namespace/${name}`,
      params: {
        namespace: name,
        requiresTwoApprovals: true,
        finalizers: [...specFinalizers, ...metaFinalizers],
        remaining: contents.map((c) => c.kind),
      },
    };
  },
});
