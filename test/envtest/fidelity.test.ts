// Fidelity of the simulated API: every request the product makes (src/collect/operations.ts),
// sent the way the product sends it, to the simulated API and to a real kube-apiserver 1.20,
// must have the same outcome: status code, Status reason/code/message, and the object state
// that matters (finalizers, deletion, spec/status changes, list membership). Each case runs
// on both servers in a namespace of its own; the suite fails when an operation of the list is
// not exercised by any case.
//
// The real server runs without scheduler and controller-manager (what the sim models: no
// kubelet, no controllers) and without the ServiceAccount admission plugin (it needs the
// token controller). A KubeletLogServer answers the pods/log proxy as a kubelet would.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_ACTIONS } from '../../src/agent/actions/types.js';
import type { AuditEntry } from '../../src/audit/entry.js';
import { writeAuditEvent } from '../../src/audit/events.js';
import { KubeSource } from '../../src/collect/kube-source.js';
import { API_OPERATIONS, operationKey, operationKeys } from '../../src/collect/operations.js';
import { volumeAttachmentName } from '../../src/collect/storage.js';
import { ACTIONS, type ActionDef, type StepContext } from '../../src/remediation/actions/index.js';
import { silent } from '../helpers/logger.js';
import { type Backend, lifecycle, names, operationOf, outcome, PRODUCT_ACCOUNTS, realBackend, simBackend, stripVolatile } from './backends.js';
import { type ControlPlane, findBinaries, type KubeObject, type KubeResponse, sleep } from './harness.js';

const bins = findBinaries();
const missing = 'missing' in bins ? bins.missing : undefined;
if (missing) console.warn(`[envtest] SKIPPED: control-plane binaries absent (${missing})`);

const IMAGE = 'registry.example.com/app:1.0';
const META_ONLY = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const UID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

type Outcome = Record<string, unknown>;

interface PodOptions {
  node?: string;
  labels?: Record<string, string>;
  finalizers?: string[];
  containers?: Array<Record<string, unknown>>;
}

function pod(name: string, o: PodOptions = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(o.labels ? { labels: o.labels } : {}), ...(o.finalizers ? { finalizers: o.finalizers } : {}) },
    spec: {
      ...(o.node ? { nodeName: o.node } : {}),
      containers: o.containers ?? [{ name: 'app', image: IMAGE }],
      terminationGracePeriodSeconds: 30,
    },
  };
}

function node(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec: {} };
}

const podsPath = (ns: string) => `/api/v1/namespaces/${ns}/pods`;
const podPath = (ns: string, name: string) => `${podsPath(ns)}/${name}`;

/** Creates or fails the case: setup requests must succeed on both servers. */
async function must(res: Promise<KubeResponse>, what: string): Promise<KubeObject> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
  return r.body as KubeObject;
}

async function createPod(b: Backend, ns: string, p: KubeObject): Promise<KubeObject> {
  return must(b.client.request('POST', podsPath(ns), { body: p }), `create pod ${p.metadata.name}`);
}

async function getPod(b: Backend, ns: string, name: string): Promise<KubeObject | null> {
  const r = await b.client.request('GET', podPath(ns, name));
  return r.status === 404 ? null : (r.body as KubeObject);
}

/** A node registered the way a kubelet does: object, then status with addresses and kubelet port. */
async function createNode(b: Backend, name: string, labels: Record<string, string> = {}): Promise<KubeObject> {
  await must(b.client.request('POST', '/api/v1/nodes', { body: node(name, labels) }), `create node ${name}`);
  return must(
    b.client.request('PATCH', `/api/v1/nodes/${name}/status`, {
      contentType: 'application/merge-patch+json',
      body: {
        status: {
          addresses: [
            { type: 'InternalIP', address: '127.0.0.1' },
            { type: 'Hostname', address: name },
          ],
          daemonEndpoints: { kubeletEndpoint: { Port: b.kubeletPort } },
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
              lastHeartbeatTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
              lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          ],
        },
      },
    }),
    `node ${name} status`,
  );
}

/** Running status with a restarted container, as a kubelet reports it. */
async function markRunning(b: Backend, ns: string, name: string, opts: { restarted?: boolean } = {}): Promise<KubeObject> {
  const t = '2026-01-01T00:00:00Z';
  return must(
    b.client.request('PATCH', `${podPath(ns, name)}/status`, {
      contentType: 'application/merge-patch+json',
      body: {
        status: {
          phase: 'Running',
          hostIP: '127.0.0.1',
          podIP: '10.244.1.5',
          startTime: t,
          containerStatuses: [
            {
              name: 'app',
              image: IMAGE,
              imageID: `${IMAGE}@sha256:${'a'.repeat(64)}`,
              containerID: `containerd://${'b'.repeat(64)}`,
              ready: true,
              started: true,
              restartCount: opts.restarted ? 1 : 0,
              state: { running: { startedAt: t } },
              lastState: opts.restarted
                ? { terminated: { exitCode: 1, reason: 'Error', startedAt: t, finishedAt: t, containerID: `containerd://${'c'.repeat(64)}` } }
                : {},
            },
          ],
        },
      },
    }),
    `status of ${name}`,
  );
}

function stepContext(b: Backend): StepContext {
  return {
    kube: b.source,
    target: { kind: 'pod', namespace: 'default', name: 'unused' },
    signal: new AbortController().signal,
    log: silent,
    diagnose: () => Promise.reject(new Error('not used by this step')),
    sleep: () => Promise.resolve(),
  };
}

/** Step kinds that act through the node agent or not at all: no Kubernetes request of their own. */
const NON_KUBERNETES_STEPS = new Set<string>([...AGENT_ACTIONS, 'wait', 'rediagnose']);
/**
 * KubeSource members that are not FactSource reads of their own: helpers of the others, and the
 * views (`sharing`, `throttled`, `writingAs`) and counters that change how requests are sent, not what they ask.
 */
const SOURCE_HELPERS = new Set([
  'constructor',
  'object',
  'items',
  'json',
  'get',
  'url',
  'connection',
  'fetch',
  'sharing',
  'throttled',
  'writingAs',
  'readStats',
]);
const stepsRun = new Set<string>();

/** Runs a playbook step with the product's code: its detail line, or the failure and its HTTP status. */
async function runStep(b: Backend, kind: string, params: Record<string, unknown>): Promise<Outcome> {
  const action = ACTIONS[kind] as ActionDef | undefined;
  if (!action) throw new Error(`no step kind ${kind}`);
  stepsRun.add(kind);
  try {
    const out = await action.run(stepContext(b), action.params.parse(params));
    return { ok: out.detail.replace(UID_RE, '<uid>') };
  } catch (err) {
    const e = err as { message?: string; options?: { status?: number } };
    return { failed: (e.message ?? String(err)).replace(UID_RE, '<uid>'), status: e.options?.status };
  }
}

/** The product's read, its result reduced to what the rules use. */
async function product<T>(read: () => Promise<T>, reduce: (v: T) => unknown = (v) => stripVolatile(v)): Promise<unknown> {
  try {
    return { value: reduce(await read()) };
  } catch (err) {
    const e = err as { code?: number; message?: string };
    return { error: e.code ?? e.message };
  }
}

interface Case {
  name: string;
  run(b: Backend, ns: string): Promise<Outcome>;
}

const CASES: Case[] = [
  {
    name: 'pods: create, get, NotFound (KubeSource.getPod)',
    async run(b, ns) {
      const created = await b.client.request('POST', podsPath(ns), { body: pod('web', { labels: { app: 'web' } }) });
      const dup = await b.client.request('POST', podsPath(ns), { body: pod('web') });
      const got = await b.client.request('GET', podPath(ns, 'web'));
      const absent = await b.client.request('GET', podPath(ns, 'absent'));
      return {
        create: outcome(created),
        // The whole stored pod: defaults and admission-added fields (tolerations) included.
        stored: stripVolatile(created.body),
        duplicate: outcome(dup),
        get: outcome(got),
        absent: outcome(absent),
        product: await product(
          () => b.source.getPod(ns, 'web'),
          (p) => stripVolatile(p),
        ),
        productAbsent: await product(() => b.source.getPod(ns, 'absent')),
      };
    },
  },
  {
    name: 'pods: list with field and label selectors (KubeSource.listPods)',
    async run(b, ns) {
      const n1 = `${ns}-n1`;
      await createPod(b, ns, pod('a', { node: n1, labels: { app: 'web', tier: 'front' } }));
      await createPod(b, ns, pod('b', { node: `${ns}-n2`, labels: { app: 'web' } }));
      await createPod(b, ns, pod('c', { labels: { app: 'db' } }));
      const list = (query: Record<string, string>, all = false) => b.client.request('GET', all ? '/api/v1/pods' : podsPath(ns), { query });
      const listed = async (query: Record<string, string>, all = false) => {
        const r = await list(query, all);
        return r.status === 200 ? { status: 200, names: names(r.body).filter((n) => n.startsWith(`${ns}/`)) } : outcome(r);
      };
      return {
        byLabel: await listed({ labelSelector: 'app=web' }),
        bySetLabel: await listed({ labelSelector: 'app in (web,db),tier!=front' }),
        byExists: await listed({ labelSelector: '!tier' }),
        byNode: await listed({ fieldSelector: `spec.nodeName=${n1}` }),
        unbound: await listed({ fieldSelector: 'spec.nodeName=' }),
        byName: await listed({ fieldSelector: 'metadata.name=b' }),
        both: await listed({ fieldSelector: `spec.nodeName=${n1}`, labelSelector: 'app=web' }),
        allNamespacesByNode: await listed({ fieldSelector: `spec.nodeName=${n1}` }, true),
        schedulerPods: await listed({ labelSelector: 'component=kube-scheduler' }),
        badField: outcome(await list({ fieldSelector: 'spec.image=x' })),
        badLabel: outcome(await list({ labelSelector: 'app==' })),
        productNs: await product(
          () => b.source.listPods({ namespace: ns, labelSelector: 'app=web' }),
          (ps) => ps.map((p) => p.metadata?.name).sort(),
        ),
        productNode: await product(
          () => b.source.listPods({ nodeName: n1 }),
          (ps) => ps.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`).sort(),
        ),
      };
    },
  },
  {
    name: 'events: list by involvedObject and type (KubeSource.listPodEvents / listNodeEvents / listObjectEvents / listNamespaceWarnings)',
    async run(b, ns) {
      const p = await createPod(b, ns, pod('web'));
      const nodeName = `${ns}-node`;
      const event = (name: string, namespace: string, involved: Record<string, unknown>, reason: string) => ({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: involved,
        reason,
        message: `${reason} happened`,
        type: 'Warning',
        source: { component: 'test' },
        firstTimestamp: '2026-01-01T00:00:00Z',
        lastTimestamp: '2026-01-01T00:00:00Z',
        count: 1,
      });
      const podRef = { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'web', uid: p.metadata.uid };
      await must(b.client.request('POST', `/api/v1/namespaces/${ns}/events`, { body: event('web.1', ns, podRef, 'FailedScheduling') }), 'event');
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/events`, {
          body: event('web.2', ns, { ...podRef, uid: '00000000-0000-4000-8000-000000000001' }, 'Old'),
        }),
        'event',
      );
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/events`, {
          body: event('rs.1', ns, { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: ns, name: 'web' }, 'FailedCreate'),
        }),
        'event',
      );
      await must(
        b.client.request('POST', '/api/v1/namespaces/default/events', {
          body: event(`${nodeName}.1`, 'default', { kind: 'Node', name: nodeName, uid: nodeName }, 'NodeNotReady'),
        }),
        'event',
      );
      const evList = async (path: string, fieldSelector: string) => {
        const r = await b.client.request('GET', path, { query: { fieldSelector } });
        return r.status === 200 ? names(r.body) : outcome(r);
      };
      return {
        pod: await evList(`/api/v1/namespaces/${ns}/events`, 'involvedObject.kind=Pod,involvedObject.name=web'),
        byUid: await evList(`/api/v1/namespaces/${ns}/events`, `involvedObject.uid=${p.metadata.uid}`),
        owner: await evList(`/api/v1/namespaces/${ns}/events`, 'involvedObject.kind=ReplicaSet,involvedObject.name=web'),
        node: await evList('/api/v1/events', `involvedObject.kind=Node,involvedObject.name=${nodeName}`),
        badField: await evList('/api/v1/events', 'involvedObject.color=red'),
        productPod: await product(
          () => b.source.listPodEvents(ns, 'web'),
          (es) => es.map((e) => e.reason).sort(),
        ),
        productNode: await product(
          () => b.source.listNodeEvents(nodeName),
          (es) => es.map((e) => e.reason),
        ),
        productOwner: await product(
          () => b.source.listObjectEvents(ns, 'ReplicaSet', 'web'),
          (es) => es.map((e) => stripVolatile(e)),
        ),
        warnings: await evList(`/api/v1/namespaces/${ns}/events`, 'type=Warning'),
        productWarnings: await product(
          () => b.source.listNamespaceWarnings(ns),
          (es) => es.map((e) => e.reason).sort(),
        ),
      };
    },
  },
  {
    name: 'nodes: get, list, NotFound (KubeSource.getNode / listNodes)',
    async run(b, ns) {
      const name = `${ns}-node`;
      await createNode(b, name, { pool: ns });
      const got = await b.client.request('GET', `/api/v1/nodes/${name}`);
      const listed = await b.client.request('GET', '/api/v1/nodes', { query: { labelSelector: `pool=${ns}` } });
      return {
        get: outcome(got),
        // spec.taints: the TaintNodesByCondition admission plugin adds node.kubernetes.io/not-ready on create.
        stored: stripVolatile({ metadata: got.body.metadata, spec: got.body.spec, status: { addresses: got.body.status?.addresses } }),
        kubeletPort: got.body.status?.daemonEndpoints?.kubeletEndpoint?.Port === b.kubeletPort,
        absent: outcome(await b.client.request('GET', `/api/v1/nodes/${ns}-absent`)),
        list: names(listed.body),
        product: await product(
          () => b.source.getNode(name),
          (n) => stripVolatile({ labels: n?.metadata?.labels, taints: n?.spec?.taints }),
        ),
        productAbsent: await product(() => b.source.getNode(`${ns}-absent`)),
        productList: await product(
          () => b.source.listNodes(),
          (ns2) => ns2.map((n) => n.metadata?.name).filter((n) => n === name),
        ),
      };
    },
  },
  {
    name: 'namespaces: get, NotFound (KubeSource.getNamespace)',
    async run(b, ns) {
      const got = await b.client.request('GET', `/api/v1/namespaces/${ns}`);
      return {
        get: outcome(got),
        stored: stripVolatile({ spec: got.body.spec, status: got.body.status }),
        absent: outcome(await b.client.request('GET', `/api/v1/namespaces/${ns}-absent`)),
        product: await product(
          () => b.source.getNamespace(ns),
          (n) => n?.status?.phase,
        ),
        productAbsent: await product(() => b.source.getNamespace(`${ns}-absent`)),
      };
    },
  },
  {
    name: 'owners: get ReplicaSet/Deployment/StatefulSet/DaemonSet/Job/CronJob (KubeSource.getOwner)',
    async run(b, ns) {
      const labels = { app: 'web' };
      const template = { metadata: { labels }, spec: { containers: [{ name: 'app', image: IMAGE }] } };
      const selector = { matchLabels: labels };
      const apps = `/apis/apps/v1/namespaces/${ns}`;
      await must(
        b.client.request('POST', `${apps}/deployments`, {
          body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2, selector, template } },
        }),
        'deployment',
      );
      await must(
        b.client.request('POST', `${apps}/replicasets`, {
          body: { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1' }, spec: { replicas: 2, selector, template } },
        }),
        'replicaset',
      );
      await must(
        b.client.request('POST', `${apps}/statefulsets`, {
          body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { serviceName: 'db', replicas: 1, selector, template } },
        }),
        'statefulset',
      );
      await must(
        b.client.request('POST', `${apps}/daemonsets`, {
          body: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector, template } },
        }),
        'daemonset',
      );
      await must(
        b.client.request('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
          body: {
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: { name: 'once' },
            spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app', image: IMAGE }] } } },
          },
        }),
        'job',
      );
      const get = async (path: string) => {
        const r = await b.client.request('GET', path);
        return r.status === 200 ? { status: 200, spec: stripVolatile(r.body.spec) } : outcome(r);
      };
      const owner = (kind: 'ReplicaSet' | 'Deployment' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'CronJob', name: string) =>
        product(
          () => b.source.getOwner(ns, kind, name),
          (o) => (o ? { kind: o.kind, name: o.metadata?.name } : null),
        );
      return {
        deployment: await get(`${apps}/deployments/web`),
        replicaset: await get(`${apps}/replicasets/web-1`),
        statefulset: await get(`${apps}/statefulsets/db`),
        daemonset: await get(`${apps}/daemonsets/agent`),
        job: await get(`/apis/batch/v1/namespaces/${ns}/jobs/once`),
        absentReplicaSet: await get(`${apps}/replicasets/absent`),
        cronjob: await get(`/apis/batch/v1/namespaces/${ns}/cronjobs/nightly`),
        products: {
          rs: await owner('ReplicaSet', 'web-1'),
          deploy: await owner('Deployment', 'web'),
          sts: await owner('StatefulSet', 'db'),
          ds: await owner('DaemonSet', 'agent'),
          job: await owner('Job', 'once'),
          cron: await owner('CronJob', 'nightly'),
          absent: await owner('ReplicaSet', 'absent'),
        },
      };
    },
  },
  {
    name: 'namespace contents: lists of pods, services, claims, workloads; a PersistentVolume (KubeSource.listNamespaceContents / listServices / getPersistentVolume)',
    async run(b, ns) {
      await createPod(b, ns, pod('web'));
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/services`, {
          body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
        }),
        'service',
      );
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
          body: {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        }),
        'pvc',
      );
      const lists: Record<string, unknown> = {};
      for (const path of [
        '/api/v1/namespaces/NS/services',
        '/api/v1/namespaces/NS/persistentvolumeclaims',
        '/apis/apps/v1/namespaces/NS/deployments',
        '/apis/apps/v1/namespaces/NS/statefulsets',
        '/apis/apps/v1/namespaces/NS/daemonsets',
        '/apis/batch/v1/namespaces/NS/jobs',
      ]) {
        const r = await b.client.request('GET', path.replace('NS', ns));
        lists[path.split('/').pop()!] = r.status === 200 ? { kind: r.body.kind, names: names(r.body) } : outcome(r);
      }
      return {
        lists,
        product: await product(
          () => b.source.listNamespaceContents(ns),
          (c) => c,
        ),
        services: await product(
          () => b.source.listServices(ns),
          (s) => s.map((x) => ({ name: x.metadata?.name, selector: (x.spec as { selector?: unknown } | undefined)?.selector })),
        ),
        volume: await (async () => {
          const pv = {
            apiVersion: 'v1',
            kind: 'PersistentVolume',
            metadata: { name: `${ns}-pv` },
            spec: {
              capacity: { storage: '1Gi' },
              accessModes: ['ReadWriteOnce'],
              hostPath: { path: '/tmp/pv' },
              nodeAffinity: {
                required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] }] }] },
              },
            },
          };
          await must(b.client.request('POST', '/api/v1/persistentvolumes', { body: pv }), 'pv');
          return {
            found: await product(
              () => b.source.getPersistentVolume(`${ns}-pv`),
              (v) => (v?.spec as { nodeAffinity?: unknown } | undefined)?.nodeAffinity,
            ),
            missing: await product(
              () => b.source.getPersistentVolume(`${ns}-no-such-pv`),
              (v) => v,
            ),
          };
        })(),
      };
    },
  },
  {
    name: 'configmaps and secrets: metadata-only get (KubeSource.configMapExists / secretExists)',
    async run(b, ns) {
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { k: 'v' } },
        }),
        'configmap',
      );
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
          body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, stringData: { password: 'hunter2' } },
        }),
        'secret',
      );
      const metaGet = async (path: string) => {
        const r = await b.client.request('GET', path, { accept: META_ONLY });
        return r.status === 200
          ? { status: 200, kind: r.body.kind, apiVersion: r.body.apiVersion, keys: Object.keys(r.body).sort(), name: r.body.metadata?.name }
          : outcome(r);
      };
      return {
        configmap: await metaGet(`/api/v1/namespaces/${ns}/configmaps/cfg`),
        secret: await metaGet(`/api/v1/namespaces/${ns}/secrets/creds`),
        absentSecret: await metaGet(`/api/v1/namespaces/${ns}/secrets/absent`),
        products: {
          cm: await product(() => b.source.configMapExists(ns, 'cfg')),
          cmAbsent: await product(() => b.source.configMapExists(ns, 'absent')),
          secret: await product(() => b.source.secretExists(ns, 'creds')),
          secretAbsent: await product(() => b.source.secretExists(ns, 'absent')),
        },
      };
    },
  },
  {
    name: 'rollout history and config metadata: ReplicaSets and ControllerRevisions by label selector, metadata only (KubeSource.listRevisions / configMetadata)',
    async run(b, ns) {
      const apps = `/apis/apps/v1/namespaces/${ns}`;
      const rs = (name: string, app: string, hash: string, revision: string, image: string) => ({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name, labels: { app, 'pod-template-hash': hash }, annotations: { 'deployment.kubernetes.io/revision': revision } },
        spec: {
          replicas: 0,
          selector: { matchLabels: { app, 'pod-template-hash': hash } },
          template: { metadata: { labels: { app, 'pod-template-hash': hash } }, spec: { containers: [{ name: 'app', image }] } },
        },
      });
      await must(b.client.request('POST', `${apps}/replicasets`, { body: rs('web-6b5d8c7f9', 'web', '6b5d8c7f9', '1', IMAGE) }), 'rs 1');
      await must(b.client.request('POST', `${apps}/replicasets`, { body: rs('web-7d9f8c6b5', 'web', '7d9f8c6b5', '2', `${IMAGE}-2`) }), 'rs 2');
      await must(b.client.request('POST', `${apps}/replicasets`, { body: rs('api-5f6d7c8b9', 'api', '5f6d7c8b9', '1', IMAGE) }), 'rs other');
      const template = { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'app', image: IMAGE }] }, $patch: 'replace' };
      await must(
        b.client.request('POST', `${apps}/controllerrevisions`, {
          body: {
            apiVersion: 'apps/v1',
            kind: 'ControllerRevision',
            metadata: { name: 'db-4c5b6a7d8', labels: { app: 'db' } },
            revision: 3,
            data: { spec: { template } },
          },
        }),
        'controllerrevision',
      );
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { k: 'v' } },
        }),
        'configmap',
      );
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
          body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, stringData: { password: 'hunter2' } },
        }),
        'secret',
      );
      const listed = async (path: string) => {
        const r = await b.client.request('GET', path);
        return r.status === 200
          ? { status: 200, kind: r.body.kind, names: ((r.body.items ?? []) as KubeObject[]).map((o) => o.metadata.name).sort() }
          : outcome(r);
      };
      const revisions = (kind: 'ReplicaSet' | 'ControllerRevision', selector: string) =>
        product(
          () => b.source.listRevisions(ns, kind, selector),
          (os) =>
            os
              .map((o) => ({ kind: o.kind, name: o.metadata?.name, revision: o.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? o.revision }))
              .sort((x, y) => String(x.name).localeCompare(String(y.name))),
        );
      const metadata = (kind: 'ConfigMap' | 'Secret', name: string) =>
        product(
          () => b.source.configMetadata(ns, kind, name),
          (o) => (o ? { kind: o.kind, name: o.metadata?.name, keys: Object.keys(o).sort() } : null),
        );
      return {
        replicaSets: await listed(`${apps}/replicasets?labelSelector=${encodeURIComponent('app=web')}`),
        controllerRevisions: await listed(`${apps}/controllerrevisions?labelSelector=${encodeURIComponent('app=db')}`),
        products: {
          deployment: await revisions('ReplicaSet', 'app=web'),
          statefulSet: await revisions('ControllerRevision', 'app=db'),
          none: await revisions('ControllerRevision', 'app=absent'),
          cm: await metadata('ConfigMap', 'cfg'),
          secret: await metadata('Secret', 'creds'),
          absent: await metadata('Secret', 'absent'),
        },
      };
    },
  },
  {
    name: 'what changed: HPAs (autoscaling/v2, v2beta2 before 1.23) and NetworkPolicies of a namespace (KubeSource.listAutoscalers / listNetworkPolicies)',
    async run(b, ns) {
      // 1.20 serves autoscaling/v2beta2 only: the product asks v2 first and falls back.
      const hpas = `/apis/autoscaling/v2beta2/namespaces/${ns}/horizontalpodautoscalers`;
      await must(
        b.client.request('POST', hpas, {
          body: {
            apiVersion: 'autoscaling/v2beta2',
            kind: 'HorizontalPodAutoscaler',
            metadata: { name: 'web' },
            spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 6 },
          },
        }),
        'hpa',
      );
      const scaled = outcome(
        await b.client.request('PATCH', `${hpas}/web/status`, {
          contentType: 'application/merge-patch+json',
          body: { status: { lastScaleTime: '2026-01-01T00:00:00Z', currentReplicas: 4, desiredReplicas: 6 } },
        }),
      );
      const policy = (name: string, app: string) => ({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name },
        spec: { podSelector: { matchLabels: { app } }, policyTypes: ['Egress'], egress: [{ ports: [{ protocol: 'UDP', port: 53 }] }] },
      });
      await must(b.client.request('POST', `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`, { body: policy('deny-egress', 'web') }), 'netpol web');
      await must(b.client.request('POST', `/apis/networking.k8s.io/v1/namespaces/${ns}/networkpolicies`, { body: policy('db-only', 'db') }), 'netpol db');
      return {
        scaled,
        autoscalers: await product(
          () => b.source.listAutoscalers(ns),
          (hs) =>
            hs.map((h) => ({
              kind: h.kind,
              name: h.metadata?.name,
              created: typeof h.metadata?.creationTimestamp === 'string',
              spec: { target: (h.spec as { scaleTargetRef?: unknown }).scaleTargetRef, min: h.spec?.minReplicas, max: h.spec?.maxReplicas },
              status: { lastScaleTime: h.status?.lastScaleTime, current: h.status?.currentReplicas, desired: h.status?.desiredReplicas },
            })),
        ),
        networkPolicies: await product(
          () => b.source.listNetworkPolicies(ns),
          (ps) =>
            ps
              .map((p) => ({
                kind: p.kind,
                name: p.metadata?.name,
                created: typeof p.metadata?.creationTimestamp === 'string',
                managers: ((p.metadata?.managedFields ?? []) as { time?: string }[]).every((f) => typeof f.time === 'string'),
                podSelector: p.spec?.podSelector,
                policyTypes: p.spec?.policyTypes,
              }))
              .sort((x, y) => String(x.name).localeCompare(String(y.name))),
        ),
        none: await product(() => b.source.listNetworkPolicies(`${ns}-absent`)),
      };
    },
  },
  {
    name: 'persistentvolumeclaims and leases: get (KubeSource.getPvc / getLease)',
    async run(b, ns) {
      await must(
        b.client.request('POST', `/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
          body: {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: { name: 'data' },
            spec: { storageClassName: 'fast', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        }),
        'pvc',
      );
      await must(
        b.client.request('POST', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`, {
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name: 'kube-scheduler' },
            spec: { holderIdentity: 'sched-1', leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:00.000000Z' },
          },
        }),
        'lease',
      );
      const pvc = await b.client.request('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/data`);
      const lease = await b.client.request('GET', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/kube-scheduler`);
      return {
        pvc: { ...outcome(pvc), spec: stripVolatile(pvc.body.spec), status: pvc.body.status },
        pvcAbsent: outcome(await b.client.request('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/absent`)),
        lease: { ...outcome(lease), spec: lease.body.spec },
        leaseAbsent: outcome(await b.client.request('GET', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/absent`)),
        products: {
          pvc: await product(
            () => b.source.getPvc(ns, 'data'),
            (p) => ({ phase: p?.status?.phase, sc: p?.spec?.storageClassName }),
          ),
          pvcAbsent: await product(() => b.source.getPvc(ns, 'absent')),
          lease: await product(
            () => b.source.getLease(ns, 'kube-scheduler'),
            (l) => ({ holder: l?.spec?.holderIdentity, renew: l?.spec?.renewTime }),
          ),
          leaseAbsent: await product(() => b.source.getLease(ns, 'absent')),
        },
      };
    },
  },
  {
    name: 'calico workloadendpoints: list (KubeSource.listWorkloadEndpoints; the real server has the Calico CRD installed)',
    async run(b, ns) {
      const path = `/apis/crd.projectcalico.org/v1/namespaces/${ns}/workloadendpoints`;
      const empty = await b.client.request('GET', path);
      const wep = {
        apiVersion: 'crd.projectcalico.org/v1',
        kind: 'WorkloadEndpoint',
        metadata: { name: 'node--1-k8s-web-eth0' },
        spec: { pod: 'web', node: 'node-1', ipNetworks: ['10.244.1.5/32'] },
      };
      const created = await b.client.request('POST', path, { body: wep });
      const listed = await b.client.request('GET', path);
      return {
        empty: { ...outcome(empty), items: empty.body?.items?.length },
        create: outcome(created),
        list: { ...outcome(listed), names: names(listed.body), itemKinds: (listed.body.items ?? []).map((i: KubeObject) => i.kind) },
        product: await product(
          () => b.source.listWorkloadEndpoints(ns),
          (l) => l?.map((w) => w.spec),
        ),
      };
    },
  },
  {
    name: 'pods/log: current, previous, previous absent, bad container, unscheduled (KubeSource.podLog)',
    async run(b, ns) {
      const nodeName = `${ns}-node`;
      await createNode(b, nodeName);
      await createPod(b, ns, pod('restarted', { node: nodeName }));
      await createPod(b, ns, pod('fresh', { node: nodeName }));
      await createPod(b, ns, pod('unscheduled'));
      await markRunning(b, ns, 'restarted', { restarted: true });
      await markRunning(b, ns, 'fresh');
      b.setLog(ns, 'restarted', 'app', ['starting', 'panic: boom'], true);
      b.setLog(ns, 'restarted', 'app', ['starting again'], false);
      const log = async (name: string, query: Record<string, string | number | boolean>) =>
        outcome(await b.client.request('GET', `${podPath(ns, name)}/log`, { query }));
      const text = async (name: string, query: Record<string, string | number | boolean>) => {
        const r = await b.client.request('GET', `${podPath(ns, name)}/log`, { query });
        return { status: r.status, body: r.body };
      };
      return {
        previous: await text('restarted', { container: 'app', previous: true, tailLines: 20 }),
        previousTail: await text('restarted', { container: 'app', previous: true, tailLines: 1 }),
        current: await text('restarted', { container: 'app' }),
        previousAbsent: await log('fresh', { container: 'app', previous: true, tailLines: 20 }),
        badContainer: await log('fresh', { container: 'nope' }),
        unscheduled: await text('unscheduled', { container: 'app' }),
        absentPod: await log('absent', { container: 'app' }),
        products: {
          previous: await product(
            () => b.source.podLog(ns, 'restarted', 'app', true, 20),
            (l) => l,
          ),
          previousAbsent: await product(
            () => b.source.podLog(ns, 'fresh', 'app', true, 20),
            (l) => l,
          ),
          badContainer: await product(
            () => b.source.podLog(ns, 'fresh', 'nope', false, 20),
            (l) => l,
          ),
        },
      };
    },
  },
  {
    name: 'JSON patch with test ops, incl. failing tests (remove-finalizers)',
    async run(b, ns) {
      const fin = ['example.com/a', 'example.com/b'];
      const p = await createPod(b, ns, pod('held', { finalizers: fin }));
      const jsonPatch = (name: string, ops: unknown[]) =>
        b.client.request('PATCH', podPath(ns, name), { body: ops, contentType: 'application/json-patch+json' });
      const removeOps = (uid: string, list: string[]) => [
        { op: 'test', path: '/metadata/uid', value: uid },
        { op: 'test', path: '/metadata/finalizers', value: list },
        { op: 'remove', path: '/metadata/finalizers' },
      ];
      const out: Outcome = {};
      out.wrongUid = outcome(await jsonPatch('held', removeOps('00000000-0000-4000-8000-000000000000', fin)));
      out.wrongList = outcome(await jsonPatch('held', removeOps(p.metadata.uid, ['example.com/a'])));
      out.afterFailed = lifecycle(await getPod(b, ns, 'held'));
      out.badPath = outcome(await jsonPatch('held', [{ op: 'remove', path: '/metadata/labels/nope' }]));
      out.notAList = outcome(await b.client.request('PATCH', podPath(ns, 'held'), { body: { op: 'remove' }, contentType: 'application/json-patch+json' }));
      out.absent = outcome(await jsonPatch('absent', removeOps(p.metadata.uid, fin)));
      const ok = await jsonPatch('held', removeOps(p.metadata.uid, fin));
      out.ok = { ...outcome(ok), ...lifecycle(ok.body) };
      // Terminating, unbound (grace 0): removing the last finalizer deletes the object.
      const t = await createPod(b, ns, pod('terminating', { finalizers: fin }));
      const del = await b.client.request('DELETE', podPath(ns, 'terminating'));
      out.deleteHeld = { ...outcome(del), ...lifecycle(del.body) };
      const lastRemoved = await jsonPatch('terminating', removeOps(t.metadata.uid, fin));
      out.lastRemoved = { ...outcome(lastRemoved), ...lifecycle(lastRemoved.body) };
      out.afterLastRemoved = lifecycle(await getPod(b, ns, 'terminating'));
      // Terminating on a node (grace 30): the object stays for the kubelet.
      const bound = await createPod(b, ns, pod('bound', { node: `${ns}-node`, finalizers: fin }));
      out.deleteBound = lifecycle((await b.client.request('DELETE', podPath(ns, 'bound'))).body);
      out.boundRemoved = outcome(await jsonPatch('bound', removeOps(bound.metadata.uid, fin)));
      out.afterBoundRemoved = lifecycle(await getPod(b, ns, 'bound'));
      // The product's step on a fresh pod: success, then the same step again (list changed → refused).
      const s = await createPod(b, ns, pod('stepped', { finalizers: fin }));
      out.step = await runStep(b, 'remove-finalizers', { namespace: ns, pod: 'stepped', uid: s.metadata.uid, finalizers: fin });
      out.stepAgain = await runStep(b, 'remove-finalizers', { namespace: ns, pod: 'stepped', uid: s.metadata.uid, finalizers: fin });
      out.stepAbsent = await runStep(b, 'remove-finalizers', { namespace: ns, pod: 'absent', uid: s.metadata.uid, finalizers: fin });
      return out;
    },
  },
  {
    name: 'merge and strategic-merge patch, stale resourceVersion, cordon (cordon step)',
    async run(b, ns) {
      const nodeName = `${ns}-node`;
      await createNode(b, nodeName);
      const p = await createPod(
        b,
        ns,
        pod('web', {
          labels: { app: 'web' },
          containers: [
            { name: 'app', image: IMAGE, ports: [{ containerPort: 80 }] },
            { name: 'side', image: IMAGE },
          ],
        }),
      );
      const patch = (path: string, body: unknown, type: string) => b.client.request('PATCH', path, { body, contentType: type });
      const merge = await patch(podPath(ns, 'web'), { metadata: { labels: { tier: 'front', app: null } } }, 'application/merge-patch+json');
      const smp = await patch(
        podPath(ns, 'web'),
        { spec: { containers: [{ name: 'side', image: 'registry.example.com/side:2' }] } },
        'application/strategic-merge-patch+json',
      );
      const stale = await patch(
        podPath(ns, 'web'),
        { metadata: { resourceVersion: p.metadata.resourceVersion, labels: { x: 'y' } } },
        'application/merge-patch+json',
      );
      const immutable = await patch(podPath(ns, 'web'), { spec: { nodeName: 'elsewhere' } }, 'application/merge-patch+json');
      const badType = await b.client.request('PATCH', podPath(ns, 'web'), { body: { a: 1 }, contentType: 'application/json' });
      const nodeSmp = await patch(
        `/api/v1/nodes/${nodeName}`,
        { metadata: { labels: { role: 'x' } }, spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } },
        'application/strategic-merge-patch+json',
      );
      const cordon = await patch(`/api/v1/nodes/${nodeName}`, { spec: { unschedulable: true } }, 'application/merge-patch+json');
      return {
        merge: { ...outcome(merge), labels: merge.body.metadata?.labels },
        smp: { ...outcome(smp), containers: smp.body.spec?.containers?.map((c: KubeObject) => ({ name: c.name, image: c.image, ports: c.ports })) },
        stale: outcome(stale),
        // Not modelled: the real message ends with a Go diff of the pod spec.
        immutable: outcome(immutable, { message: false, details: false }),
        immutableCauses: immutable.body?.details?.causes?.map((c: KubeObject) => ({
          field: c.field,
          reason: c.reason,
          message: String(c.message).split('\n')[0],
        })),
        badType: outcome(badType),
        nodeSmp: { ...outcome(nodeSmp), labels: nodeSmp.body.metadata?.labels?.role, taints: stripVolatile(nodeSmp.body.spec?.taints) },
        cordon: { ...outcome(cordon), unschedulable: cordon.body.spec?.unschedulable, taints: stripVolatile(cordon.body.spec?.taints) },
        cordonAbsent: outcome(await patch(`/api/v1/nodes/${ns}-absent`, { spec: { unschedulable: true } }, 'application/merge-patch+json')),
        step: await runStep(b, 'cordon', { nodes: [nodeName] }),
        stepAbsent: await runStep(b, 'cordon', { nodes: [`${ns}-absent`] }),
      };
    },
  },
  {
    name: 'delete with grace, preconditions.uid, finalizers (delete / force-delete steps)',
    async run(b, ns) {
      const nodeName = `${ns}-node`;
      const del = (name: string, body?: unknown, query?: Record<string, string | number>) => b.client.request('DELETE', podPath(ns, name), { body, query });
      const out: Outcome = {};
      const a = await createPod(b, ns, pod('graceful', { node: nodeName }));
      const first = await del('graceful', { preconditions: { uid: a.metadata.uid }, gracePeriodSeconds: 10 }, { gracePeriodSeconds: 10 });
      out.graceful = { ...outcome(first), ...lifecycle(first.body) };
      const longer = await del('graceful', { gracePeriodSeconds: 20 }, { gracePeriodSeconds: 20 });
      out.longerGrace = { ...outcome(longer), ...lifecycle(longer.body) };
      const shorter = await del('graceful', { gracePeriodSeconds: 5 }, { gracePeriodSeconds: 5 });
      out.shorterGrace = { ...outcome(shorter), ...lifecycle(shorter.body) };
      const wrongUid = await del(
        'graceful',
        { gracePeriodSeconds: 0, preconditions: { uid: '00000000-0000-4000-8000-000000000000' } },
        { gracePeriodSeconds: 0 },
      );
      out.wrongUid = outcome(wrongUid);
      const force = await del('graceful', { gracePeriodSeconds: 0, preconditions: { uid: a.metadata.uid } }, { gracePeriodSeconds: 0 });
      out.force = { ...outcome(force), kindOfBody: force.body?.kind };
      out.afterForce = lifecycle(await getPod(b, ns, 'graceful'));
      await createPod(b, ns, pod('unbound'));
      const unbound = await del('unbound');
      out.unbound = { ...outcome(unbound), ...lifecycle(unbound.body) };
      out.afterUnbound = lifecycle(await getPod(b, ns, 'unbound'));
      const h = await createPod(b, ns, pod('held', { node: nodeName, finalizers: ['example.com/hold'] }));
      const held = await del('held', { gracePeriodSeconds: 0, preconditions: { uid: h.metadata.uid } }, { gracePeriodSeconds: 0 });
      out.forceHeld = { ...outcome(held), ...lifecycle(held.body) };
      out.afterForceHeld = lifecycle(await getPod(b, ns, 'held'));
      const orphan = await del('held', { propagationPolicy: 'Orphan' });
      out.orphanHeld = lifecycle(orphan.body);
      out.absent = outcome(await del('absent'));
      out.badGrace = outcome(await del('held', { gracePeriodSeconds: 10, preconditions: {}, propagationPolicy: 'Sideways' }));
      // The product's steps.
      const s1 = await createPod(b, ns, pod('step-delete', { node: nodeName }));
      out.stepDelete = await runStep(b, 'delete', { namespace: ns, pod: 'step-delete', uid: s1.metadata.uid, gracePeriodSeconds: 15 });
      out.afterStepDelete = lifecycle(await getPod(b, ns, 'step-delete'));
      out.stepForce = await runStep(b, 'force-delete', { namespace: ns, pod: 'step-delete', uid: s1.metadata.uid });
      out.afterStepForce = lifecycle(await getPod(b, ns, 'step-delete'));
      const s2 = await createPod(b, ns, pod('step-held', { node: nodeName, finalizers: ['example.com/hold'] }));
      out.stepForceHeld = await runStep(b, 'force-delete', { namespace: ns, pod: 'step-held', uid: s2.metadata.uid });
      out.stepForceWrongUid = await runStep(b, 'force-delete', { namespace: ns, pod: 'step-held', uid: '00000000-0000-4000-8000-000000000000' });
      out.stepDeleteAbsent = await runStep(b, 'delete', { namespace: ns, pod: 'absent', uid: s2.metadata.uid });
      return out;
    },
  },
  {
    name: 'status subresource: what a status write and a main write may change',
    async run(b, ns) {
      await createPod(b, ns, pod('web', { node: `${ns}-node`, labels: { app: 'web' } }));
      const status = await b.client.request('PATCH', `${podPath(ns, 'web')}/status`, {
        contentType: 'application/merge-patch+json',
        body: {
          metadata: { labels: { via: 'status' } },
          spec: { activeDeadlineSeconds: 5 },
          status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
        },
      });
      const main = await b.client.request('PATCH', podPath(ns, 'web'), {
        contentType: 'application/merge-patch+json',
        body: { metadata: { labels: { via: 'main' } }, status: { phase: 'Failed' } },
      });
      const put = await b.client.request('PUT', `${podPath(ns, 'web')}/status`, {
        body: { ...main.body, status: { ...main.body.status, phase: 'Succeeded' } },
      });
      const view = (r: KubeResponse) => ({
        ...outcome(r),
        phase: r.body.status?.phase,
        labels: r.body.metadata?.labels,
        deadline: r.body.spec?.activeDeadlineSeconds,
        ready: stripVolatile(r.body.status?.conditions),
      });
      return {
        statusPatch: view(status),
        mainPatch: view(main),
        statusPut: view(put),
        statusOfAbsent: outcome(
          await b.client.request('PATCH', `${podPath(ns, 'absent')}/status`, {
            contentType: 'application/merge-patch+json',
            body: { status: { phase: 'Running' } },
          }),
        ),
      };
    },
  },
  {
    name: 'eviction: Pending and Running pods, PodDisruptionBudget, preconditions (evict step)',
    async run(b, ns) {
      const evict = (name: string, body: unknown) => b.client.request('POST', `${podPath(ns, name)}/eviction`, { body });
      const body = (name: string, apiVersion: string, uid?: string) => ({
        apiVersion,
        kind: 'Eviction',
        metadata: { name, namespace: ns },
        ...(uid ? { deleteOptions: { preconditions: { uid } } } : {}),
      });
      const out: Outcome = {};
      const p1 = await createPod(b, ns, pod('pending-v1'));
      const v1 = await evict('pending-v1', body('pending-v1', 'policy/v1', p1.metadata.uid));
      out.pendingPolicyV1 = { ...outcome(v1), after: lifecycle(await getPod(b, ns, 'pending-v1')) };
      const p2 = await createPod(b, ns, pod('pending-beta'));
      const beta = await evict('pending-beta', body('pending-beta', 'policy/v1beta1', p2.metadata.uid));
      out.pendingPolicyV1beta1 = { ...outcome(beta), after: lifecycle(await getPod(b, ns, 'pending-beta')) };
      // No apiVersion/kind: the server decodes the body as the version it serves (works on any release).
      const p3 = await createPod(b, ns, pod('pending-bare'));
      const bare = await evict('pending-bare', { metadata: { name: 'pending-bare' }, deleteOptions: { preconditions: { uid: p3.metadata.uid } } });
      out.pendingNoApiVersion = { ...outcome(bare), after: lifecycle(await getPod(b, ns, 'pending-bare')) };
      await createPod(b, ns, pod('pending-apps'));
      out.wrongGroup = outcome(await evict('pending-apps', body('pending-apps', 'apps/v1')));
      const r = await createPod(b, ns, pod('running', { node: `${ns}-node`, labels: { app: 'web' } }));
      await markRunning(b, ns, 'running');
      out.wrongName = outcome(await evict('running', body('other', 'policy/v1beta1')));
      out.wrongUid = outcome(await evict('running', body('running', 'policy/v1beta1', '00000000-0000-4000-8000-000000000000')));
      await must(
        b.client.request('POST', `/apis/policy/v1beta1/namespaces/${ns}/poddisruptionbudgets`, {
          body: {
            apiVersion: 'policy/v1beta1',
            kind: 'PodDisruptionBudget',
            metadata: { name: 'web' },
            spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
          },
        }),
        'pdb',
      );
      out.blockedByPdb = outcome(await evict('running', body('running', 'policy/v1beta1', r.metadata.uid)));
      out.budgets = await product(
        () => b.source.listDisruptionBudgets(ns),
        (bs) => bs.map((x) => ({ name: x.metadata?.name, minAvailable: (x.spec as { minAvailable?: unknown } | undefined)?.minAvailable })),
      );
      out.afterBlocked = lifecycle(await getPod(b, ns, 'running'));
      out.absent = outcome(await evict('absent', body('absent', 'policy/v1beta1')));
      const s = await createPod(b, ns, pod('stepped'));
      out.step = await runStep(b, 'evict', { namespace: ns, pod: 'stepped', uid: s.metadata.uid });
      out.afterStep = lifecycle(await getPod(b, ns, 'stepped'));
      out.stepPdb = await runStep(b, 'evict', { namespace: ns, pod: 'running', uid: r.metadata.uid });
      return out;
    },
  },
  {
    name: 'scale subresource of Deployment, StatefulSet, ReplicaSet (scale step)',
    async run(b, ns) {
      const labels = { app: 'web' };
      const spec = (replicas: number) => ({
        replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: IMAGE }] } },
      });
      const apps = `/apis/apps/v1/namespaces/${ns}`;
      await must(
        b.client.request('POST', `${apps}/deployments`, { body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: spec(2) } }),
        'deployment',
      );
      await must(
        b.client.request('POST', `${apps}/statefulsets`, {
          body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { ...spec(3), serviceName: 'db' } },
        }),
        'statefulset',
      );
      await must(
        b.client.request('POST', `${apps}/replicasets`, { body: { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: spec(2) } }),
        'replicaset',
      );
      const out: Outcome = {};
      for (const [resource, name] of [
        ['deployments', 'web'],
        ['statefulsets', 'db'],
        ['replicasets', 'rs'],
      ] as const) {
        const path = `${apps}/${resource}/${name}/scale`;
        const got = await b.client.request('GET', path);
        const patched = await b.client.request('PATCH', path, { body: { spec: { replicas: 0 } }, contentType: 'application/merge-patch+json' });
        const parent = await b.client.request('GET', `${apps}/${resource}/${name}`);
        out[resource] = {
          get: { ...outcome(got), scale: stripVolatile(got.body) },
          patch: { ...outcome(patched), scale: stripVolatile(patched.body) },
          parentReplicas: parent.body.spec?.replicas,
          negative: outcome(await b.client.request('PATCH', path, { body: { spec: { replicas: -1 } }, contentType: 'application/merge-patch+json' })),
          absent: outcome(await b.client.request('GET', `${apps}/${resource}/absent/scale`)),
          patchAbsent: outcome(
            await b.client.request('PATCH', `${apps}/${resource}/absent/scale`, {
              body: { spec: { replicas: 0 } },
              contentType: 'application/merge-patch+json',
            }),
          ),
        };
      }
      out.steps = {
        deployment: await runStep(b, 'scale', { namespace: ns, kind: 'Deployment', name: 'web', replicas: 3 }),
        statefulset: await runStep(b, 'scale', { namespace: ns, kind: 'StatefulSet', name: 'db', replicas: 1 }),
        replicaset: await runStep(b, 'scale', { namespace: ns, kind: 'ReplicaSet', name: 'rs', replicas: 0 }),
        absent: await runStep(b, 'scale', { namespace: ns, kind: 'Deployment', name: 'absent', replicas: 0 }),
      };
      return out;
    },
  },
  {
    name: 'rollback step: JSON patch of spec.template with a metadata.generation test (Deployment, StatefulSet, DaemonSet)',
    async run(b, ns) {
      const apps = `/apis/apps/v1/namespaces/${ns}`;
      const template = (app: string, image: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'app', image }] } });
      const workloads = [
        ['deployments', 'Deployment', 'web', { replicas: 0 }],
        ['statefulsets', 'StatefulSet', 'db', { serviceName: 'db', replicas: 0 }],
        ['daemonsets', 'DaemonSet', 'agent', {}],
      ] as const;
      const out: Outcome = {};
      for (const [resource, kind, name, extra] of workloads) {
        const created = await must(
          b.client.request('POST', `${apps}/${resource}`, {
            body: {
              apiVersion: 'apps/v1',
              kind,
              metadata: { name },
              spec: { ...extra, selector: { matchLabels: { app: name } }, template: template(name, IMAGE) },
            },
          }),
          kind,
        );
        const owner = [{ apiVersion: 'apps/v1', kind, name, uid: created.metadata.uid, controller: true }];
        const history =
          kind === 'Deployment'
            ? {
                path: `${apps}/replicasets`,
                body: {
                  apiVersion: 'apps/v1',
                  kind: 'ReplicaSet',
                  metadata: {
                    name: `${name}-6b5d8c7f9`,
                    labels: { app: name, 'pod-template-hash': '6b5d8c7f9' },
                    annotations: { 'deployment.kubernetes.io/revision': '1' },
                    ownerReferences: owner,
                  },
                  spec: {
                    replicas: 0,
                    selector: { matchLabels: { app: name, 'pod-template-hash': '6b5d8c7f9' } },
                    template: { ...template(name, IMAGE), metadata: { labels: { app: name, 'pod-template-hash': '6b5d8c7f9' } } },
                  },
                },
              }
            : {
                path: `${apps}/controllerrevisions`,
                body: {
                  apiVersion: 'apps/v1',
                  kind: 'ControllerRevision',
                  metadata: { name: `${name}-4c5b6a7d8`, labels: { app: name }, ownerReferences: owner },
                  revision: 1,
                  data: { spec: { template: { ...template(name, IMAGE), $patch: 'replace' } } },
                },
              };
        await must(b.client.request('POST', history.path, { body: history.body }), `${kind} history`);
        // Revision 2: a new image (generation 2).
        await must(
          b.client.request('PATCH', `${apps}/${resource}/${name}`, {
            body: { spec: { template: { spec: { containers: [{ name: 'app', image: `${IMAGE}-2` }] } } } },
            contentType: 'application/strategic-merge-patch+json',
          }),
          `${kind} revision 2`,
        );
        const stale = await b.client.request('PATCH', `${apps}/${resource}/${name}`, {
          body: [
            { op: 'test', path: '/metadata/generation', value: 1 },
            { op: 'replace', path: '/spec/template', value: template(name, 'stale') },
          ],
          contentType: 'application/json-patch+json',
        });
        const step = await runStep(b, 'rollback', { namespace: ns, kind, name, revision: 1 });
        const after = await b.client.request('GET', `${apps}/${resource}/${name}`);
        out[kind] = {
          stale: outcome(stale),
          step,
          generation: after.body.metadata?.generation,
          template: stripVolatile(after.body.spec?.template),
          absentRevision: await runStep(b, 'rollback', { namespace: ns, kind, name, revision: 7 }),
          absent: await runStep(b, 'rollback', { namespace: ns, kind, name: 'absent', revision: 1 }),
        };
      }
      return out;
    },
  },
  {
    name: 'namespace delete and finalize (clear-namespace-finalizers step)',
    async run(b, ns) {
      const out: Outcome = {};
      const sub = `${ns}-x`;
      await must(b.client.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: sub } } }), 'namespace');
      await createPod(b, sub, pod('held', { finalizers: ['example.com/hold'] }));
      out.stepActive = await runStep(b, 'clear-namespace-finalizers', { namespace: sub });
      const del = await b.client.request('DELETE', `/api/v1/namespaces/${sub}`);
      out.delete = { ...outcome(del), phase: del.body.status?.phase, ...lifecycle(del.body), spec: del.body.spec };
      const again = await b.client.request('DELETE', `/api/v1/namespaces/${sub}`);
      out.deleteAgain = { ...outcome(again), phase: again.body.status?.phase };
      out.createInTerminating = outcome(await b.client.request('POST', podsPath(sub), { body: pod('late') }));
      const ns1 = await b.client.request('GET', `/api/v1/namespaces/${sub}`);
      const stale = {
        ...ns1.body,
        metadata: { ...ns1.body.metadata, resourceVersion: String(Number(ns1.body.metadata.resourceVersion) - 1) },
        spec: { finalizers: [] },
      };
      out.staleFinalize = outcome(await b.client.request('PUT', `/api/v1/namespaces/${sub}/finalize`, { body: stale }));
      out.wrongName = outcome(
        await b.client.request('PUT', `/api/v1/namespaces/${sub}/finalize`, { body: { ...ns1.body, metadata: { name: 'other' }, spec: { finalizers: [] } } }),
      );
      const fin = await b.client.request('PUT', `/api/v1/namespaces/${sub}/finalize`, { body: { ...ns1.body, spec: { finalizers: [] } } });
      out.finalize = { ...outcome(fin), phase: fin.body.status?.phase, spec: fin.body.spec };
      out.afterFinalize = outcome(await b.client.request('GET', `/api/v1/namespaces/${sub}`));
      // Content the namespace controller would have deleted stays in storage, orphaned.
      out.orphanedPod = lifecycle(await getPod(b, sub, 'held'));
      // The product's step on a second Terminating namespace.
      const sub2 = `${ns}-y`;
      await must(b.client.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: sub2 } } }), 'namespace');
      await b.client.request('DELETE', `/api/v1/namespaces/${sub2}`);
      out.step = await runStep(b, 'clear-namespace-finalizers', { namespace: sub2 });
      out.afterStep = outcome(await b.client.request('GET', `/api/v1/namespaces/${sub2}`));
      out.stepGone = await runStep(b, 'clear-namespace-finalizers', { namespace: sub2 });
      out.finalizeAbsent = outcome(
        await b.client.request('PUT', `/api/v1/namespaces/${ns}-absent/finalize`, {
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-absent` }, spec: { finalizers: [] } },
        }),
      );
      return out;
    },
  },
  {
    name: 'watch: events for create, update, delete with label and field selectors',
    async run(b, ns) {
      await createPod(b, ns, pod('before', { labels: { app: 'web' } }));
      const list = await b.client.request('GET', podsPath(ns));
      const rv = list.body.metadata.resourceVersion as string;
      const watch = (query: Record<string, string | number | boolean>) =>
        b.client.request('GET', podsPath(ns), { query: { watch: true, timeoutSeconds: 3, ...query }, timeoutMs: 15_000 }).then((r) => ({
          status: r.status,
          events: String(r.body)
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as KubeObject)
            .map(
              (e) =>
                `${e.type} ${e.object?.metadata?.name} ${e.object?.metadata?.labels?.app ?? '-'}${e.object?.metadata?.deletionTimestamp ? ' deleting' : ''}`,
            ),
        }));
      const fromRv = watch({ resourceVersion: rv });
      const initial = watch({ labelSelector: 'app=web' });
      const byName = watch({ resourceVersion: rv, fieldSelector: 'metadata.name=later' });
      await sleep(300);
      await createPod(b, ns, pod('later', { labels: { app: 'web' } }));
      await b.client.request('PATCH', podPath(ns, 'later'), { body: { metadata: { labels: { app: 'db' } } }, contentType: 'application/merge-patch+json' });
      await b.client.request('PATCH', podPath(ns, 'before'), { body: { metadata: { labels: { app: 'web2' } } }, contentType: 'application/merge-patch+json' });
      await b.client.request('DELETE', podPath(ns, 'later'));
      return { fromRv: await fromRv, initial: await initial, byName: await byName };
    },
  },
  {
    name: 'what a stuck volume or a refused pod is read through: StorageClass, PersistentVolume, VolumeAttachment, CSINode, claim events, webhooks, Service, Endpoints, ServiceAccount',
    async run(b, ns) {
      const node = `${ns}-node`;
      const create = (path: string, body: KubeObject) => must(b.client.request('POST', path, { body }), `create ${body.kind}`);
      await createNode(b, node);
      await create('/apis/storage.k8s.io/v1/storageclasses', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: `${ns}-fast` },
        provisioner: 'ebs.csi.aws.com',
        volumeBindingMode: 'WaitForFirstConsumer',
      });
      await create('/api/v1/persistentvolumes', {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: `${ns}-pv` },
        spec: {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteOnce'],
          storageClassName: `${ns}-fast`,
          csi: { driver: 'ebs.csi.aws.com', volumeHandle: 'vol-0123', fsType: 'ext4' },
        },
      });
      const attachment = volumeAttachmentName('vol-0123', 'ebs.csi.aws.com', node);
      await create('/apis/storage.k8s.io/v1/volumeattachments', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'VolumeAttachment',
        metadata: { name: attachment },
        spec: { attacher: 'ebs.csi.aws.com', nodeName: node, source: { persistentVolumeName: `${ns}-pv` } },
      });
      await create('/apis/storage.k8s.io/v1/csinodes', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSINode',
        metadata: { name: node },
        spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'i-0abc', topologyKeys: ['topology.ebs.csi.aws.com/zone'] }] },
      });
      await create(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], storageClassName: `${ns}-fast`, resources: { requests: { storage: '1Gi' } } },
      });
      await create(`/api/v1/namespaces/${ns}/events`, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'data.1' },
        involvedObject: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: 'data', namespace: ns },
        reason: 'ProvisioningFailed',
        message: 'failed to provision volume with StorageClass "fast": rpc error: code = Internal desc = UnauthorizedOperation',
        type: 'Warning',
        source: { component: 'ebs.csi.aws.com_ebs-csi-controller-0' },
      });
      // A webhook that matches nothing the suite creates: it is read, never called.
      const webhook = (kind: string, name: string) => ({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind,
        metadata: { name },
        webhooks: [
          {
            name: 'policy.example.com',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            failurePolicy: 'Fail',
            timeoutSeconds: 5,
            clientConfig: { service: { namespace: ns, name: 'policy', path: '/validate', port: 443 } },
            rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'], scope: '*' }],
          },
        ],
      });
      await create('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', webhook('ValidatingWebhookConfiguration', `${ns}-validate`));
      await create('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', webhook('MutatingWebhookConfiguration', `${ns}-mutate`));
      await create(`/api/v1/namespaces/${ns}/services`, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'policy' },
        spec: { selector: { app: 'policy' }, ports: [{ port: 443, targetPort: 8443 }] },
      });
      await create(`/api/v1/namespaces/${ns}/endpoints`, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'policy' },
        subsets: [{ notReadyAddresses: [{ ip: '10.244.1.9' }], ports: [{ port: 8443 }] }],
      });
      await create(`/api/v1/namespaces/${ns}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'builder', annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:role/builder' } },
      });
      const mine = (all: KubeObject[]) =>
        all
          .filter((c) => String(c.metadata?.name).startsWith(`${ns}-`))
          .map((c) => ({ kind: c.kind, name: c.metadata?.name, webhooks: stripVolatile((c as { webhooks?: unknown }).webhooks) }))
          .sort((x, y) => String(x.kind).localeCompare(String(y.kind)));
      return {
        storageClass: await product(() => b.source.getStorageClass(`${ns}-fast`)),
        absentClass: await product(() => b.source.getStorageClass(`${ns}-absent`)),
        attachment: await product(() => b.source.getVolumeAttachment(attachment)),
        absentAttachment: await product(() => b.source.getVolumeAttachment(volumeAttachmentName('vol-9', 'ebs.csi.aws.com', node))),
        csiNode: await product(() => b.source.getCsiNode(node)),
        absentCsiNode: await product(() => b.source.getCsiNode(`${ns}-absent`)),
        claimEvents: await product(
          () => b.source.listObjectEvents(ns, 'PersistentVolumeClaim', 'data'),
          (es) => es.map((e) => `${e.reason}: ${e.message}`),
        ),
        webhooks: await product(() => b.source.listWebhookConfigurations(), mine),
        // The cluster IP is allocated from each server's own range.
        service: await product(
          () => b.source.getService(ns, 'policy'),
          (svc) => (svc ? { name: svc.metadata?.name, ports: (svc.spec as { ports?: unknown } | undefined)?.ports } : null),
        ),
        absentService: await product(() => b.source.getService(ns, 'absent')),
        endpoints: await product(() => b.source.getEndpoints(ns, 'policy')),
        absentEndpoints: await product(() => b.source.getEndpoints(ns, 'absent')),
        // Metadata only: the annotations that name a cloud identity, read as PartialObjectMetadata.
        serviceAccount: await product(
          () => b.source.serviceAccountMetadata(ns, 'builder'),
          (sa) => (sa ? { kind: sa.kind, name: sa.metadata?.name, annotations: sa.metadata?.annotations } : null),
        ),
        absentServiceAccount: await product(() => b.source.serviceAccountMetadata(ns, 'absent')),
      };
    },
  },
  {
    name: 'what a refused ServiceAccount may do: RoleBindings, ClusterRoleBindings, Roles, ClusterRoles (src/collect/access.ts)',
    async run(b, ns) {
      const create = (path: string, body: KubeObject) => must(b.client.request('POST', path, { body }), `create ${body.kind}`);
      const rbac = '/apis/rbac.authorization.k8s.io/v1';
      const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }];
      await create(`${rbac}/namespaces/${ns}/roles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader' }, rules });
      await create(`${rbac}/clusterroles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `${ns}-nodes` }, rules });
      const subjects = [{ kind: 'ServiceAccount', name: 'operator', namespace: ns }];
      await create(`${rbac}/namespaces/${ns}/rolebindings`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'operator-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
        subjects,
      });
      await create(`${rbac}/clusterrolebindings`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: `${ns}-operator-nodes` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${ns}-nodes` },
        subjects,
      });
      const shape = (o: KubeObject | null) =>
        o
          ? {
              name: o.metadata?.name,
              roleRef: (o as { roleRef?: unknown }).roleRef ?? null,
              subjects: (o as { subjects?: unknown }).subjects ?? null,
              rules: (o as { rules?: unknown }).rules ?? null,
            }
          : null;
      return {
        roleBindings: await product(
          () => b.source.listRoleBindings(ns),
          (all) => all.map(shape),
        ),
        clusterRoleBindings: await product(
          () => b.source.listClusterRoleBindings(),
          (all) => all.filter((o) => String(o.metadata?.name).startsWith(`${ns}-`)).map(shape),
        ),
        role: await product(() => b.source.getRole(ns, 'reader'), shape),
        clusterRole: await product(() => b.source.getRole(undefined, `${ns}-nodes`), shape),
        absentRole: await product(() => b.source.getRole(ns, 'absent')),
        absentClusterRole: await product(() => b.source.getRole(undefined, `${ns}-absent`)),
      };
    },
  },
  {
    name: 'events: create, the audit trail (src/audit/events.ts), AlreadyExists when an entry is retried',
    async run(b, ns) {
      const created = await createPod(b, ns, pod('web'));
      const entry: AuditEntry = {
        at: '2026-03-01T10:00:00.000Z',
        cluster: 'fidelity',
        kind: 'run',
        planId: 'pl_fidelityCase0000',
        playbook: 'recreate-pod',
        target: { kind: 'pod', namespace: ns, name: 'web' },
        uid: created.metadata.uid,
        actors: ['U0ALICE'],
        outcome: 'fixed',
      };
      const first = await writeAuditEvent(b.source.core, entry, '1772359200000-0', 'fidelity');
      const again = await writeAuditEvent(b.source.core, entry, '1772359200000-0', 'fidelity');
      const list = await must(b.client.request('GET', `/api/v1/namespaces/${ns}/events`), 'events');
      const stored = (list.items as KubeObject[])
        .filter((e) => e.reason === 'PodDoctorRemediation')
        .map((e) => {
          const { involvedObject, reason, message, type, action, source, reportingComponent, reportingInstance, count, firstTimestamp, lastTimestamp } = e;
          const fields = { involvedObject, reason, message, type, action, source, reportingComponent, reportingInstance, count, firstTimestamp, lastTimestamp };
          return stripVolatile({ name: e.metadata.name, annotations: e.metadata.annotations, ...fields });
        });
      return { first, again, stored };
    },
  },
];

describe.skipIf(missing !== undefined)('fidelity: the simulated API answers like kube-apiserver 1.20', () => {
  let sim: Backend;
  let real: Backend & { cp: ControlPlane; rbac: string[] };
  const results = new Map<string, { sim: Outcome; real: Outcome }>();

  beforeAll(async () => {
    const t0 = Date.now();
    [sim, real] = await Promise.all([simBackend(), realBackend()]);
    console.log(
      `[envtest] fidelity: real API server up in ${Date.now() - t0} ms; product requests as ${real.rbac.length ? `${PRODUCT_ACCOUNTS.remediate} under ${real.rbac.join(', ')}` : 'admin (no RBAC manifests in deploy/)'}`,
    );
    // A Calico cluster: the CRD the sim always serves.
    await real.client.create('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'workloadendpoints.crd.projectcalico.org' },
      spec: {
        group: 'crd.projectcalico.org',
        scope: 'Namespaced',
        names: { plural: 'workloadendpoints', singular: 'workloadendpoint', kind: 'WorkloadEndpoint', listKind: 'WorkloadEndpointList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    await real.client.waitFor(
      'Calico CRD established',
      () => real.client.request('GET', '/apis/crd.projectcalico.org/v1/workloadendpoints'),
      (r) => r.status === 200,
      { timeoutMs: 20_000 },
    );
  });

  afterAll(async () => {
    // POD_DOCTOR_FIDELITY_DUMP=<file>: both servers' outcomes per case, for reading the real answers.
    const dump = process.env.POD_DOCTOR_FIDELITY_DUMP;
    if (dump) writeFileSync(dump, JSON.stringify(Object.fromEntries(results), null, 2));
    await Promise.all([sim?.stop(), real?.stop()]);
  });

  CASES.forEach((c, i) => {
    it(c.name, async () => {
      const ns = `fid-${i}`;
      const onBoth = async (b: Backend) => {
        await must(
          b.client.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } }),
          `namespace ${ns}`,
        );
        return c.run(b, ns);
      };
      const [s, r] = await Promise.all([onBoth(sim), onBoth(real)]);
      results.set(c.name, { sim: s, real: r });
      expect(s, `the simulated API differs from kube-apiserver in "${c.name}"`).toEqual(r);
    });
  });

  it('the deployed RBAC lets each identity do exactly its role (SubjectAccessReview on the real authorizer)', async () => {
    if (real.rbac.length === 0) return;
    const can = async (user: string, op: (typeof API_OPERATIONS)[number], verb: string) => {
      const review = await real.client.create('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user,
          groups: ['system:serviceaccounts', 'system:serviceaccounts:pod-doctor', 'system:authenticated'],
          resourceAttributes: {
            group: op.group,
            version: op.version,
            resource: op.resource,
            ...(op.subresource ? { subresource: op.subresource } : {}),
            verb,
            ...(op.namespaced ? { namespace: 'shop' } : {}),
          },
        },
      });
      return review.status?.allowed === true;
    };
    // The bot (diagnose) reads, Secrets excepted; the worker (remediate) does everything (the Secrets opt-in is installed here).
    const diagnoseKeys = new Set(API_OPERATIONS.filter((o) => o.role === 'diagnose' && !o.optIn).flatMap((o) => o.verbs.map((v) => operationKey(o, v))));
    const wrong: string[] = [];
    for (const op of API_OPERATIONS) {
      for (const verb of op.verbs) {
        const key = operationKey(op, verb);
        const diagnoseMay = diagnoseKeys.has(key);
        if ((await can(PRODUCT_ACCOUNTS.diagnose, op, verb)) !== diagnoseMay)
          wrong.push(`${PRODUCT_ACCOUNTS.diagnose} ${diagnoseMay ? 'cannot' : 'can'} ${key}`);
        if (!(await can(PRODUCT_ACCOUNTS.remediate, op, verb))) wrong.push(`${PRODUCT_ACCOUNTS.remediate} cannot ${key}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('covers every API operation the product performs (src/collect/operations.ts), and the list is exact', () => {
    const keys = (rs: Backend['requests']) => new Set(rs.map((r) => operationOf(r.method, r.url)).filter((k): k is string => k !== undefined));
    const exercised = new Set([...keys(real.requests), ...keys(real.productRequests)]);
    const missingOps = operationKeys().filter((k) => !exercised.has(k));
    expect(missingOps, 'operations of API_OPERATIONS without a fidelity case: add one to CASES').toEqual([]);
    // Everything the product's own code sent during the cases is in the list (RBAC is generated from it).
    const listed = new Set(operationKeys());
    // (The proxy saw the product's own writes, not only the suite's raw requests.)
    expect(keys(real.productRequests)).toContain('v1 namespaces/finalize update');
    const unlisted = [...keys(real.productRequests), ...keys(sim.productRequests)].filter((k) => !listed.has(k));
    expect([...new Set(unlisted)], 'the product made requests API_OPERATIONS does not list').toEqual([]);
    // Every read of KubeSource and every Kubernetes step kind ran against both servers.
    const methods = Object.getOwnPropertyNames(KubeSource.prototype).filter((m) => !SOURCE_HELPERS.has(m));
    expect(
      methods.filter((m) => !real.sourceCalls.has(m) || !sim.sourceCalls.has(m)),
      'KubeSource methods no case calls',
    ).toEqual([]);
    const kubeSteps = Object.keys(ACTIONS).filter((k) => !NON_KUBERNETES_STEPS.has(k));
    expect(
      kubeSteps.filter((k) => !stepsRun.has(k)),
      'step kinds no case runs (or list them in NON_KUBERNETES_STEPS)',
    ).toEqual([]);
    expect(API_OPERATIONS.length).toBeGreaterThan(10);
    expect(operationKey({ group: '', version: 'v1', resource: 'pods', subresource: 'eviction' }, 'create')).toBe('v1 pods/eviction create');
  });
});
