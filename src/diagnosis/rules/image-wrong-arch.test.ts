import { describe, expect, it } from 'vitest';
import { crashedPod, logTail, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule as startError } from './container-start-error.js';
import { rule as appExit } from './crash-app-exit.js';
import { archHint, rule } from './image-wrong-arch.js';

const armNode = node({ status: { nodeInfo: { architecture: 'arm64' } } });
const amdImage = { spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2-amd64' }] } };

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod(), { node: armNode }) },
    {
      name: 'an app crash without exec format error',
      snapshot: snapshot(crashedPod({ exitCode: 1 }), {
        node: armNode,
        logs: [logTail('web', ['panic: runtime error: invalid memory address or nil pointer dereference'])],
      }),
    },
  ],
  invalid: [
    {
      name: 'pull: containerd "no match for platform in manifest: not found" (amd64-only image on a Graviton node)',
      snapshot: snapshot(
        waitingPod('ErrImagePull', 'failed to pull and unpack image "docker.io/bitnami/kubectl:1.24": no match for platform in manifest: not found', {
          spec: { containers: [{ name: 'web', image: 'bitnami/kubectl:1.24' }] },
        }),
        { node: node({ status: { nodeInfo: { architecture: 'arm64' } } }) },
      ),
      expect: { playbook: null, mentions: [/no match for platform in manifest/, /linux\/arm64/] },
    },
    {
      name: 'pull: CRI-O "no image found in manifest list for architecture arm64"',
      snapshot: snapshot(
        waitingPod(
          'ErrImagePull',
          'rpc error: code = Unknown desc = choosing image instance: no image found in manifest list for architecture arm64, variant "v8", OS linux',
          { spec: { containers: [{ name: 'web', image: 'quay.io/acme/tool:2.1' }] } },
        ),
        { node: node({ status: { nodeInfo: { architecture: 'arm64' } } }) },
      ),
      expect: { mentions: [/no image found in manifest list for architecture/] },
    },
    {
      name: 'runc >= 1.1: the only log line, amd64 image on an arm64 node',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 6 }, amdImage), {
        node: armNode,
        logs: [logTail('web', ['exec /usr/local/bin/web: exec format error'])],
      }),
      expect: {
        params: { nodeArch: 'arm64', imageArch: 'amd64' },
        causeKey: 'image/registry.example.com/shop/web:1.4.2-amd64:arch-arm64',
        mentions: [/exec \/usr\/local\/bin\/web: exec format error/, /image name says amd64, the node is arm64/],
      },
    },
    {
      name: 'older runc wording in the log',
      snapshot: snapshot(crashedPod({ exitCode: 1, runtime: 'docker' }), {
        node: armNode,
        logs: [logTail('web', ['standard_init_linux.go:228: exec user process caused: exec format error'])],
      }),
      expect: { mentions: [/exec user process caused: exec format error/] },
    },
    {
      name: 'at create time, in the StartError message',
      snapshot: snapshot(
        crashedPod({
          exitCode: 128,
          reason: 'StartError',
          message:
            'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container ' +
            'process: exec: "/app": exec format error: unknown',
        }),
        { node: armNode },
      ),
      expect: { mentions: [/exec format error/] },
    },
  ],
});

describe('image.wrong-arch', () => {
  it.each([
    ['registry.example.com/x:1.0-arm64', 'arm64'],
    ['arm64v8/nginx:1.27', 'arm64'],
    ['quay.io/x/y:v2-linux-amd64', 'amd64'],
    ['busybox:1.36', undefined],
  ])('archHint(%s) = %s', (image, arch) => {
    expect(archHint(image)).toBe(arch);
  });
  it('outranks the generic crash and start rules', () => {
    const d = diagnose(
      snapshot(crashedPod({ exitCode: 1 }, amdImage), { node: armNode, logs: [logTail('web', ['exec /usr/local/bin/web: exec format error'])] }),
      { rules: [appExit, startError, rule] },
    );
    expect(d.findings.map((f) => f.rule)).toEqual(['image.wrong-arch']);
  });
});
