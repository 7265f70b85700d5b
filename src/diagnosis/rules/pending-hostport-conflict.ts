// pending.hostport-conflict: Not scheduled: the requested host port is taken.

import { formatDuration, isFinished, podLabel } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule, type RuleContext } from '../rule.js';
import { otherReasons, rankSeverity, reasonsOf, schedulingFailure } from '../scheduling.js';
import type { Evidence, FindingDraft, Pod, Said, Snapshot } from '../types.js';

const messages = {
  title: 'Pod cannot be placed: host port {{ports}} already in use',
  daemonSetEmpty:
    'DaemonSet {{daemonSet}} wants host port {{ports}} but schedules 0 pods (desired 0): on every node that port is already taken, ' +
    'so the DaemonSet controller creates no pod and no event says why.',
  portTaken: 'The pod has been Pending for {{duration}}: on {{count}} node(s) the host port it asks for ({{ports}}) is already bound by another pod.',
  portTakenHostNetwork:
    'The pod has been Pending for {{duration}}: on {{count}} node(s) the host port it asks for ({{ports}}, hostNetwork) is already bound by another pod.',
  othersRuledOut: 'Other nodes were ruled out for: {{others}}.',
  takenBy: 'Already taken by {{holders}}.',
  changePort:
    'Change the hostPort ({{ports}}) of one of the two workloads, ' + 'or drop hostPort/hostNetwork and expose it with a Service (NodePort/LoadBalancer).',
  removeDuplicate: 'If the holder is an old copy of the same exporter/agent, remove one of the two DaemonSets.',
  findHolder: 'Find the holder: pods with hostNetwork or hostPort on those nodes (`kubectl get pods -A -o wide --field-selector spec.nodeName=<node>`).',
  prevent: 'Keep a registry of host ports used by node agents (node-exporter 9100 ...) and review new hostNetwork/hostPort workloads against it.',
} as const;
type Id = keyof typeof messages;

interface PodSpecLike {
  hostNetwork?: boolean;
  containers?: { ports?: { containerPort: number; hostPort?: number; protocol?: string; hostIP?: string }[] }[];
  initContainers?: { restartPolicy?: string; ports?: { containerPort: number; hostPort?: number; protocol?: string; hostIP?: string }[] }[];
}

/** Host ports a pod spec takes, as `TCP/9100`. With hostNetwork every containerPort is a host port. */
export function hostPortsOf(spec: PodSpecLike | undefined): string[] {
  const containers = [...(spec?.containers ?? []), ...(spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
  const out = new Set<string>();
  for (const c of containers) {
    for (const p of c.ports ?? []) {
      const port = p.hostPort ?? (spec?.hostNetwork ? p.containerPort : undefined);
      if (port) out.add(`${p.protocol ?? 'TCP'}/${port}`);
    }
  }
  return [...out].sort();
}

interface Holder {
  pod: Pod;
  port: string;
}

function holdersOf(snapshot: Snapshot, wanted: string[], self: Pod | undefined): Holder[] {
  const seen = new Set<string>();
  const out: Holder[] = [];
  for (const p of [...(snapshot.hostPortPods ?? []), ...(snapshot.podsOnNode ?? [])]) {
    const id = p.metadata?.uid ?? podLabel(p);
    if (seen.has(id) || isFinished(p) || !p.spec?.nodeName) continue;
    seen.add(id);
    if (self && (p.metadata?.uid === self.metadata?.uid || podLabel(p) === podLabel(self))) continue;
    for (const port of hostPortsOf(p.spec as PodSpecLike)) if (wanted.includes(port)) out.push({ pod: p, port });
  }
  return out;
}

function ownerText(p: Pod): string {
  const o = p.metadata?.ownerReferences?.[0];
  return o ? ` (${o.kind} ${o.name})` : '';
}

function finding(ports: string[], holders: Holder[], head: (Said<Id> | false)[], evidence: Evidence[], severity: FindingDraft['severity']): FindingDraft<Id> {
  const nodes = [...new Set(holders.map((h) => h.pod.spec?.nodeName ?? '?'))].sort();
  for (const h of holders.slice(0, 6)) {
    evidence.push({
      source: `pod ${podLabel(h.pod)} on ${h.pod.spec?.nodeName ?? '?'}`,
      text: `holds host port ${h.port}${h.pod.spec?.hostNetwork ? ' (hostNetwork)' : ''}${ownerText(h.pod)}`,
    });
  }
  const holderList = [...new Set(holders.map((h) => `${podLabel(h.pod)}${ownerText(h.pod)} on ${h.pod.spec?.nodeName ?? '?'} (${h.port})`))];
  const draft: FindingDraft<Id> = {
    title: msg('title', { ports: ports.join(', ') }),
    cause: [...head, holders.length > 0 && msg('takenBy', { holders: holderList.slice(0, 5).join(', ') })],
    evidence,
    advice: [msg('changePort', { ports: ports.join(', ') }), holders.length ? msg('removeDuplicate') : msg('findHolder')],
    prevent: [msg('prevent')],
    causeKey: `hostport:${ports.join(',')}`,
    params: { ports, nodes, holders: [...new Set(holders.map((h) => podLabel(h.pod)))] },
  };
  if (severity) draft.severity = severity;
  return draft;
}

/**
 * Old DaemonSet controllers (≤1.11) ran the port predicate themselves: a conflict left the
 * DaemonSet at desired 0 with no pod and no event at all (003, node-exporter on 9100).
 */
function daemonSetWithoutPods(snapshot: Snapshot): FindingDraft<Id> | null {
  const ds = (snapshot.owners ?? []).find((o) => o.kind === 'DaemonSet');
  const status = ds?.object?.status as { desiredNumberScheduled?: number } | undefined;
  if (!ds || snapshot.pod || status?.desiredNumberScheduled !== 0) return null;
  const template = (ds.object?.spec as { template?: { spec?: PodSpecLike } } | undefined)?.template?.spec;
  const ports = hostPortsOf(template);
  const holders = holdersOf(snapshot, ports, undefined);
  if (ports.length === 0 || holders.length === 0) return null;
  return finding(
    ports,
    holders,
    [msg('daemonSetEmpty', { daemonSet: ds.name, ports: ports.join(', ') })],
    [{ source: `DaemonSet ${ds.name} status`, text: 'desiredNumberScheduled: 0' }],
    'error',
  );
}

export const rule = defineRule({
  meta: {
    id: 'pending.hostport-conflict',
    title: 'Not scheduled: the requested host port is taken',
    category: 'pending',
    severity: 'error',
    needs: ['pod', 'events', 'nodes', 'hostPortPods', 'owners'],
    priority: 55,
    doc:
      "FailedScheduling says `node(s) didn't have free ports for the requested pod ports` (≤1.8 `PodFitsHostPorts`), " +
      'or a DaemonSet shows desired 0 while another (hostNetwork) pod holds the same port. Names the port and the holder.',
    messages,
  },
  check(snapshot, ctx: RuleContext) {
    const failure = schedulingFailure(snapshot, ctx);
    if (!failure?.fit) return daemonSetWithoutPods(snapshot);
    const reasons = reasonsOf(failure.fit, 'hostport');
    if (reasons.length === 0) return null;
    const { pod, fit } = failure;
    const ports = hostPortsOf(pod.spec as PodSpecLike);
    const holders = holdersOf(snapshot, ports, pod);
    const nodeCount = reasons.reduce((n, r) => n + r.count, 0);
    const others = otherReasons(fit, 'hostport');
    return finding(
      ports.length ? ports : ['?'],
      holders,
      [
        msg(pod.spec?.hostNetwork ? 'portTakenHostNetwork' : 'portTaken', {
          duration: formatDuration(failure.seconds),
          count: nodeCount,
          ports: ports.join(', ') || 'see spec',
        }),
        others.length > 0 && msg('othersRuledOut', { others: others.join(', ') }),
      ],
      [...failure.evidence],
      rankSeverity(snapshot, fit, 'hostport'),
    );
  },
});
