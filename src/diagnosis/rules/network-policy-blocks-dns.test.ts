import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ago, crashedPod, event, logTail, NOW, namespaceObject, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { KubeSource } from '../../collect/kube-source.js';
import { ObjectsSource } from '../../collect/objects-source.js';
import { parseTarget } from '../../kube/target.js';
import { startSim } from '../../sim/server.js';
import { diagnoseTarget } from '../../usecases/diagnose.js';
import { diagnose } from '../engine.js';
import type { ComponentFact, KubeObject, Pod, Snapshot } from '../types.js';
import { RULES } from './index.js';
import { rule } from './network-policy-blocks-dns.js';

const GO_TIMEOUT =
  'failed to connect to `host=postgres.shop.svc.cluster.local user=shop database=shop`: hostname resolving error ' +
  '(lookup postgres.shop.svc.cluster.local on 10.96.0.10:53: read udp 10.244.1.12:41251->10.96.0.10:53: i/o timeout)';
const NODE_TIMEOUT = 'Error: getaddrinfo EAI_AGAIN redis.shop.svc.cluster.local';
const PYTHON_TIMEOUT = 'socket.gaierror: [Errno -3] Temporary failure in name resolution';
const JAVA_TIMEOUT = 'java.net.UnknownHostException: kafka.shop.svc.cluster.local: Temporary failure in name resolution';
const NXDOMAIN = 'dial tcp: lookup postgres.shop.svc.cluster.local on 10.96.0.10:53: no such host';

const app = crashedPod({ exitCode: 1, restarts: 13 });

function coredns(name: string, ready = true, ip = '10.244.0.5'): Pod {
  return pod({
    metadata: { name, namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '5d78c9869d' } },
    spec: {
      containers: [
        {
          name: 'coredns',
          image: 'registry.k8s.io/coredns/coredns:v1.11.1',
          ports: [
            { name: 'dns', containerPort: 53, protocol: 'UDP' },
            { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
            { name: 'metrics', containerPort: 9153, protocol: 'TCP' },
          ],
        },
      ],
    },
    status: {
      podIP: ip,
      ...(ready
        ? {}
        : {
            conditions: [{ type: 'Ready', status: 'False' }],
            containerStatuses: [
              { name: 'coredns', ready: false, restartCount: 31, image: 'coredns', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } },
            ],
          }),
    },
  });
}
const dns = (pods: Pod[], why = GO_TIMEOUT): ComponentFact[] => [{ role: 'dns', why, pods }];
const healthyDns = dns([coredns('coredns-5d78c9869d-a1b2c', true, '10.244.0.5'), coredns('coredns-5d78c9869d-d3e4f', true, '10.244.2.7')]);

function np(name: string, spec: Record<string, unknown>, namespace = 'shop'): KubeObject {
  return { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name, namespace, creationTimestamp: ago(3000) }, spec };
}
const denyAll = np('default-deny-all', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
const toPostgres = np('web-to-postgres', {
  podSelector: { matchLabels: { app: 'web' } },
  policyTypes: ['Egress'],
  egress: [{ to: [{ podSelector: { matchLabels: { app: 'postgres' } } }], ports: [{ protocol: 'TCP', port: 5432 }] }],
});
const allowDns = np('allow-dns', {
  podSelector: {},
  policyTypes: ['Egress'],
  egress: [
    {
      to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } }, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
      ports: [
        { protocol: 'UDP', port: 53 },
        { protocol: 'TCP', port: 53 },
      ],
    },
  ],
});
const egressOnly = (name: string, egress: unknown[]) => np(name, { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Egress'], egress });

/** The crashed pod with its log, the policies selecting it and the cluster DNS as the collector leaves them. */
function blocked(policies: KubeObject[], more: Partial<Snapshot> = {}, line = GO_TIMEOUT, p: Pod = app): Snapshot {
  return snapshot(p, {
    logs: [logTail('web', ['starting web 2.4.1', 'connecting to database', line])],
    history: { configs: [], networkPolicies: policies },
    components: healthyDns,
    ...more,
  });
}

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod(), { history: { configs: [], networkPolicies: [denyAll] } }) },
    {
      name: 'near miss (dns.coredns-down vs network.policy-blocks-dns): the policy blocks DNS, but CoreDNS itself crash-loops',
      snapshot: blocked([denyAll, toPostgres], { components: dns([coredns('coredns-a', false), coredns('coredns-b', false)]) }),
    },
    {
      name: 'near miss (an egress allow-list with DNS vs network.policy-blocks-dns): allow-dns beside the default deny lets port 53 through',
      snapshot: blocked([denyAll, toPostgres, allowDns]),
    },
    {
      name: 'near miss (an Ingress-only policy vs network.policy-blocks-dns): the pod is not isolated for egress',
      snapshot: blocked([
        np('web-from-gateway', {
          podSelector: { matchLabels: { app: 'web' } },
          policyTypes: ['Ingress'],
          ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'gateway' } } }] }],
        }),
      ]),
    },
    {
      name: 'near miss (crash.app-exit vs network.policy-blocks-dns): DNS timeouts with no NetworkPolicy selecting the pod',
      snapshot: blocked([]),
    },
    {
      name: 'near miss (a wrong name vs network.policy-blocks-dns): the lookup got NXDOMAIN, so DNS traffic gets through',
      snapshot: blocked([denyAll], {}, NXDOMAIN),
    },
    {
      name: "near miss (a missing Service vs network.policy-blocks-dns): Java's bare UnknownHostException after an answer (Name or service not known)",
      snapshot: blocked([denyAll], {
        logs: [logTail('web', ['java.net.UnknownHostException: kafka: Name or service not known', 'Caused by: java.net.UnknownHostException: kafka'])],
      }),
    },
    { name: 'an empty egress rule {} allows everything', snapshot: blocked([denyAll, egressOnly('allow-all-egress', [{}])]) },
    {
      name: 'a rule with ports UDP 53 and no peers allows DNS anywhere',
      snapshot: blocked([denyAll, egressOnly('dns', [{ ports: [{ protocol: 'UDP', port: 53 }] }])]),
    },
    {
      name: 'a port range over 53 allows DNS',
      snapshot: blocked([denyAll, egressOnly('low-ports', [{ ports: [{ protocol: 'UDP', port: 1, endPort: 1024 }] }])]),
    },
    {
      name: 'a rule with no ports to every namespace allows DNS',
      snapshot: blocked([denyAll, egressOnly('cluster-only', [{ to: [{ namespaceSelector: {} }] }])]),
    },
    {
      name: "the named port dns is CoreDNS's UDP 53",
      snapshot: blocked([denyAll, egressOnly('named', [{ to: [{ namespaceSelector: {}, podSelector: {} }], ports: [{ protocol: 'UDP', port: 'dns' }] }])]),
    },
    {
      name: 'an ipBlock over the CoreDNS pod IPs allows DNS',
      snapshot: blocked([denyAll, egressOnly('pods-cidr', [{ to: [{ ipBlock: { cidr: '10.244.0.0/16' } }] }])]),
    },
    {
      name: 'a namespace label the snapshot cannot see leaves it open (maybe kube-system carries it)',
      snapshot: blocked([denyAll, egressOnly('platform', [{ to: [{ namespaceSelector: { matchLabels: { tier: 'platform' } } }] }])]),
    },
    {
      name: 'the policy selects other pods',
      snapshot: blocked([np('db-deny', { podSelector: { matchLabels: { app: 'postgres' } }, policyTypes: ['Egress'] })]),
    },
    {
      name: 'a hostNetwork pod is outside NetworkPolicy',
      snapshot: blocked([denyAll], {}, GO_TIMEOUT, crashedPod({ exitCode: 1 }, { spec: { hostNetwork: true } })),
    },
    {
      name: 'a node-local DNS cache on the host: the selectors say nothing about the way there',
      snapshot: blocked([denyAll], {}, 'lookup redis on 169.254.20.10:53: read udp 10.244.1.12:50112->169.254.20.10:53: i/o timeout'),
    },
  ],
  invalid: [
    {
      name: 'Go: default-deny-all plus an allow-list to postgres:5432 that forgot DNS (CoreDNS healthy)',
      snapshot: blocked([denyAll, toPostgres]),
      expect: {
        severity: 'error',
        playbook: null,
        params: { policies: ['default-deny-all', 'web-to-postgres'], namespace: 'shop', server: '10.96.0.10', tcpOnly: false },
        said: [
          { id: 'titleMany', data: { policies: 'default-deny-all, web-to-postgres' } },
          { id: 'lookup', data: { server: '10.96.0.10:53', line: /i\/o timeout/ } },
          'selectedMany',
          { id: 'allowOnly', data: { rules: 'pods app=postgres on TCP 5432' } },
          { id: 'dnsServing', data: { summary: /running and Ready/ } },
          { id: 'addRule', data: { policy: 'web-to-postgres', selector: 'app=web', dnsNamespace: 'kube-system' } },
          'owners',
          'prevent',
        ],
        quotes: [/lookup postgres\.shop\.svc\.cluster\.local on 10\.96\.0\.10:53/, /egress: none \(denies all egress\)/],
      },
    },
    {
      name: 'Node.js: a "same namespace only" egress policy, CoreDNS not read',
      snapshot: blocked([egressOnly('same-namespace', [{ to: [{ podSelector: {} }] }])], { components: undefined }, NODE_TIMEOUT),
      expect: {
        params: { policies: ['same-namespace'] },
        said: [
          { id: 'titleOne', data: { policies: 'same-namespace' } },
          { id: 'lookup', data: { server: 'the cluster DNS', line: NODE_TIMEOUT } },
          'selectedOne',
          { id: 'allowOnly', data: { rules: 'pods {} on any port' } },
        ],
      },
    },
    {
      name: 'Python: port 53 without protocol is TCP only, UDP lookups still time out',
      snapshot: blocked([denyAll, egressOnly('dns-tcp', [{ ports: [{ port: 53 }] }])], {}, PYTHON_TIMEOUT),
      expect: { params: { tcpOnly: true }, said: ['tcpOnly'] },
    },
    {
      name: 'Java, Running but not Ready: egress to kube-system only for metrics-server',
      snapshot: blocked(
        [
          egressOnly('to-metrics', [
            {
              to: [
                {
                  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
                  podSelector: { matchLabels: { 'k8s-app': 'metrics-server' } },
                },
              ],
            },
          ]),
        ],
        { logs: [logTail('web', ['Retrying connection to kafka', JAVA_TIMEOUT], false)] },
        JAVA_TIMEOUT,
        pod({ status: { conditions: [{ type: 'Ready', status: 'False' }] } }),
      ),
      expect: { said: [{ id: 'lookup', data: { line: JAVA_TIMEOUT } }] },
    },
    {
      name: 'the named port dns with the default protocol TCP: CoreDNS serves dns on UDP',
      snapshot: blocked([denyAll, egressOnly('named-tcp', [{ ports: [{ port: 'dns' }] }])]),
      expect: { params: { tcpOnly: false } },
    },
    {
      name: 'one CoreDNS pod of three down is no outage: the policy is still what drops the queries',
      snapshot: blocked([denyAll], { components: dns([coredns('coredns-a', false), coredns('coredns-b'), coredns('coredns-c')]) }),
      expect: { params: { policies: ['default-deny-all'] }, said: ['selectedOne', 'denyAll'] },
    },
    {
      name: 'the lookup in the termination message, an ipBlock for the internet only',
      snapshot: blocked(
        [egressOnly('internet', [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] } }] }])],
        { logs: [] },
        '',
        crashedPod({ exitCode: 1, message: `panic: ${GO_TIMEOUT}` }),
      ),
      expect: { quotes: [/panic: failed to connect/] },
    },
    {
      name: 'curl says only that it could not resolve, and no server answered anywhere',
      snapshot: blocked([denyAll], {}, 'curl: (6) Could not resolve host: api.shop.svc.cluster.local'),
      expect: { said: [{ id: 'lookup', data: { line: /Could not resolve host/ } }] },
    },
    {
      name: 'a readiness probe whose exec check cannot resolve',
      snapshot: blocked([denyAll], {
        logs: [],
        events: [
          event(pod(), {
            reason: 'Unhealthy',
            type: 'Warning',
            message: 'Readiness probe failed: nslookup: ;; connection timed out; no servers could be reached',
          }),
        ],
      }),
      expect: { quotes: [/no servers could be reached/] },
    },
  ],
});

describe('network.policy-blocks-dns ranks first', () => {
  it('before crash.app-exit, which reads the same timeout as a generic DNS failure', () => {
    const d = diagnose(blocked([denyAll, toPostgres]), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('network.policy-blocks-dns');
    expect(d.findings[0]?.merged).toContain('crash.app-exit');
  });
  it('after dns.coredns-down, which keeps CoreDNS outages', () => {
    const d = diagnose(blocked([denyAll, toPostgres], { components: dns([coredns('coredns-a', false), coredns('coredns-b', false)]) }), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('dns.coredns-down');
    expect(d.findings.map((f) => f.rule)).not.toContain('network.policy-blocks-dns');
  });
});

describe('network.policy-blocks-dns from saved objects and through the API', () => {
  // What the collector must gather for a crash-looping pod: the policies selecting it (history) and CoreDNS (components, from the log line).
  const objects = [
    namespaceObject('shop'),
    namespaceObject('kube-system'),
    node({ metadata: { name: 'node-1' } }),
    app,
    {
      apiVersion: 'pod-doctor.dev/v1',
      kind: 'PodLog',
      metadata: { name: app.metadata?.name, namespace: 'shop' },
      container: 'web',
      previous: true,
      lines: [GO_TIMEOUT],
    },
    coredns('coredns-5d78c9869d-a1b2c', true, '10.244.0.5'),
    coredns('coredns-5d78c9869d-d3e4f', true, '10.244.2.7'),
    denyAll,
    toPostgres,
    np('db-from-web', {
      podSelector: { matchLabels: { app: 'postgres' } },
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }] }],
    }),
  ] as KubeObject[];
  const options = { cluster: 'fixture', now: () => new Date(NOW) };

  it('ranks first on both paths, naming the two policies that select the pod', async () => {
    const sim = await startSim({ objects });
    try {
      const kc = new k8s.KubeConfig();
      kc.loadFromString(sim.kubeconfig());
      for (const source of [new ObjectsSource(objects), new KubeSource(kc)]) {
        const d = await diagnoseTarget(source, parseTarget(`shop/${app.metadata?.name}`), options);
        expect(d.skipped.filter((g) => g.origin === 'api')).toEqual([]);
        expect(d.findings[0]?.rule).toBe('network.policy-blocks-dns');
        expect(d.findings[0]?.params.policies).toEqual(['default-deny-all', 'web-to-postgres']);
        expect(d.findings[0]?.cause).toMatch(/running and Ready/);
      }
    } finally {
      await sim.close();
    }
  });
});
