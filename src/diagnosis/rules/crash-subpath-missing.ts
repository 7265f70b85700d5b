// crash.subpath-missing: subPath mount source missing.

import { type Crash, crashEvidence, crashes, crashTexts } from '../crashes.js';
import { eventCount, eventsOfContainer, statusEvidence, waitingWith } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Container, Evidence, FindingDraft, Said } from '../types.js';

// runc cannot bind the kubelet's prepared subPath into the rootfs because the source is gone:
// docker era `mounting \"/.../volume-subpaths/config/metricbeat/0\" to rootfs ... caused \"no
// such file or directory\"`, runc >= 1.1 `error mounting "/.../volume-subpaths/..." to rootfs
// at "...": ... no such file or directory`. CRI-O reports it at create time (CreateContainerError
// `container create failed: ...`), in runc's words or crun's: `cannot stat `/.../volume-subpaths/config/web/0`:
// No such file or directory` (crun 1.12+; `error stat'ing file `...`` before).
const SUBPATH_GONE = /volume-subpaths\/([^/\\"`\s]+)\/([^/\\"`\s]+)\/(\d+)[\s\S]*?no such file or directory/i;

/**
 * A missing subPath source stops the container before its process runs: the runtime reports a
 * start failure (StartError / ContainerCannotRun, exit 128, RunContainerError). When the last run
 * started and exited by itself, its subPath mounts worked, and an event with those words is older.
 */
function failedToStart(c: Crash): boolean {
  if (c.waiting?.reason === 'RunContainerError') return true;
  const t = c.term;
  return !t || t.exitCode === 128 || t.reason === 'StartError' || t.reason === 'ContainerCannotRun';
}

const messages = {
  title: 'Container {{container}} cannot start: subPath of volume {{volume}} is gone',
  sourceGone:
    'The runtime could not mount the kubelet\'s subPath copy of volume "{{volume}}" into container "{{container}}": ' +
    'the source under volume-subpaths/{{volume}}/{{container}}/{{index}} does not exist ("no such file or directory").',
  sourceGoneAt:
    'The runtime could not mount the kubelet\'s subPath copy of volume "{{volume}}" at {{mountPath}} into container "{{container}}": ' +
    'the source under volume-subpaths/{{volume}}/{{container}}/{{index}} does not exist ("no such file or directory").',
  stale:
    'The container had died without the kubelet noticing, so its prepared subPath mount is stale; ' +
    'restarting the container cannot fix it, recreating the pod does.',
  failed: 'The container has failed {{restarts}} {{times}}.',
  refused: 'The runtime has refused to create it {{tries}} {{times}}.',
  recreate: 'Delete the pod so its controller recreates it with fresh subPath mounts (playbook recreate-pod, needs approval).',
  saveManifest: 'If the pod has no controller, save its manifest first (kubectl get pod -o yaml) and create it again after the delete.',
  lookAtNode: "If it comes back, look at the node {{node}}: kubelet and runtime logs around the container's death.",
  preventWholeDir: 'Prefer mounting a whole ConfigMap/Secret directory over subPath (subPath files also never receive updates).',
  preventPatched: 'Keep kubelet and the container runtime patched; find out why the earlier container died unnoticed (runtime restarts, node pressure).',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'crash.subpath-missing',
    title: 'subPath mount source missing',
    category: 'crash',
    severity: 'error',
    needs: ['pod', 'events'],
    playbook: 'recreate-pod',
    priority: 52,
    // The container never ran its command; the kubelet's stale subPath state is the cause (CRI-O: of its create error too).
    supersedes: ['crash.app-exit', 'container.create-error'],
    doc:
      'The container cannot start because the kubelet-prepared subPath source under `volume-subpaths/` no longer exists ' +
      '("no such file or directory" while mounting into the rootfs; under CRI-O a CreateContainerError, crun\'s `cannot stat `...``): ' +
      'an earlier container died without the kubelet noticing (seed 003). ' +
      'Recreating the pod rebuilds the subPath mounts. Only a start failure counts: ' +
      'a container whose last run started and exited by itself had its subPath mounts, whatever an older event says.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft<Id>[] = [];
    const report = (name: string, spec: Container | undefined, m: RegExpExecArray, evidence: Evidence[], count: Said<Id> | false) => {
      const volume = m[1] ?? '?';
      const mountPath = (spec?.volumeMounts ?? []).find((v) => v.name === volume && v.subPath)?.mountPath;
      const gone = { volume, container: name, index: m[3] ?? '0' };
      out.push({
        title: msg('title', { container: name, volume }),
        cause: [mountPath ? msg('sourceGoneAt', { ...gone, mountPath }) : msg('sourceGone', gone), msg('stale'), count],
        evidence,
        advice: [msg('recreate'), msg('saveManifest'), msg('lookAtNode', { node: pod?.spec?.nodeName ?? '' })],
        prevent: [msg('preventWholeDir'), msg('preventPatched')],
        causeKey: `pod/${pod?.metadata?.namespace ?? ''}/${pod?.metadata?.name ?? ''}:subpath/${volume}`,
        params: {
          container: name,
          volume,
          ...(pod?.metadata?.namespace ? { namespace: pod.metadata.namespace } : {}),
          ...(pod?.metadata?.name ? { pod: pod.metadata.name } : {}),
          ...(pod?.spec?.nodeName ? { node: pod.spec.nodeName } : {}),
        },
      });
    };
    for (const c of crashes(snapshot)) {
      if (!failedToStart(c)) continue;
      const hit = crashTexts(snapshot, c)
        .map((t) => ({ ...t, m: SUBPATH_GONE.exec(t.text) }))
        .find((t) => t.m);
      if (!hit?.m) continue;
      const evidence = [hit.evidence, ...crashEvidence(snapshot, c).filter((e) => e.text !== hit.evidence.text)];
      report(c.name, c.spec, hit.m, evidence, msg('failed', { restarts: c.restarts, times: c.restarts === 1 ? 'time' : 'times' }));
    }
    // CRI-O mounts at create time: the container never existed, so no crash, only CreateContainerError.
    for (const s of waitingWith(pod, 'CreateContainerError')) {
      const m = SUBPATH_GONE.exec(s.message);
      if (!m || out.some((f) => f.params?.container === s.status.name)) continue;
      const tries = eventsOfContainer(snapshot, s, ['Failed']).reduce((n, e) => n + eventCount(e), 0);
      const count = tries > 1 && msg('refused', { tries, times: 'times' });
      report(s.status.name, s.spec, m, [statusEvidence(s, 'state', `${s.reason}: ${s.message}`)], count);
    }
    return out;
  },
});
