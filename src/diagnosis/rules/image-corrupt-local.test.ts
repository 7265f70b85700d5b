import { describe, expect, it } from 'vitest';
import { crashedPod, event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { Snapshot } from '../types.js';
import { rule as appExit } from './crash-app-exit.js';
import { rule } from './image-corrupt-local.js';

const PMS = 'docker02:35000/env/develop/prophet/app/pms.tar:develop-175';
const INSPECT =
  `Failed to inspect image "${PMS}": rpc error: code = Unknown desc = ` +
  'Error response from daemon: readlink /mnt/disk0/docker/data/overlay2: invalid argument';
// Seed 003: ImageInspectError for 13h on m7-devops-128107 (docker 17.x, kubelet 1.8-era describe).
const pms = waitingPod('ImageInspectError', INSPECT, {
  metadata: { name: 'pms-558b58dfbd-fpjzl', namespace: 'fangrong' },
  spec: { nodeName: 'm7-devops-128107', containers: [{ name: 'pms', image: PMS }] },
  status: {
    containerStatuses: [
      { name: 'pms', image: PMS, imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ImageInspectError', message: INSPECT } } },
    ],
  },
});
const pmsEvents = [
  event(pms, { reason: 'InspectFailed', count: 590, firstSeenAgo: 13 * 3600, lastSeenAgo: 180, host: 'm7-devops-128107', message: INSPECT }),
  event(pms, { reason: 'FailedSync', count: 522, message: 'Error syncing pod' }),
];

const DOCKERD_LINE =
  'Aug 13 06:00:04 m7-devops-128107 dockerd[34157]: time="2018-08-13T06:00:04.061670830+08:00" level=error msg="Handler for GET ' +
  '/v1.31/images/docker02:35000/grafana/grafana-enhanced:5.2.0/json returned error: readlink /mnt/disk0/docker/data/overlay2: invalid argument"';
const agent = (lines: string[]): Snapshot['agent'] => ({
  node: 'm7-devops-128107',
  probes: {
    journal: {
      ok: true,
      durationMs: 40,
      sources: [{ source: 'var/log/messages', lines: 20000 }],
      keys: [],
      matches: lines.map((line) => ({ signatures: ['image-inspect-readlink'], source: 'var/log/messages', line, captures: {}, aboutPod: false })),
      counts: {},
      truncated: false,
    },
  },
});

// Seed 003 case one: CrashLoopBackOff, "read-only file system" while mounting into the rootfs (docker).
const READ_ONLY_DOCKER =
  'Error: failed to start container "predictor": Error response from daemon: OCI runtime create failed: container_linux.go:348: starting ' +
  String.raw`container process caused "process_linux.go:402: container init caused \"rootfs_linux.go:58: mounting ` +
  String.raw`\\\"/mnt/disk0/k8s/kubelet/pods/ea9035f3-9ec5-11e8-af9c-0cc47adb93d8/volumes/kubernetes.io~empty-dir/log-entry--predictor--1\\\" to rootfs ` +
  String.raw`\\\"/mnt/disk0/docker/data/overlay2/962a78785442dc45bdf95e/merged\\\" at ` +
  String.raw`\\\"/mnt/disk0/docker/data/overlay2/962a78785442dc45b0f5/merged/collect/predictor/root/predictor/logs/predictor\\\" caused \\\"mkdir ` +
  String.raw`/mnt/disk0/docker/data/overlay2/962a78785442dc495e/merged/collect/predictor/root/predictor/logs/predictor: read-only file system\\\"\"": ` +
  'unknown';
const predictor = crashedPod(
  { container: 'predictor', exitCode: 128, reason: 'ContainerCannotRun', restarts: 5, runtime: 'docker' },
  { spec: { nodeName: 'm7-devops-128123', containers: [{ name: 'predictor', image: 'docker02:35000/prophet/predictor:3.2.0' }] } },
);

// The same failure under containerd/runc 1.1, as a StartError message.
const READ_ONLY_CONTAINERD =
  'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error ' +
  'during container init: error mounting "/var/lib/kubelet/pods/5b0c/volumes/kubernetes.io~empty-dir/logs" to rootfs at "/app/logs": mkdir ' +
  '/run/containerd/io.containerd.runtime.v2.task/k8s.io/9f2e/rootfs/app/logs: read-only file system: unknown';

// Near misses: ImageInspectError that is not a damaged image store. Offering to delete and pull
// the image again for these would be wrong advice.
const SHORT_NAME =
  'Failed to inspect image "nginx": rpc error: code = Unknown desc = short-name "nginx" did not resolve to an alias and no unqualified-search registries ' +
  'are defined in "/etc/containers/registries.conf"';
const IMAGE_STATUS_ERROR =
  'Failed to inspect image "registry.example.com/shop/web:1.4.2": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while ' +
  'dialing dial unix /run/containerd/containerd.sock: connect: connection refused"';

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'near miss (resolution vs corruption): a CRI-O short name is not a corrupt image',
      snapshot: snapshot(waitingPod('ImageInspectError', SHORT_NAME)),
    },
    {
      name: 'near miss (runtime vs image): the runtime socket refusing is not a corrupt image',
      snapshot: snapshot(waitingPod('ImageInspectError', IMAGE_STATUS_ERROR)),
    },
    {
      name: 'near miss (network vs local store): a pull that ends in unexpected EOF is the network, not the local copy',
      snapshot: snapshot(
        waitingPod(
          'ErrImagePull',
          'failed to pull and unpack image "docker.io/library/postgres:16": failed to copy: httpReadSeeker: failed open: failed to do request: Get ' +
            '"https://production.cloudflare.docker.com/registry-v2/docker/registry/v2/blobs/sha256/ab/ab12/data": unexpected EOF',
        ),
      ),
    },
    {
      name: 'inspect timing out is the runtime being slow, not a corrupt image',
      snapshot: snapshot(
        waitingPod('ImageInspectError', 'Failed to inspect image "nginx": rpc error: code = DeadlineExceeded desc = context deadline exceeded'),
      ),
    },
    {
      name: 'InvalidImageName (also an InspectFailed event) is not corruption',
      snapshot: snapshot(
        waitingPod(
          'InvalidImageName',
          'Failed to apply default image tag "busyBOX": couldn\'t parse image name "busyBOX": invalid reference format: repository name (library/busyBOX) ' +
            'must be lowercase',
        ),
        {
          events: [
            event(pod(), {
              reason: 'InspectFailed',
              message:
                'Failed to apply default image tag "busyBOX": couldn\'t parse image name "busyBOX": invalid reference format: repository name ' +
                '(library/busyBOX) must be lowercase',
            }),
          ],
        },
      ),
    },
  ],
  invalid: [
    {
      name: 'docker era (seed 003): ImageInspectError readlink, no node agent',
      snapshot: snapshot(pms, { events: pmsEvents }),
      expect: {
        severity: 'error',
        playbook: 'repull-image',
        causeKey: 'node/m7-devops-128107:corrupt-local',
        params: { node: 'm7-devops-128107', image: PMS, container: 'pms' },
        said: [{ id: 'agentMissing', data: { detail: /The node check journal could not run on m7-devops-128107 \(no node agent facts were collected\)/ } }],
        quotes: [/readlink \/mnt\/disk0\/docker\/data\/overlay2: invalid argument/],
      },
    },
    {
      name: 'the node agent journal confirms (dockerd FIXME readlink line)',
      snapshot: snapshot(pms, { events: pmsEvents, agent: agent([DOCKERD_LINE]) }),
      expect: { said: [{ id: 'logsConfirm', data: { lines: /Handler for GET \/v1\.31\/images/ } }] },
    },
    {
      name: 'docker era (seed 003): CrashLoopBackOff with read-only file system mounting into the rootfs',
      snapshot: snapshot(predictor, {
        events: [event(predictor, { reason: 'Failed', count: 5, message: READ_ONLY_DOCKER })],
        agent: { node: 'm7-devops-128123', probes: {} },
      }),
      expect: {
        params: { container: 'predictor' },
        said: [{ id: 'agentMissing', data: { detail: /could not run on m7-devops-128123 \(the journal probe was not run\)/ } }],
        quotes: [/read-only file system/],
      },
    },
    {
      name: 'containerd/runc 1.1: StartError with read-only rootfs',
      snapshot: snapshot(crashedPod({ exitCode: 128, reason: 'StartError', message: READ_ONLY_CONTAINERD })),
      expect: { causeKey: 'node/node-1:corrupt-local', quotes: [/error mounting/] },
    },
  ],
});

describe('image.corrupt-local', () => {
  it('supersedes crash.app-exit for a read-only rootfs crash', () => {
    const d = diagnose(snapshot(crashedPod({ exitCode: 128, reason: 'StartError', message: READ_ONLY_CONTAINERD })), { rules: [appExit, rule] });
    expect(d.findings.map((f) => f.rule)).toEqual(['image.corrupt-local']);
  });
});
