import { describe, expect, it } from 'vitest';
import { crashedPod, event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule as appExit } from './crash-app-exit.js';
import { rule as oomkilled } from './crash-oomkilled.js';
import { badMemory, rule } from './resources-memory-units.js';

const memory = (requests: string | undefined, limits: string | undefined) => ({
  spec: {
    containers: [
      {
        name: 'web',
        image: 'registry.example.com/shop/web:1.4.2',
        resources: { requests: { cpu: '100m', ...(requests ? { memory: requests } : {}) }, ...(limits ? { limits: { memory: limits } } : {}) },
      },
    ],
  },
});

// Seed 003, docker era: memory written as 1024m; the sandbox is killed at start.
const seedPod = waitingPod('ContainerCreating', undefined, memory('1024m', '1024m'));
const seedEvents = [
  event(seedPod, { reason: 'SandboxChanged', type: 'Normal', count: 14, message: 'Pod sandbox changed, it will be killed and re-created.' }),
  event(seedPod, {
    reason: 'FailedCreatePodSandBox',
    count: 14,
    message:
      'Failed create pod sandbox: rpc error: code = Unknown desc = failed to start sandbox container for pod "web-7d9f8c6b5-x2k4q": Error response from ' +
      'daemon: OCI runtime create failed: container_linux.go:348: starting container process caused "process_linux.go:301: running exec setns process for ' +
      'init caused \\"signal: killed\\"": unknown',
  }),
];

// containerd / runc >= 1.1: limit "4" (bytes); the start fails with "container init was OOM-killed".
const containerdPod = crashedPod(
  {
    exitCode: 128,
    reason: 'StartError',
    message:
      'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: ' +
      'container init was OOM-killed (memory limit too low?): unknown',
  },
  memory('4', '4'),
);

testRule(rule, {
  valid: [
    { name: 'healthy pod (128Mi)', snapshot: snapshot(pod()) },
    { name: 'plain bytes that are big enough (1073741824)', snapshot: snapshot(pod(memory('1073741824', '1073741824'))) },
    { name: 'exponent and decimal units (1e9, 1G, 500M)', snapshot: snapshot(pod(memory('500M', '1e9'))) },
    { name: 'no memory set at all', snapshot: snapshot(pod(memory(undefined, undefined))) },
  ],
  invalid: [
    {
      name: 'docker era (seed 003): 1024m, SandboxChanged and setns "signal: killed"',
      snapshot: snapshot(seedPod, { events: seedEvents }),
      expect: {
        severity: 'error',
        causeKey: 'workload/shop/Pod/web-7d9f8c6b5-x2k4q:memory-units',
        params: { container: 'web', field: 'limits.memory', value: '1024m', suggested: '1024Mi' },
        said: [
          { id: 'titleContainer', data: { bytes: '1.024 B', suggested: '1024Mi' } },
          { id: 'sandboxChangedNext', data: { message: 'Pod sandbox changed, it will be killed and re-created.' } },
        ],
        quotes: [/running exec setns process for init caused \\"signal: killed\\"/],
      },
    },
    {
      name: 'containerd/runc 1.1: limit "4" is 4 bytes, init OOM-killed at start',
      snapshot: snapshot(containerdPod),
      expect: { params: { value: '4', suggested: '4Gi' }, said: [{ id: 'titleContainer', data: { bytes: '4 B' } }], quotes: [/container init was OOM-killed/] },
    },
    {
      name: 'request without unit on a running pod: a warning about scheduling and eviction order',
      snapshot: snapshot(pod(memory('512', '1Gi'))),
      expect: { severity: 'warning', params: { field: 'requests.memory', suggested: '512Mi' }, said: ['requestEffect'] },
    },
  ],
});

describe('resources.memory-units', () => {
  it.each([
    ['1024m', '1024Mi'],
    ['4', '4Gi'],
    ['512', '512Mi'],
    ['0.5', '512Mi'],
    ['2m', '2Mi'],
  ])('%s → %s', (value, suggested) => {
    expect(badMemory(value)?.suggested).toBe(suggested);
  });
  it.each(['128Mi', '1G', '1Gi', '1048576', '1e3k', '2Ki'])('%s is a sane unit', (value) => {
    expect(badMemory(value)).toBeUndefined();
  });
  it('supersedes the OOM and exit findings it causes', () => {
    const oomPod = crashedPod({ exitCode: 137, reason: 'OOMKilled' }, memory('64', '64'));
    const d = diagnose(snapshot(oomPod), { rules: [appExit, oomkilled, rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['resources.memory-units']);
    expect(d.findings[0]?.merged.sort()).toEqual(['crash.app-exit', 'crash.oomkilled']);
  });
});
