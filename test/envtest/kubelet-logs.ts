// The kubelet's log endpoint for envtest: `GET /containerLogs/<ns>/<pod>/<container>` over
// HTTPS on loopback, so `kubectl logs` / the product's pod log reads go through the real API
// server (pods/log → kubelet proxy) and come back as a real server answers them.
//
// Nodes point at it through status.daemonEndpoints.kubeletEndpoint.Port (the API server has no
// --kubelet-certificate-authority, so it does not verify this self-signed serving cert). Logs
// are whatever a scenario sets; without one, the answer is the kubelet's own refusal from
// validateContainerLogStatus (1.20 wording), e.g. `previous terminated container "app" in pod
// "web" not found` with status 400.

import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ControlPlane, KubeClient, KubeObject } from './harness.js';

interface LogKey {
  namespace: string;
  pod: string;
  container: string;
  previous: boolean;
}

const keyOf = (k: LogKey) => `${k.namespace}/${k.pod}/${k.container}/${k.previous ? 'previous' : 'current'}`;

export class KubeletLogServer {
  private readonly logs = new Map<string, string[]>();
  /** Request paths served (with query), for assertions. */
  readonly requests: string[] = [];

  private constructor(
    private readonly server: https.Server,
    readonly port: number,
  ) {}

  /** Serves on a free loopback port with the API server's serving certificate; closed by `cp.stop()`. */
  static async start(cp: ControlPlane): Promise<KubeletLogServer> {
    const key = readFileSync(path.join(cp.dir, 'apiserver.key'));
    const cert = readFileSync(path.join(cp.dir, 'apiserver.crt'));
    let self: KubeletLogServer | undefined;
    const server = https.createServer({ key, cert }, (req, res) => {
      void self?.handle(cp.client, req.url ?? '/', res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    self = new KubeletLogServer(server, (server.address() as AddressInfo).port);
    const created = self;
    cp.onStop(() => created.close());
    return created;
  }

  /** Log lines of a container (`previous`: of its last terminated instance). */
  setLog(namespace: string, pod: string, container: string, lines: string[], { previous = false }: { previous?: boolean } = {}): void {
    this.logs.set(keyOf({ namespace, pod, container, previous }), lines);
  }

  /** The logs set so far (to hand the same lines to the simulated API). */
  entries(): Array<{ namespace: string; pod: string; container: string; previous: boolean; lines: string[] }> {
    return [...this.logs].map(([k, lines]) => {
      const [namespace = '', pod = '', container = '', which] = k.split('/');
      return { namespace, pod, container, previous: which === 'previous', lines };
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(client: KubeClient, rawUrl: string, res: import('node:http').ServerResponse): Promise<void> {
    this.requests.push(rawUrl);
    const url = new URL(rawUrl, 'https://kubelet');
    const m = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    const text = (code: number, body: string) => {
      res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(body);
    };
    if (!m) return text(404, '404 page not found\n');
    const [namespace, podName, container] = [m[1]!, m[2]!, m[3]!].map(decodeURIComponent) as [string, string, string];
    const previous = url.searchParams.get('previous') === 'true';
    try {
      const found = await client.request('GET', `/api/v1/namespaces/${namespace}/pods/${podName}`);
      if (found.status === 404) return text(404, `pod "${podName}" does not exist\n`);
      const pod = found.body as KubeObject;
      const specs = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])] as Array<{ name: string }>;
      if (!specs.some((c) => c.name === container)) return text(404, `container "${container}" not found in pod "${podName}"\n`);
      const lines = this.logs.get(keyOf({ namespace, pod: podName, container, previous }));
      if (!lines) {
        const refusal = validateContainerLogStatus(pod, container, previous);
        // The kubelet answers GetKubeletContainerLogs errors with 400 and the error text.
        if (refusal) return text(400, refusal);
      }
      let out = lines ?? [];
      const tail = url.searchParams.get('tailLines');
      if (tail !== null && /^\d+$/.test(tail)) out = Number(tail) === 0 ? [] : out.slice(-Number(tail));
      text(200, out.map((l) => `${l}\n`).join(''));
    } catch (err) {
      text(500, String(err));
    }
  }
}

/** pkg/kubelet/kubelet_pods.go validateContainerLogStatus (1.20): the error text, or undefined when a log exists. */
export function validateContainerLogStatus(pod: KubeObject, container: string, previous: boolean): string | undefined {
  const podName = pod.metadata?.name as string;
  const statuses: any[] = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const s = statuses.find((c) => c.name === container);
  if (!s) return `container "${container}" in pod "${podName}" is not available`;
  const last = s.lastState?.terminated;
  const { waiting, running, terminated } = s.state ?? {};
  if (previous) return last?.containerID ? undefined : `previous terminated container "${container}" in pod "${podName}" not found`;
  if (running) return undefined;
  if (terminated) return terminated.containerID || last?.containerID ? undefined : `container "${container}" in pod "${podName}" is terminated`;
  if (last) return last.containerID ? undefined : `container "${container}" in pod "${podName}" is terminated`;
  if (waiting) {
    const why =
      waiting.reason === 'ErrImagePull' ? "image can't be pulled" : waiting.reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : waiting.reason;
    return `container "${container}" in pod "${podName}" is waiting to start: ${why}`;
  }
  return `container "${container}" in pod "${podName}" is waiting to start - no logs yet`;
}
