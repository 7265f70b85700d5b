// The CRI client against real grpc-js servers on unix sockets (test/helpers/fake-cri.ts), built
// from the same vendored api.proto: what goes on the wire, what comes back, the v1 → v1alpha2
// fallback against a runtime that has no v1 service at all, and each kind of failure.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type CriCall, type CriReply, type CriServer, startCriServer } from '../../test/helpers/fake-cri.js';
import { startFakeDocker } from '../sim/fake-docker.js';
import { CriClient, GRPC_STATUS } from './cri.js';

const UID = '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b';
const ID = 'a1'.repeat(32);
const IMAGE_ID = `sha256:${'f6'.repeat(32)}`;

let server: CriServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A runtime answering from `replies` (by method; UNIMPLEMENTED otherwise) and keeping every call. */
async function runtime(replies: Record<string, CriReply | ((call: CriCall) => CriReply)>, versions?: ('v1' | 'v1alpha2')[]) {
  const calls: CriCall[] = [];
  server = await startCriServer(
    (call) => {
      calls.push(call);
      const r = replies[call.method];
      if (r === undefined) return { status: GRPC_STATUS.UNIMPLEMENTED, message: `no ${call.method} here` };
      return typeof r === 'function' ? r(call) : r;
    },
    versions ? { versions } : {},
  );
  return { calls, client: new CriClient({ socketPath: server.socket, timeoutMs: 2000 }), socket: server.socket };
}

const VERSION: CriReply = { reply: { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.7.2', runtimeApiVersion: 'v1' } };

describe('CriClient over grpc-js', () => {
  it('sends the filter (a state of 0 included) and reads every field of the reply on runtime.v1', async () => {
    const { calls, client } = await runtime({
      Version: VERSION,
      ListContainers: {
        reply: {
          containers: [
            {
              id: ID,
              podSandboxId: 'sb',
              metadata: { name: 'web', attempt: 2 },
              image: { image: IMAGE_ID, userSpecifiedImage: 'nginx:1.25', annotations: { a: 'b' } },
              imageRef: 'docker.io/library/nginx@sha256:abc',
              state: 2,
              createdAt: 1_732_000_000_123_456_789n,
              labels: { 'io.kubernetes.pod.uid': UID, empty: '' },
              imageId: IMAGE_ID,
            },
            // Nothing set but the id: defaults, no metadata, no image, a negative int64.
            { id: 'b2', createdAt: -5n },
          ],
        },
      },
    });
    expect(await client.getVersion()).toEqual({
      ok: true,
      value: { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.7.2', runtimeApiVersion: 'v1' },
    });
    const r = await client.listContainers({ state: 0, labelSelector: { 'io.kubernetes.pod.uid': UID } });
    expect(r).toEqual({
      ok: true,
      value: [
        {
          id: ID,
          podSandboxId: 'sb',
          metadata: { name: 'web', attempt: 2 },
          image: { image: IMAGE_ID, userSpecifiedImage: 'nginx:1.25', annotations: { a: 'b' } },
          imageRef: 'docker.io/library/nginx@sha256:abc',
          state: 2,
          createdAt: 1_732_000_000_123_456_789n,
          labels: { 'io.kubernetes.pod.uid': UID, empty: '' },
          annotations: {},
          imageId: IMAGE_ID,
        },
        { id: 'b2', podSandboxId: '', imageRef: '', state: 0, createdAt: -5n, labels: {}, annotations: {}, imageId: '' },
      ],
    });
    expect(r.ok && 'metadata' in r.value[1]! && r.value[1].metadata).toBeFalsy();
    expect(calls.map((c) => [c.version, c.service, c.method, c.request])).toEqual([
      ['v1', 'RuntimeService', 'Version', { version: '0.1.0' }],
      ['v1', 'RuntimeService', 'ListContainers', { filter: { state: { state: 0 }, labelSelector: { 'io.kubernetes.pod.uid': UID } } }],
    ]);
    expect(client.apiVersion).toBe('v1');
  });

  it('reads sandboxes and images, and an unset image as "not present"', async () => {
    const { calls, client } = await runtime({
      ListPodSandbox: {
        reply: { items: [{ id: 'sb', metadata: { name: 'web-1', uid: UID, namespace: 'default' }, state: 1, createdAt: 7n, runtimeHandler: 'runc' }] },
      },
      ImageStatus: (call) =>
        (call.request as { image: { image: string } }).image.image === 'nginx:1.25'
          ? { reply: { image: { id: IMAGE_ID, repoTags: ['docker.io/library/nginx:1.25'], size: 2n ** 40n, pinned: true } } }
          : { reply: {} },
      PullImage: { reply: { imageRef: IMAGE_ID } },
      RemoveImage: { reply: {} },
    });
    expect(await client.listPodSandbox({ id: 'sb' })).toEqual({
      ok: true,
      value: [
        {
          id: 'sb',
          metadata: { name: 'web-1', uid: UID, namespace: 'default', attempt: 0 },
          state: 1,
          createdAt: 7n,
          labels: {},
          annotations: {},
          runtimeHandler: 'runc',
        },
      ],
    });
    expect(await client.imageStatus('nginx:1.25')).toEqual({
      ok: true,
      value: { id: IMAGE_ID, repoTags: ['docker.io/library/nginx:1.25'], repoDigests: [], size: 2n ** 40n, username: '', pinned: true },
    });
    expect(await client.imageStatus('busybox:1.36')).toEqual({ ok: true, value: undefined });
    expect(await client.pullImage('nginx:1.25', 5000)).toEqual({ ok: true, value: IMAGE_ID });
    expect(await client.removeImage('nginx:1.25')).toEqual({ ok: true, value: {} });
    expect(calls.map((c) => c.request)).toEqual([
      { filter: { id: 'sb' } },
      { image: { image: 'nginx:1.25' } },
      { image: { image: 'busybox:1.36' } },
      { image: { image: 'nginx:1.25' } },
      { image: { image: 'nginx:1.25' } },
    ]);
  });

  it('falls back once to runtime.v1alpha2 on a runtime without v1, and stays there', async () => {
    // Only v1alpha2 is registered: grpc-js itself answers UNIMPLEMENTED for runtime.v1, as containerd 1.5 does.
    const { calls, client } = await runtime(
      {
        Version: { reply: { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.5.18', runtimeApiVersion: 'v1alpha2' } },
        ListContainers: { reply: { containers: [{ id: ID, image: { image: 'nginx:1.25' }, createdAt: 1n }] } },
      },
      ['v1alpha2'],
    );
    const v = await client.getVersion();
    expect(v.ok && v.value.runtimeApiVersion).toBe('v1alpha2');
    expect(client.apiVersion).toBe('v1alpha2');
    const list = await client.listContainers();
    // v1-only fields read as absent.
    expect(list.ok && list.value[0]).toMatchObject({ id: ID, image: { image: 'nginx:1.25' }, imageId: '' });
    expect(calls.map((c) => `${c.version} ${c.method}`)).toEqual(['v1alpha2 Version', 'v1alpha2 ListContainers']);
  });

  it('gives UNIMPLEMENTED when neither version is served, and a pinned version tries no other', async () => {
    const { client, socket } = await runtime({}, ['v1alpha2']);
    expect(await client.getVersion()).toMatchObject({ ok: false, kind: 'status', code: GRPC_STATUS.UNIMPLEMENTED, message: 'no Version here' });
    expect(client.apiVersion).toBeUndefined();
    const pinned = new CriClient({ socketPath: socket, timeoutMs: 2000, apiVersion: 'v1' });
    expect(await pinned.getVersion()).toMatchObject({ ok: false, kind: 'status', code: GRPC_STATUS.UNIMPLEMENTED });
  });

  it("carries the runtime's status and message, in trailers-only replies and after headers alike", async () => {
    const { client } = await runtime({
      Version: VERSION,
      RemoveContainer: { status: GRPC_STATUS.NOT_FOUND, message: 'container "x" not found' },
      StopPodSandbox: { status: GRPC_STATUS.UNKNOWN, message: 'failed to stop: ünïcode & 100%', inTrailers: true },
      // A status grpc-js could also make up: from the runtime it stays the runtime's.
      RemovePodSandbox: { status: GRPC_STATUS.UNAVAILABLE, message: 'shutting down' },
    });
    expect(await client.removeContainer('x')).toEqual({ ok: false, kind: 'status', code: GRPC_STATUS.NOT_FOUND, message: 'container "x" not found' });
    expect(await client.stopPodSandbox('sb')).toEqual({ ok: false, kind: 'status', code: GRPC_STATUS.UNKNOWN, message: 'failed to stop: ünïcode & 100%' });
    expect(await client.removePodSandbox('sb')).toEqual({ ok: false, kind: 'status', code: GRPC_STATUS.UNAVAILABLE, message: 'shutting down' });
    expect(client.apiVersion).toBe('v1');
  });

  it('gives timeout, not a hang, when the runtime never answers; StopContainer waits the grace period too', async () => {
    const { calls, socket } = await runtime({ ListContainers: 'hang', StopContainer: 'hang' });
    const client = new CriClient({ socketPath: socket, timeoutMs: 200 });
    expect(await client.listContainers()).toEqual({
      ok: false,
      kind: 'timeout',
      message: '/runtime.v1.RuntimeService/ListContainers did not answer within 200ms',
    });
    const stop = client.stopContainer(ID, 1);
    expect(await stop).toMatchObject({ ok: false, kind: 'timeout', message: expect.stringMatching(/StopContainer did not answer within 1200ms/) });
    expect(calls.map((c) => `${c.version} ${c.method}`)).toEqual(['v1 ListContainers', 'v1 StopContainer']);
    expect(calls[1]?.request).toEqual({ containerId: ID, timeout: 1 });
  });

  it('says "unreachable" when nothing listens, "failed" for a non-gRPC server or an oversized reply', async () => {
    const { socket } = await runtime({ ListContainers: { reply: { containers: [{ id: 'x'.repeat(4096) }] } } });
    const absent = join(socket, '..', 'absent.sock');
    expect(await new CriClient({ socketPath: absent, timeoutMs: 1000 }).getVersion()).toEqual({
      ok: false,
      kind: 'unreachable',
      message: `${absent}: connect ENOENT ${absent}`,
    });
    const docker = await startFakeDocker({ routes: {} });
    try {
      expect(await new CriClient({ socketPath: docker.socket, timeoutMs: 1000 }).getVersion()).toMatchObject({ ok: false, kind: 'failed' });
    } finally {
      await docker.close();
    }
    expect(await new CriClient({ socketPath: socket, timeoutMs: 1000, maxBytes: 1024 }).listContainers()).toMatchObject({
      ok: false,
      kind: 'failed',
      message: expect.stringMatching(/ListContainers: Received message larger than max/),
    });
  });
});

describe('loading', () => {
  it('loads no gRPC code until the first call', () => {
    const cri = fileURLToPath(new URL('./cri.ts', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(import.meta.url).cache;
      const grpcModules = () => Object.keys(cache).filter((k) => /@grpc|protobufjs/.test(k)).length;
      const { CriClient } = await import(${JSON.stringify(cri)});
      const before = grpcModules();
      const r = await new CriClient({ socketPath: '/nonexistent/cri.sock', timeoutMs: 1000 }).getVersion();
      console.log(JSON.stringify({ before, after: grpcModules(), kind: r.kind }));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 15_000 });
    expect(child.stderr).toBe('');
    const seen = JSON.parse(child.stdout) as { before: number; after: number; kind: string };
    expect(seen.before).toBe(0);
    expect(seen.after).toBeGreaterThan(0);
    expect(seen.kind).toBe('unreachable');
  });
});
