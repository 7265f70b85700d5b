import { crashedPod, logTail, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { ComponentFact } from '../types.js';
import { rule } from './dns-coredns-down.js';

const LOOKUP = 'dial tcp: lookup postgres on 10.96.0.10:53: read udp 10.244.27.33:41877->10.96.0.10:53: i/o timeout';
const app = crashedPod({ exitCode: 1, restarts: 7 });
const coredns = (name: string, ready: boolean) =>
  pod({
    metadata: { name, namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
    ...(ready
      ? {}
      : {
          status: {
            conditions: [{ type: 'Ready', status: 'False' }],
            containerStatuses: [
              { name: 'coredns', ready: false, restartCount: 31, image: 'coredns', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } },
            ],
          },
        }),
  });
const dns = (pods: ReturnType<typeof pod>[], logs: ComponentFact['logs'] = []): ComponentFact[] => [{ role: 'dns', why: LOOKUP, pods, logs }];
const LOOP =
  '[FATAL] plugin/loop: Loop (127.0.0.1:53 -> :53) detected for zone ".", see https://coredns.io/plugins/loop#troubleshooting. ' +
  'Query: "HINFO 4547991504243258144.3688648895315093531."';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'no pod labelled k8s-app=kube-dns (a managed or node-local DNS): nothing to tell', snapshot: snapshot(app, { components: dns([]) }) },
    {
      name: 'near miss (a wrong name vs DNS down): CoreDNS is Ready, the lookup fails on the name',
      snapshot: snapshot(app, { logs: [logTail('web', [LOOKUP])], components: dns([coredns('coredns-a', true), coredns('coredns-b', true)]) }),
    },
  ],
  invalid: [
    {
      name: 'both CoreDNS pods crash-loop on a forwarding loop',
      snapshot: snapshot(app, {
        logs: [logTail('web', [LOOKUP])],
        components: dns(
          [coredns('coredns-a', false), coredns('coredns-b', false)],
          [{ pod: 'kube-system/coredns-a', container: 'coredns', previous: true, lines: ['.:53', 'CoreDNS-1.11.1', LOOP] }],
        ),
      }),
      expect: {
        severity: 'error',
        playbook: null,
        params: { down: 2, pods: 2 },
        said: [{ id: 'cause', data: { summary: /plugin\/loop: Loop/, why: /lookup postgres on 10.96.0.10:53/ } }],
      },
    },
    {
      name: 'both CoreDNS pods Pending (a full node pool)',
      snapshot: snapshot(app, {
        logs: [logTail('web', [LOOKUP])],
        components: dns([
          pod({ metadata: { name: 'coredns-a', namespace: 'kube-system' }, status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] } }),
          pod({ metadata: { name: 'coredns-b', namespace: 'kube-system' }, status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] } }),
        ]),
      }),
      expect: { params: { down: 2 } },
    },
  ],
});
