// volume.provisioner-missing: No provisioner serves the claim: the storage driver is not installed or not running.

import { unboundClaims } from '../claims.js';
import { clip, formatDuration, isDeleting, isFinished, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { FindingDraft } from '../types.js';

// A claim of a dynamic StorageClass waits for its provisioner: the PV controller says so once
// (ExternalProvisioning, "waiting for a volume to be created, either by external provisioner X or
// manually created by system administrator"; 1.30+: "Waiting for a volume to be created either by
// the external provisioner 'X' or manually by the system administrator. If volume creation is
// delayed, please verify that the provisioner is running and correctly registered."). A provisioner
// that works answers with Provisioning / ProvisioningSucceeded / ProvisioningFailed events of its
// own. None of those for minutes means nothing serves that provisioner name: the CSI driver's
// controller is not installed, not running, or registered under another name.

const messages = {
  title: 'Claim {{claim}} waits for provisioner {{provisioner}}, which never answers',
  waits:
    'The pod cannot start because claim {{claim}} (storage class {{storageClass}}) has waited {{waited}} for a volume: ' +
    'the controller hands it to {{provisioner}} ("{{line}}"), and no event from that provisioner follows, not even a failure.',
  nothingServes: 'Nothing serves {{provisioner}}: its CSI controller is not installed, not running, or registered under another name.',
  checkDriver:
    "Check that the driver's controller runs: `kubectl get csidriver {{provisioner}}` " +
    'and its controller pods (`kubectl get pods -A | grep -i {{driverName}}`); ' +
    'install it if missing (on EKS ≥ 1.23 the in-tree gp2 class needs the EBS CSI add-on).',
  otherClass:
    'Or point the claim at a StorageClass whose provisioner runs (`kubectl get storageclass`), ' +
    'then recreate the claim: `kubectl delete pvc -n {{namespace}} {{claim}}` and let the workload create it again.',
  prevent: 'Alert on claims Pending for more than a few minutes, and install storage drivers with the cluster add-ons so upgrades keep them.',
} as const;

type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'volume.provisioner-missing',
    title: 'No provisioner serves the claim: the storage driver is not installed or not running',
    category: 'volume',
    severity: 'error',
    needs: ['pod', 'events', 'claims'],
    priority: 60,
    supersedes: ['pending.pvc'],
    doc:
      "A claim of the pod stays Pending with only the controller's ExternalProvisioning event " +
      '("waiting for a volume to be created ... by external provisioner X") for minutes, ' +
      'and no event from the provisioner itself (Provisioning, ProvisioningFailed, ProvisioningSucceeded): nothing serves that provisioner. ' +
      "Install or fix the CSI driver's controller (e.g. the EBS CSI add-on after an EKS upgrade), or use a StorageClass whose provisioner runs.",
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isFinished(pod) || isDeleting(pod)) return null;
    const out: FindingDraft<Id>[] = [];
    for (const story of unboundClaims(snapshot).filter((s) => s.state === 'no-provisioner')) {
      const claim = story.claim.claim;
      const className = claim?.spec?.storageClassName ?? '';
      const provisioner = story.provisioner ?? (story.claim.storageClass as { provisioner?: string } | null | undefined)?.provisioner ?? 'its provisioner';
      const waited = secondsSince(snapshot, claim?.metadata?.creationTimestamp);
      const ns = pod.metadata?.namespace ?? '';
      out.push({
        title: msg('title', { claim: story.claim.name, provisioner }),
        cause: [
          msg('waits', {
            claim: story.claim.name,
            storageClass: className || 'default',
            waited: waited !== undefined ? formatDuration(waited) : 'long',
            provisioner,
            line: clip(story.line ?? '', 300),
          }),
          msg('nothingServes', { provisioner }),
        ],
        evidence: story.evidence,
        advice: [
          msg('checkDriver', { provisioner, driverName: provisioner.split('.')[0] ?? provisioner }),
          msg('otherClass', { namespace: ns, claim: story.claim.name }),
        ],
        prevent: [msg('prevent')],
        causeKey: `provisioner:${provisioner}`,
        params: { claim: story.claim.name, provisioner, ...(className ? { storageClass: className } : {}) },
      });
    }
    return out;
  },
});
