import { describe, expect, it } from 'vitest';
import { event, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule } from './container-create-error.js';
import { RULES } from './index.js';

const RESERVED =
  'failed to reserve container name "web_web-7d9f8c6b5-x2k4q_shop_6f1c2d3e-aaaa-4bbb-8ccc-000000000001_0": name ' +
  '"web_web-7d9f8c6b5-x2k4q_shop_6f1c2d3e-aaaa-4bbb-8ccc-000000000001_0" is reserved for ' +
  '"4f1c0e9d2b7a6c5e8f3d1a0b9c8e7f6d5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d"';

// CRI-O 1.27+: server/utils.go getResourceOrWait wraps internal/lib/container_server.go's reservation error.
const CRIO_RESERVED =
  'kubelet may be retrying requests that are timing out in CRI-O due to system load. Currently at stage container volume configuration: ' +
  'context deadline exceeded: error reserving ctr name k8s_minio_data-pool-0-3_storage_8dec4302-e6b4-4874-9a60-ea305b96347f_0 ' +
  'for id 8424e8fdc1a42daec5810b43a8baf7a9a80f7835a843fc104fe9f621a14983cb: name is reserved';
const crioNode = node({ status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.29.4' } } });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (command vs runtime): crun cannot find the command (container.start-error)',
      snapshot: snapshot(
        waitingPod('CreateContainerError', 'container create failed: executable file `python` not found in $PATH: No such file or directory'),
        { node: crioNode },
      ),
    },
    {
      name: 'CreateContainerError for an exec problem (container.start-error)',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'container create failed: runc create failed: unable to start container process: exec: "python": executable file not found in $PATH',
        ),
      ),
    },
  ],
  invalid: [
    {
      name: 'CRI-O 1.27+: a timed-out create still holds the name ("error reserving ctr name ...: name is reserved")',
      snapshot: snapshot(waitingPod('CreateContainerError', CRIO_RESERVED), { node: crioNode }),
      expect: {
        params: { problem: 'name-reserved', node: 'node-1' },
        said: [
          { id: 'titleNameReserved', data: { node: 'node-1', runtime: 'CRI-O' } },
          { id: 'nameReserved', data: { runtime: 'CRI-O' } },
          { id: 'runtimeMessage', data: { message: /name is reserved/ } },
        ],
      },
    },
    {
      name: 'CRI-O ≤ 1.26 (k8s#112105): "Kubelet may be retrying requests ... due to system load: context deadline exceeded: error reserving ctr name"',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'Kubelet may be retrying requests that are timing out in CRI-O due to system load: context deadline exceeded: error reserving ' +
            'ctr name k8s_minio_data-analytics-prod-pool-0-3_oci-prod-data-analytics_8dec4302-e6b4-4874-9a60-ea305b96347f_0 for id ' +
            '8424e8fdc1a42daec5810b43a8baf7a9a80f7835a843fc104fe9f621a14983cb: name is reserved',
        ),
        { node: undefined },
      ),
      expect: { params: { problem: 'name-reserved' }, said: [{ id: 'nameReserved', data: { runtime: 'CRI-O' } }] },
    },
    {
      name: 'CRI-O: conmon lost the runtime mid-create ("error reading container (probably exited) json message: EOF", k8s#98142)',
      snapshot: snapshot(waitingPod('CreateContainerError', 'error reading container (probably exited) json message: EOF'), { node: crioNode }),
      expect: {
        params: { problem: 'runtime' },
        said: [{ id: 'runtimeMessage', data: { message: 'error reading container (probably exited) json message: EOF' } }, 'nodeSide'],
      },
    },
    {
      name: 'a program the runtime runs on the node is missing (containerd without apparmor_parser)',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'failed to create containerd container: get apparmor_parser version: exec: "apparmor_parser": executable file not found in $PATH',
        ),
      ),
      expect: { params: { problem: 'node-helper' }, playbook: null, said: [{ id: 'titleNodeHelper', data: { program: 'apparmor_parser' } }, 'nodeHelper'] },
    },
    {
      name: 'containerd: name still reserved after a timed-out create',
      snapshot: snapshot(waitingPod('CreateContainerError', RESERVED), {
        events: [
          event(pod(), { reason: 'Failed', count: 3, lastSeenAgo: 900, fieldPath: 'spec.containers{web}', message: 'Error: context deadline exceeded' }),
          event(pod(), { reason: 'Failed', count: 41, lastSeenAgo: 20, fieldPath: 'spec.containers{web}', message: `Error: ${RESERVED}` }),
        ],
      }),
      expect: {
        params: { problem: 'name-reserved', node: 'node-1' },
        causeKey: 'node/node-1:create-name-reserved',
        said: [{ id: 'runtimeMessage', data: { message: /is reserved for/ } }, 'nodeSide'],
      },
    },
    {
      name: 'kubelet: context deadline exceeded',
      snapshot: snapshot(waitingPod('CreateContainerError', 'context deadline exceeded')),
      expect: { params: { problem: 'deadline' }, said: ['titleDeadline'] },
    },
    {
      name: 'docker era: name conflict',
      snapshot: snapshot(
        waitingPod(
          'CreateContainerError',
          'Error response from daemon: Conflict. The container name "/k8s_web_web-7d9f8c6b5-x2k4q_shop_6f1c_0" is ' +
            'already in use by container "e6b7378c58a3". You have to remove (or rename) that container to be able to reuse ' +
            'that name.',
        ),
        { node: node({ status: { nodeInfo: { containerRuntimeVersion: 'docker://19.3.15' } } }) },
      ),
      expect: { params: { problem: 'name-conflict' }, said: [{ id: 'runtimeMessage', data: { message: /already in use/ } }] },
    },
  ],
});

describe('container.create-error advice follows the runtime', () => {
  it.each([
    ['cri-o://1.29.4', /journalctl -u crio /, /restart crio/],
    ['containerd://2.0.2', /journalctl -u containerd /, /restart containerd/],
  ])('%s', (version, unit, restart) => {
    const found = findingsOf(
      rule,
      snapshot(waitingPod('CreateContainerError', CRIO_RESERVED), { node: node({ status: { nodeInfo: { containerRuntimeVersion: version } } }) }),
    );
    expect(found[0]?.advice[0]).toMatch(unit);
    expect(found[0]?.advice[0]).toMatch(restart);
  });
});

describe('container.create-error in the full registry', () => {
  it('ranks first for a disk-full node', () => {
    const d = diagnose(
      snapshot(
        waitingPod(
          'CreateContainerError',
          'failed to create containerd container: failed to prepare extraction snapshot "extract-1": mkdir ' +
            '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/new-1: no space left on device',
        ),
      ),
      { rules: RULES },
    );
    expect(d.findings[0]).toMatchObject({ rule: 'container.create-error', params: { problem: 'disk-full' } });
  });
});
