import { describe, expect, it } from 'vitest';
import { crashedPod, event, logTail, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule as appExit } from './crash-app-exit.js';
import { rule } from './crash-oomkilled.js';

const resources = (limit: string | undefined, request: string) => ({
  spec: {
    containers: [
      {
        name: 'web',
        image: 'registry.example.com/shop/web:1.4.2',
        resources: { requests: { memory: request }, ...(limit ? { limits: { memory: limit } } : {}) },
      },
    ],
  },
});

// Appendix A: CrashLoopBackOff after OOM (containerd, k8s >= 1.28).
const containerdOom = crashedPod({ exitCode: 137, reason: 'OOMKilled', restarts: 7 }, resources('256Mi', '128Mi'));
// Seed 003 (docker era): State Terminated OOMKilled exit code 2, limits memory 1G, requests 500M, restarts 3.
const dockerOom = crashedPod(
  { exitCode: 2, reason: 'OOMKilled', restarts: 3, now: 'terminated', runtime: 'docker' },
  { ...resources('1G', '500M'), status: { phase: 'Running' } },
);

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'OOMKilled once 20h ago, Running and Ready now',
      snapshot: snapshot(crashedPod({ exitCode: 137, reason: 'OOMKilled', restarts: 1, now: 'running', finishedAgo: 72000 })),
    },
    { name: 'crash with another reason', snapshot: snapshot(crashedPod({ exitCode: 1 })) },
  ],
  invalid: [
    {
      name: "the node's OOM killer (SystemOOM at the same moment) picked a container under its limit",
      snapshot: snapshot(crashedPod({ exitCode: 137, reason: 'OOMKilled', restarts: 3, finishedAgo: 240 }, resources('500Mi', '10Mi')), {
        nodeEvents: [
          event(
            { kind: 'Node', metadata: { name: 'node-1' } },
            {
              reason: 'SystemOOM',
              lastSeenAgo: 241,
              message: 'System OOM encountered, victim process: memcached, pid: 28117',
              involved: { kind: 'Node', name: 'node-1' },
            },
          ),
        ],
      }),
      expect: { said: [{ id: 'nodePickedAgo', data: { message: /System OOM encountered, victim process: memcached/ } }] },
    },
    {
      name: 'containerd: CrashLoopBackOff after OOM at a 256Mi limit',
      snapshot: snapshot(containerdOom, {
        events: [
          event(containerdOom, {
            reason: 'BackOff',
            count: 12,
            message: 'Back-off restarting failed container web in pod web-7d9f8c6b5-x2k4q_shop(00000000-0000-4000-8000-000000000001)',
          }),
        ],
        logs: [logTail('web', ['loaded 1200000 rows into cache'])],
      }),
      expect: {
        severity: 'error',
        causeKey: 'workload/shop/Pod/web-7d9f8c6b5-x2k4q/web:oomkilled',
        params: { container: 'web', restarts: 7, memoryLimit: '256Mi', memoryRequest: '128Mi' },
        said: [
          { id: 'title', data: { limit: '256Mi' } },
          { id: 'restarted', data: { restarts: 7, times: 'times' } },
          { id: 'killedAgo', data: { exitCode: 137 } },
        ],
      },
    },
    {
      name: 'docker era (seed 003): OOMKilled with exit code 2, limit 1G',
      snapshot: snapshot(dockerOom),
      expect: {
        params: { memoryLimit: '1G', restarts: 3 },
        said: [
          { id: 'limitIsBytes', data: { bytes: '953.7Mi', limit: '1G' } },
          { id: 'request', data: { request: '500M' } },
          { id: 'killedAgo', data: { exitCode: 2 } },
        ],
      },
    },
    {
      name: 'restartPolicy Never Job without a memory limit: the node ran out',
      snapshot: snapshot(
        crashedPod({ exitCode: 137, reason: 'OOMKilled', now: 'terminated' }, { ...resources(undefined, '64Mi'), spec: { restartPolicy: 'Never' } }),
      ),
      expect: { said: ['titleNoLimit', 'notRestarted'] },
    },
  ],
});

describe('crash.oomkilled supersedes crash.app-exit', () => {
  it('folds the generic exit finding into the OOM one', () => {
    const d = diagnose(snapshot(containerdOom), { rules: [appExit, rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['crash.oomkilled']);
    expect(d.findings[0]?.merged).toEqual(['crash.app-exit']);
    expect(d.findings[0]?.advice.join('\n')).toMatch(/raise the limit \(e\.g\. to 384Mi\)/);
  });
});
