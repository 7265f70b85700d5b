import { describe, expect, it } from 'vitest';
import { crashedPod, event, node, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { rule as appExit } from './crash-app-exit.js';
import { rule } from './crash-subpath-missing.js';

// Seed 003, case two (docker 17.x, kubelet 1.10-era describe output), verbatim.
const DOCKER_ERA =
  'Error: failed to start container "metricbeat": Error response from daemon: OCI runtime create failed: container_linux.go:348: ' +
  String.raw`starting container process caused "process_linux.go:402: container init caused \"rootfs_linux.go:58: mounting ` +
  String.raw`\\\"/mnt/disk2/k8s/kubelet/pods/54d426d3-cacd-11e8-971a-5e384b278319/volume-subpaths/config/metricbeat/0\\\" to rootfs ` +
  String.raw`\\\"/mnt/disk1/docker/data/overlay2/5753fb64509f490968802fe00a6a6e000b7f17f4839d62ba5ca1dc484c86ba22/merged\\\" at ` +
  String.raw`\\\"/mnt/disk1/docker/data/overlay2/5753fb64509f490968802fe00a6a6e000b7f17f4839d62ba5ca1dc484c86ba22/merged/etc/metricbeat.yml\\\" ` +
  String.raw`caused \\\"no such file or directory\\\"\"": unknown`;

// runc >= 1.1 under containerd: the same failure as a StartError (exit 128).
const CONTAINERD_ERA =
  'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container ' +
  'process: error during container init: error mounting ' +
  '"/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0" to rootfs at "/etc/web/app.yml": mount ' +
  '/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0:/etc/web/app.yml (via /proc/self/fd/6), flags: ' +
  '0x5001: no such file or directory: unknown';

const metricbeat = crashedPod(
  { container: 'metricbeat', exitCode: 128, reason: 'ContainerCannotRun', restarts: 1142, runtime: 'docker' },
  {
    metadata: { name: 'metricbeat-995dcffbd-6rppf', namespace: 'metricbeat' },
    spec: {
      nodeName: 'm7-power-128050',
      containers: [
        {
          name: 'metricbeat',
          image: 'docker.elastic.co/beats/metricbeat:6.4.1',
          volumeMounts: [{ name: 'config', mountPath: '/etc/metricbeat.yml', subPath: 'metricbeat.yml' }],
        },
      ],
    },
  },
);

const containerd = crashedPod(
  { exitCode: 128, reason: 'StartError', message: CONTAINERD_ERA, restarts: 5 },
  {
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.example.com/shop/web:1.4.2',
          volumeMounts: [{ name: 'app-config', mountPath: '/etc/web/app.yml', subPath: 'app.yml' }],
        },
      ],
    },
  },
);

// The app itself exits 1 on a bad config file: the container started, so its subPath mount was there.
const selfExit = crashedPod(
  {
    exitCode: 1,
    restarts: 6,
    ranSeconds: 3,
    message: "Error: ENOENT: no such file or directory, open '/etc/web/secrets/db.json'\n    at Object.openSync (node:fs:596:3)",
  },
  {
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.example.com/shop/web:1.4.2',
          volumeMounts: [{ name: 'app-config', mountPath: '/etc/web/app.yml', subPath: 'app.yml' }],
        },
      ],
    },
  },
);

// runc >= 1.1: a file subPath mounted where the image has a directory (type mismatch, not a missing source).
const NOT_A_DIRECTORY =
  'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container ' +
  'process: error during container init: error mounting ' +
  '"/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0" to rootfs at "/etc/web": mount ' +
  '/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0:/etc/web (via /proc/self/fd/6), flags: 0x5001: not ' +
  'a directory: unknown: Are you trying to mount a directory onto a file (or vice-versa)? Check if the specified host path exists and is the ' +
  'expected type';

// CRI-O mounts at create time (CreateContainerError); crun words it as containers/crun src/libcrun/linux.c
// (`cannot stat `%s`` 1.12+, utils.c `error stat'ing file `%s`` before), runc as above.
const SUBPATH = '/var/lib/kubelet/pods/0d6f5c1e-8a2b-4c3d-9e4f-5a6b7c8d9e0f/volume-subpaths/app-config/web/0';
const crioNode = node({ status: { nodeInfo: { containerRuntimeVersion: 'cri-o://1.31.3' } } });
const withSubPath = {
  spec: {
    containers: [
      { name: 'web', image: 'registry.example.com/shop/web:1.4.2', volumeMounts: [{ name: 'app-config', mountPath: '/etc/web/app.yml', subPath: 'app.yml' }] },
    ],
  },
};
const createError = (message: string) => snapshot(waitingPod('CreateContainerError', message, withSubPath), { node: crioNode });

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'crash unrelated to subPath', snapshot: snapshot(crashedPod({ exitCode: 1, message: 'open /etc/web/app.yml: no such file or directory' })) },
    {
      name: 'old subPath event but the container runs fine now',
      snapshot: snapshot(pod(), { events: [event(pod(), { reason: 'Failed', message: DOCKER_ERA, lastSeenAgo: 86400 * 4 })] }),
    },
    {
      name: 'near miss (app exit vs stale subPath): the last run started and exited 1 on its own; the subPath event is from an earlier attempt',
      snapshot: snapshot(selfExit, {
        events: [
          event(selfExit, { reason: 'Failed', message: `Error: ${CONTAINERD_ERA}`, lastSeenAgo: 3000, fieldPath: 'spec.containers{web}' }),
          event(selfExit, {
            reason: 'BackOff',
            count: 30,
            message: 'Back-off restarting failed container web in pod web-7d9f8c6b5-x2k4q_shop(00000000-0000-4000-8000-000000000001)',
            fieldPath: 'spec.containers{web}',
          }),
        ],
      }),
    },
    {
      name: 'near miss (file/directory type mismatch vs a missing subPath source): runc says "not a directory"',
      snapshot: snapshot(crashedPod({ exitCode: 128, reason: 'StartError', message: NOT_A_DIRECTORY, restarts: 4 }), {
        events: [event(pod(), { reason: 'Failed', message: `Error: ${NOT_A_DIRECTORY}`, fieldPath: 'spec.containers{web}' })],
      }),
    },
    {
      name: 'near miss (type mismatch vs a missing source): crun says "Not a directory" for the subPath mount',
      snapshot: createError(`container create failed: mount \`${SUBPATH}\` to \`etc/web\`: Not a directory`),
    },
  ],
  invalid: [
    {
      name: 'CRI-O + crun 1.12+: "cannot stat `.../volume-subpaths/app-config/web/0`: No such file or directory" at create time',
      snapshot: createError(`container create failed: cannot stat \`${SUBPATH}\`: No such file or directory`),
      expect: {
        playbook: 'recreate-pod',
        params: { volume: 'app-config', container: 'web' },
        said: [{ id: 'sourceGoneAt', data: { mountPath: '/etc/web/app.yml' } }],
        quotes: [/CreateContainerError: container create failed: cannot stat/],
      },
    },
    {
      name: 'CRI-O + crun ≤ 1.11: "error stat\'ing file `...`"',
      snapshot: createError(`container create failed: error stat'ing file \`${SUBPATH}\`: No such file or directory`),
      expect: { params: { volume: 'app-config' } },
    },
    {
      name: 'CRI-O + runc: the runc wording after "container create failed"',
      snapshot: createError(
        'container create failed: runc create failed: unable to start container process: error during container init: error mounting ' +
          `"${SUBPATH}" to rootfs at "/etc/web/app.yml": mount ${SUBPATH}:/etc/web/app.yml (via /proc/self/fd/6), flags: 0x5001: no such file or directory`,
      ),
      expect: { params: { volume: 'app-config' } },
    },
    {
      name: 'docker era (seed 003 metricbeat): Failed event, old BackOff wording',
      snapshot: snapshot(metricbeat, {
        events: [
          event(metricbeat, { reason: 'Failed', message: DOCKER_ERA, lastSeenAgo: 86400 * 4 }),
          event(metricbeat, { reason: 'BackOff', count: 25616, message: 'Back-off restarting failed container' }),
        ],
      }),
      expect: {
        playbook: 'recreate-pod',
        causeKey: 'pod/metricbeat/metricbeat-995dcffbd-6rppf:subpath/config',
        params: { container: 'metricbeat', volume: 'config', node: 'm7-power-128050', pod: 'metricbeat-995dcffbd-6rppf', namespace: 'metricbeat' },
        said: [
          { id: 'sourceGoneAt', data: { container: 'metricbeat', index: '0', volume: 'config', mountPath: '/etc/metricbeat.yml' } },
          { id: 'failed', data: { restarts: 1142, times: 'times' } },
        ],
      },
    },
    {
      name: 'containerd/runc 1.1: StartError message in lastState',
      snapshot: snapshot(containerd),
      expect: { params: { volume: 'app-config', container: 'web' }, said: [{ id: 'title', data: { volume: 'app-config' } }], quotes: [/error mounting/] },
    },
  ],
});

describe('crash.subpath-missing', () => {
  it('supersedes crash.app-exit', () => {
    const d = diagnose(snapshot(containerd), { rules: [appExit, rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['crash.subpath-missing']);
  });
});
