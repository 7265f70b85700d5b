import { ago, cloudNode, completedJobPod, daemonSetPod, event, ownerFact, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { KubeObject } from '../types.js';
import { rule } from './admission-rejected.js';

const rsObject = (replicas: number, created: number): Partial<KubeObject> => ({ spec: { replicas }, status: { replicas: created } });
const failedCreate = (kind: string, name: string, message: string, lastSeenAgo = 60, component = `${kind.toLowerCase()}-controller`) =>
  event(
    { kind, metadata: { name, namespace: 'shop' } },
    { reason: 'FailedCreate', message, count: 12, lastSeenAgo, component, involved: { kind, name, namespace: 'shop' } },
  );

const quota =
  'Error creating: pods "web-7d9f8c6b5-abcde" is forbidden: exceeded quota: compute-resources, ' +
  'requested: limits.cpu=2, used: limits.cpu=8, limited: limits.cpu=8';
const podSecurity =
  'create Pod db-0 in StatefulSet db failed error: pods "db-0" is forbidden: violates PodSecurity "restricted:latest": ' +
  'allowPrivilegeEscalation != false (container "db" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "db" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "db" must set securityContext.runAsNonRoot=true)';
const limitRange = 'Error creating: pods "report-28791230-x7k2p" is forbidden: maximum cpu usage per Container is 2, but limit is 4';
const missing = { target: { kind: 'pod' as const, namespace: 'shop', name: 'web-7d9f8c6b5-abcde' } };

testRule(rule, {
  valid: [
    { name: 'healthy pod, owner without refusals', snapshot: snapshot(pod(), { owners: [ownerFact('ReplicaSet', 'web-7d9f8c6b5', rsObject(2, 2))] }) },
    {
      name: 'an old quota refusal on a ReplicaSet that has all its pods now',
      snapshot: snapshot(pod(), {
        owners: [ownerFact('ReplicaSet', 'web-7d9f8c6b5', rsObject(3, 3), [failedCreate('ReplicaSet', 'web-7d9f8c6b5', quota, 7200)])],
      }),
    },
    {
      name: 'completed Job pod',
      snapshot: snapshot(completedJobPod(), {
        owners: [ownerFact('Job', 'report-28791230', undefined, [failedCreate('Job', 'report-28791230', limitRange, 60, 'job-controller')])],
      }),
    },
    {
      name: 'DaemonSet pod on a healthy GKE node',
      snapshot: snapshot(daemonSetPod(), {
        node: cloudNode('gke'),
        owners: [ownerFact('DaemonSet', 'node-exporter', { status: { desiredNumberScheduled: 3, currentNumberScheduled: 3 } })],
      }),
    },
  ],
  invalid: [
    {
      name: 'StatefulSet FailedCreate: the ServiceAccount does not exist (and still does not)',
      snapshot: snapshot(undefined, {
        target: { kind: 'pod', namespace: 'shop', name: 'minio-0' },
        serviceAccount: { name: 'minio-sa', exists: false },
        owners: [
          ownerFact('StatefulSet', 'minio', rsObject(1, 0), [
            failedCreate(
              'StatefulSet',
              'minio',
              'create Pod minio-0 in StatefulSet minio failed error: pods "minio-0" is forbidden: ' +
                'error looking up service account shop/minio-sa: serviceaccount "minio-sa" not found',
            ),
          ]),
        ],
      }),
      expect: {
        params: { policy: 'serviceaccount', policyName: 'minio-sa' },
        said: [{ id: 'detailSeen', data: { detail: /serviceaccount "minio-sa" not found/ } }, 'serviceAccountStillMissing'],
      },
    },
    {
      name: 'ReplicaSet FailedCreate: the PriorityClass does not exist',
      snapshot: snapshot(undefined, {
        ...missing,
        owners: [
          ownerFact('ReplicaSet', 'web-7d9f8c6b5', rsObject(2, 0), [
            failedCreate(
              'ReplicaSet',
              'web-7d9f8c6b5',
              'Error creating: pods "web-7d9f8c6b5-abcde" is forbidden: no PriorityClass with name critical-apps was found',
            ),
          ]),
        ],
      }),
      expect: { params: { policy: 'priorityclass', policyName: 'critical-apps' } },
    },
    {
      name: 'LimitRange: a minimum with no request specified',
      snapshot: snapshot(undefined, {
        ...missing,
        owners: [
          ownerFact('ReplicaSet', 'web-7d9f8c6b5', rsObject(2, 0), [
            failedCreate(
              'ReplicaSet',
              'web-7d9f8c6b5',
              'Error creating: pods "web-7d9f8c6b5-abcde" is forbidden: minimum cpu usage per Container is 100m.  No request is specified',
            ),
          ]),
        ],
      }),
      expect: { params: { policy: 'limitrange', policyName: 'cpu' } },
    },
    {
      name: 'ReplicaSet FailedCreate: exceeded quota, the pod never exists',
      snapshot: snapshot(undefined, {
        ...missing,
        owners: [
          ownerFact('ReplicaSet', 'web-7d9f8c6b5', rsObject(3, 2), [failedCreate('ReplicaSet', 'web-7d9f8c6b5', quota)]),
          ownerFact('Deployment', 'web'),
        ],
      }),
      expect: {
        severity: 'error',
        causeKey: 'quota:shop:compute-resources',
        params: { namespace: 'shop', policy: 'quota', policyName: 'compute-resources', ownerKind: 'ReplicaSet', ownerName: 'web-7d9f8c6b5' },
        said: [
          { id: 'titleQuota', data: { name: 'compute-resources' } },
          { id: 'detailSeen', data: { detail: /limits\.cpu=2/ } },
        ],
      },
    },
    {
      name: 'StatefulSet FailedCreate: violates PodSecurity restricted',
      snapshot: snapshot(undefined, {
        target: { kind: 'pod', namespace: 'shop', name: 'db-0' },
        owners: [ownerFact('StatefulSet', 'db', rsObject(1, 0), [failedCreate('StatefulSet', 'db', podSecurity, 30, 'statefulset-controller')])],
      }),
      expect: { causeKey: 'podsecurity:shop:restricted:latest', said: [{ id: 'detailSeen', data: { detail: /allowPrivilegeEscalation != false/ } }] },
    },
    {
      name: 'Job FailedCreate: LimitRange maximum per Container (events only, no object)',
      snapshot: snapshot(undefined, {
        ...missing,
        owners: [ownerFact('Job', 'report-28791230', undefined, [failedCreate('Job', 'report-28791230', limitRange, 120, 'job-controller')])],
      }),
      expect: { causeKey: 'limitrange:shop:cpu', said: [{ id: 'detailSeen', data: { detail: 'maximum cpu usage per Container is 2, but limit is 4' } }] },
    },
    {
      name: 'an existing sibling: the Deployment reports ReplicaFailure for its new ReplicaSet',
      snapshot: snapshot(pod(), {
        owners: [
          ownerFact('ReplicaSet', 'web-7d9f8c6b5', rsObject(2, 2)),
          ownerFact('Deployment', 'web', { status: { conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: quota }] } }),
        ],
      }),
      expect: {
        severity: 'warning',
        causeKey: 'quota:shop:compute-resources',
        said: ['neverCreatedSiblings', { id: 'titleQuota', data: { name: 'compute-resources', who: 'Deployment web' } }],
      },
    },
    {
      name: 'a ReplicaFailure condition says how long ago it was last set',
      snapshot: snapshot(pod(), {
        owners: [
          ownerFact('ReplicaSet', 'web-7d9f8c6b5', rsObject(2, 2)),
          ownerFact('Deployment', 'web', {
            status: {
              conditions: [
                { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: quota, lastUpdateTime: ago(300), lastTransitionTime: ago(900) },
              ],
            },
          }),
        ],
      }),
      expect: { severity: 'warning', causeKey: 'quota:shop:compute-resources', said: [{ id: 'detailSeen', data: { age: '5m' } }] },
    },
  ],
});
