// The two API servers the fidelity suite compares: the simulated API (src/sim) and a real
// kube-apiserver from the envtest harness, behind one interface, plus what the suite needs to
// compare them: which API operation a request was, and object projections without the fields
// every server fills in differently (uids, resourceVersions, timestamps).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify as toYaml } from 'yaml';
import { KubeSource, loadKubeConfig } from '../../src/collect/kube-source.js';
import { operationKey } from '../../src/collect/operations.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { type ControlPlane, KubeClient, type KubeObject, type KubeResponse, startControlPlane } from './harness.js';
import { KubeletLogServer } from './kubelet-logs.js';

export type BackendName = 'sim' | 'real';

export interface Backend {
  name: BackendName;
  /** Raw JSON client (admin); every request it makes is recorded in `requests`. */
  client: KubeClient;
  /** The product's client on this server. */
  source: KubeSource;
  kubeconfigPath: string;
  /** Kubelet port nodes should advertise so pod logs reach `setLog` lines. */
  kubeletPort: number;
  /** Log lines the "kubelet" serves for a container. */
  setLog(namespace: string, pod: string, container: string, lines: string[], previous: boolean): void;
  /** `METHOD /path?query` of every request made through `client`. */
  requests: Array<{ method: string; url: URL }>;
  /** Every request the product's own code (`source`, and steps run with it) sent. */
  productRequests: Array<{ method: string; url: URL }>;
  /** KubeSource methods the cases called. */
  sourceCalls: Set<string>;
  stop(): Promise<void>;
}

/** The identities of deploy/base/serviceaccounts.yaml, as token users of the envtest API server. */
export const PRODUCT_ACCOUNTS = {
  diagnose: 'system:serviceaccount:pod-doctor:pod-doctor-diagnose',
  remediate: 'system:serviceaccount:pod-doctor:pod-doctor-remediate',
} as const;

/** The RBAC the deployment installs (generated from src/collect/operations.ts), check-secrets opt-in included. */
const RBAC_MANIFESTS = ['deploy/base/rbac-diagnose.yaml', 'deploy/base/rbac-remediate.yaml', 'deploy/components/check-secrets/rbac.yaml'];

/** Applies the RBAC manifests; returns the files applied (none before deploy/ has them). */
export async function applyRbac(cp: ControlPlane): Promise<string[]> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const applied: string[] = [];
  for (const file of RBAC_MANIFESTS) {
    const full = path.join(root, file);
    if (!existsSync(full)) continue;
    for (const doc of parseAllDocuments(readFileSync(full, 'utf8'))) {
      const obj = doc.toJS() as KubeObject | null;
      if (!obj?.kind) continue;
      const plural = { ClusterRole: 'clusterroles', ClusterRoleBinding: 'clusterrolebindings' }[obj.kind as string];
      if (!plural) throw new Error(`${file}: unexpected ${obj.kind} (only cluster-wide RBAC is applied)`);
      await cp.client.create(`/apis/rbac.authorization.k8s.io/v1/${plural}`, obj);
    }
    applied.push(file);
  }
  if (applied.length > 0) {
    // The RBAC authorizer learns new bindings from its informer: wait until they apply.
    for (const user of Object.values(PRODUCT_ACCOUNTS)) {
      const probe = new KubeClient(cp.url, cp.tokenFor(user), cp.caPem);
      await cp.client.waitFor(
        `RBAC for ${user} in effect`,
        () => probe.request('GET', '/api/v1/nodes'),
        (r) => r.status === 200,
        { timeoutMs: 20_000 },
      );
      probe.close();
    }
  }
  return applied;
}

/** Token users for PRODUCT_ACCOUNTS (pass to startControlPlane). */
export const PRODUCT_SERVICE_ACCOUNTS = [
  { namespace: 'pod-doctor', name: 'pod-doctor-diagnose' },
  { namespace: 'pod-doctor', name: 'pod-doctor-remediate' },
];

/**
 * A real API server without scheduler and controllers: the same thing the sim models. The
 * product's requests go out as the remediation worker's service account under the deployed
 * RBAC, so a permission the manifests lack shows up as a 403 the sim does not give.
 */
export async function realBackend(): Promise<Backend & { cp: ControlPlane; rbac: string[] }> {
  const cp = await startControlPlane({
    controllers: false,
    serviceAccountAdmission: false,
    serviceAccounts: PRODUCT_SERVICE_ACCOUNTS,
  });
  try {
    const logs = await KubeletLogServer.start(cp);
    const requests: Backend['requests'] = [];
    cp.client.onRequest = (method, url) => requests.push({ method, url });
    const rbac = await applyRbac(cp);
    const token = rbac.length > 0 ? cp.tokenFor(PRODUCT_ACCOUNTS.remediate) : cp.adminToken;
    const proxy = await recordingProxy(cp.url, token, cp.caPem);
    cp.onStop(() => proxy.close());
    const product = productSource(proxy.kubeconfigPath);
    return {
      name: 'real',
      cp,
      rbac,
      client: cp.client,
      ...product,
      kubeconfigPath: proxy.kubeconfigPath,
      kubeletPort: logs.port,
      setLog: (ns, pod, container, lines, previous) => logs.setLog(ns, pod, container, lines, { previous }),
      requests,
      productRequests: proxy.requests,
      stop: () => cp.stop(),
    };
  } catch (err) {
    await cp.stop();
    throw err;
  }
}

export async function simBackend(): Promise<Backend & { sim: Sim }> {
  const token = 'sim-fidelity-token';
  const sim = await startSim({ objects: [], token });
  const client = new KubeClient(sim.url, token);
  const requests: Backend['requests'] = [];
  client.onRequest = (method, url) => requests.push({ method, url });
  const proxy = await recordingProxy(sim.url, token);
  return {
    name: 'sim',
    sim,
    client,
    ...productSource(proxy.kubeconfigPath),
    kubeconfigPath: proxy.kubeconfigPath,
    kubeletPort: 10250,
    setLog: (namespace, pod, container, lines, previous) => sim.logs.add({ namespace, pod, container, previous, lines }),
    requests,
    productRequests: proxy.requests,
    stop: async () => {
      client.close();
      await proxy.close();
      await sim.close();
    },
  };
}

/** The product's client, wrapped so the suite knows which of its methods the cases called. */
function productSource(kubeconfigPath: string): { source: KubeSource; sourceCalls: Set<string> } {
  const sourceCalls = new Set<string>();
  const real = new KubeSource(loadKubeConfig({ kubeconfig: kubeconfigPath }));
  const source = new Proxy(real, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || typeof prop !== 'string') return v;
      return (...args: unknown[]) => {
        sourceCalls.add(prop);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { source, sourceCalls };
}

/**
 * A loopback HTTP proxy in front of an API server that records every request, so the suite
 * sees exactly what the product's client-node calls send. It adds the bearer token itself.
 */
async function recordingProxy(
  upstream: string,
  token: string,
  ca?: string,
): Promise<{ kubeconfigPath: string; requests: Backend['requests']; close(): Promise<void> }> {
  const requests: Backend['requests'] = [];
  const base = new URL(upstream);
  const mod = base.protocol === 'https:' ? https : http;
  const agent = base.protocol === 'https:' ? new https.Agent({ ca, keepAlive: true }) : new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', upstream);
    requests.push({ method: req.method ?? 'GET', url });
    const headers = { ...req.headers, host: base.host, authorization: `Bearer ${token}` };
    const up = mod.request(url, { method: req.method, headers, agent }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', (err) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(String(err));
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pod-doctor-fidelity-'));
  const kubeconfigPath = path.join(dir, 'product.kubeconfig');
  writeFileSync(
    kubeconfigPath,
    toYaml({
      apiVersion: 'v1',
      kind: 'Config',
      // client-node refuses plain http unless TLS verification is explicitly skipped.
      clusters: [{ name: 'proxy', cluster: { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'proxy', user: {} }],
      contexts: [{ name: 'proxy', context: { cluster: 'proxy', user: 'proxy', namespace: 'default' } }],
      'current-context': 'proxy',
    }),
    { mode: 0o600 },
  );
  return {
    kubeconfigPath,
    requests,
    close: async () => {
      agent.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- request → operation

/** The API operation (as src/collect/operations.ts keys it) a request performs, like RequestInfoFactory. */
export function operationOf(method: string, url: URL): string | undefined {
  const seg = url.pathname.split('/').filter(Boolean);
  let group: string;
  let version: string;
  let rest: string[];
  if (seg[0] === 'api' && seg.length >= 2) [group, version, rest] = ['', seg[1]!, seg.slice(2)];
  else if (seg[0] === 'apis' && seg.length >= 3) [group, version, rest] = [seg[1]!, seg[2]!, seg.slice(3)];
  else return undefined;
  if (rest[0] === 'namespaces' && rest.length > 2 && !['status', 'finalize'].includes(rest[2]!)) rest = rest.slice(2);
  const [resource, name, subresource] = rest;
  if (!resource) return undefined;
  const watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
  const verb =
    method === 'GET'
      ? watch
        ? 'watch'
        : name === undefined
          ? 'list'
          : 'get'
      : method === 'POST'
        ? 'create'
        : method === 'PUT'
          ? 'update'
          : method === 'PATCH'
            ? 'patch'
            : method === 'DELETE'
              ? name === undefined
                ? 'deletecollection'
                : 'delete'
              : method.toLowerCase();
  return operationKey({ group, version, resource, ...(subresource ? { subresource } : {}) }, verb);
}

// ---------------------------------------------------------------- outcomes

/** What a response says, without server-specific values: status code, Status reason/code/message. */
export function outcome(res: KubeResponse, opts: { message?: boolean; details?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { status: res.status };
  const b = res.body;
  if (b && typeof b === 'object' && !Array.isArray(b)) {
    out.kind = b.kind;
    if (b.kind === 'Status') {
      out.statusField = b.status;
      out.reason = b.reason;
      out.code = b.code;
      if (opts.message !== false) out.message = typeof b.message === 'string' ? b.message.replace(UID_RE, '<uid>') : b.message;
      if (opts.details !== false && b.details) out.details = stripVolatile(b.details);
    }
  } else if (typeof b === 'string' && b.length > 0 && res.status >= 400) {
    out.text = b.trim();
  }
  return out;
}

const UID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

const VOLATILE = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'selfLink', 'generateName']);

/** A deep copy without server-assigned identity and bookkeeping; timestamps become `true`, UIDs `<uid>`. */
export function stripVolatile<T>(value: T): T {
  if (Array.isArray(value)) return value.map(stripVolatile) as T;
  if (typeof value === 'string') return value.replace(UID_RE, '<uid>') as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (VOLATILE.has(k)) continue;
    if (/(Timestamp|Time|At)$/.test(k) && typeof v === 'string') out[k] = true;
    else out[k] = stripVolatile(v);
  }
  return out as T;
}

/** The metadata fields deletion and finalizer semantics are about. */
export function lifecycle(obj: KubeObject | null | undefined): Record<string, unknown> {
  if (!obj) return { exists: false };
  const m = obj.metadata ?? {};
  return {
    exists: true,
    deleting: Boolean(m.deletionTimestamp),
    ...(m.deletionGracePeriodSeconds !== undefined ? { deletionGracePeriodSeconds: m.deletionGracePeriodSeconds } : {}),
    finalizers: m.finalizers ?? [],
  };
}

export function names(list: { items?: KubeObject[] } | undefined): string[] {
  return (list?.items ?? []).map((i) => `${i.metadata?.namespace ? `${i.metadata.namespace}/` : ''}${i.metadata?.name}`).sort();
}
