// container.mount-type-mismatch: A volume is mounted onto a path of the other type (file vs directory).

import { crashes, crashKey, crashTexts } from '../crashes.js';
import { clip, containerStatuses, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Pod } from '../types.js';

// runc bind-mounts each volume onto its mountPath; a file cannot be mounted onto a directory nor a
// directory onto a file:
//   runc: error mounting "/srv/customer/profile.json" to rootfs at "/customer/profile.json": mount
//     ... (via /proc/self/fd/6), flags: 0x5000: not a directory: unknown
//   docker adds: Are you trying to mount a directory onto a file (or vice-versa)? Check if the
//     specified host path exists and is the expected type
//   crun (CRI-O's default from 1.31; at create time, CreateContainerError `container create failed: ...`):
//     mount `/var/lib/kubelet/pods/.../volumes/kubernetes.io~configmap/config` to `etc/app/app.yaml`: Not a directory
//     (containers/crun src/libcrun/linux.c: the target relative to the rootfs)
// Usual cause: a hostPath (type "") whose source did not exist, so the kubelet created it as an
// empty directory, mounted onto a file of the image; or a ConfigMap key mounted without subPath.
const MISMATCH = new RegExp(
  [
    'error mounting "([^"]+)" to rootfs at "([^"]+)"[^"]*?(?:not a directory|is a directory)',
    String.raw`Are you trying to mount a directory onto a file \(or vice-versa\)`,
    'mount `[^`]+` to `[^`]+`: (?:Not a directory|Is a directory)',
  ].join('|'),
);

/** Source and target: runc `error mounting "src" to rootfs at "/tgt"`, crun `mount `src` to `tgt`` (tgt relative to the rootfs). */
function mountOf(text: string): { source?: string; target?: string } {
  const runc = /error mounting "([^"]+)" to rootfs at "([^"]+)"/.exec(text);
  if (runc) return { source: runc[1], target: runc[2] };
  const crun = /mount `([^`]+)` to `([^`]+)`: (?:Not a directory|Is a directory)/.exec(text);
  if (crun?.[2]) return { source: crun[1], target: crun[2].startsWith('/') ? crun[2] : `/${crun[2]}` };
  return {};
}

/** The pod volume whose source is `source` (a hostPath path, or the kubelet's volumes/<plugin>/<name> dir). */
function volumeOf(pod: Pod | undefined, source: string): { name: string; hostPath?: string; type?: string } | undefined {
  for (const v of pod?.spec?.volumes ?? []) {
    if (v.hostPath && (source === v.hostPath.path || source.startsWith(`${v.hostPath.path}/`)))
      return { name: v.name, hostPath: v.hostPath.path, ...(v.hostPath.type !== undefined ? { type: v.hostPath.type } : {}) };
    if (new RegExp(`/volumes/[^/]+/${v.name}(?:/|$)`).test(source)) return { name: v.name };
  }
  return undefined;
}

const messages = {
  title: '{{container}}: cannot mount {{source}} onto {{target}} (file vs directory)',
  cannotStart: 'The runtime cannot start container "{{container}}": "{{text}}".',
  typesDiffer: 'The source {{source}} and the target {{target}} are not of the same type: one is a file, the other a directory.',
  typesDifferVolume: 'The source {{source}} (volume {{volume}}) and the target {{target}} are not of the same type: one is a file, the other a directory.',
  typesDifferUnknown: 'A volume source and its mountPath are not of the same type.',
  hostPathTyped:
    'It is hostPath {{path}} (type {{type}}): if that path did not exist on {{node}}, ' +
    'the kubelet created it as an empty directory, which cannot be mounted onto a file.',
  hostPathUntyped:
    'It is hostPath {{path}} with no type: if that path did not exist on {{node}}, ' +
    'the kubelet created it as an empty directory, which cannot be mounted onto a file.',
  createFile:
    'Create {{path}} as a file on the node (or fix the path), ' +
    'and set hostPath type: File so the kubelet refuses a missing file instead of creating a directory.',
  useSubPath: 'Mount a single file with subPath (mountPath the file, subPath the key), or mount the volume on a directory.',
  checkTarget: 'Check the mountPath against the image: the target must be a file if the source is, a directory if it is one.',
  prevent: 'Set hostPath type (File, Directory) on every hostPath volume so a missing source fails clearly at mount time.',
} as const;

type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'container.mount-type-mismatch',
    title: 'A volume is mounted onto a path of the other type (file vs directory)',
    category: 'container',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 57,
    supersedes: ['crash.app-exit', 'container.start-error', 'container.create-error'],
    doc:
      'runc cannot bind-mount a volume: `error mounting "<source>" to rootfs at "<target>": ... not a directory` ' +
      '(docker: "Are you trying to mount a directory onto a file (or vice-versa)?"; crun under CRI-O: `mount `<source>` to `<target>`: Not a directory`). ' +
      'The source and the mountPath are not both files or both directories: ' +
      'typically a hostPath whose file did not exist on the node (so the kubelet created a directory) mounted onto a file of the image, ' +
      'or a ConfigMap mounted over a file without subPath.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft<Id>[] = [];
    const report = (name: string, text: string, evidence: Evidence[], key: string) => {
      const { source, target } = mountOf(text);
      const volume = source ? volumeOf(pod, source) : undefined;
      const hostPath = volume?.hostPath;
      const node = pod?.spec?.nodeName ?? 'the node';
      out.push({
        title: msg('title', { container: name, source: source ?? 'a volume', target: target ?? 'its mountPath' }),
        cause: [
          msg('cannotStart', { container: name, text: clip(text, 400) }),
          source && target
            ? volume
              ? msg('typesDifferVolume', { source, volume: volume.name, target })
              : msg('typesDiffer', { source, target })
            : msg('typesDifferUnknown'),
          hostPath !== undefined &&
            (volume?.type ? msg('hostPathTyped', { path: hostPath, type: volume.type, node }) : msg('hostPathUntyped', { path: hostPath, node })),
        ],
        evidence,
        advice: [hostPath !== undefined ? msg('createFile', { path: hostPath }) : msg('useSubPath'), msg('checkTarget')],
        prevent: [msg('prevent')],
        causeKey: key,
        params: { container: name, ...(source ? { source } : {}), ...(target ? { target } : {}), ...(volume ? { volume: volume.name } : {}) },
      });
    };
    for (const c of crashes(snapshot)) {
      const hit = crashTexts(snapshot, c).find((t) => MISMATCH.test(t.text));
      if (hit) report(c.name, hit.text, [hit.evidence], crashKey(pod, c, 'mount-type'));
    }
    for (const s of containerStatuses(pod)) {
      const w = s.status.state?.waiting;
      if (
        w?.message &&
        ['CreateContainerError', 'RunContainerError'].includes(w.reason ?? '') &&
        MISMATCH.test(w.message) &&
        !out.some((f) => f.params?.container === s.status.name)
      )
        report(
          s.status.name,
          w.message,
          [statusEvidence(s, 'state', `${w.reason}: ${w.message}`)],
          `workload/${pod?.metadata?.namespace ?? ''}/${s.status.name}:mount-type`,
        );
    }
    return out;
  },
});
