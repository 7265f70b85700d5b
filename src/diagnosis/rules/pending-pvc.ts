// pending.pvc: Not scheduled: a PersistentVolumeClaim is not bound.

import { claimClass, claimNames, claimProvisioner, unboundClaims, volumePin } from '../claims.js';
import { clip, formatDuration } from '../facts.js';
import { defineRule } from '../rule.js';
import { otherReasons, rankSeverity, reasonsOf, schedulingFailure } from '../scheduling.js';
import type { Evidence, PersistentVolumeClaim } from '../types.js';

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
    doc: "FailedScheduling says `pod has unbound immediate PersistentVolumeClaims`, the VolumeBinding plugin fails (`binding volumes: provisioning failed for PVC`), or a node-level volume reason (no PV to bind, volume node affinity conflict). The finding names the claim, its storage class, provisioner and phase, and quotes the claim's own events: the provisioner's ProvisioningFailed error, a StorageClass that does not exist.",
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
    let why: string;
    if (missing.length) why = `claim ${missing.map((c) => c.name).join(', ')} does not exist in namespace ${pod.metadata?.namespace ?? ''}`;
    else if (story?.state === 'class-missing')
      why = `claim ${story.claim.name} asks for storage class ${sc ?? '?'}, which does not exist, so nothing will ever provision it${story.line ? ` ("${clip(story.line, 300)}")` : ''}`;
    else if (story?.state === 'provisioning-failed' || story?.state === 'binding-failed')
      why = `claim ${story.claim.name} is not bound: ${story.state === 'provisioning-failed' ? `the provisioner${prov ? ` ${prov}` : ''} of storage class ${sc ?? '?'} fails to create its volume` : 'no volume matches it'}: "${clip(story.line ?? '', 500)}"`;
    else if (unbound.length) {
      why = `claim ${unbound.map((c) => describeClaim(c.name, c.pvc)).join('; ')} is not bound: ${
        sc
          ? prov
            ? `the provisioner ${prov} of storage class ${sc} has not created a volume for it`
            : `no provisioner has taken it (no storage-provisioner annotation): storage class ${sc} may not exist or has no dynamic provisioner`
          : 'no PersistentVolume matches it and no storage class provisions one'
      }`;
    } else if (nodeLevel && pinned) {
      why =
        `its volume ${pinned.pv} (claim ${pinned.claim}) can only be used on nodes with ${pinned.terms}, ` +
        (pinned.nodes.length === 0
          ? 'and no node has that any more (the zone or host is gone)'
          : `that is ${pinned.nodes.join(', ')}, and ${pinned.nodes.length === 1 ? 'that node is' : 'those nodes are'} ruled out for the other reasons (${others.join(', ') || messageText}): the pod cannot move away from its volume, so those nodes need room (or the volume must move)`);
    } else if (nodeLevel)
      why = `its claims are bound, but the nodes cannot use their volumes (${messageText}): local or zonal volumes pin the pod to nodes that are ruled out`;
    else why = messageText;

    const advice = missing.length
      ? [`Create the claim ${missing[0]?.name} (or fix the claimName in the workload).`]
      : [
          `\`kubectl describe pvc ${culprit?.name ?? '<claim>'} -n ${pod.metadata?.namespace ?? ''}\`: its events (ProvisioningFailed, WaitForFirstConsumer) say why it is not bound.`,
          sc
            ? `Check that storage class ${sc} exists and its provisioner${prov ? ` (${prov})` : ''} is running and has credentials/quota.`
            : 'Create a matching PersistentVolume or set a storage class (or mark one as default).',
          nodeLevel
            ? "For zonal/local volumes, make sure a schedulable node exists in the volume's zone/host (volumeBindingMode: WaitForFirstConsumer avoids this for new claims)."
            : 'Fix the claim (size, access mode, selector) so it can bind.',
        ];
    // The volume decides where the pod can go: capacity elsewhere does not help.
    if (pinned && pinned.nodes.length > 0)
      advice.unshift(
        `Make room on ${pinned.nodes.join(', ')} (or add a node with ${pinned.terms}): adding capacity in other zones does not help a pod whose volume lives there.`,
      );
    else if (pinned) advice.unshift(`No node matches ${pinned.terms}: bring a node back there, or restore the data into a new volume where nodes exist.`);
    const causeKey = missing.length
      ? `pvc/${pod.metadata?.namespace ?? ''}/${missing[0]?.name ?? ''}`
      : sc && unbound.length
        ? `storageclass:${sc}`
        : `pvc/${pod.metadata?.namespace ?? ''}/${culprit?.name ?? '?'}`;
    return {
      // A volume that pins the pod is what blocks it, whatever else the message counts.
      severity: pinned ? 'error' : fit ? rankSeverity(snapshot, fit, 'volume') : 'error',
      title: `Pod cannot be scheduled: ${missing.length ? `claim ${missing[0]?.name} missing` : unbound.length ? `claim ${unbound[0]?.name} is ${unbound[0]?.pvc?.status?.phase ?? 'unbound'}` : 'its volumes cannot be used on any node'}`,
      cause: `The pod has been Pending for ${formatDuration(failure.seconds)}: ${why}.${others.length ? ` Other nodes were ruled out for: ${others.join(', ')}.` : ''}`,
      evidence,
      advice,
      prevent: [
        'Use storage classes with volumeBindingMode: WaitForFirstConsumer for zonal storage.',
        'Monitor the CSI provisioner and alert on claims Pending for more than a few minutes.',
      ],
      causeKey,
      params: { claims: names, ...(sc ? { storageClass: sc } : {}), ...(prov ? { provisioner: prov } : {}) },
    };
  },
});
