// image.corrupt-local: Image copy on the node is corrupt.

import { journalEvidence, journalMatches, nodeChecksMissing } from '../agent-facts.js';
import { crashes, crashTexts } from '../crashes.js';
import { clip, containerStatuses, eventEvidence, eventsWithReason, newestFirst, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { parseImageRef } from '../pull-errors.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Snapshot } from '../types.js';

// Node half: the agent's journal probe matches dockerd/containerd log lines against the
// catalogue signatures `image-checksum` ("file integrity checksum failed", the `docker save`
// symptom) and `image-inspect-readlink` (dockerd "Handler for GET .../images/<img>/json returned
// error: readlink ...: invalid argument"). The agent is read-only: it never runs `docker save`.
const NODE_SIGNATURES = ['image-checksum', 'image-inspect-readlink'];

// Seed 003: `Failed to inspect image "x": rpc error: code = Unknown desc = Error response from
// daemon: readlink /mnt/disk0/docker/data/overlay2: invalid argument`.
const INSPECT_CORRUPT = /readlink \S+: invalid argument|layer does not exist|failed to get image size|content digest \S+: not found|unexpected EOF/i;
// The runtime too slow to answer is node.runtime-unresponsive, not a corrupt image.
const INSPECT_SLOW = /DeadlineExceeded|deadline exceeded|context canceled/i;
// Seed 003 case one: the image's rootfs is mounted read-only because its files are damaged.
const ROOTFS_READ_ONLY = /to rootfs[\s\S]*?read-only file system/;

interface Sighting {
  container: string;
  image: string;
  evidence: Evidence[];
  strong: boolean;
}

function inspectImage(message: string): string | undefined {
  return /Failed to inspect image "([^"]+)"/.exec(message)?.[1];
}

function sightings(snapshot: Snapshot): Sighting[] {
  const pod = snapshot.pod;
  if (!pod) return [];
  const out: Sighting[] = [];
  const inspectEvents = newestFirst(eventsWithReason(snapshot, 'InspectFailed')).filter((e) => /Failed to inspect image/.test(e.message ?? ''));
  for (const s of containerStatuses(pod)) {
    const w = s.status.state?.waiting;
    if (w?.reason !== 'ImageInspectError') continue;
    const text = w.message ?? '';
    if (INSPECT_SLOW.test(text)) continue;
    const image = inspectImage(text) ?? s.status.image;
    const event = inspectEvents.find((e) => inspectImage(e.message ?? '') === image) ?? inspectEvents[0];
    const strong = INSPECT_CORRUPT.test(text) || INSPECT_CORRUPT.test(event?.message ?? '');
    out.push({
      container: s.status.name,
      image,
      strong,
      evidence: [statusEvidence(s, 'state', `ImageInspectError${text ? `: ${text}` : ''}`), ...(event ? [eventEvidence(event)] : [])],
    });
  }
  for (const c of crashes(snapshot)) {
    const hit = crashTexts(snapshot, c).find((t) => ROOTFS_READ_ONLY.test(t.text));
    if (!hit) continue;
    out.push({ container: c.name, image: c.spec?.image ?? c.s.status.image, strong: true, evidence: [hit.evidence] });
  }
  return out;
}

type NodeCheck = { state: 'confirmed'; detail: string; evidence: Evidence[] } | { state: 'missing'; detail: string } | { state: 'not-seen' };

function nodeCheck(snapshot: Snapshot, node: string, image: string): NodeCheck {
  const missing = nodeChecksMissing(snapshot, node, 'journal');
  if (missing) return { state: 'missing', detail: missing };
  // Node-wide lines count: a damaged image store is not tied to one pod. Prefer this image's.
  const hits = journalMatches(snapshot, NODE_SIGNATURES, { aboutPodOnly: false });
  const mine = hits.filter((m) => m.line.includes(image) || m.captures.image === image);
  const chosen = (mine.length > 0 ? mine : hits).slice(-2);
  if (chosen.length === 0) return { state: 'not-seen' };
  return { state: 'confirmed', detail: chosen.map((m) => clip(m.line, 300)).join(' / '), evidence: chosen.map((m) => journalEvidence(node, m)) };
}

const messages = {
  title: 'Local copy of image {{image}} on node {{node}} is corrupt',
  rootfsReadOnly:
    'The container runtime on node {{node}} cannot use its copy of {{image}} for container "{{container}}": ' +
    'the image filesystem comes up read-only when the runtime mounts volumes into the rootfs.',
  inspectFails: 'The container runtime on node {{node}} cannot use its copy of {{image}} for container "{{container}}": inspecting the image fails.',
  damaged: "The image's files on this node are damaged (often after an unclean reboot); the registry copy is usually fine, so a fresh pull repairs it.",
  // {{detail}}: why the node agent could not check (its own sentence).
  agentMissing: '{{detail}} It looks for image checksum/readlink errors in the runtime logs; the finding rests on the API alone.',
  logsConfirm: "The node's runtime logs confirm it: {{lines}}.",
  logsClean: 'On the node, the runtime logs on the node show no checksum or readlink errors (their absence does not prove the image intact).',
  repull: 'On {{node}}: remove the containers that use the image, remove the image, pull it again (playbook repull-image, needs approval).',
  confirmByHand:
    'Confirm by hand if needed: docker save {{image}} -o /dev/null ("file integrity checksum failed" proves it), ' +
    'or crictl rmi + crictl pull on containerd nodes.',
  checkFilesystem: "Check the node's filesystem (fsck on the next maintenance) and whether other images on {{node}} show the same error.",
  prevent: "Shut nodes down cleanly (drain, then stop the runtime), and keep the runtime's data directory on a journaled filesystem with healthy disks.",
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'image.corrupt-local',
    title: 'Image copy on the node is corrupt',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'agent'],
    playbook: 'repull-image',
    priority: 63,
    // A container that cannot mount its rootfs did not exit by itself.
    supersedes: ['crash.app-exit'],
    doc:
      'The image\'s files on this node are damaged: ImageInspectError / InspectFailed "readlink ... invalid argument", ' +
      'or containers crash with "read-only file system" while mounting into the rootfs; ' +
      'the node agent\'s runtime logs confirm it ("file integrity checksum failed", the `docker save` symptom). ' +
      'Remove the containers and the image on that node and pull it again (seed 003).',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const node = pod?.spec?.nodeName ?? '';
    const found = sightings(snapshot);
    if (found.length === 0) return null;
    const drafts = new Map<string, FindingDraft<Id>>();
    for (const s of found) {
      const seen = drafts.get(s.image);
      if (seen) {
        seen.evidence.push(...s.evidence.filter((e) => !seen.evidence.some((x) => x.text === e.text)));
        continue;
      }
      const check = nodeCheck(snapshot, node, s.image);
      // An ImageInspectError without the damaged-store signature is any inspect failure (a short name
      // CRI-O cannot resolve, a runtime error): offering to delete and re-pull the image would be a guess.
      if (!s.strong && check.state !== 'confirmed') continue;
      const nodeWords =
        check.state === 'missing'
          ? msg('agentMissing', { detail: check.detail })
          : check.state === 'confirmed'
            ? msg('logsConfirm', { lines: check.detail })
            : msg('logsClean');
      const where = { node, image: s.image, container: s.container };
      const evidence = [...s.evidence, ...(check.state === 'confirmed' ? check.evidence : [])];
      drafts.set(s.image, {
        severity: 'error',
        title: msg('title', { image: s.image, node }),
        cause: [msg(s.evidence[0]?.text.match(ROOTFS_READ_ONLY) ? 'rootfsReadOnly' : 'inspectFails', where), msg('damaged'), nodeWords],
        evidence,
        advice: [msg('repull', { node }), msg('confirmByHand', { image: s.image }), msg('checkFilesystem', { node })],
        prevent: [msg('prevent')],
        causeKey: `node/${node}:corrupt-local`,
        params: {
          node,
          image: s.image,
          container: s.container,
          ...(parseImageRef(s.image) ? { ref: parseImageRef(s.image)?.ref ?? s.image } : {}),
        },
      });
    }
    return [...drafts.values()];
  },
});
