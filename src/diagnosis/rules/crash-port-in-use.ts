// crash.port-in-use: The container cannot bind its port: it is already in use.

import { crashEvidence, crashes, crashKey, crashLogs, crashTexts, logEvidence } from '../crashes.js';
import { clip, podLabel } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft, Pod } from '../types.js';

// The crashed run could not bind its port: `bind() to 0.0.0.0:80 failed (98: Address already in
// use)` (nginx), `listen tcp :8080: bind: address already in use` (Go), `EADDRINUSE` (Node.js),
// `port 80 is already in use` (ingress-nginx). Who holds it depends on the network namespace:
// with hostNetwork or a hostPort it is the node's port (another hostNetwork pod, or a process on the
// host such as a leftover nginx or apache after a reboot); otherwise another container of the same
// pod listens on it (containers share the pod's network namespace).

const IN_USE = /address already in use|EADDRINUSE|port \d+ is already in use|Only one usage of each socket address|Address in use/i;

function portOf(line: string): number | undefined {
  const m =
    /port (\d+) is already in use/i.exec(line) ??
    /(?:bind\(\) to|listen tcp|listen|bind)\s*(?:\S*?):(\d+)\b/i.exec(line) ??
    /(?:0\.0\.0\.0|\[::\]|::|\*|127\.0\.0\.1|localhost):(\d+)/.exec(line);
  const n = Number(m?.[1]);
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : undefined;
}

/** Pods on the node that take `port` on the host: hostNetwork containers declaring it, or a hostPort. */
function hostHolders(pods: readonly Pod[], self: Pod, port: number): Pod[] {
  return pods.filter((p) => {
    if (p.metadata?.uid === self.metadata?.uid) return false;
    const containers = p.spec?.containers ?? [];
    return containers.some((c) => (c.ports ?? []).some((cp) => cp.hostPort === port || (p.spec?.hostNetwork && cp.containerPort === port)));
  });
}

const messages = {
  title: '{{kind}} {{container}} cannot bind port {{port}}: already in use',
  titleOnNode: '{{kind}} {{container}} cannot bind port {{port}}: already in use on {{node}}',
  crashedRun: 'The crashed run ends with "{{line}}".',
  hostHolder: "The port is the node's (the pod uses {{mode}}), and {{holders}} on {{node}} already takes it.",
  hostHolders: "The port is the node's (the pod uses {{mode}}), and {{holders}} on {{node}} already take it.",
  hostProcess:
    "The port is the node's (the pod uses {{mode}}), and no other pod on {{node}} declares it, so a process on the host holds it " +
    "(a web server started at boot, a leftover of an earlier install): `ss -ltnp 'sport = :{{port}}'` on the node names it.",
  sibling: "The port is the pod's own, and container {{containers}} of the same pod listens on it (containers share the pod's network).",
  siblings: "The port is the pod's own, and containers {{containers}} of the same pod listen on it (containers share the pod's network).",
  podProcess: "The port is the pod's own, and another process in the same pod holds it (a sidecar, or the app started twice).",
  keepsFailing: 'It restarted {{restarts}} {{times}}; it will keep failing until the port is free.',
  moveOne: 'Move one of them: change the port, or keep them off the same node (anti-affinity, or only one of the DaemonSets on a node).',
  stopHostProcess:
    "On {{node}}: `ss -ltnp 'sport = :{{port}}'` names the process; " + "stop and disable it (`systemctl disable --now <unit>`) or move the pod's port.",
  preferService: 'Prefer a Service (NodePort/LoadBalancer) over hostNetwork/hostPort where possible: then pods cannot collide on a node.',
  ownPorts: 'Give each container of the pod its own port (and check the app is not started twice by the entrypoint).',
  prevent: 'Reserve the host ports of hostNetwork workloads (document them per node pool) and keep host services off them.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'crash.port-in-use',
    title: 'The container cannot bind its port: it is already in use',
    category: 'crash',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'podsOnNode'],
    priority: 42,
    supersedes: ['crash.app-exit'],
    doc:
      "The crashed run's last words are `address already in use` / `EADDRINUSE` / `port N is already in use`. " +
      "With hostNetwork or a hostPort the port is the node's: the finding names the pods on the node that declare it " +
      '(another hostNetwork pod, an old DaemonSet) or says a host process holds it; otherwise another container of the same pod listens on it.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod) return null;
    const out: FindingDraft<Id>[] = [];
    for (const c of crashes(snapshot)) {
      const tail = crashLogs(snapshot, c);
      const texts = [...(tail?.lines ?? []), ...crashTexts(snapshot, c).map((t) => t.text)];
      const line = [...texts].reverse().find((l) => IN_USE.test(l));
      if (!line) continue;
      const port = portOf(line);
      const onHost =
        Boolean(pod.spec?.hostNetwork) || (c.spec?.ports ?? []).some((p) => p.hostPort !== undefined && (port === undefined || p.hostPort === port));
      const holders = port !== undefined && onHost ? hostHolders(snapshot.podsOnNode ?? [], pod, port) : [];
      const siblings =
        !onHost && port !== undefined
          ? (pod.spec?.containers ?? []).filter((x) => x.name !== c.name && (x.ports ?? []).some((p) => p.containerPort === port))
          : [];
      const node = pod.spec?.nodeName ?? 'the node';
      const evidence: Evidence[] = [
        ...(tail ? [logEvidence(tail, 4, 1)] : []),
        ...crashEvidence(snapshot, c),
        ...holders
          .slice(0, 3)
          .map((h) => ({ source: `pod ${podLabel(h)} on ${node}`, text: `${h.spec?.hostNetwork ? 'hostNetwork, ' : ''}declares port ${port}` })),
      ];
      const mode = pod.spec?.hostNetwork ? 'hostNetwork' : 'a hostPort';
      const who = onHost
        ? holders.length > 0
          ? msg(holders.length === 1 ? 'hostHolder' : 'hostHolders', { mode, holders: holders.map(podLabel).join(', '), node })
          : msg('hostProcess', { mode, node, port: port ?? '<port>' })
        : siblings.length > 0
          ? msg(siblings.length === 1 ? 'sibling' : 'siblings', { containers: siblings.map((x) => x.name).join(', ') })
          : msg('podProcess');
      const titleData = { kind: c.s.init ? 'Init container' : 'Container', container: c.name, port: port ?? '?' };
      out.push({
        title: onHost ? msg('titleOnNode', { ...titleData, node }) : msg('title', titleData),
        cause: [msg('crashedRun', { line: clip(line, 300) }), who, msg('keepsFailing', { restarts: c.restarts, times: c.restarts === 1 ? 'time' : 'times' })],
        evidence,
        advice: onHost
          ? [holders.length > 0 ? msg('moveOne') : msg('stopHostProcess', { node, port: port ?? '<port>' }), msg('preferService')]
          : [msg('ownPorts')],
        prevent: [msg('prevent')],
        causeKey: onHost ? `node/${node}:port-${port ?? '?'}` : crashKey(pod, c, `port-${port ?? '?'}`),
        params: { container: c.name, ...(port !== undefined ? { port } : {}), onHost, holders: holders.map(podLabel) },
      });
    }
    return out;
  },
});
