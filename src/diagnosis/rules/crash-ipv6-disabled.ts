// crash.ipv6-disabled: App listens on IPv6 on a node without IPv6.

import { crashEvidence, crashes, crashLogs, crashTexts } from '../crashes.js';
import { clip } from '../facts.js';
import { msg } from '../messages.js';
import { parseImageRef } from '../pull-errors.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// socket(AF_INET6) fails with EAFNOSUPPORT (errno 97) when the kernel runs without IPv6
// (ipv6.disable=1): nginx `socket() [::]:8000 failed (97: Address family not supported by
// protocol)` (seed 003), Node.js `listen EAFNOSUPPORT: address family not supported :::8080`,
// Java `java.net.SocketException: Protocol family unavailable`.
const NO_IPV6 = /Address family not supported by protocol|EAFNOSUPPORT|Protocol family unavailable|address family not supported/i;
const LISTEN_V6 = /\[::\]:?(\d+)?|:::(\d+)|\[::1?\]/;

const messages = {
  title: 'Container {{container}} fails to listen on {{listen}}: node {{node}} has no IPv6',
  opensV6:
    '"{{container}}" exits at start-up because it opens an IPv6 socket ({{listen}}) and the kernel answers ' +
    '"Address family not supported by protocol" (EAFNOSUPPORT, errno 97):',
  disabled: 'IPv6 is disabled on node {{node}} (kernel boot option ipv6.disable=1).',
  disabledNodeV4: 'IPv6 is disabled on node {{node}} (kernel boot option ipv6.disable=1); the node reports no IPv6 address.',
  disabledPodV4: 'IPv6 is disabled on node {{node}} (kernel boot option ipv6.disable=1) and the pod has only IPv4 addresses.',
  disabledBothV4:
    'IPv6 is disabled on node {{node}} (kernel boot option ipv6.disable=1); ' + 'the node reports no IPv6 address and the pod has only IPv4 addresses.',
  restarted: 'It has restarted {{restarts}} {{times}}.',
  dropListen:
    'Remove the IPv6 listen from the app\'s config (nginx: drop or comment out "listen [::]:80 default_server;" in /etc/nginx/conf.d/default.conf), ' +
    'or make it conditional.',
  enableV6: 'Or enable IPv6 on the node (remove ipv6.disable=1 from the kernel command line and reboot), if the cluster is meant to support it.',
  preventV4Configs:
    'Ship app configs that listen on IPv4 only unless the cluster is dual-stack ' +
    '(the official nginx image adds its IPv6 listen only when the kernel has IPv6; a baked-in default.conf with "listen [::]" does not check).',
  preventUniform: 'Keep node images uniform: a few nodes without IPv6 make the same pod crash only where it lands.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'crash.ipv6-disabled',
    title: 'App listens on IPv6 on a node without IPv6',
    category: 'crash',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'node'],
    priority: 49,
    // The app exits because of the node/app combination, not because of its own logic.
    supersedes: ['crash.app-exit'],
    doc:
      'The container exits because it listens on `[::]` but the node kernel has IPv6 disabled ' +
      '("Address family not supported by protocol", seed 003 nginx). Drop the `[::]` listen or enable IPv6 on the node.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft<Id>[] = [];
    for (const c of crashes(snapshot)) {
      const tail = crashLogs(snapshot, c);
      const sources: { evidence: Evidence; text: string }[] = [
        ...(tail
          ? tail.lines.map((l) => ({ text: l, evidence: { source: `logs ${tail.container}${tail.previous ? ' (previous)' : ''}`, text: clip(l, 400) } }))
          : []),
        ...crashTexts(snapshot, c),
      ];
      const hit = sources.find((s) => NO_IPV6.test(s.text) && (LISTEN_V6.test(s.text) || /socket\(\)|listen|bind/i.test(s.text)));
      if (!hit) continue;
      const v6 = LISTEN_V6.exec(hit.text);
      const listen = v6 ? (v6[1] || v6[2] ? `[::]:${v6[1] ?? v6[2]}` : v6[0]) : '[::]';
      const node = pod?.spec?.nodeName;
      const nodeV6 = (snapshot.node?.status?.addresses ?? []).some((a) => a.address.includes(':'));
      const podV6 = (pod?.status?.podIPs ?? []).some((p) => p.ip?.includes(':'));
      const image = c.spec?.image ?? c.s.status.image;
      const nodeEvidence: Evidence[] = snapshot.node
        ? [
            {
              source: `node ${node ?? ''} status.addresses`,
              text: (snapshot.node.status?.addresses ?? []).map((a) => `${a.type}=${a.address}`).join(', ') || '(none)',
            },
          ]
        : [];
      const disabled = nodeV6 ? (podV6 ? 'disabled' : 'disabledPodV4') : podV6 ? 'disabledNodeV4' : 'disabledBothV4';
      out.push({
        title: msg('title', { container: c.name, listen, node: node ?? '' }),
        cause: [
          msg('opensV6', { container: c.name, listen }),
          msg(disabled, { node: node ?? '?' }),
          msg('restarted', { restarts: c.restarts, times: c.restarts === 1 ? 'time' : 'times' }),
        ],
        evidence: [hit.evidence, ...crashEvidence(snapshot, c), ...nodeEvidence],
        advice: [msg('dropListen'), msg('enableV6')],
        prevent: [msg('preventV4Configs'), msg('preventUniform')],
        causeKey: `image/${parseImageRef(image)?.ref ?? image}:ipv6-listen`,
        params: { container: c.name, image, listen, ...(node ? { node } : {}) },
      });
    }
    return out;
  },
});
