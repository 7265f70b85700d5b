import { ago, lostNode, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { Snapshot } from '../types.js';
import { rule } from './node-kubelet-cert-expired.js';

const silent = lostNode('worker-7', 1800);
const heartbeat = silent.status?.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime ?? ago(1800);
const refused = (expiry: string) =>
  `E1121 09:58:03.223687       1 authentication.go:73] "Unable to authenticate the request" ` +
  `err="[x509: certificate has expired or is not yet valid: current time ${ago(10)} is after ${expiry}, ` +
  'verifying certificate SN=2291 failed: x509: certificate has expired or is not yet valid]"';
const withApiLog = (n: ReturnType<typeof node>, lines: string[]): Snapshot =>
  snapshot(undefined, {
    target: { kind: 'node', name: 'worker-7' },
    node: n,
    components: [
      {
        role: 'apiserver',
        why: 'Kubelet stopped posting node status.',
        pods: [pod({ metadata: { name: 'kube-apiserver-cp-1', namespace: 'kube-system' } })],
        logs: [{ pod: 'kube-system/kube-apiserver-cp-1', container: 'kube-apiserver', previous: false, lines }],
      },
    ],
  });

testRule(rule, {
  valid: [
    { name: 'a Ready node', snapshot: withApiLog(node({ metadata: { name: 'worker-7' } }), [refused(heartbeat)]) },
    {
      name: 'near miss (down vs refused): a silent node and a quiet API server',
      snapshot: withApiLog(silent, ['I1121 09:58:05 controller.go:624] quota admission added evaluator for: leases']),
    },
    { name: "near miss (another client's certificate): expired a day before the node went silent", snapshot: withApiLog(silent, [refused(ago(86400))]) },
  ],
  invalid: [
    {
      name: 'the API server refuses a certificate that expired when the node went silent',
      snapshot: withApiLog(silent, ['I1121 09:00:00 log.go:245] http: TLS handshake error from 10.0.11.143:52376: EOF', refused(heartbeat)]),
      expect: { severity: 'error', playbook: null, said: ['refused', 'unknownFor'] },
    },
    {
      name: 'the expiry a few minutes before the last heartbeat',
      snapshot: withApiLog(silent, [refused(new Date(Date.parse(heartbeat) - 240_000).toISOString().replace(/\.\d+Z$/, 'Z'))]),
      expect: { params: { node: 'worker-7' } },
    },
  ],
});
