// config.missing-reference: Referenced ConfigMap, Secret, key or PVC does not exist.

import { containerStatuses, eventEvidence, eventTime, formatDuration, newestFirst, secondsSince, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Pod, Snapshot } from '../types.js';

// No supersedes: a missing ConfigMap/Secret/PVC leaves the pod in CreateContainerConfigError
// or ContainerCreating, which no crash.* rule claims, so there is nothing to fold in. It must
// not supersede pending.pvc either: supersedes works per pod, and the same pod may also have an
// existing-but-unbound claim that pending.pvc reports correctly.

export type RefKind = 'configmap' | 'secret' | 'pvc';

interface Ref {
  kind: RefKind;
  name: string;
  key?: string;
  /** Where the pod uses it: `env DB_HOST of container api`, `volume config`. */
  via: string;
  container?: string;
}

interface Missing {
  kind: RefKind;
  name: string;
  key?: string;
  namespace: string;
  evidence: Evidence[];
  via: string[];
  container?: string;
  /** The kubelet or scheduler said so (not only our existence check). */
  reported: boolean;
}

const KIND_WORD: Record<RefKind, string> = { configmap: 'ConfigMap', secret: 'Secret', pvc: 'PersistentVolumeClaim' };

/** Non-optional references in the pod spec (env, envFrom, volumes, projected sources, claims). */
export function podReferences(pod: Pod): Ref[] {
  const refs: Ref[] = [];
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const c of containers) {
    for (const env of c.env ?? []) {
      const cm = env.valueFrom?.configMapKeyRef;
      if (cm?.name && !cm.optional)
        refs.push({ kind: 'configmap', name: cm.name, key: cm.key, via: `env ${env.name} of container ${c.name}`, container: c.name });
      const sec = env.valueFrom?.secretKeyRef;
      if (sec?.name && !sec.optional)
        refs.push({ kind: 'secret', name: sec.name, key: sec.key, via: `env ${env.name} of container ${c.name}`, container: c.name });
    }
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef?.name && !from.configMapRef.optional)
        refs.push({ kind: 'configmap', name: from.configMapRef.name, via: `envFrom of container ${c.name}`, container: c.name });
      if (from.secretRef?.name && !from.secretRef.optional)
        refs.push({ kind: 'secret', name: from.secretRef.name, via: `envFrom of container ${c.name}`, container: c.name });
    }
  }
  for (const v of pod.spec?.volumes ?? []) {
    if (v.configMap?.name && !v.configMap.optional) refs.push({ kind: 'configmap', name: v.configMap.name, via: `volume ${v.name}` });
    if (v.secret?.secretName && !v.secret.optional) refs.push({ kind: 'secret', name: v.secret.secretName, via: `volume ${v.name}` });
    if (v.persistentVolumeClaim?.claimName) refs.push({ kind: 'pvc', name: v.persistentVolumeClaim.claimName, via: `volume ${v.name}` });
    for (const src of v.projected?.sources ?? []) {
      if (src.configMap?.name && !src.configMap.optional) refs.push({ kind: 'configmap', name: src.configMap.name, via: `projected volume ${v.name}` });
      if (src.secret?.name && !src.secret.optional) refs.push({ kind: 'secret', name: src.secret.name, via: `projected volume ${v.name}` });
    }
  }
  return refs;
}

export interface ReportedMissing {
  kind: RefKind;
  name: string;
  key?: string;
  namespace?: string;
  volume?: string;
}

/**
 * What kubelet and scheduler messages say is missing: `configmap "x" not found` (watch-based
 * manager, >= 1.14), `configmaps "x" not found` (older GET-based), `secret(s) "x" not found`,
 * `couldn't find key K in ConfigMap ns/x` (very old: capitalised), `MountVolume.SetUp failed for
 * volume "v" : configmap "x" not found`, `persistentvolumeclaim "x" not found`.
 */
export function parseMissing(message: string): ReportedMissing | undefined {
  const key = /couldn't find key (\S+) in (ConfigMap|Secret) ([^/\s]+)\/(\S+)/i.exec(message);
  if (key?.[1] && key[2] && key[4]) {
    return { kind: key[2].toLowerCase() === 'configmap' ? 'configmap' : 'secret', name: key[4], key: key[1], ...(key[3] ? { namespace: key[3] } : {}) };
  }
  const volume = /MountVolume\.SetUp failed for volume "([^"]+)"/.exec(message)?.[1];
  const obj = /\b(configmaps?|secrets?|persistentvolumeclaims?) "([^"]+)" not found/i.exec(message);
  if (obj?.[1] && obj[2]) {
    const word = obj[1].toLowerCase();
    const kind: RefKind = word.startsWith('configmap') ? 'configmap' : word.startsWith('secret') ? 'secret' : 'pvc';
    return { kind, name: obj[2], ...(volume ? { volume } : {}) };
  }
  return undefined;
}

/** Recent enough to describe the present: kubelet repeats these every sync while it holds. */
const FRESH_SECONDS = 600;

function blocked(pod: Pod): boolean {
  if (pod.status?.phase === 'Pending') return true;
  return containerStatuses(pod).some((s) => {
    const r = s.status.state?.waiting?.reason;
    return r === 'CreateContainerConfigError' || r === 'ContainerCreating' || r === 'PodInitializing';
  });
}

function runningReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function existence(snapshot: Snapshot, kind: RefKind, name: string): boolean | undefined {
  if (kind === 'configmap') return snapshot.configMaps?.[name];
  if (kind === 'secret') return snapshot.secrets?.[name];
  if (!snapshot.pvcs || !(name in snapshot.pvcs)) return undefined;
  return snapshot.pvcs[name] !== null;
}

const messages = {
  titleMissing: 'Missing {{kind}} {{name}}',
  titleMissingFor: 'Missing {{kind}} {{name}} for container {{container}}',
  titleKey: 'Key {{key}} missing in {{kind}} {{name}}',
  titleKeyFor: 'Key {{key}} missing in {{kind}} {{name}} for container {{container}}',
  references: 'The pod references {{kind}} {{namespace}}/{{name}},',
  referencesUsed: 'The pod references {{kind}} {{namespace}}/{{name}} (used by {{uses}}),',
  referencesKey: 'The pod references key "{{key}}" of {{kind}} {{namespace}}/{{name}},',
  referencesKeyUsed: 'The pod references key "{{key}}" of {{kind}} {{namespace}}/{{name}} (used by {{uses}}),',
  doesNotExist: 'which does not exist.',
  doesNotExistChecked: 'which does not exist (checked against the namespace).',
  runsNow: 'The pod runs now (it started before the object went away), but the next restart or replacement will fail.',
  claimMissing: 'The pod cannot be scheduled or its volume mounted until the claim exists.',
  mountBlocked: 'The kubelet will not start the container (the volume cannot be mounted, the pod stays ContainerCreating) until it exists.',
  configBlocked: 'The kubelet will not start the container (CreateContainerConfigError) until it exists.',
  willRefuse: 'The kubelet will refuse to start the container once it gets there.',
  young: 'The pod is only {{age}} old; the object may still be on its way.',
  addKey: 'Add key "{{key}}" to {{kind}} {{namespace}}/{{name}}, or fix the key name in the pod template.',
  createConfigMap:
    'Create it: kubectl create configmap {{name}} -n {{namespace}} --from-file=... (or apply the manifest that defines it); ' +
    'or fix the name in the pod template if it is a typo.',
  createSecret: 'Create it: kubectl create secret generic {{name}} -n {{namespace}} --from-literal=...; or fix the name in the pod template if it is a typo.',
  createClaim: 'Create it: apply the PersistentVolumeClaim {{name}} in {{namespace}}; or fix the name in the pod template if it is a typo.',
  markOptional: 'If the workload can run without it, mark the reference optional: true.',
  retries: 'The kubelet retries on its own; the pod starts once the reference resolves (no restart needed).',
  shipTogether: 'Ship ConfigMaps, Secrets and claims in the same release as the workload (one Helm chart / kustomization) and check references in CI.',
} as const;

type Id = keyof typeof messages;

const CREATE: Record<RefKind, Id> = { configmap: 'createConfigMap', secret: 'createSecret', pvc: 'createClaim' };

export const rule = defineRule({
  meta: {
    id: 'config.missing-reference',
    title: 'Referenced ConfigMap, Secret, key or PVC does not exist',
    category: 'config',
    severity: 'error',
    needs: ['pod', 'events', 'configMaps', 'secrets', 'pvcs'],
    priority: 58,
    doc:
      'The pod uses a ConfigMap, Secret (or one of their keys) or PersistentVolumeClaim that does not exist: ' +
      'CreateContainerConfigError `configmap "x" not found` / `couldn\'t find key K in ConfigMap ns/x`, ' +
      'FailedMount `MountVolume.SetUp failed for volume "v" : secret "x" not found`, scheduler `persistentvolumeclaim "x" not found`. ' +
      'Cross-checked against the objects in the namespace, so it names the missing object even before the kubelet does (seed 003).',
    messages,
  },
  check(snapshot, ctx) {
    const pod = snapshot.pod;
    if (!pod?.spec) return null;
    const ns = pod.metadata?.namespace ?? '';
    const refs = podReferences(pod);
    const found = new Map<string, Missing>();
    const keyOf = (kind: RefKind, name: string, key?: string) => `${kind}/${name}${key ? `#${key}` : ''}`;
    const add = (m: Omit<Missing, 'evidence' | 'via' | 'reported'>, evidence: Evidence, reported: boolean) => {
      const k = keyOf(m.kind, m.name, m.key);
      const seen = found.get(k) ?? { ...m, evidence: [], via: [], reported: false };
      if (!seen.evidence.some((e) => e.text === evidence.text)) seen.evidence.push(evidence);
      seen.reported ||= reported;
      seen.container ??= m.container;
      found.set(k, seen);
    };

    // 1. What the kubelet says now: waiting messages.
    for (const s of containerStatuses(pod)) {
      const w = s.status.state?.waiting;
      if (w?.reason !== 'CreateContainerConfigError' || !w.message) continue;
      const m = parseMissing(w.message);
      if (!m) continue;
      // An object the existence map says is there now was created since: the next sync will pass.
      if (!m.key && existence(snapshot, m.kind, m.name) === true) continue;
      add(
        { kind: m.kind, name: m.name, ...(m.key ? { key: m.key } : {}), namespace: m.namespace ?? ns, container: s.status.name },
        statusEvidence(s, 'state', `CreateContainerConfigError: ${w.message}`),
        true,
      );
    }
    // 2. Recent events while the pod is still blocked (Failed, FailedMount, FailedScheduling).
    if (blocked(pod)) {
      for (const e of newestFirst(snapshot.events)) {
        if (!['Failed', 'FailedMount', 'FailedScheduling'].includes(e.reason ?? '')) continue;
        const age = secondsSince(snapshot, eventTime(e));
        if (age !== undefined && age > FRESH_SECONDS) continue;
        const m = parseMissing(e.message ?? '');
        if (!m) continue;
        if (!m.key && existence(snapshot, m.kind, m.name) === true) continue;
        add({ kind: m.kind, name: m.name, ...(m.key ? { key: m.key } : {}), namespace: m.namespace ?? ns }, eventEvidence(e), true);
      }
      const scheduled = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled' && c.status === 'False');
      const m = scheduled?.message ? parseMissing(scheduled.message) : undefined;
      if (m && existence(snapshot, m.kind, m.name) !== true)
        add({ kind: m.kind, name: m.name, namespace: ns }, { source: 'pod.status.conditions[PodScheduled]', text: scheduled?.message ?? '' }, true);
    }
    // 3. Our own existence check over the spec's references (maps present only when collected).
    for (const r of refs) {
      const exists = existence(snapshot, r.kind, r.name);
      if (exists !== false) continue;
      const source = r.kind === 'configmap' ? 'configMaps' : r.kind === 'secret' ? 'secrets' : 'pvcs';
      add(
        { kind: r.kind, name: r.name, namespace: ns, ...(r.container ? { container: r.container } : {}) },
        { source: `${KIND_WORD[r.kind]} ${ns}/${r.name} (${source} lookup)`, text: 'does not exist' },
        false,
      );
    }
    // Where the pod uses each missing object.
    for (const m of found.values()) {
      m.via = [...new Set(refs.filter((r) => r.kind === m.kind && r.name === m.name && (!m.key || r.key === m.key)).map((r) => r.via))];
    }
    if (found.size === 0) return null;

    const age = secondsSince(snapshot, pod.metadata?.creationTimestamp) ?? Number.POSITIVE_INFINITY;
    const healthy = runningReady(pod);
    const drafts: FindingDraft<Id>[] = [];
    for (const m of found.values()) {
      const kind = KIND_WORD[m.kind];
      const object = { kind, namespace: m.namespace, name: m.name };
      const uses = m.via.join(', ');
      // Running fine today, failing at the next start: worth knowing, not an outage. Created
      // seconds ago: the object may be applied right after the pod.
      const severity = healthy ? 'info' : age < ctx.pendingGraceSeconds ? 'info' : 'error';
      const effect = healthy
        ? msg('runsNow')
        : m.kind === 'pvc'
          ? msg('claimMissing')
          : m.reported
            ? msg(m.evidence.some((e) => /FailedMount|MountVolume/.test(e.source + e.text)) ? 'mountBlocked' : 'configBlocked')
            : msg('willRefuse');
      drafts.push({
        severity,
        title: m.key
          ? msg(m.container ? 'titleKeyFor' : 'titleKey', { key: m.key, kind, name: m.name, container: m.container ?? '' })
          : msg(m.container ? 'titleMissingFor' : 'titleMissing', { kind, name: m.name, container: m.container ?? '' }),
        cause: [
          m.key
            ? msg(uses ? 'referencesKeyUsed' : 'referencesKey', { ...object, key: m.key, uses })
            : msg(uses ? 'referencesUsed' : 'references', { ...object, uses }),
          msg(m.reported ? 'doesNotExist' : 'doesNotExistChecked'),
          effect,
          age < ctx.pendingGraceSeconds && msg('young', { age: formatDuration(age) }),
        ],
        evidence: m.evidence,
        advice: [
          m.key ? msg('addKey', { key: m.key, ...object }) : msg(CREATE[m.kind], { name: m.name, namespace: m.namespace }),
          m.kind !== 'pvc' && !m.key && msg('markOptional'),
          msg('retries'),
        ],
        prevent: [msg('shipTogether')],
        causeKey: `${m.kind}/${m.namespace}/${m.name}${m.key ? `:key/${m.key}` : ''}`,
        params: {
          kind: m.kind,
          name: m.name,
          namespace: m.namespace,
          ...(m.key ? { key: m.key } : {}),
          ...(m.container ? { container: m.container } : {}),
        },
      });
    }
    return drafts;
  },
});
