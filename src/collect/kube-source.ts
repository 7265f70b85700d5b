// Facts from a live API server through @kubernetes/client-node. Responses are turned back
// into wire form (strings for timestamps) so rules see what `kubectl get -o yaml` shows.
import http from 'node:http';
import https from 'node:https';
import * as k8s from '@kubernetes/client-node';
import type { Event, KubeObject, Lease, Namespace, NamespaceContent, Node, PersistentVolumeClaim, Pod } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { canonicalTimes, fromClient } from './wire.js';
import type { FactSource, OwnerKind, PodQuery } from './source.js';

export interface KubeConfigOptions {
  kubeconfig?: string;
  context?: string;
  /** Use the pod's service account (in-cluster). */
  inCluster?: boolean;
}

export function loadKubeConfig(opts: KubeConfigOptions = {}): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  try {
    if (opts.inCluster) kc.loadFromCluster();
    else if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
    else kc.loadFromDefault();
    if (opts.context) kc.setCurrentContext(opts.context);
  } catch (err) {
    throw new PodDoctorError('BAD_CONFIG', `cannot load kubeconfig: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (!kc.getCurrentCluster()) throw new PodDoctorError('BAD_CONFIG', 'kubeconfig has no current cluster (set --context or current-context)');
  return kc;
}

export function apiStatus(err: unknown): number | undefined {
  if (err instanceof k8s.ApiException) return err.code;
  return undefined;
}

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (apiStatus(err) === 404) return null;
    throw err;
  }
}

const OWNER_READERS: Record<OwnerKind, { read: (s: KubeSource, ns: string, name: string) => Promise<unknown> }> = {
  ReplicaSet: { read: (s, namespace, name) => s.apps.readNamespacedReplicaSet({ namespace, name }) },
  Deployment: { read: (s, namespace, name) => s.apps.readNamespacedDeployment({ namespace, name }) },
  StatefulSet: { read: (s, namespace, name) => s.apps.readNamespacedStatefulSet({ namespace, name }) },
  DaemonSet: { read: (s, namespace, name) => s.apps.readNamespacedDaemonSet({ namespace, name }) },
  Job: { read: (s, namespace, name) => s.batch.readNamespacedJob({ namespace, name }) },
  CronJob: { read: (s, namespace, name) => s.batch.readNamespacedCronJob({ namespace, name }) },
};

/**
 * client-node 1.x builds a new http(s).Agent for every request, so every API call opens a new
 * connection (and a new TLS handshake). This middleware swaps in one keep-alive agent per set
 * of TLS options, built from the very options client-node computed for the request; proxy
 * agents are left alone.
 */
function keepAliveMiddleware(): k8s.Middleware {
  const pool = new Map<string, http.Agent>();
  return {
    pre: async (ctx) => {
      const agent = ctx.getAgent();
      if (!agent || (agent.constructor !== http.Agent && agent.constructor !== https.Agent)) return ctx;
      const options = (agent as http.Agent & { options: https.AgentOptions }).options;
      const secure = agent instanceof https.Agent;
      const key = JSON.stringify([secure, options.ca, options.cert, options.key, options.pfx, options.passphrase, options.rejectUnauthorized]);
      let shared = pool.get(key);
      if (!shared) {
        const pooled = { ...options, keepAlive: true, maxSockets: 64 };
        shared = secure ? new https.Agent(pooled) : new http.Agent(pooled);
        pool.set(key, shared);
      }
      ctx.setAgent(shared);
      return ctx;
    },
    post: async (response) => response,
  };
}

type ApiConstructor<T> = new (config: k8s.Configuration) => T;

/** Like `kc.makeApiClient`, with connections reused across requests. */
export function pooledApiClient<T>(kc: k8s.KubeConfig, api: ApiConstructor<T>): T {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new PodDoctorError('BAD_CONFIG', 'kubeconfig has no current cluster');
  const config = k8s.createConfiguration({
    baseServer: new k8s.ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    promiseMiddleware: [keepAliveMiddleware()],
  });
  return new api(config);
}

const MAX_NAMES = 20;

export class KubeSource implements FactSource {
  readonly description: string;
  readonly core: k8s.CoreV1Api;
  readonly apps: k8s.AppsV1Api;
  readonly batch: k8s.BatchV1Api;
  readonly coordination: k8s.CoordinationV1Api;
  readonly custom: k8s.CustomObjectsApi;

  constructor(readonly kc: k8s.KubeConfig) {
    this.description = kc.getCurrentCluster()?.server ?? 'cluster';
    this.core = pooledApiClient(kc, k8s.CoreV1Api);
    this.apps = pooledApiClient(kc, k8s.AppsV1Api);
    this.batch = pooledApiClient(kc, k8s.BatchV1Api);
    this.coordination = pooledApiClient(kc, k8s.CoordinationV1Api);
    this.custom = pooledApiClient(kc, k8s.CustomObjectsApi);
  }

  async getPod(namespace: string, name: string): Promise<Pod | null> {
    const pod = await orNull(this.core.readNamespacedPod({ namespace, name }));
    return pod ? fromClient<Pod>(pod) : null;
  }

  async listPodEvents(namespace: string, name: string): Promise<Event[]> {
    const list = await this.core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${name}` });
    return list.items.map((e) => fromClient<Event>(e));
  }

  async getNode(name: string): Promise<Node | null> {
    const node = await orNull(this.core.readNode({ name }));
    return node ? fromClient<Node>(node) : null;
  }

  async listNodeEvents(name: string): Promise<Event[]> {
    const list = await this.core.listEventForAllNamespaces({ fieldSelector: `involvedObject.kind=Node,involvedObject.name=${name}` });
    return list.items.map((e) => fromClient<Event>(e));
  }

  async listNodes(): Promise<Node[]> {
    const list = await this.core.listNode({});
    return list.items.map((n) => fromClient<Node>(n));
  }

  async listPods(query: PodQuery): Promise<Pod[]> {
    const fieldSelector = query.nodeName ? `spec.nodeName=${query.nodeName}` : undefined;
    const list = query.namespace
      ? await this.core.listNamespacedPod({ namespace: query.namespace, fieldSelector, labelSelector: query.labelSelector })
      : await this.core.listPodForAllNamespaces({ fieldSelector, labelSelector: query.labelSelector });
    return list.items.map((p) => fromClient<Pod>(p));
  }

  async getNamespace(name: string): Promise<Namespace | null> {
    const ns = await orNull(this.core.readNamespace({ name }));
    return ns ? fromClient<Namespace>(ns) : null;
  }

  async getOwner(namespace: string, kind: OwnerKind, name: string): Promise<KubeObject | null> {
    const reader = OWNER_READERS[kind];
    const obj = await orNull(reader.read(this, namespace, name));
    return obj ? fromClient<KubeObject>(obj) : null;
  }

  async listOwnerEvents(namespace: string, kind: OwnerKind, name: string): Promise<Event[]> {
    const list = await this.core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.kind=${kind},involvedObject.name=${name}` });
    return list.items.map((e) => fromClient<Event>(e));
  }

  async configMapExists(namespace: string, name: string): Promise<boolean> {
    return (await this.metadataOnly(`/api/v1/namespaces/${namespace}/configmaps/${name}`)) !== null;
  }

  async secretExists(namespace: string, name: string): Promise<boolean> {
    return (await this.metadataOnly(`/api/v1/namespaces/${namespace}/secrets/${name}`)) !== null;
  }

  async getPvc(namespace: string, name: string): Promise<PersistentVolumeClaim | null> {
    const pvc = await orNull(this.core.readNamespacedPersistentVolumeClaim({ namespace, name }));
    return pvc ? fromClient<PersistentVolumeClaim>(pvc) : null;
  }

  async getLease(namespace: string, name: string): Promise<Lease | null> {
    const lease = await orNull(this.coordination.readNamespacedLease({ namespace, name }));
    return lease ? fromClient<Lease>(lease) : null;
  }

  async listWorkloadEndpoints(namespace: string): Promise<KubeObject[] | null> {
    const list = await orNull(
      this.custom.listNamespacedCustomObject({ group: 'crd.projectcalico.org', version: 'v1', namespace, plural: 'workloadendpoints' }),
    );
    if (!list) return null;
    return ((list as { items?: KubeObject[] }).items ?? []).map((o) => canonicalTimes(o));
  }

  async podLog(namespace: string, pod: string, container: string, previous: boolean, tailLines: number): Promise<string[] | null> {
    try {
      const text = await this.core.readNamespacedPodLog({ namespace, name: pod, container, previous, tailLines });
      return text.split('\n').filter((l) => l.length > 0);
    } catch (err) {
      // 400 "previous terminated container not found" and 404 mean: no such log.
      const code = apiStatus(err);
      if (code === 400 || code === 404) return null;
      throw err;
    }
  }

  async listNamespaceContents(namespace: string): Promise<NamespaceContent[]> {
    const names = (items: { metadata?: { name?: string } }[]) => items.map((i) => i.metadata?.name ?? '').filter(Boolean).slice(0, MAX_NAMES);
    const lists: [string, Promise<{ items: { metadata?: { name?: string } }[] }>][] = [
      ['Pod', this.core.listNamespacedPod({ namespace })],
      ['Service', this.core.listNamespacedService({ namespace })],
      ['PersistentVolumeClaim', this.core.listNamespacedPersistentVolumeClaim({ namespace })],
      ['Deployment', this.apps.listNamespacedDeployment({ namespace })],
      ['StatefulSet', this.apps.listNamespacedStatefulSet({ namespace })],
      ['DaemonSet', this.apps.listNamespacedDaemonSet({ namespace })],
      ['Job', this.batch.listNamespacedJob({ namespace })],
    ];
    const results = await Promise.allSettled(lists.map(([, p]) => p));
    const out: NamespaceContent[] = [];
    results.forEach((r, i) => {
      if (r.status !== 'fulfilled') return;
      const found = names(r.value.items);
      if (found.length > 0) out.push({ kind: lists[i]![0], names: found });
    });
    return out;
  }

  /** GET with `as=PartialObjectMetadata`: the server returns metadata only, never data. */
  private async metadataOnly(path: string): Promise<Record<string, unknown> | null> {
    const server = this.kc.getCurrentCluster()?.server;
    if (!server) throw new PodDoctorError('BAD_CONFIG', 'kubeconfig has no server');
    const url = new URL(path, server.endsWith('/') ? server : `${server}/`);
    url.pathname = new URL(server).pathname.replace(/\/$/, '') + path;
    const opts: https.RequestOptions = {
      method: 'GET',
      headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' },
    };
    await this.kc.applyToHTTPSOptions(opts);
    const mod = url.protocol === 'https:' ? https : http;
    return await new Promise((resolve, reject) => {
      const req = mod.request(url, opts, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 404) return resolve(null);
          if (!res.statusCode || res.statusCode >= 300) {
            return reject(new k8s.ApiException(res.statusCode ?? 0, `GET ${path} failed`, body, {}));
          }
          try {
            resolve(JSON.parse(body) as Record<string, unknown>);
          } catch (err) {
            reject(err);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
  }
}
