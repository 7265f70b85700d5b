// static-pod.stale: Static pod not recreated after its manifest changed: the kubelet missed the change.
import { createHash } from 'node:crypto';
import type { StaticPodManifest } from '../../probes/types.js';
import { probeResult } from '../agent-facts.js';
import { clip, formatDuration, ms, nodeNotReady, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Container, Evidence, FindingDraft, Pod, Prose, Snapshot } from '../types.js';

const MIRROR = 'kubernetes.io/config.mirror';
const SOURCE = 'kubernetes.io/config.source';
const HASH = 'kubernetes.io/config.hash';
const SEEN = 'kubernetes.io/config.seen';
/** The kubelet acts on a change at once (inotify) or within fileCheckFrequency (20s); past this it missed it. */
const SLACK_SECONDS = 60;

type ManifestPod = NonNullable<StaticPodManifest['pod']>;
type Parsed = StaticPodManifest & { pod: ManifestPod };

/**
 * The agent's `argvHash` (src/probes/host.ts): sha256 of `{"args":[…],"command":[…]}`, absent = [].
 * Comparing hashes is exact even where the agent redacted or left out the text.
 */
function argvHash(c: Container): string {
  return createHash('sha256')
    .update(JSON.stringify({ args: c.args ?? [], command: c.command ?? [] }))
    .digest('hex');
}

/** The agent's redaction of credentials in argv, so running args are quoted as the manifest's are. */
function redact(argv: readonly string[]): string[] {
  const secret = /token|password|secret/i;
  return argv.map((arg, i) => {
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0 && secret.test(arg.slice(0, eq))) return `${arg.slice(0, eq)}=[redacted]`;
    const prev = argv[i - 1];
    return prev?.startsWith('--') && !prev.includes('=') && secret.test(prev) && !arg.startsWith('--') ? '[redacted]' : arg;
  });
}

interface Diff {
  what: string;
  manifest: string;
  running: string;
}

function argvDiff(m: ManifestPod['containers'][number], c: Container): Diff {
  const what = `container ${m.name} command/args`;
  if (m.argvOmitted) return { what, manifest: `sha256 ${m.argvHash.slice(0, 12)} (too long to quote)`, running: `sha256 ${argvHash(c).slice(0, 12)}` };
  const want = [...(m.command ?? []), ...(m.args ?? [])];
  const have = redact([...(c.command ?? []), ...(c.args ?? [])]);
  const onlyWant = want.filter((a) => !have.includes(a));
  const onlyHave = have.filter((a) => !want.includes(a));
  if (onlyWant.length === 0 && onlyHave.length === 0)
    return { what, manifest: clip(want.join(' '), 300), running: 'the same arguments, ordered or split between command and args differently' };
  return {
    what,
    manifest: clip(onlyWant.join(' ') || '(nothing the running pod lacks)', 300),
    running: clip(onlyHave.join(' ') || '(nothing the manifest lacks)', 300),
  };
}

/** What the kubelet would change if it loaded this manifest: images, command lines, containers. */
function differences(m: ManifestPod, pod: Pod): Diff[] {
  const running = new Map([...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => [c.name, c]));
  const diffs: Diff[] = [];
  for (const mc of m.containers) {
    const c = running.get(mc.name);
    if (!c)
      diffs.push({
        what: `container ${mc.name}`,
        manifest: `${mc.init ? 'init container' : 'container'} with image ${mc.image ?? '(none)'}`,
        running: 'absent',
      });
    else {
      if ((mc.image ?? '') !== (c.image ?? ''))
        diffs.push({ what: `container ${mc.name} image`, manifest: mc.image ?? '(none)', running: c.image ?? '(none)' });
      if (mc.argvHash !== argvHash(c)) diffs.push(argvDiff(mc, c));
    }
  }
  if (!m.containersTruncated) {
    for (const [name, c] of running)
      if (!m.containers.some((mc) => mc.name === name)) diffs.push({ what: `container ${name}`, manifest: 'absent', running: `image ${c.image ?? '(none)'}` });
  }
  return diffs;
}

/** Newest first by mtime. */
const byMtime = (a: StaticPodManifest, b: StaticPodManifest) => (ms(b.mtime) ?? 0) - (ms(a.mtime) ?? 0);

const messages = {
  brokenOne: 'No manifest on {{node}} parses to static pod {{pod}}: {{files}} is broken',
  brokenMany: 'No manifest on {{node}} parses to static pod {{pod}}: {{files}} are broken',
  broken:
    'The mirror pod {{namespace}}/{{mirror}} runs, but no manifest in {{dir}} on {{node}} defines {{namespace}}/{{pod}}, ' +
    "and {{errors}} cannot be loaded. If that is {{pod}}'s manifest, the kubelet cannot load the edit either; restarting it will not help.",
  fixBroken:
    'Fix {{files}} on {{node}} (validate with `kubectl apply --dry-run=server -f <file>` or a YAML linter); ' +
    'the kubelet picks up the corrected file within seconds.',
  goneTitle: 'kubelet on {{node}} still runs static pod {{pod}}, whose manifest is gone from {{dir}}',
  gone:
    'No manifest in {{dir}} on {{node}} defines {{namespace}}/{{pod}} any more (the dir last changed {{age}} ago), ' +
    'but its mirror pod {{mirror}} still exists. ' +
    'The kubelet stops a static pod within seconds of its manifest leaving the dir; it missed the removal (seed 003).',
  shadowTitle: 'Two manifests on {{node}} define static pod {{pod}}: the kubelet runs {{kept}}, not {{ignored}}',
  shadow:
    '{{ignoredPath}} and {{keptPath}} both define {{namespace}}/{{pod}}. ' +
    'The kubelet loads every non-hidden file in {{dir}} and keeps one pod per name: the running pod matches {{kept}}, ' +
    'so the changes in {{ignored}} ({{changes}}) are not applied. Restarting the kubelet will not help.',
  moveShadow: 'Move {{kept}} (or whichever of the two should not run) out of {{dir}} on {{node}}; the kubelet then runs the remaining one within seconds.',
  notAppliedTitle: 'kubelet on {{node}} has not applied the changed static pod manifest {{file}}',
  differs: 'The manifest {{path}} on {{node}} was last modified {{age}} ago and differs from the running mirror pod {{mirror}}: {{changes}}.',
  carriesHash: 'The pod still carries kubernetes.io/config.hash {{hash}} from {{seen}}.',
  carriesHashUnseen: 'The pod still carries kubernetes.io/config.hash {{hash}} from an unknown time.',
  missedChange:
    'The kubelet watches {{dir}} with inotify (current versions also re-list it every 20s); ' +
    'it missed this change, so the old containers keep running (seed 003).',
  changedTitle: 'Static pod manifest {{file}} on {{node}} changed after the kubelet loaded {{pod}}',
  modifiedAfter:
    '{{path}} on {{node}} was modified at {{mtime}}, {{later}} after the kubelet first saw the running pod ({{seenField}} {{seen}}), ' +
    'but the pod was not recreated.',
  sameArgv:
    'Images and command lines match, so either the change is elsewhere in the spec (env, volumes, resources, probes) ' +
    'and the kubelet missed it (seed 003), or the file was rewritten with the same content, ' +
    'which the kubelet rightly ignores (kubernetes.io/config.hash is a hash of the content).',
  compareFirst:
    'Compare the running spec with the file first: `kubectl -n {{namespace}} get pod {{mirror}} -o yaml` against {{path}} on {{node}}; ' +
    'if they agree, nothing needs doing.',
  restartIfDiffer:
    'If they differ, restart the kubelet on {{node}} (`systemctl restart kubelet`): it re-reads {{dir}}. ' +
    'No fix is offered here: the times alone fit a missed change and a harmless rewrite alike.',
  offline:
    '{{node}} is NotReady, so its kubelet may have loaded the change but cannot update the mirror pod: ' +
    'check the kubelet and its connection to the API server before restarting it.',
  restartKubelet:
    'Restart the kubelet on {{node}} (playbook restart-kubelet, approval): it re-reads {{dir}} and recreates {{pod}}; containers of other pods keep running.',
  checkInotify:
    'Check inotify on {{node}}: `sysctl fs.inotify.max_user_watches fs.inotify.max_user_instances` against what is in use ' +
    '(`find /proc/*/fd -lname anon_inode:inotify 2>/dev/null | wc -l` instances); raise them in /etc/sysctl.d/ if they are exhausted.',
  writeInPlace:
    'Write manifests in place, or as a temp file renamed inside {{dir}} (what most editors do); ' +
    "copying one in with a tool that keeps the old mtime, or editing a symlink's target elsewhere, may raise no event the kubelet acts on.",
  symlink: '{{file}} is a symlink to {{target}}: edits there happen outside the watched dir.',
  hashChanges: "Afterwards the mirror pod's kubernetes.io/config.hash changes and its containers restart with the new spec.",
  preventAtomic: "Change static pods by writing the file atomically in the manifest dir, then check that the mirror pod's kubernetes.io/config.hash changed.",
  preventBackups: 'Keep backups and editor files out of the manifest dir: the kubelet loads every file in it whose name does not start with a dot.',
} as const;

type Id = keyof typeof messages;

/** What every case reads: the mirror pod, the manifests on its node, and the wording they share. */
function mirrorView(snapshot: Snapshot) {
  const pod = snapshot.pod;
  const ann = pod?.metadata?.annotations ?? {};
  if (!pod || ann[MIRROR] === undefined || ann[SOURCE] !== 'file' || pod.metadata?.deletionTimestamp) return null;
  // Current kubelets make the Node a mirror pod's owner; older ones set no owner at all.
  const owners = pod.metadata?.ownerReferences ?? [];
  if (owners.length > 0 && !owners.some((o) => o.kind === 'Node')) return null;
  const node = pod.spec?.nodeName;
  const podName = pod.metadata?.name ?? '';
  const suffix = `-${node?.toLowerCase()}`;
  if (!node || !podName.endsWith(suffix) || podName.length === suffix.length) return null;
  const name = podName.slice(0, -suffix.length);
  const namespace = pod.metadata?.namespace ?? 'default';

  // Without the node's manifests there is nothing to compare: the mirror pod is a faithful copy
  // of what the kubelet loaded, and config.hash cannot be recomputed from the API. An info finding
  // here would outrank real findings (ranking sorts by priority first) on every static pod
  // diagnosed while the agent is down; the agent gap is already listed with the diagnosis.
  if (snapshot.agent && snapshot.agent.node !== node) return null;
  const sp = probeResult(snapshot, 'host')?.staticPods;
  if (!sp || sp.error || !sp.kind) return null;

  const dir = sp.kind === 'dir' ? sp.path.replace(/\/+$/, '') : sp.path.slice(0, sp.path.lastIndexOf('/')) || '/';
  const pathOf = (m: StaticPodManifest) => (sp.kind === 'dir' ? `${dir}/${m.file}` : sp.path);
  const seen = ann[SEEN] ?? pod.metadata?.creationTimestamp;
  const offline = nodeNotReady(snapshot.node);
  const podEvidence: Evidence = {
    source: 'mirror pod annotations',
    text: `${HASH}=${ann[HASH] ?? '(none)'}, ${SEEN}=${ann[SEEN] ?? '(none)'}, created ${pod.metadata?.creationTimestamp ?? '?'}`,
  };
  const fileEvidence = (m: StaticPodManifest): Evidence => ({
    source: `node agent: static pod manifest on ${node}`,
    text:
      `${pathOf(m)} modified ${m.mtime ?? '?'} (${formatDuration(secondsSince(snapshot, m.mtime) ?? 0)} ago)` +
      `${m.linkTarget ? `, a symlink to ${m.linkTarget}` : ''}` +
      `${m.pod ? `, pod ${m.pod.namespace}/${m.pod.name}, spec sha256 ${m.pod.specHash.slice(0, 12)}` : ''}` +
      `${m.error ? `: ${m.error}` : ''}`,
  });
  // The kubelet gets a minute after the last change it could react to (a write, a rename, a chmod).
  const settled = (...times: (string | undefined)[]) => times.every((t) => t === undefined || (secondsSince(snapshot, t) ?? 0) >= SLACK_SECONDS);
  const base = { causeKey: `node/${node}:static-pod/${name}`, params: { node } };
  const restart = (m: StaticPodManifest | undefined): Prose<Id>[] => [
    msg('restartKubelet', { node, dir, pod: name }),
    msg('checkInotify', { node }),
    [msg('writeInPlace', { dir }), m?.linkTarget ? msg('symlink', { file: m.file, target: m.linkTarget }) : null],
    msg('hashChanges'),
  ];
  const prevent = [msg('preventAtomic'), msg('preventBackups')];
  const offlineNote = offline && msg('offline', { node });

  return {
    snapshot,
    pod,
    ann,
    node,
    name,
    namespace,
    podName,
    sp,
    dir,
    pathOf,
    seen,
    offline,
    podEvidence,
    fileEvidence,
    settled,
    base,
    restart,
    prevent,
    offlineNote,
  };
}

type MirrorView = NonNullable<ReturnType<typeof mirrorView>>;

const diffEvidence = (diffs: Diff[]): Evidence[] => diffs.slice(0, 6).map((d) => ({ source: d.what, text: `manifest: ${d.manifest} · running: ${d.running}` }));

/** No manifest defines the pod any more: a broken one (named), or none at all while the mirror pod runs. */
function manifestGone(v: MirrorView): FindingDraft<Id> | null {
  const { snapshot, node, name, namespace, podName, sp, dir, offline, podEvidence, fileEvidence, settled, base, restart, prevent, offlineNote } = v;
  // A partial or guessed listing cannot prove the manifest is gone.
  if (sp.truncated || sp.source === 'default' || sp.kind !== 'dir') return null;
  const broken = sp.manifests.filter((m) => m.error);
  if (broken.length > 0) {
    if (!settled(...broken.map((m) => m.mtime))) return null;
    return {
      ...base,
      severity: 'warning',
      title: msg(broken.length === 1 ? 'brokenOne' : 'brokenMany', { node, pod: name, files: broken.map((m) => m.file).join(', ') }),
      cause: msg('broken', {
        namespace,
        mirror: podName,
        dir,
        node,
        pod: name,
        errors: broken.map((m) => `${m.file} (${m.error})`).join('; '),
      }),
      evidence: [...broken.slice(0, 3).map(fileEvidence), podEvidence],
      advice: [msg('fixBroken', { files: broken.map((m) => `${dir}/${m.file}`).join(', '), node })],
      prevent,
      playbook: null,
    };
  }
  if (!settled(sp.mtime)) return null;
  return {
    ...base,
    severity: 'warning',
    title: msg('goneTitle', { node, pod: name, dir }),
    cause: [msg('gone', { dir, node, namespace, pod: name, age: formatDuration(secondsSince(snapshot, sp.mtime) ?? 0), mirror: podName }), offlineNote],
    evidence: [
      { source: `node agent: ${dir} on ${node}`, text: `${sp.manifests.map((m) => m.file).join(', ') || '(empty)'}; dir modified ${sp.mtime ?? '?'}` },
      podEvidence,
    ],
    advice: restart(undefined),
    prevent,
    ...(offline ? { playbook: null } : {}),
  };
}

/** Both files define the pod and the kubelet keeps one: the edit lost to an older copy. */
function shadowed(v: MirrorView, newest: { m: Parsed; diffs: Diff[] }, shadow: Parsed): FindingDraft<Id> | null {
  const { node, name, namespace, dir, pathOf, podEvidence, fileEvidence, settled, base, prevent } = v;
  if (!settled(newest.m.mtime, newest.m.ctime)) return null;
  return {
    ...base,
    title: msg('shadowTitle', { node, pod: name, kept: shadow.file, ignored: newest.m.file }),
    cause: msg('shadow', {
      ignoredPath: pathOf(newest.m),
      keptPath: pathOf(shadow),
      namespace,
      pod: name,
      dir,
      kept: shadow.file,
      ignored: newest.m.file,
      changes: newest.diffs.map((d) => d.what).join(', '),
    }),
    evidence: [fileEvidence(newest.m), fileEvidence(shadow), ...diffEvidence(newest.diffs), podEvidence],
    advice: [msg('moveShadow', { kept: shadow.file, dir, node })],
    prevent,
    playbook: null,
  };
}

/** The manifest says other images, command lines or containers than the running pod. */
function notApplied(v: MirrorView, newest: { m: Parsed; diffs: Diff[] }): FindingDraft<Id> | null {
  const { snapshot, ann, node, podName, dir, pathOf, seen, offline, podEvidence, fileEvidence, settled, base, restart, prevent, offlineNote } = v;
  const m = newest.m;
  if (!settled(m.mtime, m.ctime)) return null;
  const what = newest.diffs.map((d) => (d.what.endsWith('image') ? `${d.what} ${d.manifest} (running ${d.running})` : d.what)).join('; ');
  return {
    ...base,
    severity: offline ? 'warning' : 'error',
    title: msg('notAppliedTitle', { node, file: m.file }),
    cause: [
      msg('differs', { path: pathOf(m), node, age: formatDuration(secondsSince(snapshot, m.mtime) ?? 0), mirror: podName, changes: what }),
      seen !== undefined ? msg('carriesHash', { hash: ann[HASH] ?? '(none)', seen }) : msg('carriesHashUnseen', { hash: ann[HASH] ?? '(none)' }),
      msg('missedChange', { dir }),
      offlineNote,
    ],
    evidence: [fileEvidence(m), ...diffEvidence(newest.diffs), podEvidence],
    advice: restart(m),
    prevent,
    ...(offline ? { playbook: null } : {}),
  };
}

/** Same images and command lines: only the times can say the file changed after the kubelet loaded it. */
function changedLater(v: MirrorView, m: Parsed): FindingDraft<Id> | null {
  const { ann, node, name, namespace, podName, dir, pathOf, seen, podEvidence, fileEvidence, settled, base, prevent, offlineNote } = v;
  const later = ((ms(m.mtime) ?? 0) - (ms(seen) ?? Infinity)) / 1000;
  if (!(later > SLACK_SECONDS) || !settled(m.mtime, m.ctime)) return null;
  return {
    ...base,
    severity: 'warning',
    title: msg('changedTitle', { file: m.file, node, pod: name }),
    cause: [
      msg('modifiedAfter', {
        path: pathOf(m),
        node,
        mtime: String(m.mtime),
        later: formatDuration(later),
        seenField: ann[SEEN] ? SEEN : 'creationTimestamp',
        seen: String(seen),
      }),
      msg('sameArgv'),
      offlineNote,
    ],
    evidence: [fileEvidence(m), podEvidence],
    advice: [msg('compareFirst', { namespace, mirror: podName, path: pathOf(m), node }), msg('restartIfDiffer', { node, dir })],
    prevent,
    // Wrong advice is worse than generic advice: the evidence fits two classes, so no playbook.
    playbook: null,
  };
}

export const rule = defineRule({
  meta: {
    id: 'static-pod.stale',
    title: 'Static pod not recreated after its manifest changed: the kubelet missed the change',
    category: 'static-pod',
    severity: 'error',
    needs: ['pod', 'node', 'agent'],
    playbook: 'restart-kubelet',
    priority: 70,
    doc:
      'A mirror pod (annotation kubernetes.io/config.mirror, config.source file) no longer matches its manifest ' +
      "in the kubelet's --pod-manifest-path / staticPodPath, which the node agent reads: other images, command lines or containers (error), " +
      "the manifest modified over a minute after the pod's kubernetes.io/config.seen " +
      '(warning: the change may be elsewhere in the spec, or a rewrite with the same content), or the manifest gone while the pod runs. ' +
      'The kubelet watches the dir with inotify and missed the change (seed 003); restarting it reloads the dir. ' +
      'Two manifests defining the same pod, or one that does not parse, are named instead (a restart does not help there). ' +
      "Without the node's manifests nothing is reported: the API alone cannot tell " +
      "(the kubelet's config.hash is a Go hash that cannot be recomputed here).",
    messages,
  },
  check(snapshot) {
    const v = mirrorView(snapshot);
    if (!v) return null;
    const candidates = v.sp.manifests.filter((m): m is Parsed => m.pod?.name === v.name && m.pod.namespace === v.namespace).sort(byMtime);
    if (candidates.length === 0) return manifestGone(v);
    const compared = candidates.map((m) => ({ m, diffs: differences(m.pod, v.pod) }));
    const shadow = compared.find((c) => c.diffs.length === 0)?.m;
    const newest = compared.find((c) => c.diffs.length > 0);
    if (newest && shadow && (ms(newest.m.mtime) ?? 0) > (ms(shadow.mtime) ?? 0)) return shadowed(v, newest, shadow);
    if (newest && !shadow) return notApplied(v, newest);
    return shadow ? changedLater(v, shadow) : null;
  },
});
