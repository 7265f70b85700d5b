import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDockerSpec, startFakeDocker } from '../sim/fake-docker.js';
import { runProbe } from './probe.js';
import { probe, rootfsOf } from './runtime.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const dir = mkdtempSync(join(tmpdir(), 'pd-runtime-'));
const servers: Server[] = [];
const sockets = new Set<Socket>();
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

/** A unix socket that accepts connections and never says a word. */
async function silentSocket(name: string): Promise<string> {
  const path = join(dir, name);
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(path, r));
  return path;
}

const env = (seed: string, more: object) => ({
  procRoot: join(FIXTURES, seed, 'proc'),
  hostRoot: join(FIXTURES, seed, 'host'),
  timeoutMs: 8000,
  containerdSockets: [join(dir, 'none.sock')],
  ...more,
});

describe('runtime (docker API over a unix socket)', () => {
  it('seed 001: the container is Removal In Progress; its overlay layer is reported for mount-holders', async () => {
    const docker = await startFakeDocker(loadDockerSpec(join(FIXTURES, '001')));
    try {
      const out = await runProbe(probe, { podUid: '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b' }, env('001', { dockerSockets: [docker.socket] }));
      if (!out.ok) throw new Error(out.error);
      expect(out.docker).toMatchObject({ state: 'ok', version: '17.09.1-ce', storageDriver: 'overlay', timedOut: [] });
      expect(out.docker.containers).toEqual([
        expect.objectContaining({
          id: 'e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9',
          containerName: 'golang-httpserver',
          sandbox: false,
          state: 'removing',
          status: 'Removal In Progress',
          rootfsMount: '/var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged',
          layerId: '98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36',
        }),
      ]);
      expect(out.containerd).toMatchObject({ state: 'absent', note: expect.stringMatching(/gRPC/) });
      // The pod's containers are asked for by label, as dockerd filters them.
      expect(docker.requests.find((r) => r.startsWith('/containers/json'))).toContain(
        encodeURIComponent('io.kubernetes.pod.uid=9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b'),
      );
    } finally {
      await docker.close();
    }
  });

  it('seed 002: a running exec in an exited container, with its start time from /proc', async () => {
    const docker = await startFakeDocker(loadDockerSpec(join(FIXTURES, '002')));
    try {
      const out = await runProbe(probe, { podUid: '1da9e4f1-a5d4-40db-b8bc-4db1d27ca458' }, env('002', { dockerSockets: [docker.socket] }));
      if (!out.ok) throw new Error(out.error);
      const agent = out.docker.containers.find((c) => c.containerName === 'khaos-agent');
      expect(agent).toMatchObject({
        state: 'exited',
        execs: [{ running: true, pid: 40533, command: '/bin/sh -c /opt/khaos/post-start.sh', startedAt: '2022-06-10T08:00:02.000Z' }],
      });
      expect(out.docker.containers.find((c) => c.sandbox)).toMatchObject({ containerName: 'POD', state: 'running', pid: 4300 });
    } finally {
      await docker.close();
    }
  });

  it('seed 000: /_ping answers but docker ps never does → hung, within the call timeout', async () => {
    const docker = await startFakeDocker(loadDockerSpec(join(FIXTURES, '000')));
    try {
      const started = performance.now();
      const out = await runProbe(
        probe,
        { podUid: '2b8e5882-5146-11e9-b3b3-525400dd6f19' },
        env('000', { dockerSockets: [docker.socket], runtimeCallTimeoutMs: 300 }),
      );
      expect(performance.now() - started).toBeLessThan(2000);
      if (!out.ok) throw new Error(out.error);
      expect(out.docker).toMatchObject({
        state: 'hung',
        version: '1.13.1',
        timedOut: ['/containers/json'],
        detail: expect.stringMatching(/did not answer within 300ms although \/_ping did/),
      });
    } finally {
      await docker.close();
    }
  });

  it('a socket that accepts and never answers is hung, reported within the time limit', async () => {
    const path = await silentSocket('silent-docker.sock');
    const started = performance.now();
    const out = await runProbe(probe, {}, env('001', { dockerSockets: [path], runtimeCallTimeoutMs: 250 }));
    expect(performance.now() - started).toBeLessThan(1500);
    expect(out).toMatchObject({ ok: true, docker: { state: 'hung', timedOut: ['/_ping'] } });
  });

  it('no socket: absent; a stale socket file: unreachable; a containerd that accepts and never answers CRI: hung', async () => {
    const stale = join(dir, 'stale.sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(stale, r));
    // Closing a listening unix server removes the file; recreate a dead one.
    await new Promise((r) => server.close(r));
    writeFileSync(stale, '');
    const containerd = await silentSocket('containerd.sock');
    const out = await runProbe(probe, {}, env('001', { dockerSockets: [join(dir, 'missing.sock')], containerdSockets: [containerd] }));
    expect(out).toMatchObject({ ok: true, docker: { state: 'absent' }, containerd: { state: 'hung', socket: containerd, timedOut: ['Version'] } });
    const out2 = await runProbe(probe, {}, env('001', { dockerSockets: [stale] }));
    expect(out2).toMatchObject({ ok: true, docker: { state: 'unreachable' } });
  });
});

describe('rootfsOf', () => {
  it.each([
    [{ Data: { MergedDir: '/var/lib/docker/overlay2/abc/merged' } }, { mount: '/var/lib/docker/overlay2/abc/merged' }],
    [
      { Data: { DeviceName: 'docker-253:0-1049380-7a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f1b3d5c7e9a2b4d6f8c0e1a3b5d7f9c2e' } },
      {
        mount: '/var/lib/docker/devicemapper/mnt/7a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f1b3d5c7e9a2b4d6f8c0e1a3b5d7f9c2e',
        layerId: '7a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f1b3d5c7e9a2b4d6f8c0e1a3b5d7f9c2e',
      },
    ],
    [{}, {}],
  ])('%j', (graph, want) => expect(rootfsOf(graph)).toMatchObject(want));
});
