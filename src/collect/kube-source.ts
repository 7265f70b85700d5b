// Facts from a live API server through @kubernetes/client-node. Responses are turned back
// into wire form (strings for timestamps) so rules see what `kubectl get -o yaml` shows.
import { existsSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { Agent, type Dispatcher } from 'undici';
import type { Event, KubeObject, Lease, Namespace, NamespaceContent, Node, PersistentVolumeClaim, Pod } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import { canonicalizeInPlace } from '../kube/wire.js';
import { buildInfo } from '../version.js';
import { ReadCache } from './read-cache.js';
import type { FactSource, OwnerKind, PodQuery } from './source.js';

/** The User-Agent of every request to the API server; writes of a plan's run add who approved it. */
export const USER_AGENT = `pod-doctor/${buildInfo().version}`;

export interface KubeConfigOptions {
  /** A kubeconfig path, or several joined as in KUBECONFIG. */
  kubeconfig?: string;
  /** Where `kubeconfig` came from, for messages (default: $KUBECONFIG when it is that, else the flag or the config file). */
  kubeconfigFrom?: string;
  context?: string;
  /** Use the pod's service account (in-cluster). */
  inCluster?: boolean;
  /** Where KUBECONFIG and HOME are read (default: process.env). */
  env?: Record<string, string | undefined>;
}

/** Where client-node (and kubectl) find a pod's service account token. */
const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * The kubeconfig files to read, or why there are none: --kubeconfig (or the configured path),
 * else $KUBECONFIG, each a list of which the files that exist are read (as kubectl does), else
 * ~/.kube/config. `missing` without a list: none given, the service account may stand in.
 */
export function kubeconfigFiles(opts: KubeConfigOptions): { files: string[]; looked: string; missing?: string; listed: boolean } {
  const env = opts.env ?? process.env;
  const given = opts.kubeconfig && (opts.kubeconfigFrom ?? (opts.kubeconfig === env.KUBECONFIG ? '$KUBECONFIG' : '--kubeconfig or the config file'));
  const [list, from] = opts.kubeconfig ? [opts.kubeconfig, given] : [env.KUBECONFIG, '$KUBECONFIG'];
  if (list) {
    const listed = list.split(delimiter).filter(Boolean);
    const files = listed.filter((f) => existsSync(f));
    const looked = `${listed.join(delimiter)} (${from})`;
    const missing = listed.length === 1 ? `${looked} does not exist` : `no file of ${looked} exists`;
    return { files, looked, listed: true, ...(files.length === 0 ? { missing } : {}) };
  }
  const file = join(env.HOME || homedir(), '.kube', 'config');
  if (existsSync(file)) return { files: [file], looked: file, listed: false };
  return { files: [], looked: file, listed: false, missing: `KUBECONFIG is not set and ~/.kube/config (${file}) does not exist` };
}

export function loadKubeConfig(opts: KubeConfigOptions = {}): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  const { files, looked, missing, listed } = opts.inCluster ? { files: [], looked: 'the service account', listed: false } : kubeconfigFiles(opts);
  try {
    if (opts.inCluster) kc.loadFromCluster();
    else if (files.length > 0) {
      kc.loadFromFile(files[0]!);
      for (const file of files.slice(1)) {
        const next = new k8s.KubeConfig();
        next.loadFromFile(file);
        // The first file that names a current-context wins, as in kubectl.
        kc.mergeConfig(next, Boolean(kc.getCurrentContext()));
      }
    } else if (!listed && (process.platform === 'win32' || existsSync(SERVICE_ACCOUNT_TOKEN))) kc.loadFromDefault();
    else throw new PodDoctorError('NO_KUBECONFIG', `no kubeconfig: ${missing}; pass --kubeconfig FILE or set KUBECONFIG`);
  } catch (err) {
    if (err instanceof PodDoctorError) throw err;
    throw new PodDoctorError('BAD_CONFIG', `cannot load the kubeconfig ${looked}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const contexts = kc.getContexts().map((c) => c.name);
  const known = contexts.length > 0 ? `its contexts: ${contexts.join(', ')}` : 'it has no contexts';
  if (opts.context) {
    if (!opts.inCluster && !kc.getContextObject(opts.context))
      throw new PodDoctorError('UNKNOWN_CONTEXT', `context "${opts.context}" is not in the kubeconfig ${looked}; ${known}`);
    kc.setCurrentContext(opts.context);
  }
  if (!kc.getCurrentCluster())
    throw new PodDoctorError('BAD_CONFIG', `the kubeconfig ${looked} has no current context with a cluster: pass --context NAME (${known})`);
  return kc;
}

/** The namespace the kubeconfig's current context names (kubectl's default namespace), if any. */
export function contextNamespace(kc: k8s.KubeConfig): string | undefined {
  return kc.getContextObject(kc.getCurrentContext())?.namespace || undefined;
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

/** Where each owner kind is read (group/version and plural). */
const OWNER_PATHS: Record<OwnerKind, string> = {
  ReplicaSet: 'apis/apps/v1/namespaces/{ns}/replicasets',
  Deployment: 'apis/apps/v1/namespaces/{ns}/deployments',
  StatefulSet: 'apis/apps/v1/namespaces/{ns}/statefulsets',
  DaemonSet: 'apis/apps/v1/namespaces/{ns}/daemonsets',
  Job: 'apis/batch/v1/namespaces/{ns}/jobs',
  CronJob: 'apis/batch/v1/namespaces/{ns}/cronjobs',
};

/**
 * One keep-alive agent per set of TLS options. client-node builds a new http(s).Agent for
 * every request (so every call would open a new connection and TLS handshake); this swaps in
 * a shared one built from the very options client-node computed. Proxy agents are left alone.
 */
class AgentPool {
  private readonly pool = new Map<string, http.Agent>();

  pooled(agent: http.Agent | undefined): http.Agent | undefined {
    if (!agent || (agent.constructor !== http.Agent && agent.constructor !== https.Agent)) return agent;
    const options = (agent as http.Agent & { options: https.AgentOptions }).options;
    const secure = agent instanceof https.Agent;
    const key = JSON.stringify([
      secure,
      options.ca,
      options.cert,
      options.key,
      options.pfx,
      options.passphrase,
      options.rejectUnauthorized,
      options.servername,
    ]);
    let shared = this.pool.get(key);
    if (!shared) {
      const pooled = { ...options, keepAlive: true, maxSockets: 64 };
      shared = secure ? new https.Agent(pooled) : new http.Agent(pooled);
      this.pool.set(key, shared);
    }
    return shared;
  }
}

/**
 * One keep-alive undici Agent per set of TLS options for the typed clients. client-node 2.x, like
 * 1.x, builds a new dispatcher for every request (a new connection and TLS handshake each time);
 * this swaps in a shared one built from the same kubeconfig options. Proxies are left alone.
 */
class DispatcherPool {
  private readonly pool = new Map<string, Agent>();

  async pooled(kc: k8s.KubeConfig, current: Dispatcher | undefined): Promise<Dispatcher | undefined> {
    if (!(current instanceof Agent)) return current;
    const opts: https.RequestOptions = {};
    await kc.applyToHTTPSOptions(opts);
    const tls = {
      ca: opts.ca,
      cert: opts.cert,
      key: opts.key,
      pfx: opts.pfx,
      passphrase: opts.passphrase,
      rejectUnauthorized: opts.rejectUnauthorized,
      servername: opts.servername,
    };
    const key = JSON.stringify(tls);
    let shared = this.pool.get(key);
    if (!shared) {
      // keepAliveInitialDelay as client-node sets it (30 s, like client-go).
      shared = new Agent({ connect: { ...tls, keepAlive: true, keepAliveInitialDelay: 30_000 }, connections: 64 });
      this.pool.set(key, shared);
    }
    return shared;
  }
}

function keepAliveMiddleware(kc: k8s.KubeConfig, pool: DispatcherPool): k8s.Middleware {
  return {
    pre: async (ctx) => {
      const dispatcher = await pool.pooled(kc, ctx.getDispatcher());
      if (dispatcher) ctx.setDispatcher(dispatcher);
      return ctx;
    },
    post: async (response) => response,
  };
}

/**
 * Our User-Agent instead of node-fetch's; requests that may change something (any method but GET
 * and HEAD) get `writes`, so the API server's audit log can name who approved them.
 */
function userAgentMiddleware(writes: string): k8s.Middleware {
  return {
    pre: async (ctx) => {
      const method = String(ctx.getHttpMethod());
      ctx.setHeaderParam('User-Agent', method === 'GET' || method === 'HEAD' ? USER_AGENT : writes);
      return ctx;
    },
    post: async (response) => response,
  };
}

type ApiConstructor<T> = new (config: k8s.Configuration) => T;

/** Like `kc.makeApiClient`, with connections reused across requests; writes sent as `writeUserAgent`. */
export function pooledApiClient<T>(kc: k8s.KubeConfig, api: ApiConstructor<T>, pool = new DispatcherPool(), writeUserAgent = USER_AGENT): T {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new PodDoctorError('BAD_CONFIG', 'kubeconfig has no current cluster');
  const config = k8s.createConfiguration({
    baseServer: new k8s.ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    promiseMiddleware: [keepAliveMiddleware(kc, pool), userAgentMiddleware(writeUserAgent)],
  });
  return new api(config);
}

const MAX_NAMES = 20;
/** Bytes of one log tail at most (`limitBytes`): a log of megabyte lines costs one bounded read. */
const LOG_LIMIT_BYTES = 512 * 1024;
const JSON_ACCEPT = 'application/json';
const METADATA_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
/** A read that gets no answer at all in this time is abandoned (the collector's own limit is shorter). */
const READ_TIMEOUT_MS = 60_000;
/** How long one computation of a read's auth and TLS options is reused. */
const AUTH_TTL_MS = 1_000;

type Query = Record<string, string | number | boolean | undefined>;
type Items<T> = { items?: T[] };

const enc = encodeURIComponent;

/**
 * Reads go straight to the REST API and keep the JSON as it came (wire form, timestamps
 * canonical): client-node's typed models would deserialize every field into classes and Dates
 * only for the collector to turn them back, which is most of a diagnosis' CPU. Auth, TLS and
 * proxies still come from client-node's KubeConfig; writes (playbook steps) use its typed APIs.
 */
export class KubeSource implements FactSource {
  readonly description: string;
  /** Typed clients for the playbook steps' writes. */
  readonly core: k8s.CoreV1Api;
  readonly apps: k8s.AppsV1Api;
  private readonly agents = new AgentPool();
  private readonly dispatchers = new DispatcherPool();
  private readonly server: URL;
  private readonly reads = new ReadCache();
  /** The last auth and TLS options (one object, so views share it). */
  private readonly auth: { at: number; options?: Promise<https.RequestOptions> } = { at: 0 };
  // Views (`sharing`, `throttled`) are Object.create(this) with one of these set: everything
  // else (connections, clients, the read cache) stays shared with the source they came from.
  /** Reads may be shared with other diagnoses that started at or after this (see ReadCache). */
  private since: number | undefined = undefined;
  /** Waited for before every request sent to the API server (shared reads take nothing). */
  private throttle: (() => Promise<unknown>) | undefined = undefined;

  constructor(readonly kc: k8s.KubeConfig) {
    const server = kc.getCurrentCluster()?.server;
    if (!server) throw new PodDoctorError('BAD_CONFIG', 'kubeconfig has no current cluster');
    this.description = server;
    this.server = new URL(server.endsWith('/') ? server : `${server}/`);
    this.core = pooledApiClient(kc, k8s.CoreV1Api, this.dispatchers);
    this.apps = pooledApiClient(kc, k8s.AppsV1Api, this.dispatchers);
  }

  async getPod(namespace: string, name: string): Promise<Pod | null> {
    return this.object<Pod>(`api/v1/namespaces/${enc(namespace)}/pods/${enc(name)}`);
  }

  async listPodEvents(namespace: string, name: string): Promise<Event[]> {
    return this.items<Event>(`api/v1/namespaces/${enc(namespace)}/events`, { fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${name}` });
  }

  async getNode(name: string): Promise<Node | null> {
    return this.object<Node>(`api/v1/nodes/${enc(name)}`);
  }

  async listNodeEvents(name: string): Promise<Event[]> {
    return this.items<Event>('api/v1/events', { fieldSelector: `involvedObject.kind=Node,involvedObject.name=${name}` });
  }

  async listNodes(): Promise<Node[]> {
    return this.items<Node>('api/v1/nodes');
  }

  async listPods(query: PodQuery): Promise<Pod[]> {
    const path = query.namespace ? `api/v1/namespaces/${enc(query.namespace)}/pods` : 'api/v1/pods';
    return this.items<Pod>(path, { fieldSelector: query.nodeName ? `spec.nodeName=${query.nodeName}` : undefined, labelSelector: query.labelSelector });
  }

  async getNamespace(name: string): Promise<Namespace | null> {
    return this.object<Namespace>(`api/v1/namespaces/${enc(name)}`);
  }

  async getOwner(namespace: string, kind: OwnerKind, name: string): Promise<KubeObject | null> {
    return this.object<KubeObject>(`${OWNER_PATHS[kind].replace('{ns}', enc(namespace))}/${enc(name)}`);
  }

  async listObjectEvents(namespace: string, kind: string, name: string): Promise<Event[]> {
    return this.items<Event>(`api/v1/namespaces/${enc(namespace)}/events`, { fieldSelector: `involvedObject.kind=${kind},involvedObject.name=${name}` });
  }

  async getStorageClass(name: string): Promise<KubeObject | null> {
    return this.object<KubeObject>(`apis/storage.k8s.io/v1/storageclasses/${enc(name)}`);
  }

  async getVolumeAttachment(name: string): Promise<KubeObject | null> {
    return this.object<KubeObject>(`apis/storage.k8s.io/v1/volumeattachments/${enc(name)}`);
  }

  async getCsiNode(name: string): Promise<KubeObject | null> {
    return this.object<KubeObject>(`apis/storage.k8s.io/v1/csinodes/${enc(name)}`);
  }

  async listWebhookConfigurations(): Promise<KubeObject[]> {
    const kinds = [
      ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
      ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
    ] as const;
    // A list's items carry no kind: stamp it, the configuration's kind is part of the answer.
    const lists = await Promise.all(
      kinds.map(async ([kind, resource]) => (await this.items<KubeObject>(`apis/admissionregistration.k8s.io/v1/${resource}`)).map((o) => ({ ...o, kind }))),
    );
    return lists.flat();
  }

  async getService(namespace: string, name: string): Promise<KubeObject | null> {
    return this.object<KubeObject>(`api/v1/namespaces/${enc(namespace)}/services/${enc(name)}`);
  }

  async getEndpoints(namespace: string, name: string): Promise<KubeObject | null> {
    return this.object<KubeObject>(`api/v1/namespaces/${enc(namespace)}/endpoints/${enc(name)}`);
  }

  async serviceAccountMetadata(namespace: string, name: string): Promise<KubeObject | null> {
    const text = await orNull(this.get(`api/v1/namespaces/${enc(namespace)}/serviceaccounts/${enc(name)}`, {}, METADATA_ACCEPT));
    if (text === null) return null;
    const meta = canonicalizeInPlace(JSON.parse(text) as KubeObject, false);
    return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta.metadata ?? {} };
  }

  async getPersistentVolume(name: string): Promise<KubeObject | null> {
    return orNull(this.json<KubeObject>(`api/v1/persistentvolumes/${enc(name)}`, {}));
  }

  async listRoleBindings(namespace: string): Promise<KubeObject[]> {
    return this.items<KubeObject>(`apis/rbac.authorization.k8s.io/v1/namespaces/${enc(namespace)}/rolebindings`);
  }

  async listClusterRoleBindings(): Promise<KubeObject[]> {
    return this.items<KubeObject>('apis/rbac.authorization.k8s.io/v1/clusterrolebindings');
  }

  async getRole(namespace: string | undefined, name: string): Promise<KubeObject | null> {
    const path = namespace ? `namespaces/${enc(namespace)}/roles/${enc(name)}` : `clusterroles/${enc(name)}`;
    return this.object<KubeObject>(`apis/rbac.authorization.k8s.io/v1/${path}`);
  }

  async listServices(namespace: string): Promise<KubeObject[]> {
    return this.items<KubeObject>(`api/v1/namespaces/${enc(namespace)}/services`);
  }

  async listDisruptionBudgets(namespace: string): Promise<KubeObject[]> {
    const v1 = await orNull(this.items<KubeObject>(`apis/policy/v1/namespaces/${enc(namespace)}/poddisruptionbudgets`));
    // policy/v1 is served from 1.21; older servers only have v1beta1 (same fields we read).
    return v1 ?? this.items<KubeObject>(`apis/policy/v1beta1/namespaces/${enc(namespace)}/poddisruptionbudgets`);
  }

  async listAutoscalers(namespace: string): Promise<KubeObject[]> {
    // autoscaling/v2 is served from 1.23, v2beta2 before (until 1.26): the same status fields we read.
    const path = (version: string) => `apis/autoscaling/${version}/namespaces/${enc(namespace)}/horizontalpodautoscalers`;
    const items = (await orNull(this.items<KubeObject>(path('v2')))) ?? (await this.items<KubeObject>(path('v2beta2')));
    return items.map((o) => ({ ...o, kind: 'HorizontalPodAutoscaler' }));
  }

  async listNetworkPolicies(namespace: string): Promise<KubeObject[]> {
    const items = await this.items<KubeObject>(`apis/networking.k8s.io/v1/namespaces/${enc(namespace)}/networkpolicies`);
    return items.map((o) => ({ ...o, kind: 'NetworkPolicy' }));
  }

  async listNamespaceWarnings(namespace: string): Promise<Event[]> {
    return this.items<Event>(`api/v1/namespaces/${enc(namespace)}/events`, { fieldSelector: 'type=Warning' });
  }

  async configMapExists(namespace: string, name: string): Promise<boolean> {
    return (await orNull(this.get(`api/v1/namespaces/${enc(namespace)}/configmaps/${enc(name)}`, {}, METADATA_ACCEPT))) !== null;
  }

  async secretExists(namespace: string, name: string): Promise<boolean> {
    // Metadata only: the server never sends the secret's data.
    return (await orNull(this.get(`api/v1/namespaces/${enc(namespace)}/secrets/${enc(name)}`, {}, METADATA_ACCEPT))) !== null;
  }

  async configMetadata(namespace: string, kind: 'ConfigMap' | 'Secret', name: string): Promise<KubeObject | null> {
    // Metadata only (the accept header): the server sends no data, for a Secret above all.
    const path = `api/v1/namespaces/${enc(namespace)}/${kind === 'Secret' ? 'secrets' : 'configmaps'}/${enc(name)}`;
    const text = await orNull(this.get(path, {}, METADATA_ACCEPT));
    if (text === null) return null;
    const meta = canonicalizeInPlace(JSON.parse(text) as KubeObject, false);
    return { apiVersion: 'v1', kind, metadata: meta.metadata ?? {} };
  }

  async listRevisions(namespace: string, kind: 'ReplicaSet' | 'ControllerRevision', labelSelector: string): Promise<KubeObject[]> {
    const resource = kind === 'ReplicaSet' ? 'replicasets' : 'controllerrevisions';
    const items = await this.items<KubeObject>(`apis/apps/v1/namespaces/${enc(namespace)}/${resource}`, { labelSelector });
    // A list's items carry no kind: stamp it, the history reads both kinds.
    return items.map((o) => ({ ...o, kind }));
  }

  async getPvc(namespace: string, name: string): Promise<PersistentVolumeClaim | null> {
    return this.object<PersistentVolumeClaim>(`api/v1/namespaces/${enc(namespace)}/persistentvolumeclaims/${enc(name)}`);
  }

  async getLease(namespace: string, name: string): Promise<Lease | null> {
    return this.object<Lease>(`apis/coordination.k8s.io/v1/namespaces/${enc(namespace)}/leases/${enc(name)}`);
  }

  async listWorkloadEndpoints(namespace: string): Promise<KubeObject[] | null> {
    const list = await this.object<Items<KubeObject>>(`apis/crd.projectcalico.org/v1/namespaces/${enc(namespace)}/workloadendpoints`);
    return list ? (list.items ?? []) : null;
  }

  async podLog(namespace: string, pod: string, container: string, previous: boolean, tailLines: number): Promise<string[] | null> {
    try {
      // limitBytes bounds what a log of huge lines costs to read; the tail's own lines come first.
      const text = await this.get(
        `api/v1/namespaces/${enc(namespace)}/pods/${enc(pod)}/log`,
        { container, previous, tailLines, limitBytes: LOG_LIMIT_BYTES },
        'text/plain, */*',
      );
      return text.split('\n').filter((l) => l.length > 0);
    } catch (err) {
      // 400 "previous terminated container not found" and 404 mean: no such log.
      const code = apiStatus(err);
      if (code === 400 || code === 404) return null;
      throw err;
    }
  }

  async listNamespaceContents(namespace: string): Promise<NamespaceContent[]> {
    // Names only (metadata lists, one page): what is left, not every object of a large namespace.
    const ns = enc(namespace);
    const lists: [string, string][] = [
      ['Pod', `api/v1/namespaces/${ns}/pods`],
      ['Service', `api/v1/namespaces/${ns}/services`],
      ['PersistentVolumeClaim', `api/v1/namespaces/${ns}/persistentvolumeclaims`],
      ['Deployment', `apis/apps/v1/namespaces/${ns}/deployments`],
      ['StatefulSet', `apis/apps/v1/namespaces/${ns}/statefulsets`],
      ['DaemonSet', `apis/apps/v1/namespaces/${ns}/daemonsets`],
      ['Job', `apis/batch/v1/namespaces/${ns}/jobs`],
    ];
    const results = await Promise.allSettled(lists.map(([, path]) => this.get(path, { limit: MAX_NAMES }, METADATA_LIST_ACCEPT)));
    const out: NamespaceContent[] = [];
    results.forEach((r, i) => {
      if (r.status !== 'fulfilled') return;
      const items = (JSON.parse(r.value) as Items<{ metadata?: { name?: string } }>).items ?? [];
      const names = items
        .map((item) => item.metadata?.name ?? '')
        .filter(Boolean)
        .slice(0, MAX_NAMES);
      if (names.length > 0) out.push({ kind: lists[i]![0], names });
    });
    return out;
  }

  /**
   * This source for one diagnosis asked for at `since` (ms since the epoch): its reads may reuse
   * an identical read another diagnosis started at or after that moment. The view shares
   * everything else (connections, clients) with this source; writes are never shared.
   */
  sharing(since: number): KubeSource {
    const view = Object.create(this) as KubeSource;
    view.since = since;
    return view;
  }

  /**
   * This source with the typed clients' writes (playbook steps) sent with `userAgent`, e.g. a
   * plan's id and approvers; reads keep the plain one. New clients, the same connections.
   */
  writingAs(userAgent: string): KubeSource {
    const view = Object.create(this) as KubeSource;
    Object.defineProperties(view, {
      core: { value: pooledApiClient(this.kc, k8s.CoreV1Api, this.dispatchers, userAgent) },
      apps: { value: pooledApiClient(this.kc, k8s.AppsV1Api, this.dispatchers, userAgent) },
    });
    return view;
  }

  /** This source with every read sent to the API server waiting for `take()` first (an API budget). */
  throttled(take: () => Promise<unknown>): KubeSource {
    const view = Object.create(this) as KubeSource;
    view.throttle = take;
    return view;
  }

  /** Reads answered by another diagnosis' request, and reads sent to the API server. */
  get readStats(): Readonly<ReadCache['stats']> {
    return this.reads.stats;
  }

  /** GET one object; null on 404. */
  private async object<T>(path: string, query: Query = {}): Promise<T | null> {
    return orNull(this.json<T>(path, query));
  }

  /** GET a list's items (a 404 is an error: the resource is not served). */
  private async items<T>(path: string, query: Query = {}): Promise<T[]> {
    return (await this.json<Items<T>>(path, query)).items ?? [];
  }

  /** GET JSON, times canonical; in a `sharing` view the answer may be shared, so it is frozen. */
  private json<T>(path: string, query: Query): Promise<T> {
    const url = this.url(path, query);
    const shared = this.since !== undefined;
    const read = async () => canonicalizeInPlace(JSON.parse(await this.fetch(url, JSON_ACCEPT)) as T, shared);
    return shared ? this.reads.read(`json ${url.href}`, this.since!, read) : read();
  }

  /**
   * GET `path` (relative to the server URL) with the kubeconfig's auth and TLS: the body as
   * text, or an ApiException (code = HTTP status, body = the Status object) for any other answer.
   */
  private get(path: string, query: Query, accept: string): Promise<string> {
    const url = this.url(path, query);
    if (this.since === undefined) return this.fetch(url, accept);
    return this.reads.read(`${accept} ${url.href}`, this.since, () => this.fetch(url, accept));
  }

  private url(path: string, query: Query): URL {
    const url = new URL(path, this.server);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /**
   * Auth and TLS for a read, from the kubeconfig. client-node recomputes them per call (reads
   * the CA and token files, builds an Agent); a storm's reads share one result for a second,
   * which still follows a rotated token or certificate within that second.
   */
  private connection(): Promise<https.RequestOptions> {
    const now = Date.now();
    const held = this.auth;
    if (held.options && now - held.at < AUTH_TTL_MS) return held.options;
    const options = (async () => {
      const opts: https.RequestOptions = { headers: {} };
      await this.kc.applyToHTTPSOptions(opts);
      opts.agent = this.agents.pooled(opts.agent as http.Agent | undefined);
      return opts;
    })();
    held.at = now;
    held.options = options;
    options.catch(() => {
      if (held.options === options) held.options = undefined;
    });
    return options;
  }

  private async fetch(url: URL, accept: string): Promise<string> {
    if (this.throttle) await this.throttle();
    const base = await this.connection();
    const opts: https.RequestOptions = {
      ...base,
      method: 'GET',
      headers: { ...base.headers, accept, 'user-agent': USER_AGENT },
      timeout: READ_TIMEOUT_MS,
    };
    const mod = url.protocol === 'https:' ? https : http;
    return await new Promise<string>((resolve, reject) => {
      const req = mod.request(url, opts, (res) => {
        res.setEncoding('utf8');
        let body = '';
        res.on('data', (chunk: string) => (body += chunk));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve(body);
          let detail: unknown = body;
          try {
            detail = JSON.parse(body);
          } catch {
            // not a Status object: keep the text
          }
          reject(new k8s.ApiException(status, `GET ${url.pathname}: HTTP ${status}`, detail, res.headers as Record<string, string>));
        });
      });
      req.on('timeout', () => req.destroy(new Error(`GET ${url.pathname} timed out after ${READ_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end();
    });
  }
}
