import { describe, expect, it } from 'vitest';
import { crashedPod, logTail, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule as appExit } from './crash-app-exit.js';
import { rule } from './crash-ipv6-disabled.js';

const nginx = crashedPod(
  { container: 'nginx', exitCode: 1, restarts: 5, runtime: 'docker' },
  { spec: { containers: [{ name: 'nginx', image: 'nginx:1.14' }] } },
);
// Seed 003: nginx on a server without IPv6, docker era.
const nginxLogs = [
  logTail('nginx', [
    '2018/09/12 08:01:12 [emerg] 1#1: socket() [::]:8000 failed (97: Address family not supported by protocol)',
    'nginx: [emerg] socket() [::]:8000 failed (97: Address family not supported by protocol)',
  ]),
];

// Node.js under containerd, restartPolicy Never, reason only in the termination message.
const nodeApp = crashedPod(
  {
    exitCode: 1,
    now: 'terminated',
    message: 'Error: listen EAFNOSUPPORT: address family not supported :::3000\n    at Server.setupListenHandle [as _listen2] (node:net:1800:21)',
  },
  { spec: { restartPolicy: 'Never', containers: [{ name: 'web', image: 'ghcr.io/acme/api:2.0.1' }] } },
);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'crash with another log',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), { logs: [logTail('web', ['listen tcp :8080: bind: address already in use'])] }),
    },
    {
      name: 'IPv6 warning in the logs of a running, healthy container',
      snapshot: snapshot(pod(), { logs: [logTail('web', ['warn: [::]:8080 failed (97: Address family not supported by protocol), using 0.0.0.0'], false)] }),
    },
  ],
  invalid: [
    {
      name: 'docker era nginx (seed 003): socket() [::]:8000 failed (97)',
      snapshot: snapshot(nginx, {
        logs: nginxLogs,
        node: node({
          status: {
            addresses: [
              { type: 'InternalIP', address: '172.27.129.237' },
              { type: 'Hostname', address: 'node-1' },
            ],
          },
        }),
      }),
      expect: {
        severity: 'error',
        causeKey: 'image/docker.io/library/nginx:1.14:ipv6-listen',
        params: { container: 'nginx', listen: '[::]:8000', node: 'node-1' },
        said: ['opensV6', 'disabledBothV4'],
        quotes: [/InternalIP=172\.27\.129\.237/],
      },
    },
    {
      name: 'containerd, Node.js EAFNOSUPPORT in the termination message, restartPolicy Never',
      snapshot: snapshot(nodeApp),
      expect: { params: { listen: '[::]:3000' }, said: ['opensV6'] },
    },
  ],
});

describe('crash.ipv6-disabled', () => {
  it('supersedes crash.app-exit and advises dropping the [::] listen', () => {
    const d = diagnose(snapshot(nginx, { logs: nginxLogs }), { rules: [appExit, rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['crash.ipv6-disabled']);
    expect(d.findings[0]?.advice.join('\n')).toMatch(/listen \[::\]:80 default_server/);
  });
});
