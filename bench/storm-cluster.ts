// The simulated cluster of bench:storm: mostly healthy pods, plus pods broken by a few seeded
// root causes, each shared by many pods (what an alert storm looks like). Objects are written
// against the factories' NOW and shifted to the real clock by the caller.
import type { Event, KubeObject, Pod, Target } from '../src/diagnosis/types.js';
import { ago, event, failedScheduling, lostNode, node, pod, unscheduledPod, waitingPod } from '../test/helpers/factories.js';

export interface SeededCause {
  /** Short name used in the output. */
  name: string;
  rule: string;
  causeKey: string;
  pods: number;
}

export interface StormCluster {
  objects: KubeObject[];
  /** Broken pods (the ones alerts fire for), with the cause each was given. */
  broken: { target: Target & { kind: 'pod' }; cause: string }[];
  causes: SeededCause[];
}

const NAMESPACES = ['shop', 'pay', 'search', 'ml', 'edge'];
const AUTH_IMAGE = 'ghcr.io/acme/private:2.1';
const AUTH_ERROR = `failed to pull and unpack image "${AUTH_IMAGE}": failed to resolve reference "${AUTH_IMAGE}": failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://ghcr.io/token?scope=repository%3Aacme%2Fprivate%3Apull&service=ghcr.io: 401 Unauthorized`;
const SCHEDULING = '0/100 nodes are available: 100 Insufficient cpu. preemption: 0/100 nodes are available: 100 No preemption victims found for incoming pod.';

type Breaker = (name: string, namespace: string, nodeName: string) => { pod: Pod; events: Event[] };

/**
 * The seeded causes, in the order pods are assigned to them. Keys are what each rule says for
 * these pods (checked by the bench: a pod grouped elsewhere counts as misgrouped).
 */
const BREAKERS: (Omit<SeededCause, 'causeKey'> & { causeKey: (ns: string) => string; make: Breaker; share: number })[] = [
  {
    name: 'lost-node',
    rule: 'terminating.node-lost',
    causeKey: () => 'node/node-lost',
    share: 0.25,
    pods: 0,
    make: (name, namespace) => ({
      pod: pod({ metadata: { name, namespace, deletionTimestamp: ago(600), deletionGracePeriodSeconds: 30 }, spec: { nodeName: 'node-lost' } }),
      events: [],
    }),
  },
  {
    name: 'registry-auth',
    rule: 'image.auth',
    causeKey: () => `image/${AUTH_IMAGE}:auth`,
    share: 0.25,
    pods: 0,
    make: (name, namespace, nodeName) => {
      const p = waitingPod('ErrImagePull', AUTH_ERROR, { metadata: { name, namespace }, spec: { nodeName, containers: [{ name: 'web', image: AUTH_IMAGE }] } });
      return { pod: p, events: [event(p, { reason: 'Failed', count: 6, message: `Failed to pull image "${AUTH_IMAGE}": ${AUTH_ERROR}`, host: nodeName })] };
    },
  },
  {
    name: 'missing-configmap',
    rule: 'config.missing-reference',
    causeKey: (ns) => `configmap/${ns}/app-config`,
    share: 0.2,
    pods: 0,
    make: (name, namespace, nodeName) => {
      const p = waitingPod('CreateContainerConfigError', 'configmap "app-config" not found', {
        metadata: { name, namespace },
        spec: {
          nodeName,
          containers: [
            {
              name: 'web',
              image: 'registry.example.com/shop/web:1.4.2',
              env: [{ name: 'DB_HOST', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'DB_HOST' } } }],
            },
          ],
        },
      });
      return { pod: p, events: [event(p, { reason: 'Failed', count: 12, message: 'Error: configmap "app-config" not found', host: nodeName })] };
    },
  },
  {
    name: 'insufficient-cpu',
    rule: 'pending.insufficient-resources',
    causeKey: () => 'resource:cpu',
    share: 0.1,
    pods: 0,
    make: (name, namespace) => {
      const p = unscheduledPod(SCHEDULING, {
        metadata: { name, namespace },
        spec: { containers: [{ name: 'web', image: 'registry.example.com/ml/train:3', resources: { requests: { cpu: '64', memory: '1Gi' } } }] },
      });
      return { pod: p, events: [failedScheduling(p, SCHEDULING)] };
    },
  },
  {
    name: 'finalizers',
    rule: 'terminating.finalizers',
    causeKey: () => 'finalizers:example.com/cleanup',
    share: 0.2,
    pods: 0,
    make: (name, namespace, nodeName) => ({
      pod: pod({
        metadata: { name, namespace, deletionTimestamp: ago(900), deletionGracePeriodSeconds: 30, finalizers: ['example.com/cleanup'] },
        spec: { nodeName },
      }),
      events: [],
    }),
  },
];

/**
 * `total` pods on `nodes` Ready nodes plus one lost node; `broken` of them spread over the
 * seeded causes (every cause in one namespace, so a namespaced cause key is shared too).
 */
export function buildStormCluster(options: { total: number; broken: number; nodes: number }): StormCluster {
  const objects: KubeObject[] = [];
  const broken: StormCluster['broken'] = [];
  for (let n = 0; n < options.nodes; n++) objects.push(node({ metadata: { name: `node-${n}` } }) as KubeObject);
  objects.push(lostNode('node-lost', 900) as KubeObject);
  objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other-config', namespace: 'shop' }, data: {} });

  const causes: SeededCause[] = [];
  let index = 0;
  BREAKERS.forEach((b, ci) => {
    const count = ci === BREAKERS.length - 1 ? options.broken - index : Math.round(options.broken * b.share);
    const namespace = NAMESPACES[ci % NAMESPACES.length]!;
    for (let i = 0; i < count; i++, index++) {
      const name = `${b.name}-${i}`;
      const made = b.make(name, namespace, `node-${index % options.nodes}`);
      objects.push(made.pod as KubeObject, ...(made.events as KubeObject[]));
      broken.push({ target: { kind: 'pod', namespace, name }, cause: b.name });
    }
    causes.push({ name: b.name, rule: b.rule, causeKey: b.causeKey(namespace), pods: count });
  });
  for (let i = index; i < options.total; i++) {
    const namespace = NAMESPACES[i % NAMESPACES.length]!;
    objects.push(pod({ metadata: { name: `app-${i}`, namespace }, spec: { nodeName: `node-${i % options.nodes}` } }) as KubeObject);
  }
  return { objects, broken, causes };
}
