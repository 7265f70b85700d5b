// Helpers for tests that run against the simulator: real client-node clients bound to a
// running sim, and a raw HTTP request for checking exact status codes and bodies.
import { request } from 'node:http';
import * as k8s from '@kubernetes/client-node';
import type { Sim } from './server.js';

export interface SimClients {
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  custom: k8s.CustomObjectsApi;
  objects: k8s.KubernetesObjectApi;
  watch: k8s.Watch;
}

export function simClients(sim: Sim): SimClients {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.kubeconfig());
  return {
    kc,
    core: kc.makeApiClient(k8s.CoreV1Api),
    apps: kc.makeApiClient(k8s.AppsV1Api),
    custom: kc.makeApiClient(k8s.CustomObjectsApi),
    objects: k8s.KubernetesObjectApi.makeApiClient(kc),
    watch: new k8s.Watch(kc),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

/** One HTTP request to the sim, status and body as they come (no client-side decoding). */
export function rawRequest(
  sim: Sim,
  method: string,
  path: string,
  opts: { body?: unknown; contentType?: string; accept?: string; token?: string | null } = {},
): Promise<RawResponse> {
  const payload = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const token = opts.token === undefined ? tokenOf(sim) : opts.token;
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, sim.url),
      {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(opts.accept ? { Accept: opts.accept } : {}),
          ...(payload !== undefined ? { 'Content-Type': opts.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** The bearer token in the sim's kubeconfig, if any. */
function tokenOf(sim: Sim): string | undefined {
  const m = /token: "(.*)"/.exec(sim.kubeconfig());
  return m ? (JSON.parse(`"${m[1] ?? ''}"`) as string) : undefined;
}

/** A minimal valid pod, usable both as a wire fixture (KubeObject) and as a client-node V1Pod body. */
export type TestPod = {
  apiVersion: 'v1';
  kind: 'Pod';
  metadata: { name: string; namespace: string; labels?: Record<string, string>; finalizers?: string[] };
  spec: { nodeName?: string; containers: { name: string; image: string }[] };
};

export function testPod(
  name: string,
  namespace = 'default',
  extra: { labels?: Record<string, string>; nodeName?: string; finalizers?: string[] } = {},
): TestPod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, ...(extra.labels ? { labels: extra.labels } : {}), ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
    spec: { ...(extra.nodeName ? { nodeName: extra.nodeName } : {}), containers: [{ name: 'app', image: 'registry.example.com/app:1.0' }] },
  };
}

/** The parsed Status body of an ApiException thrown by client-node. */
export function statusOf(err: unknown): Record<string, unknown> {
  const body = (err as { body?: unknown }).body;
  if (typeof body === 'string') return JSON.parse(body) as Record<string, unknown>;
  return (body ?? {}) as Record<string, unknown>;
}
