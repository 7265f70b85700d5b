// pending.pvc: Not scheduled: a PersistentVolumeClaim is not bound.

import { claimClass, claimNames, claimProvisioner, unboundClaims, volumePin } from '../claims.js';
import { clip, formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { otherReasons, rankSeverity, reasonsOf, schedulingFailure } from '../scheduling.js';
import type { Evidence, PersistentVolumeClaim, Said } from '../types.js';

const messages = {
  titleMissing: 'Pod cannot be scheduled: claim {{claim}} missing',
  titlePhase: 'Pod cannot be scheduled: claim {{claim}} is {{phase}}',
  titleUnbound: 'Pod cannot be scheduled: claim {{claim}} is unbound',
  titleUnusable: 'Pod cannot be scheduled: its volumes cannot be used on any node',
  pendingFor: 'The pod has been Pending for {{duration}}:',
  claimMissing: 'claim {{claims}} does not exist in namespace {{namespace}}.',
  classMissing: 'claim {{claim}} asks for storage class {{class}}, which does not exist, so nothing will ever provision it.',
  classMissingSaying: 'claim {{claim}} asks for storage class {{class}}, which does not exist, so nothing will ever provision it ("{{line}}").',
  provisioningFails: 'claim {{claim}} is not bound: the provisioner of storage class {{class}} fails to create its volume: "{{line}}".',
  provisionerFails: 'claim {{claim}} is not bound: the provisioner {{provisioner}} of storage class {{class}} fails to create its volume: "{{line}}".',
  bindingFails: 'claim {{claim}} is not bound: no volume matches it: "{{line}}".',
  notProvisioned: 'claim {{claims}} is not bound: the provisioner {{provisioner}} of storage class {{class}} has not created a volume for it.',
  noProvisioner:
    'claim {{claims}} is not bound: no provisioner has taken it (no storage-provisioner annotation): ' +
    'storage class {{class}} may not exist or has no dynamic provisioner.',
  noVolumeNoClass: 'claim {{claims}} is not bound: no PersistentVolume matches it and no storage class provisions one.',
  pinnedNowhere: 'its volume {{pv}} (claim {{claim}}) can only be used on nodes with {{terms}}, and no node has that any more (the zone or host is gone).',
  pinnedNode:
    'its volume {{pv}} (claim {{claim}}) can only be used on nodes with {{terms}}, that is {{nodes}}, ' +
    'and that node is ruled out for the other reasons ({{reasons}}): ' +
    'the pod cannot move away from its volume, so those nodes need room (or the volume must move).',
  pinnedNodes:
    'its volume {{pv}} (claim {{claim}}) can only be used on nodes with {{terms}}, that is {{nodes}}, ' +
    'and those nodes are ruled out for the other reasons ({{reasons}}): ' +
    'the pod cannot move away from its volume, so those nodes need room (or the volume must move).',
  boundUnusable: 'its claims are bound, but the nodes cannot use their volumes ({{reasons}}): local or zonal volumes pin the pod to nodes that are ruled out.',
  schedulerSays: '{{message}}.',
  othersRuledOut: 'Other nodes were ruled out for: {{others}}.',
  createClaim: 'Create the claim {{claim}} (or fix the claimName in the workload).',
  describeClaim: '`kubectl describe pvc {{claim}} -n {{namespace}}`: its events (ProvisioningFailed, WaitForFirstConsumer) say why it is not bound.',
  checkClass: 'Check that storage class {{class}} exists and its provisioner is running and has credentials/quota.',
  checkClassProvisioner: 'Check that storage class {{class}} exists and its provisioner ({{provisioner}}) is running and has credentials/quota.',
  createVolume: 'Create a matching PersistentVolume or set a storage class (or mark one as default).',
  zonalNode:
    "For zonal/local volumes, make sure a schedulable node exists in the volume's zone/host " +
    '(volumeBindingMode: WaitForFirstConsumer avoids this for new claims).',
  fixClaim: 'Fix the claim (size, access mode, selector) so it can bind.',
  makeRoom: 'Make room on {{nodes}} (or add a node with {{terms}}): adding capacity in other zones does not help a pod whose volume lives there.',
  noNodeThere: 'No node matches {{terms}}: bring a node back there, or restore the data into a new volume where nodes exist.',
  waitForConsumer: 'Use storage classes with volumeBindingMode: WaitForFirstConsumer for zonal storage.',
  monitorProvisioner: 'Monitor the CSI provisioner and alert on claims Pending for more than a few minutes.',
} as const;
type Id = keyof typeof messages;

function describeClaim(name: string, pvc: PersistentVolumeClaim | null | undefined): string {
  if (pvc === null) return `${name} (does not exist)`;
  if (!pvc) return `${name} (not collected)`;
  const sc = claimClass(pvc);
  const parts = [
    `phase ${pvc.status?.phase ?? 'unknown'}`,
    sc === undefined ? 'no storageClassName (default class, if any)' : sc === '' ? 'storageClassName "" (static PVs only)' : `storageClass ${sc}`,
  ];
  const size = pvc.spec?.resources?.requests?.storage;
  if (size) parts.push(`requests ${size}`);
  if (pvc.spec?.accessModes?.length) parts.push(pvc.spec.accessModes.join('/'));
  const prov = claimProvisioner(pvc);
  if (prov) parts.push(`provisioner ${prov}`);
  if (pvc.spec?.volumeName) parts.push(`volume ${pvc.spec.volumeName}`);
  return `${name} (${parts.join(', ')})`;
}

// Non-FitError scheduler failures about volumes (SchedulerError): binding or provisioning timed out.
const PREBIND = /VolumeBinding|binding volumes|PersistentVolumeClaim|persistentvolumeclaim/;

export const rule = defineRule({
  meta: {
    id: 'pending.pvc',
    title: 'Not scheduled: a PersistentVolumeClaim is not bound',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'pvcs', 'claims', 'volumes', 'nodes'],
    priority: 55,
    doc:
      'FailedScheduling says `pod has unbound immediate PersistentVolumeClaims`, ' +
      'the VolumeBinding plugin fails (`binding volumes: provisioning failed for PVC`), ' +
      'or a node-level volume reason (no PV to bind, volume node affinity conflict). ' +
      'The finding names the claim, its storage class, provisioner and phase, ' +
      "and quotes the claim's own events: the provisioner's ProvisioningFailed error, a StorageClass that does not exist.",
    messages,
  },
  check(snapshot, ctx) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure) return null;
    const { pod, fit } = failure;
    const reasons = fit ? reasonsOf(fit, 'volume') : [];
    if (fit ? reasons.length === 0 : !PREBIND.test(failure.message)) return null;

    const names = claimNames(pod);
    const pvcs = snapshot.pvcs ?? {};
    const claims = names.map((name) => ({ name, pvc: pvcs[name] }));
    const missing = claims.filter((c) => c.pvc === null);
    const unbound = claims.filter((c) => c.pvc && c.pvc.status?.phase !== 'Bound');
    const culprit = missing[0] ?? unbound[0] ?? claims[0];

    const evidence: Evidence[] = [...failure.evidence];
    for (const c of claims) evidence.push({ source: `persistentvolumeclaim ${c.name}`, text: describeClaim(c.name, c.pvc) });

    const messageText = reasons.map((r) => r.text).join('; ') || clip(failure.message, 200);
    const nodeLevel = reasons.some((r) => !r.preFilter);
    const sc = culprit?.pvc ? claimClass(culprit.pvc) : undefined;
    const prov = culprit?.pvc ? claimProvisioner(culprit.pvc) : undefined;
    const others = fit ? otherReasons(fit, 'volume') : [];
    const pinned = volumePin(snapshot, claims);
    if (pinned)
      evidence.push({
        source: `persistentvolume ${pinned.pv} spec.nodeAffinity`,
        text: `${pinned.terms}; matching nodes: ${pinned.nodes.join(', ') || 'none'}`,
      });

    // The claim's own events say why it is not bound: the provisioner's error, a class that does not exist.
    const story = unboundClaims(snapshot)[0];
    if (story) evidence.unshift(...story.evidence);
    const namespace = pod.metadata?.namespace ?? '';
    const lost = missing[0];
    let why: Said<Id>;
    if (missing.length) why = msg('claimMissing', { claims: missing.map((c) => c.name).join(', '), namespace });
    else if (story?.state === 'class-missing')
      why = story.line
        ? msg('classMissingSaying', { claim: story.claim.name, class: sc ?? '?', line: clip(story.line, 300) })
        : msg('classMissing', { claim: story.claim.name, class: sc ?? '?' });
    else if (story?.state === 'provisioning-failed' || story?.state === 'binding-failed') {
      const line = clip(story.line ?? '', 500);
      why =
        story.state === 'binding-failed'
          ? msg('bindingFails', { claim: story.claim.name, line })
          : prov
            ? msg('provisionerFails', { claim: story.claim.name, provisioner: prov, class: sc ?? '?', line })
            : msg('provisioningFails', { claim: story.claim.name, class: sc ?? '?', line });
    } else if (unbound.length) {
      const described = unbound.map((c) => describeClaim(c.name, c.pvc)).join('; ');
      why = sc
        ? prov
          ? msg('notProvisioned', { claims: described, provisioner: prov, class: sc })
          : msg('noProvisioner', { claims: described, class: sc })
        : msg('noVolumeNoClass', { claims: described });
    } else if (nodeLevel && pinned) {
      const at = { pv: pinned.pv, claim: pinned.claim, terms: pinned.terms };
      why =
        pinned.nodes.length === 0
          ? msg('pinnedNowhere', at)
          : msg(pinned.nodes.length === 1 ? 'pinnedNode' : 'pinnedNodes', { ...at, nodes: pinned.nodes.join(', '), reasons: others.join(', ') || messageText });
    } else if (nodeLevel) why = msg('boundUnusable', { reasons: messageText });
    else why = msg('schedulerSays', { message: messageText });

    const advice: Said<Id>[] = lost
      ? [msg('createClaim', { claim: lost.name })]
      : [
          msg('describeClaim', { claim: culprit?.name ?? '<claim>', namespace }),
          sc ? (prov ? msg('checkClassProvisioner', { class: sc, provisioner: prov }) : msg('checkClass', { class: sc })) : msg('createVolume'),
          nodeLevel ? msg('zonalNode') : msg('fixClaim'),
        ];
    // The volume decides where the pod can go: capacity elsewhere does not help.
    if (pinned && pinned.nodes.length > 0) advice.unshift(msg('makeRoom', { nodes: pinned.nodes.join(', '), terms: pinned.terms }));
    else if (pinned) advice.unshift(msg('noNodeThere', { terms: pinned.terms }));
    const waiting = unbound[0];
    const causeKey = missing.length
      ? `pvc/${pod.metadata?.namespace ?? ''}/${missing[0]?.name ?? ''}`
      : sc && unbound.length
        ? `storageclass:${sc}`
        : `pvc/${pod.metadata?.namespace ?? ''}/${culprit?.name ?? '?'}`;
    return {
      // A volume that pins the pod is what blocks it, whatever else the message counts.
      severity: pinned ? 'error' : fit ? rankSeverity(snapshot, fit, 'volume') : 'error',
      title: lost
        ? msg('titleMissing', { claim: lost.name })
        : waiting
          ? waiting.pvc?.status?.phase != null
            ? msg('titlePhase', { claim: waiting.name, phase: waiting.pvc.status.phase })
            : msg('titleUnbound', { claim: waiting.name })
          : msg('titleUnusable'),
      cause: [msg('pendingFor', { duration: formatDuration(failure.seconds) }), why, others.length > 0 && msg('othersRuledOut', { others: others.join(', ') })],
      evidence,
      advice,
      prevent: [msg('waitForConsumer'), msg('monitorProvisioner')],
      causeKey,
      params: { claims: names, ...(sc ? { storageClass: sc } : {}), ...(prov ? { provisioner: prov } : {}) },
    };
  },
});
