// security.profile-missing: A Localhost AppArmor or seccomp profile the pod needs is not on its node.

import { clip, containerStatuses, eventEvidence, newestFirst, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// A pod that asks for a Localhost AppArmor or seccomp profile needs that profile on the node it
// lands on; profiles are node files, not API objects, so a new node or pool often lacks them.
//   kubelet <= 1.29 (AppArmor admission): pod status reason AppArmor, message `Cannot enforce
//     AppArmor: profile "x" is not loaded`, container waiting `Blocked`
//   containerd: CreateContainerError `cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/x.json": open ...: no such file or directory`
//   containerd 1.30+ AppArmor field: `apparmor profile not found x` / CRI-O `... profile "x" ... not found`
//   CRI-O 1.27+: CreateContainerError `setup seccomp: unable to load local profile "/var/lib/kubelet/seccomp/x.json": open ...:
//     no such file or directory` (internal/config/seccomp/seccomp.go)

const MISSING = [
  { kind: 'AppArmor', re: /Cannot enforce AppArmor: profile "([^"]+)" is not loaded/ },
  { kind: 'seccomp', re: /cannot load seccomp profile "([^"]+)"/ },
  { kind: 'seccomp', re: /setup seccomp: unable to load local profile "([^"]+)"/ },
  { kind: 'seccomp', re: /(?:failed to (?:load|find)|unable to load) (?:local )?seccomp profile "?([^"\s:]+)"?/i },
  { kind: 'AppArmor', re: /apparmor profile (?:not found|"?([^"\s]+)"? not found)\s*"?([\w./-]+)?/i },
] as const;

function parse(text: string): { kind: string; profile: string } | undefined {
  for (const m of MISSING) {
    const hit = m.re.exec(text);
    if (hit) return { kind: m.kind, profile: hit[1] ?? hit[2] ?? '?' };
  }
  return undefined;
}

const messages = {
  title: '{{kind}} profile {{profile}} is not on node {{node}}',
  missing:
    'The pod asks for the Localhost {{kind}} profile {{profile}}, and {{node}} does not have it: "{{text}}". ' +
    'Profiles are files on each node, not cluster objects: a node added later, or a pool the profile was never installed on, cannot run the pod.',
  loadAppArmor:
    'Load the profile on {{node}} (`apparmor_parser -r /etc/apparmor.d/{{profile}}`), ' +
    'and on every node through a DaemonSet or the Security Profiles Operator.',
  placeSeccomp:
    'Put the profile at /var/lib/kubelet/seccomp/{{file}} on {{node}} ' + 'and every node the pod may use (a DaemonSet or the Security Profiles Operator).',
  nodeSelector: 'Or keep the pod on nodes that have it (a nodeSelector on a label those nodes carry).',
  prevent: 'Install node-local security profiles with the node image or a DaemonSet, so a new node has them before it takes pods.',
} as const;

type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'security.profile-missing',
    title: 'A Localhost AppArmor or seccomp profile the pod needs is not on its node',
    category: 'security',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 60,
    supersedes: ['container.create-error'],
    doc:
      'The pod asks for a Localhost AppArmor or seccomp profile that the node does not have: ' +
      '`Cannot enforce AppArmor: profile "x" is not loaded` (container Blocked), ' +
      '`cannot load seccomp profile "/var/lib/kubelet/seccomp/profiles/x.json": ... no such file or directory` (CreateContainerError). ' +
      'Profiles are files on each node: load them on every node the pod may use (a DaemonSet, the Security Profiles Operator) ' +
      'or keep the pod on nodes that have them.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || pod.metadata?.deletionTimestamp) return null;
    const node = pod.spec?.nodeName ?? 'the node';
    const out: FindingDraft<Id>[] = [];
    const seen = new Set<string>();
    const texts: { text: string; evidence: Evidence }[] = [];
    if (pod.status?.message)
      texts.push({ text: pod.status.message, evidence: { source: `pod.status (${pod.status.reason ?? ''})`, text: pod.status.message } });
    for (const s of containerStatuses(pod)) {
      const w = s.status.state?.waiting;
      if (w?.message) texts.push({ text: w.message, evidence: statusEvidence(s, 'state', `${w.reason}: ${w.message}`) });
    }
    for (const e of newestFirst(snapshot.events).filter((x) => x.type === 'Warning')) texts.push({ text: e.message ?? '', evidence: eventEvidence(e) });
    const blocked =
      containerStatuses(pod).some((s) => ['Blocked', 'CreateContainerError'].includes(s.status.state?.waiting?.reason ?? '')) ||
      pod.status?.reason === 'AppArmor';
    if (!blocked) return null;
    for (const t of texts) {
      const hit = parse(t.text);
      if (!hit || seen.has(hit.profile)) continue;
      seen.add(hit.profile);
      const evidence = texts.filter((x) => parse(x.text)?.profile === hit.profile).map((x) => x.evidence);
      out.push({
        title: msg('title', { kind: hit.kind, profile: hit.profile, node }),
        cause: msg('missing', { kind: hit.kind, profile: hit.profile, node, text: clip(t.text, 300) }),
        evidence: evidence.slice(0, 3),
        advice: [
          hit.kind === 'AppArmor'
            ? msg('loadAppArmor', { node, profile: hit.profile })
            : msg('placeSeccomp', { file: hit.profile.replace(/^.*\/seccomp\//, ''), node }),
          msg('nodeSelector'),
        ],
        prevent: [msg('prevent')],
        causeKey: `node/${node}:profile:${hit.profile}`,
        params: { kind: hit.kind, profile: hit.profile, node },
      });
    }
    return out;
  },
});
