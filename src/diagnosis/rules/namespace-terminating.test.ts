import { ago, cloudNode, completedJobPod, daemonSetPod, namespaceObject, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import type { Snapshot } from '../types.js';
import { rule } from './namespace-terminating.js';

const nsTarget = (name: string, more: Partial<Snapshot>): Snapshot => ({ ...snapshot(undefined), target: { kind: 'namespace', name }, ...more });
const terminating = (name: string, deletedAgo: number, conditions: { type: string; status: string; reason: string; message: string }[] = []) =>
  namespaceObject(name, { metadata: { deletionTimestamp: ago(deletedAgo) }, status: { phase: 'Terminating', conditions } });

// The 1.16+ namespace controller's conditions while it is working: every check fine, content left.
const working = (remaining: string) => [
  { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  {
    type: 'NamespaceDeletionContentFailure',
    status: 'False',
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${remaining}` },
  { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
];

testRule(rule, {
  valid: [
    { name: 'healthy pod in an Active namespace', snapshot: snapshot(pod(), { namespace: namespaceObject('shop') }) },
    { name: 'Active namespace as target', snapshot: nsTarget('shop', { namespace: namespaceObject('shop') }) },
    {
      name: 'namespace deleted a minute ago (still cleaning up)',
      snapshot: nsTarget('tmp', { namespace: terminating('tmp', 60), namespaceContents: [{ kind: 'Pod', names: ['a'] }] }),
    },
    { name: 'completed Job pod', snapshot: snapshot(completedJobPod(), { namespace: namespaceObject('shop') }) },
    { name: 'completed Job pod in a Terminating namespace', snapshot: snapshot(completedJobPod(), { namespace: terminating('shop', 7200) }) },
    { name: 'DaemonSet pod on a healthy AKS node', snapshot: snapshot(daemonSetPod(), { node: cloudNode('aks'), namespace: namespaceObject('monitoring') }) },
    {
      name: 'near miss (contents still being deleted normally vs stuck): Kafka brokers inside their 10-minute grace period',
      snapshot: nsTarget('streaming', {
        namespace: terminating('streaming', 420, working('pods. has 3 resource instances')),
        namespaceContents: [{ kind: 'Pod', names: ['kafka-0', 'kafka-1', 'kafka-2'] }],
      }),
    },
    {
      name: 'near miss (a big namespace still being emptied vs stuck): thousands of CI objects, no finalizer holds any',
      snapshot: nsTarget('ci-runs', {
        namespace: terminating('ci-runs', 900, working('configmaps. has 1450 resource instances, secrets. has 2213 resource instances')),
        namespaceContents: [
          { kind: 'ConfigMap', names: Array.from({ length: 1450 }, (_, i) => `run-${i}-env`) },
          { kind: 'Secret', names: Array.from({ length: 2213 }, (_, i) => `run-${i}-token`) },
        ],
      }),
    },
  ],
  invalid: [
    {
      name: 'finalizers remaining on a PVC (1.16+ conditions)',
      snapshot: nsTarget('legacy', {
        namespace: terminating('legacy', 3 * 3600, [
          { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
          {
            type: 'NamespaceContentRemaining',
            status: 'True',
            reason: 'SomeResourcesRemain',
            message: 'Some resources are remaining: persistentvolumeclaims. has 1 resource instances',
          },
          {
            type: 'NamespaceFinalizersRemaining',
            status: 'True',
            reason: 'SomeFinalizersRemain',
            message: 'Some content in the namespace has finalizers remaining: kubernetes.io/pvc-protection in 1 resource instances',
          },
        ]),
        namespaceContents: [
          { kind: 'PersistentVolumeClaim', names: ['data-db-0'] },
          { kind: 'Pod', names: [] },
        ],
      }),
      expect: {
        severity: 'error',
        playbook: 'clear-namespace-finalizers',
        causeKey: 'namespace/legacy',
        params: { namespace: 'legacy', requiresTwoApprovals: true, remaining: ['PersistentVolumeClaim'] },
        said: [
          { id: 'finalizersRemaining', data: { detail: /kubernetes\.io\/pvc-protection/ } },
          { id: 'stuckTitle', data: { since: '3h' } },
        ],
        quotes: [/PersistentVolumeClaim: data-db-0/],
      },
    },
    {
      name: 'discovery failure from an unavailable APIService, nothing left',
      snapshot: nsTarget('old-app', {
        namespace: terminating('old-app', 86400, [
          {
            type: 'NamespaceDeletionDiscoveryFailure',
            status: 'True',
            reason: 'DiscoveryFailed',
            message:
              'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: ' +
              'metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
          },
        ]),
        namespaceContents: [],
      }),
      expect: { said: [{ id: 'discoveryFailure', data: { detail: /metrics\.k8s\.io\/v1beta1/ } }] },
    },
    {
      name: 'pre-1.16 cluster: no conditions, only spec.finalizers and what is left',
      snapshot: nsTarget('ci', {
        namespace: namespaceObject('ci', {
          metadata: { deletionTimestamp: ago(1800) },
          spec: { finalizers: ['kubernetes'] },
          status: { phase: 'Terminating' },
        }),
        namespaceContents: [{ kind: 'Pod', names: ['runner-1', 'runner-2'] }],
      }),
      expect: { said: [{ id: 'contentsLeft', data: { objects: '2 Pod' } }], quotes: [/\["kubernetes"\]/] },
    },
    {
      name: 'a pod target in a Terminating namespace (context finding)',
      snapshot: snapshot(pod({ metadata: { namespace: 'legacy' } }), {
        namespace: terminating('legacy', 7200),
        namespaceContents: [{ kind: 'Pod', names: ['web-7d9f8c6b5-x2k4q'] }],
      }),
      expect: { severity: 'warning', causeKey: 'namespace/legacy' },
    },
  ],
});
