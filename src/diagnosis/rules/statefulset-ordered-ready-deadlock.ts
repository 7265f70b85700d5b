// statefulset.ordered-ready-deadlock: A clustered StatefulSet never comes up: its pod waits for peers OrderedReady will not create.

import { escapeRe, logSource } from '../crashes.js';
import { eventEvidence, formatDuration, isDeleting, newestFirst, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Event, Evidence, FindingDraft, KubeObject, LogTail } from '../types.js';

// With podManagementPolicy OrderedReady (the default) the StatefulSet controller creates ordinal
// N+1 only once every lower ordinal is Running and Ready. A clustered server whose readiness (or
// startup) check needs a quorum or a leader can never be Ready alone, so ordinal 0 waits for
// peers the controller will not create: status.replicas stays below spec.replicas and the pod's
// log names the missing pods' hostnames, which do not resolve because those pods do not exist:
//   NATS    [ERR] Error trying to connect to route (attempt 3): lookup for host "nats-1.nats.nats.svc.cluster.local": ... no such host
//           [WRN] Healthcheck failed: "JetStream has not established contact with a meta leader"
//   etcd    pkg/netutil: failed resolving host etcd-2.etcd-headless.default.:2380 (lookup etcd-2...: no such host); retrying in 1s
//   ZooKeeper  Cannot open channel to 2 at election address zk-1.zk-hs.default.svc.cluster.local:3888 / java.net.UnknownHostException
//   Consul  agent: Coordinate update error: error="No cluster leader"
//   Elasticsearch  master not discovered yet, ... must discover master-eligible nodes [es-master-0, es-master-1, es-master-2] to bootstrap a cluster
//   Galera  failed to open gcomm backend connection: 110: failed to reach primary view
// The DNS errors are a consequence, not the cause: a pod that was never created has no record.

/** Not Ready this long is no longer a slow start. */
const NOT_READY_SECONDS = 300;

// The server waits for its cluster: a quorum, a leader, a bootstrap that needs the other members.
const WAITS_FOR_CLUSTER = new RegExp(
  [
    'meta[- ]?leader',
    'no (?:cluster |raft )?leader',
    'leader (?:is )?not (?:yet )?(?:elected|available|found|known)',
    String.raw`\bquorum\b`,
    'master not discovered',
    'master_?not_?discovered',
    'primary view',
    'waiting for (?:init|peers|quorum|other (?:members|nodes|peers|servers))',
    'is itself waiting for init',
    String.raw`expecting \d+ servers`,
    'not enough (?:members|peers|nodes|voters|servers)',
  ].join('|'),
  'i',
);

// A line that names a peer says it cannot reach it (not a config dump or a greeting).
const PEER_FAILURE = new RegExp(
  [
    'no such host|UnknownHost|Name or service not known|(?:could not|cannot|unable to|failed to|failed) ?resolv|NXDOMAIN',
    'connection refused|no route to host|timed? ?out|unreachable|cannot open channel|failed to (?:connect|dial|join|reach)',
    String.raw`\berror\b|\[ERR\]|will retry|retrying|waiting`,
  ].join('|'),
  'i',
);

interface Peers {
  /** Missing ordinals named, in order of first mention. */
  ordinals: number[];
  /** The newest line naming each missing ordinal, with its tail. */
  lines: { ordinal: number; line: string; tail: LogTail }[];
  /** Whether some line naming a peer also says it failed to reach it. */
  failing: boolean;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** The missing peers the pod's logs name: `<sts>-<n>.<service>…`, `<sts>-<n>.<other>.<namespace>…`, or a bare `<sts>-<n>` node name. */
function missingPeers(logs: readonly LogTail[], sts: string, service: string, namespace: string, missing: (n: number) => boolean): Peers {
  const host = [...(service ? [escapeRe(service)] : []), `[a-z][a-z0-9-]*\\.${escapeRe(namespace)}`];
  // Not preceded by a name character; a host form continues with the Service, a bare name ends there.
  const re = new RegExp(String.raw`(?<![\w.-])${escapeRe(sts)}-(\d+)(?:\.(?:${host.join('|')})(?![\w-])|(?![\w-]|\.\w))`, 'g');
  const out: Peers = { ordinals: [], lines: [], failing: false };
  for (const tail of logs) {
    for (const line of tail.lines) {
      let named = false;
      for (const m of line.matchAll(re)) {
        const n = Number(m[1]);
        if (!missing(n)) continue;
        named = true;
        if (!out.ordinals.includes(n)) out.ordinals.push(n);
        const seen = out.lines.find((l) => l.ordinal === n);
        if (seen) Object.assign(seen, { line, tail });
        else out.lines.push({ ordinal: n, line, tail });
      }
      if (named && PEER_FAILURE.test(line)) out.failing = true;
    }
  }
  return out;
}

/** The newest line that says the server waits for its cluster. */
function clusterWait(logs: readonly LogTail[]): { line: string; tail: LogTail } | undefined {
  let found: { line: string; tail: LogTail } | undefined;
  // Current runs after previous ones: the newest line of the newest run wins.
  for (const tail of [...logs].sort((a, b) => Number(b.previous) - Number(a.previous))) {
    for (const line of tail.lines) if (WAITS_FOR_CLUSTER.test(line)) found = { line, tail };
  }
  return found;
}

/** A long line quoted around what matters in it: a JSON log line keeps its message, not its preamble. */
function around(line: string, re: RegExp, max = 300): string {
  if (line.length <= max) return line;
  const from = Math.max(0, (re.exec(line)?.index ?? 0) - 60);
  const to = Math.min(line.length, from + max);
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
}

const messages = {
  title: 'StatefulSet {{sts}} cannot form its cluster: {{pod}} waits for {{peers}}, which OrderedReady creates only after {{pod}} is Ready',
  ordered:
    'StatefulSet {{sts}} wants {{desired}} replicas but has created {{created}} ({{ready}} ready). Its podManagementPolicy is {{policy}}: ' +
    'the controller creates ordinal N+1 only once every lower ordinal is Running and Ready.',
  waits: '{{pod}} (ordinal {{ordinal}}) has been not Ready for {{since}}, and its own log says it waits for its cluster: "{{line}}".',
  peers:
    'It tries to reach {{peers}}, pods that do not exist yet: "{{peerLine}}". ' +
    'A pod that was never created has no DNS record, so a `no such host` for it is a consequence of the wait, not a DNS fault.',
  peersNamed: 'The same line names {{peers}}, pods that do not exist yet.',
  peersOnly: 'Its own log shows it trying to reach {{peers}}, pods that do not exist yet: "{{peerLine}}".',
  deadlock:
    '{{pod}} becomes Ready only once its cluster has a quorum or a leader, and that needs the pods the controller creates only after {{pod}} is Ready: ' +
    'a deadlock that no restart of {{pod}} resolves.',
  parallel:
    'Set podManagementPolicy: Parallel on StatefulSet {{sts}}, so all {{desired}} pods start together and can form the cluster. The field is immutable: ' +
    '`kubectl delete statefulset {{sts}} -n {{namespace}} --cascade=orphan` (its pods and volumes stay), then apply the manifest with ' +
    '`podManagementPolicy: Parallel` (for a Helm chart, its podManagementPolicy value); the new StatefulSet adopts the pods.',
  localReadiness:
    'Or make the readiness and startup checks answer for this server alone (it is up and listening), not for the quorum or leader, ' +
    'so ordinal {{ordinal}} becomes Ready and the controller creates the next pod.',
  publishNotReady:
    'Let the peers find each other before they are Ready: set publishNotReadyAddresses: true on the headless Service {{service}}, ' +
    'or a peer that is starting has no DNS record either.',
  prevent:
    'Deploy clustered servers (quorum or leader election at start) with podManagementPolicy: Parallel from the first install, ' +
    'keep their readiness about the one server, and alert on StatefulSets whose ready replicas stay below spec.replicas.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'statefulset.ordered-ready-deadlock',
    title: 'A clustered StatefulSet never comes up: its pod waits for peers that OrderedReady will not create',
    category: 'statefulset',
    severity: 'error',
    needs: ['pod', 'events', 'owners', 'logs', 'services'],
    priority: 60,
    // The probe kills, the unready pod and the exits are what the deadlock looks like from the pod.
    supersedes: ['crash.probe-failing', 'readiness.failing', 'crash.app-exit'],
    doc:
      'A StatefulSet with podManagementPolicy OrderedReady (the default) has created fewer pods than spec.replicas, and its newest pod has been ' +
      'not Ready for more than 5 minutes while its own log names peers of higher ordinals that do not exist yet ' +
      '(`no such host` for `<sts>-1.<service>…`, a wait for a quorum, leader or master: NATS, etcd, Consul, ZooKeeper, Elasticsearch, Galera). ' +
      'The controller creates the next ordinal only once this one is Ready, and it is Ready only with a quorum: a deadlock. ' +
      'Use podManagementPolicy: Parallel (immutable: delete the StatefulSet with --cascade=orphan and recreate it) or a readiness check ' +
      'that does not need the quorum.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (pod?.status?.phase !== 'Running' || isDeleting(pod)) return null;
    const owner = (snapshot.owners ?? []).find((o) => o.kind === 'StatefulSet' && o.object);
    const sts = owner?.object;
    if (!owner || !sts) return null;
    const spec = (sts.spec ?? {}) as { podManagementPolicy?: string; replicas?: unknown; serviceName?: string; ordinals?: { start?: unknown } };
    const status = (sts.status ?? {}) as Record<string, unknown>;
    // Parallel creates every pod at once: no ordinal waits for another.
    if ((spec.podManagementPolicy ?? 'OrderedReady') !== 'OrderedReady') return null;
    const desired = num(spec.replicas) ?? 1;
    const created = num(status.replicas);
    if (created === undefined || desired < 2 || created >= desired) return null;

    const name = pod.metadata?.name ?? '';
    const ordinalText = new RegExp(`^${escapeRe(owner.name)}-(\\d+)$`).exec(name)?.[1];
    if (ordinalText === undefined) return null;
    const ordinal = Number(ordinalText);
    const start = num(spec.ordinals?.start) ?? 0;

    const ready = pod.status.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'False') return null;
    const since = secondsSince(snapshot, ready.lastTransitionTime ?? pod.metadata?.creationTimestamp);
    if (since === undefined || since < NOT_READY_SECONDS) return null;

    // Ordinals the controller has not created yet: from start + status.replicas up to the desired count.
    const missing = (n: number) => n !== ordinal && n >= start + created && n < start + desired;
    const namespace = pod.metadata?.namespace ?? '';
    const logs = (snapshot.logs ?? []).filter((l) => l.lines.length > 0);
    const peers = missingPeers(logs, owner.name, spec.serviceName ?? '', namespace, missing);
    if (peers.ordinals.length === 0) return null;
    const wait = clusterWait(logs);
    // Naming a missing peer is not enough: the pod fails to reach it, or says it waits for its cluster.
    if (!wait && !peers.failing) return null;

    const peerNames = peers.ordinals.map((n) => `${owner.name}-${n}`).join(', ');
    // The newest line naming a peer; another line than the wait line when there is one.
    const peerLines = peers.lines.filter((l) => l.line !== wait?.line);
    const newestPeer = peerLines[peerLines.length - 1];
    const peerRe = new RegExp(`${escapeRe(owner.name)}-\\d`);
    const readyCount = num(status.readyReplicas) ?? 0;
    const policy = spec.podManagementPolicy ? 'OrderedReady' : 'unset (OrderedReady, the default)';
    const serviceName = spec.serviceName ?? '';
    const service = (snapshot.services ?? []).find((s: KubeObject) => s.metadata?.name === serviceName);
    const publishes = (service?.spec as { publishNotReadyAddresses?: boolean } | undefined)?.publishNotReadyAddresses === true;

    const evidence: Evidence[] = [];
    if (wait) evidence.push({ source: logSource(wait.tail), text: wait.line });
    for (const p of peers.lines.slice(0, 3)) evidence.push({ source: logSource(p.tail), text: p.line });
    evidence.push({
      source: `StatefulSet ${owner.name}`,
      text:
        `podManagementPolicy: ${spec.podManagementPolicy ?? '(unset: OrderedReady)'}, spec.replicas: ${desired}, ` +
        `status.replicas: ${created}, readyReplicas: ${readyCount}`,
    });
    evidence.push({
      source: 'pod.status.conditions[Ready]',
      text: `False since ${ready.lastTransitionTime ?? '?'}${ready.message ? `: ${ready.message}` : ''}`,
    });
    const probe = newestFirst(snapshot.events).filter((e: Event) => /^(?:Readiness|Startup|Liveness) probe (?:failed|errored)/.test(e.message ?? ''));
    const killed = newestFirst(snapshot.events).filter((e: Event) => e.reason === 'Killing' && /failed (?:liveness|startup) probe/i.test(e.message ?? ''));
    for (const e of [probe[0], killed[0]]) if (e) evidence.push(eventEvidence(e));

    const data = { sts: owner.name, pod: name, peers: peerNames };
    const finding: FindingDraft<Id> = {
      title: msg('title', data),
      cause: [
        msg('ordered', { sts: owner.name, desired, created, ready: readyCount, policy }),
        wait
          ? msg('waits', { pod: name, ordinal, since: formatDuration(since), line: around(wait.line, WAITS_FOR_CLUSTER) })
          : msg('peersOnly', { peers: peerNames, peerLine: around(peers.lines[peers.lines.length - 1]!.line, peerRe) }),
        wait && newestPeer && msg('peers', { peers: peerNames, peerLine: around(newestPeer.line, peerRe) }),
        wait && !newestPeer && msg('peersNamed', { peers: peerNames }),
        msg('deadlock', { pod: name }),
      ],
      evidence,
      advice: [
        msg('parallel', { sts: owner.name, desired, namespace }),
        msg('localReadiness', { ordinal }),
        serviceName !== '' && !publishes && msg('publishNotReady', { service: serviceName }),
      ],
      prevent: [msg('prevent')],
      causeKey: `statefulset/${namespace}/${owner.name}:ordered-ready`,
      params: { statefulSet: owner.name, ordinal, desired, created, missing: peers.ordinals.map((n) => `${owner.name}-${n}`) },
    };
    return finding;
  },
});
