// Every object a failure involves is read with its events: the claim, its class, volume and
// attachment; the webhook a refusal names and its service; the component a failure points at;
// and a pod that does not exist, through its owner.
import { describe, expect, it } from 'vitest';
import { ago, event, node, pod, pvcObject, waitingPod } from '../../test/helpers/factories.js';
import { scriptedSource } from '../../test/helpers/jobs.js';
import type { FactName, KubeObject } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { ObjectsSource } from './objects-source.js';
import { ownerCandidates } from './owners.js';
import { collectSnapshot } from './snapshot.js';
import { volumeAttachmentName } from './storage.js';

const ALL: Set<FactName> = new Set([
  'pod',
  'events',
  'node',
  'nodeEvents',
  'owners',
  'pvcs',
  'claims',
  'webhooks',
  'serviceAccount',
  'components',
  'logs',
  'podsOnNode',
]);
const collect = (objects: unknown[], name: string, needs = ALL) =>
  collectSnapshot(new ObjectsSource(objects as KubeObject[]), { kind: 'pod', namespace: 'shop', name }, { cluster: 'c1', needs });

const sts = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'shop', uid: 'sts-uid' },
  spec: { replicas: 3 },
  status: { replicas: 2, readyReplicas: 2 },
};
const failedCreate = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.1', namespace: 'shop' },
  involvedObject: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', namespace: 'shop', uid: 'sts-uid' },
  reason: 'FailedCreate',
  type: 'Warning',
  count: 14,
  lastTimestamp: ago(20),
  message:
    'create Pod web-2 in StatefulSet web failed error: Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: Post "https://kyverno-svc.kyverno.svc:443/validate/fail?timeout=10s": no endpoints available for service "kyverno-svc"',
};

describe('owner candidates of a pod name', () => {
  it.each([
    ['web-2', 'StatefulSet web'],
    ['web-7d9f8c6b5-x2k4q', 'ReplicaSet web-7d9f8c6b5'],
    ['backup-29384721-x8k2p', 'ReplicaSet backup-29384721'],
    ['agent-x2k4q', 'ReplicaSet agent'],
  ])('%s points first at %s', (name, first) => {
    const c = ownerCandidates(name)[0];
    expect(`${c?.kind} ${c?.name}`).toBe(first);
  });
  it('includes the Deployment behind a ReplicaSet, the CronJob behind a Job, and the workload of its own name', () => {
    expect(ownerCandidates('web-7d9f8c6b5-x2k4q')).toContainEqual({ kind: 'Deployment', name: 'web' });
    expect(ownerCandidates('backup-29384721-x8k2p')).toContainEqual({ kind: 'CronJob', name: 'backup' });
    expect(ownerCandidates('web')).toContainEqual({ kind: 'Deployment', name: 'web' });
  });
});

describe('a pod that does not exist', () => {
  it('is diagnosed through the StatefulSet its name points at, with the webhook that refuses it and its endpoints', async () => {
    const hook = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'kyverno-resource-validating-webhook-cfg' },
      webhooks: [
        {
          name: 'validate.kyverno.svc-fail',
          failurePolicy: 'Fail',
          clientConfig: { service: { namespace: 'kyverno', name: 'kyverno-svc', path: '/validate/fail' } },
        },
      ],
    };
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'kyverno-svc', namespace: 'kyverno' }, spec: {} };
    const ep = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'kyverno-svc', namespace: 'kyverno' },
      subsets: [{ notReadyAddresses: [{ ip: '10.0.0.9' }] }],
    };
    const s = await collect([sts, failedCreate, hook, svc, ep], 'web-2');
    expect(s.pod).toBeUndefined();
    expect(s.missingPod).toEqual({ name: 'web-2', via: 'StatefulSet web' });
    expect(s.owners?.map((o) => `${o.kind}/${o.name}:${o.events.length}`)).toEqual(['StatefulSet/web:1']);
    expect(s.webhooks).toEqual([
      {
        configuration: 'ValidatingWebhookConfiguration/kyverno-resource-validating-webhook-cfg',
        name: 'validate.kyverno.svc-fail',
        failurePolicy: 'Fail',
        service: { namespace: 'kyverno', name: 'kyverno-svc', path: '/validate/fail' },
        serviceExists: true,
        endpoints: { ready: 0, notReady: 1 },
      },
    ]);
  });

  it('without any owner is a plain not found', async () => {
    const err = await collect([sts], 'api-7f9c4-abcde').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PodDoctorError);
    expect((err as PodDoctorError).code).toBe('TARGET_NOT_FOUND');
  });

  it('reads the service account a FailedCreate names, and says whether it exists now', async () => {
    const ev = {
      ...failedCreate,
      message:
        'create Pod web-2 in StatefulSet web failed error: pods "web-2" is forbidden: error looking up service account shop/web-sa: serviceaccount "web-sa" not found',
    };
    const other = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'shop' } };
    expect((await collect([sts, ev, other], 'web-2')).serviceAccount).toEqual({ name: 'web-sa', exists: false });
    const created = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'web-sa', namespace: 'shop' } };
    expect((await collect([sts, ev, created], 'web-2')).serviceAccount).toEqual({ name: 'web-sa', exists: true });
  });
});

describe('claims', () => {
  const pending = waitingPod('ContainerCreating', undefined, {
    metadata: { name: 'db-0' },
    spec: { nodeName: 'node-1', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }] },
  });

  it('are read with their own events and the class they name (null: no such class)', async () => {
    const claim = pvcObject('data-db-0', { spec: { storageClassName: 'fast-ssd' } });
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'data-db-0.1', namespace: 'shop' },
      involvedObject: { kind: 'PersistentVolumeClaim', name: 'data-db-0', namespace: 'shop' },
      reason: 'ProvisioningFailed',
      type: 'Warning',
      message: 'storageclass.storage.k8s.io "fast-ssd" not found',
    };
    const standard = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard' }, provisioner: 'ebs.csi.aws.com' };
    const s = await collect([pending, node({ metadata: { name: 'node-1' } }), claim, ev, standard], 'db-0');
    expect(s.claims).toHaveLength(1);
    expect(s.claims?.[0]?.events.map((e) => e.reason)).toEqual(['ProvisioningFailed']);
    expect(s.claims?.[0]?.storageClass).toBeNull();
    expect(s.pvcs?.['data-db-0']?.metadata?.name).toBe('data-db-0');
  });

  it('saved objects without any StorageClass cannot tell a missing class: a gap, not a null', async () => {
    const claim = pvcObject('data-db-0', { spec: { storageClassName: 'fast-ssd' } });
    const s = await collect([pending, claim], 'db-0');
    expect(s.claims?.[0]?.storageClass).toBeUndefined();
    expect(s.gaps).toContainEqual(expect.objectContaining({ check: 'storageclass fast-ssd', kind: 'unavailable' }));
  });

  it('follow a bound CSI volume to its attachment on the pod node', async () => {
    const claim = pvcObject('data-db-0', { spec: { volumeName: 'pvc-1' }, status: { phase: 'Bound' } });
    const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pvc-1' }, spec: { csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-1' } } };
    const va = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: volumeAttachmentName('vol-1', 'ebs.csi.aws.com', 'node-1') },
      spec: { attacher: 'ebs.csi.aws.com', nodeName: 'node-1', source: { persistentVolumeName: 'pvc-1' } },
      status: {
        attached: false,
        attachError: { message: 'rpc error: code = Internal desc = Could not attach volume "vol-1" to node "i-0abc"', time: ago(30) },
      },
    };
    const s = await collect([pending, node({ metadata: { name: 'node-1' } }), claim, pv, va], 'db-0');
    expect(s.claims?.[0]?.volume?.metadata?.name).toBe('pvc-1');
    expect((s.claims?.[0]?.attachment?.status as { attached?: boolean } | undefined)?.attached).toBe(false);
  });

  it('of a Ready pod are not followed (no events, classes or attachments read)', async () => {
    const ready = pod({
      metadata: { name: 'db-0' },
      spec: { nodeName: 'node-1', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }] },
    });
    const source = scriptedSource([ready, node({ metadata: { name: 'node-1' } }), pvcObject('data-db-0')] as KubeObject[]);
    const s = await collectSnapshot(source, { kind: 'pod', namespace: 'shop', name: 'db-0' }, { cluster: 'c1', needs: ALL });
    expect(s.claims).toBeUndefined();
    expect(source.calls).not.toContain('listObjectEvents');
    expect(source.calls).not.toContain('getStorageClass');
  });
});

describe('components a failure points at', () => {
  it('reads cluster DNS when the crashed run could not resolve a name', async () => {
    const crashed = waitingPod('CrashLoopBackOff', 'back-off 40s restarting failed container=api', {
      metadata: { name: 'api-0' },
      spec: { nodeName: 'node-1' },
      status: {
        containerStatuses: [
          {
            name: 'web',
            ready: false,
            restartCount: 4,
            image: 'x',
            imageID: '',
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error', message: 'dial tcp: lookup postgres.db on 10.96.0.10:53: server misbehaving' } },
          },
        ],
      },
    });
    const coredns = pod({ metadata: { name: 'coredns-5d78c9869d-abcde', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } } });
    const s = await collect([crashed, node({ metadata: { name: 'node-1' } }), coredns], 'api-0');
    expect(s.components).toEqual([expect.objectContaining({ role: 'dns', why: expect.stringContaining('server misbehaving') })]);
    expect(s.components?.[0]?.pods.map((p) => p.metadata?.name)).toEqual(['coredns-5d78c9869d-abcde']);
  });

  it("does not read cluster DNS for an image pull's DNS failure (the node's resolver pulls images)", async () => {
    const pulling = waitingPod(
      'ErrImagePull',
      'failed to pull and unpack image "registry.example.com/x:1": failed to resolve reference: dial tcp: lookup registry.example.com on 10.0.0.2:53: no such host',
      {
        metadata: { name: 'api-0' },
        spec: { nodeName: 'node-1' },
      },
    );
    const coredns = pod({ metadata: { name: 'coredns-5d78c9869d-abcde', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } } });
    const s = await collect([pulling, node({ metadata: { name: 'node-1' } }), coredns], 'api-0');
    expect(s.components).toBeUndefined();
  });

  it('reads the CNI agent on the node when the sandbox has no network', async () => {
    const stuck = waitingPod('ContainerCreating', undefined, { metadata: { name: 'api-0' }, spec: { nodeName: 'node-1' } });
    const ev = event(stuck, {
      reason: 'FailedCreatePodSandBox',
      message:
        'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "0a1b": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/',
    });
    const agent = pod({
      metadata: {
        name: 'calico-node-x8k2p',
        namespace: 'calico-system',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'calico-node', uid: 'ds', controller: true }],
      },
      spec: { nodeName: 'node-1' },
    });
    const s = await collect([stuck, ev, node({ metadata: { name: 'node-1' } }), agent], 'api-0');
    expect(s.components).toEqual([expect.objectContaining({ role: 'cni', name: 'calico' })]);
    expect(s.components?.[0]?.pods.map((p) => p.metadata?.name)).toEqual(['calico-node-x8k2p']);
  });

  it('reads nothing for a healthy pod', async () => {
    const source = scriptedSource([pod({ spec: { nodeName: 'node-1' } }), node({ metadata: { name: 'node-1' } })] as KubeObject[]);
    await collectSnapshot(source, { kind: 'pod', namespace: 'shop', name: 'web-7d9f8c6b5-x2k4q' }, { cluster: 'c1', needs: ALL });
    expect(source.calls).not.toContain('getCsiNode');
    expect(source.calls).not.toContain('listWebhookConfigurations');
    expect(source.calls).not.toContain('listNodeEvents');
    expect(source.calls.filter((c) => c === 'listPods')).toHaveLength(1);
  });
});
