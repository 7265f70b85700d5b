// A fake Docker Engine API on a unix socket, answering from a node fixture's docker.json: the
// runtime of a simulated node (src/sim/cluster.ts) and of the agent's tests. Paths listed in
// `hang` accept the request and never answer, like a daemon stuck behind a hung mount.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeDockerSpec {
  routes: Record<string, unknown>;
  hang?: string[];
}

export interface FakeDocker {
  socket: string;
  /** Paths asked for, in order (with query). */
  requests: string[];
  close(): Promise<void>;
}

export function loadDockerSpec(fixtureDir: string): FakeDockerSpec {
  return JSON.parse(readFileSync(join(fixtureDir, 'docker.json'), 'utf8')) as FakeDockerSpec;
}

function labelsOf(entry: unknown): Record<string, string> {
  return ((entry as { Labels?: Record<string, string> }).Labels ?? {}) as Record<string, string>;
}

export async function startFakeDocker(spec: FakeDockerSpec): Promise<FakeDocker> {
  const dir = mkdtempSync(join(tmpdir(), 'pd-docker-'));
  const socket = join(dir, 'docker.sock');
  const requests: string[] = [];
  const open = new Set<Socket>();
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' });
    res.end(text);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://docker');
    requests.push(`${url.pathname}${url.search}`);
    // Real clients may prefix a version: /v1.41/containers/json.
    const path = url.pathname.replace(/^\/v\d+\.\d+/, '');
    if (spec.hang?.includes(path)) return; // never answer
    if (path === '/containers/json') {
      // Honour the label filter as dockerd does, so a wrong query finds nothing.
      const filters = JSON.parse(url.searchParams.get('filters') ?? '{}') as { label?: string[] };
      const list = (spec.routes['/containers/json'] as unknown[] | undefined) ?? [];
      const wanted = filters.label ?? [];
      send(
        res,
        200,
        list.filter((c) =>
          wanted.every((l) => {
            const [k, v] = l.split('=');
            return labelsOf(c)[k!] === v;
          }),
        ),
      );
      return;
    }
    if (path in spec.routes) send(res, 200, spec.routes[path]);
    else send(res, 404, { message: `No such object: ${path}` });
  });
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    socket,
    requests,
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
