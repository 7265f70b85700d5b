import { describe, expect, it } from 'vitest';
import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './runtime-handler-missing.js';

const gpuPod = waitingPod('ContainerCreating', undefined, { status: { phase: 'Pending' }, spec: { nodeName: 'gpu-1', runtimeClassName: 'nvidia' } });
const sandboxFailed = (message: string) => event(gpuPod, { reason: 'FailedCreatePodSandBox', count: 40, message });
const CONTAINERD = 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia" is configured';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (CNI vs runtime handler): a sandbox without network',
      snapshot: snapshot(gpuPod, {
        events: [
          sandboxFailed(
            'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "0a1b": ' +
              'plugin type="calico" failed (add): connection refused',
          ),
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'containerd: no runtime for "nvidia" is configured',
      snapshot: snapshot(gpuPod, { events: [sandboxFailed(CONTAINERD)] }),
      expect: { playbook: null, params: { handler: 'nvidia', runtimeClass: 'nvidia' } },
    },
    {
      name: 'containerd 2.x: unable to get OCI runtime for sandbox (NVIDIA/gpu-operator#2168)',
      snapshot: snapshot(gpuPod, {
        events: [
          sandboxFailed(
            'Failed to create pod sandbox: rpc error: code = Unknown desc = unable to get OCI runtime for sandbox ' +
              '"18073b779521b77e3cbc7752dd5c2f63064efe24cec18807e917cd29f31fdf50": no runtime for "nvidia" is configured',
          ),
        ],
      }),
      expect: { params: { handler: 'nvidia', runtimeClass: 'nvidia' } },
    },
    {
      name: 'CRI-O: failed to find runtime handler kata from runtime list (kata-containers/tests#1900)',
      snapshot: snapshot(gpuPod, {
        events: [
          sandboxFailed(
            'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to find runtime handler kata from runtime list map[runc:0xc00001da70]',
          ),
        ],
      }),
      expect: { params: { handler: 'kata' }, said: [{ id: 'titleClass', data: { handler: 'kata', node: 'gpu-1' } }] },
    },
    {
      name: 'cri-dockerd: RuntimeHandler "kata" not supported (deislabs/containerd-wasm-shims#190)',
      snapshot: snapshot(gpuPod, {
        events: [sandboxFailed('Failed to create pod sandbox: rpc error: code = Unknown desc = RuntimeHandler "kata" not supported')],
      }),
      expect: { params: { handler: 'kata' } },
    },
  ],
});

describe('runtime.handler-missing in the engine', () => {
  it('folds sandbox.create-failed in', () => {
    const d = diagnose(
      snapshot(
        waitingPod('ContainerCreating', undefined, {
          metadata: { creationTimestamp: '2026-11-21T09:00:00Z' },
          status: { phase: 'Pending' },
          spec: { nodeName: 'gpu-1', runtimeClassName: 'nvidia' },
        }),
        { events: [sandboxFailed(CONTAINERD)] },
      ),
      { rules: RULES },
    );
    expect(d.findings[0]?.rule).toBe('runtime.handler-missing');
  });
});
