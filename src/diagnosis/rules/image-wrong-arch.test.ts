import { describe, expect, it } from 'vitest';
import { crashedPod, logTail, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule as startError } from './container-start-error.js';
import { rule as appExit } from './crash-app-exit.js';
import { archHint, rule } from './image-wrong-arch.js';

const armNode = node({ status: { nodeInfo: { architecture: 'arm64' } } });
const crioArmNode = node({ status: { nodeInfo: { architecture: 'arm64', containerRuntimeVersion: 'cri-o://1.32.1' } } });
const amdImage = { spec: { containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2-amd64' }] } };

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod(), { node: armNode }) },
    {
      name: 'near miss (script vs arch): crun\'s "Exec format error" on a script without #! is container.start-error',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 3 }), {
        node: crioArmNode,
        logs: [logTail('web', ['exec container process `/docker-entrypoint.sh`: Exec format error'])],
      }),
    },
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
      expect: {
        playbook: null,
        said: [
          { id: 'noVariant', data: { phrase: '"no match for platform in manifest"' } },
          { id: 'pullTitle', data: { arch: 'arm64' } },
        ],
      },
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
      expect: { said: [{ id: 'noVariant', data: { phrase: '"no image found in manifest list for architecture arm64"' } }] },
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
        said: [
          { id: 'execRefused', data: { line: 'exec /usr/local/bin/web: exec format error' } },
          { id: 'archMismatch', data: { imageArch: 'amd64', nodeArch: 'arm64' } },
        ],
      },
    },
    {
      name: 'crun (CRI-O 1.31+): "exec container process `/usr/local/bin/web`: Exec format error", amd64 image on arm64',
      snapshot: snapshot(crashedPod({ exitCode: 1, restarts: 6 }, amdImage), {
        node: crioArmNode,
        logs: [logTail('web', ['exec container process `/usr/local/bin/web`: Exec format error'])],
      }),
      expect: { params: { nodeArch: 'arm64', imageArch: 'amd64' }, said: [{ id: 'execRefused', data: { line: /Exec format error/ } }] },
    },
    {
      name: 'pull: CRI-O 1.31+ quotes architecture and OS ("no image found in image index for architecture "arm64"")',
      snapshot: snapshot(
        waitingPod(
          'ErrImagePull',
          'initializing source docker://quay.io/acme/tool:2.1: choosing an image from manifest list docker://quay.io/acme/tool:2.1: ' +
            'no image found in image index for architecture "arm64", variant "v8", OS "linux"',
          { spec: { containers: [{ name: 'web', image: 'quay.io/acme/tool:2.1' }] } },
        ),
        { node: crioArmNode },
      ),
      expect: { said: [{ id: 'noVariant', data: { phrase: '"no image found in image index for architecture "arm64""' } }] },
    },
    {
      name: 'older runc wording in the log',
      snapshot: snapshot(crashedPod({ exitCode: 1, runtime: 'docker' }), {
        node: armNode,
        logs: [logTail('web', ['standard_init_linux.go:228: exec user process caused: exec format error'])],
      }),
      expect: { said: [{ id: 'execRefused', data: { line: /exec user process caused: exec format error/ } }] },
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
      expect: { said: ['execTitle'] },
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
