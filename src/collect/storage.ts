// The pod's claims, read the way an SRE follows a stuck volume: the claim and its own events
// (the provisioner's ProvisioningFailed says why it stays Pending), the StorageClass it names
// (which may not exist), the PersistentVolume it is bound to, and that volume's CSI attachment to
// the pod's node (the attacher's error lives in VolumeAttachment.status.attachError).
import { createHash } from 'node:crypto';
import { claimClass, claimNames } from '../diagnosis/claims.js';
import type { ClaimFact, Event, KubeObject, Pod } from '../diagnosis/types.js';
import { type Guard, sortEvents } from './guard.js';
import type { FactSource } from './source.js';

/** The name the attach/detach controller gives a CSI attachment (pkg/volume/csi: sha256 of handle, driver and node). */
export function volumeAttachmentName(volumeHandle: string, driver: string, nodeName: string): string {
  return `csi-${createHash('sha256').update(`${volumeHandle}${driver}${nodeName}`).digest('hex')}`;
}

interface CsiSource {
  driver?: string;
  volumeHandle?: string;
}

/**
 * Every claim of the pod. With `deep` (the pod is not Ready) also each claim's events, class,
 * volume and attachment; a Ready pod's claims are read only for the rules that ask for them.
 */
export async function collectClaims(source: FactSource, pod: Pod, guard: Guard, deep: boolean): Promise<ClaimFact[]> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const nodeName = pod.spec?.nodeName;
  return Promise.all(
    claimNames(pod).map(async (name): Promise<ClaimFact> => {
      const [claim, events] = await Promise.all([
        guard(`pvc ${name}`, () => source.getPvc(namespace, name), null),
        deep ? guard(`events of pvc ${name}`, () => source.listObjectEvents(namespace, 'PersistentVolumeClaim', name), [] as Event[]) : [],
      ]);
      const fact: ClaimFact = { name, claim, events: sortEvents(events) };
      if (!claim || !deep) return fact;
      const className = claimClass(claim);
      const volumeName = claim.spec?.volumeName;
      const [storageClass, volume] = await Promise.all([
        className ? guard(`storageclass ${className}`, () => source.getStorageClass(className), undefined as KubeObject | null | undefined) : undefined,
        volumeName
          ? guard(`persistentvolume ${volumeName}`, () => source.getPersistentVolume(volumeName), undefined as KubeObject | null | undefined)
          : undefined,
      ]);
      if (storageClass !== undefined) fact.storageClass = storageClass;
      if (volume !== undefined) fact.volume = volume;
      const csi = (volume?.spec as { csi?: CsiSource } | undefined)?.csi;
      if (nodeName && csi?.driver && csi.volumeHandle) {
        const attachment = volumeAttachmentName(csi.volumeHandle, csi.driver, nodeName);
        const va = await guard(
          `volumeattachment of ${volumeName} to ${nodeName}`,
          () => source.getVolumeAttachment(attachment),
          undefined as KubeObject | null | undefined,
        );
        if (va !== undefined) fact.attachment = va;
      }
      return fact;
    }),
  );
}
