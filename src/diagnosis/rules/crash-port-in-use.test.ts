import { describe, expect, it } from 'vitest';
import { crashedPod, logTail, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule } from './crash-port-in-use.js';
import { RULES } from './index.js';

const banner = Array.from({ length: 25 }, (_, i) => `I1121 09:56:0${i % 10}.0000       7 main.go:${100 + i}] starting controller part ${i}`);
const NGINX = 'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)';
const hostNet = crashedPod(
  { exitCode: 255, restarts: 9, container: 'controller' },
  {
    spec: {
      nodeName: 'worker-2',
      hostNetwork: true,
      containers: [{ name: 'controller', image: 'registry.k8s.io/ingress-nginx/controller:v1.10.1', ports: [{ containerPort: 80, hostPort: 80 }] }],
    },
  },
);
const holder = pod({
  metadata: { name: 'old-ingress-x8k2p', namespace: 'kube-system', uid: 'other' },
  spec: { nodeName: 'worker-2', hostNetwork: true, containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80, hostPort: 80 }] }] },
});

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (refused vs in use): a dependency refusing connections is not a port conflict',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), { logs: [logTail('web', [...banner, 'Error: connect ECONNREFUSED 10.96.0.12:5432'])] }),
    },
    {
      name: 'an old "address already in use" line followed by a clean start (not the crash)',
      snapshot: snapshot(crashedPod({ exitCode: 0, restarts: 1, now: 'running', finishedAgo: 7200 }), {
        logs: [logTail('web', ['listen tcp :8080: bind: address already in use'])],
      }),
    },
  ],
  invalid: [
    {
      name: 'hostNetwork ingress: another hostNetwork pod on the node takes port 80',
      snapshot: snapshot(hostNet, { podsOnNode: [holder], logs: [logTail('controller', [...banner, NGINX, 'nginx: [emerg] still could not bind()'])] }),
      expect: {
        params: { port: 80, onHost: true, holders: ['kube-system/old-ingress-x8k2p'] },
        said: [
          { id: 'crashedRun', data: { line: /Address already in use/ } },
          { id: 'hostHolder', data: { holders: 'kube-system/old-ingress-x8k2p' } },
        ],
      },
    },
    {
      name: 'hostNetwork, no pod declares it: a host process holds it (ingress-nginx wording)',
      snapshot: snapshot(hostNet, {
        podsOnNode: [],
        logs: [logTail('controller', [...banner, 'F1121 09:57:41.224516       7 main.go:68] port 80 is already in use. Please check the flag --http-port'])],
      }),
      expect: { params: { port: 80, onHost: true }, said: ['hostProcess'] },
    },
    {
      name: 'two containers of one pod on the same port (Go wording)',
      snapshot: snapshot(
        crashedPod(
          { exitCode: 1, restarts: 4, container: 'api' },
          {
            spec: {
              containers: [
                { name: 'api', image: 'api', ports: [{ containerPort: 8080 }] },
                { name: 'metrics', image: 'exporter', ports: [{ containerPort: 8080 }] },
              ],
            },
          },
        ),
        { logs: [logTail('api', ['listen tcp :8080: bind: address already in use'])] },
      ),
      expect: { params: { port: 8080, onHost: false }, said: [{ id: 'sibling', data: { containers: 'metrics' } }] },
    },
  ],
});

describe('crash.port-in-use in the engine', () => {
  it('folds crash.app-exit in', () => {
    const d = diagnose(snapshot(hostNet, { logs: [logTail('controller', [NGINX])] }), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('crash.port-in-use');
    expect(d.findings[0]?.merged).toContain('crash.app-exit');
  });
});
