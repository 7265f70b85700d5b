// security.read-only-rootfs: The app writes to a read-only root filesystem.

import { crashEvidence, crashes, crashKey, crashLogs, logEvidence } from '../crashes.js';
import { clip } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { FindingDraft } from '../types.js';

// securityContext.readOnlyRootFilesystem: true makes the container's root filesystem read-only;
// an app that writes to it (nginx's /var/cache/nginx, a pid file in /var/run, /tmp) fails at start:
//   nginx: [emerg] mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)
//   OSError: [Errno 30] Read-only file system: '/app/.cache'
// Every path the app writes needs a volume (an emptyDir) mounted there. A runtime that cannot mount
// into a damaged image ("to rootfs ... read-only file system") is image.corrupt-local, not this.

const EROFS = /Read-only file system|EROFS|\[Errno 30\]/i;

/** The path an EROFS line names: `mkdir() "/var/cache/nginx/client_temp"`, `: '/app/.cache'`, `open /tmp/x:`. */
function pathOf(line: string): string | undefined {
  return /"(\/[^"]+)"/.exec(line)?.[1] ?? /'(\/[^']+)'/.exec(line)?.[1] ?? /\s(\/[\w./-]+):/.exec(line)?.[1];
}

const messages = {
  title: '{{container}} {{name}} writes {{path}} on a read-only root filesystem',
  titleNoPath: '{{container}} {{name}} writes to its image on a read-only root filesystem',
  writeFails: 'The container runs with readOnlyRootFilesystem: true and its crashed run ends with "{{line}}".',
  pathInImage: '{{path}} is part of the image, not a volume, so the write fails and the app exits.',
  unknownPathInImage: 'The path is part of the image, not a volume, so the write fails and the app exits.',
  mountEmptyDir:
    'Mount an emptyDir at {{dir}} (volumes: [{name: cache, emptyDir: {}}], volumeMounts: [{name: cache, mountPath: {{mountPath}}}]); ' +
    'nginx also needs /var/run and /tmp.',
  keepReadOnly: 'Keep readOnlyRootFilesystem: it is a good default; give the app writable volumes instead of turning it off.',
  prevent: 'Start images with readOnlyRootFilesystem in CI to learn which paths they write.',
} as const;

type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'security.read-only-rootfs',
    title: 'The app writes to a read-only root filesystem',
    category: 'security',
    severity: 'error',
    needs: ['pod', 'events', 'logs'],
    priority: 44,
    supersedes: ['crash.app-exit'],
    doc:
      'The container sets securityContext.readOnlyRootFilesystem: true and its crashed run ends with `Read-only file system` (EROFS) ' +
      "on a path no volume covers: the app writes to its image's filesystem (caches, pid files, /tmp). Mount an emptyDir at each path it writes.",
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft<Id>[] = [];
    for (const c of crashes(snapshot)) {
      if (c.spec?.securityContext?.readOnlyRootFilesystem !== true) continue;
      const tail = crashLogs(snapshot, c);
      const lines = tail?.lines ?? [];
      const line = [...lines].reverse().find((l) => EROFS.test(l) && !/to rootfs/.test(l));
      if (!line || !tail) continue;
      const path = pathOf(line);
      const mounted = path ? (c.spec.volumeMounts ?? []).find((m) => path === m.mountPath || path.startsWith(`${m.mountPath}/`)) : undefined;
      // A write into a read-only volume mount is a different problem (the volume, not the rootfs).
      if (mounted) continue;
      const dir = path ? path.replace(/\/[^/]+$/, '') || path : undefined;
      const container = c.s.init ? 'Init container' : 'Container';
      out.push({
        title: path !== undefined ? msg('title', { container, name: c.name, path }) : msg('titleNoPath', { container, name: c.name }),
        cause: [msg('writeFails', { line: clip(line, 300) }), path ? msg('pathInImage', { path }) : msg('unknownPathInImage')],
        evidence: [
          logEvidence(tail, 4, 1),
          ...crashEvidence(snapshot, c),
          { source: `pod.spec.containers[${c.name}].securityContext`, text: 'readOnlyRootFilesystem: true' },
        ],
        advice: [msg('mountEmptyDir', { dir: dir ?? 'each path the app writes', mountPath: dir ?? '<path>' }), msg('keepReadOnly')],
        prevent: [msg('prevent')],
        causeKey: crashKey(pod, c, 'read-only-rootfs'),
        params: { container: c.name, ...(path ? { path } : {}) },
      });
    }
    return out;
  },
});
