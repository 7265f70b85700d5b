// security.read-only-rootfs: The app writes to a read-only root filesystem.

import { crashEvidence, crashes, crashKey, crashLogs, crashReading, logEvidence, mechanismRef } from '../crashes.js';
import { clip } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { FindingDraft } from '../types.js';

// securityContext.readOnlyRootFilesystem: true makes the container's root filesystem read-only;
// an app that writes to it (nginx's /var/cache/nginx, a pid file in /var/run, /tmp) fails at start:
//   nginx: [emerg] mkdir() "/var/cache/nginx/client_temp" failed (30: Read-only file system)
//   OSError: [Errno 30] Read-only file system: '/app/.cache'
//   java.io.IOException: Read-only file system   (then `at java.io.File.createTempFile`: /tmp)
// Every path the app writes needs a volume (an emptyDir) mounted there. The mechanism catalogue
// reads the line (fs-read-only) and decides the variant from the spec: this rule is its
// root-filesystem variant; a write into a read-only volume or /proc/sys is another variant, and a
// runtime that cannot mount into a damaged image ("to rootfs ... read-only file system") is
// image.corrupt-local, which the catalogue never reads as an app's write.

const messages = {
  title: '{{container}} {{name}} writes {{path}} on a read-only root filesystem',
  titleNoPath: '{{container}} {{name}} writes to its image on a read-only root filesystem',
  writeFails: 'The container runs with readOnlyRootFilesystem: true and its crashed run ends with "{{line}}".',
  pathInImage: '{{path}} is part of the image, not a volume, so the write fails and the app exits.',
  unknownPathInImage: 'The path is part of the image, not a volume, so the write fails and the app exits.',
  mountEmptyDir: 'Mount an emptyDir at {{dir}} (spec.volumes: [{name: cache, emptyDir: {}}], volumeMounts: [{name: cache, mountPath: {{mountPath}}}]).',
  nginxToo: 'nginx also writes /var/run (its pid file) and /tmp: mount emptyDirs there too.',
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
      const reading = crashReading(snapshot, c);
      if (reading?.mechanism !== 'fs-read-only' || reading.variant !== 'root-filesystem') continue;
      const tail = crashLogs(snapshot, c);
      const known = typeof reading.data.dir === 'string' && reading.data.path !== 'a path in the image';
      const path = known ? String(reading.data.path) : undefined;
      const dir = known ? String(reading.data.dir) : undefined;
      const container = c.s.init ? 'Init container' : 'Container';
      out.push({
        title: path !== undefined ? msg('title', { container, name: c.name, path }) : msg('titleNoPath', { container, name: c.name }),
        cause: [msg('writeFails', { line: clip(reading.line, 300) }), path ? msg('pathInImage', { path }) : msg('unknownPathInImage')],
        evidence: [...(tail ? [logEvidence(tail, 4, 1)] : []), ...reading.evidence, ...crashEvidence(snapshot, c)],
        advice: [
          msg('mountEmptyDir', { dir: dir ?? 'each path the app writes', mountPath: dir ?? '<path>' }),
          /nginx/i.test(reading.line) && msg('nginxToo'),
          msg('keepReadOnly'),
        ],
        prevent: [msg('prevent')],
        causeKey: crashKey(pod, c, 'read-only-rootfs'),
        params: { container: c.name, ...(path ? { path } : {}) },
        mechanism: mechanismRef(reading),
      });
    }
    return out;
  },
});
