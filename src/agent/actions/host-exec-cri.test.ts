// The CRI client and the CRI half of HostExec: the protobuf codec against hand-assembled bytes,
// then a fake CRI runtime (HTTP/2 on a unix socket in a temp dir, requests decoded with the same
// codec, replies framed with trailers) behind the client, createHostExec and the action handler.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Http2Server, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silent } from '../../../test/helpers/logger.js';
import {
  ContainerFilter,
  CriClient,
  type CriContainer,
  type CriImage,
  type CriPodSandbox,
  GRPC_STATUS,
  grpcFrame,
  grpcUnary,
  grpcUnframe,
  ImageRequest,
  ImageStatusRequest,
  ImageStatusResponse,
  ListContainersRequest,
  ListContainersResponse,
  ListPodSandboxRequest,
  ListPodSandboxResponse,
  PodSandboxIdRequest,
  ProtoDecodeError,
  ProtoReader,
  ProtoWriter,
  PullImageResponse,
  RemoveContainerRequest,
  StopContainerRequest,
  VersionResponse,
} from '../../probes/cri.js';
import { startFakeDocker } from '../../sim/fake-docker.js';
import { runtimeOptionsFrom } from '../cli.js';
import { createHostExec } from './host-exec.js';
import { failureCode } from './host-exec-cri.js';
import { createActionHandler } from './index.js';
import { POD_UID_LABEL } from './types.js';

const UID = '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b';
const OTHER_UID = '00000000-0000-4000-8000-00000000abcd';
const WEB = 'a1'.repeat(32);
const SIDECAR = 'b2'.repeat(32);
const SANDBOX = 'c3'.repeat(32);
const FOREIGN = 'd4'.repeat(32);
const FOREIGN_SANDBOX = 'e5'.repeat(32);
const NGINX_ID = `sha256:${'f6'.repeat(32)}`;
const ENVOY_ID = `sha256:${'07'.repeat(32)}`;

// ---------------------------------------------------------------------------------------------
// codec

describe('CRI protobuf codec', () => {
  it('decodes a ListContainersResponse assembled byte by byte (unknown fields skipped)', () => {
    const container = [
      [0x0a, 0x03, ...Buffer.from('abc')], // id = 1
      [0x12, 0x02, ...Buffer.from('sb')], // pod_sandbox_id = 2
      [0x1a, 0x07, 0x0a, 0x03, ...Buffer.from('web'), 0x10, 0x02], // metadata = 3 { name = 1, attempt = 2 }
      [0x22, 0x09, 0x0a, 0x07, ...Buffer.from('nginx:1')], // image = 4 { image = 1 }
      [0x2a, 0x04, ...Buffer.from('sha1')], // image_ref = 5
      [0x30, 0x02], // state = 6: CONTAINER_EXITED
      [0x38, 0xac, 0x02], // created_at = 7: 300
      [0x42, 0x06, 0x0a, 0x01, 0x6b, 0x12, 0x01, 0x76], // labels = 8 { k: v }
      [0x98, 0x06, 0x01], // field 99, varint: unknown
      [0xa5, 0x06, 1, 2, 3, 4], // field 100, fixed32: unknown
      [0x52, 0x02, ...Buffer.from('id')], // image_id = 10
    ].flat();
    const bytes = Buffer.from([0x0a, container.length, ...container, 0xa2, 0x06, 0x00 /* field 100, empty bytes: unknown */]);
    expect(ListContainersResponse.decode(bytes)).toEqual({
      containers: [
        {
          id: 'abc',
          podSandboxId: 'sb',
          metadata: { name: 'web', attempt: 2 },
          image: { image: 'nginx:1' },
          imageRef: 'sha1',
          state: 2,
          createdAt: 300n,
          labels: { k: 'v' },
          annotations: {},
          imageId: 'id',
        },
      ],
    });
  });

  it('round-trips every message it writes', () => {
    const container: CriContainer = {
      id: WEB,
      podSandboxId: SANDBOX,
      metadata: { name: 'web', attempt: 3 },
      image: { image: NGINX_ID, userSpecifiedImage: 'nginx:1.25', annotations: { a: 'b' } },
      imageRef: 'docker.io/library/nginx@sha256:abc',
      state: 1,
      createdAt: 1_732_000_000_123_456_789n,
      labels: { [POD_UID_LABEL]: UID, 'io.kubernetes.container.name': 'web', empty: '' },
      annotations: { 'io.kubernetes.container.hash': '1f2e' },
      imageId: NGINX_ID,
    };
    expect(ListContainersResponse.decode(ListContainersResponse.encode({ containers: [container, { ...container, id: SIDECAR, createdAt: -5n }] }))).toEqual({
      containers: [container, { ...container, id: SIDECAR, createdAt: -5n }],
    });
    const sandbox: CriPodSandbox = {
      id: SANDBOX,
      metadata: { name: 'web-1', uid: UID, namespace: 'default', attempt: 0 },
      state: 1,
      createdAt: 7n,
      labels: { [POD_UID_LABEL]: UID },
      annotations: {},
      runtimeHandler: 'runc',
    };
    expect(ListPodSandboxResponse.decode(ListPodSandboxResponse.encode({ items: [sandbox] }))).toEqual({ items: [sandbox] });
    const image: CriImage = {
      id: NGINX_ID,
      repoTags: ['docker.io/library/nginx:1.25', 'nginx:latest'],
      repoDigests: ['docker.io/library/nginx@sha256:abc'],
      size: 2n ** 40n,
      username: '',
      pinned: true,
    };
    expect(ImageStatusResponse.decode(ImageStatusResponse.encode({ image }))).toEqual({ image });
    expect(ImageStatusResponse.decode(ImageStatusResponse.encode({}))).toEqual({});
    expect(
      VersionResponse.decode(VersionResponse.encode({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.7.2', runtimeApiVersion: 'v1' })),
    ).toMatchObject({ runtimeName: 'containerd', runtimeApiVersion: 'v1' });
    expect(PullImageResponse.decode(PullImageResponse.encode({ imageRef: NGINX_ID }))).toEqual({ imageRef: NGINX_ID });
    expect(ImageStatusRequest.decode(ImageStatusRequest.encode({ image: { image: 'nginx:1.25' }, verbose: true }))).toEqual({
      image: { image: 'nginx:1.25' },
      verbose: true,
    });
  });

  it('writes the field numbers of the CRI requests', () => {
    const hex = (b: Buffer) => b.toString('hex');
    // StopContainerRequest { container_id = 1; int64 timeout = 2 }
    expect(hex(StopContainerRequest.encode({ containerId: 'ab', timeout: 10 }))).toBe('0a026162100a');
    expect(hex(RemoveContainerRequest.encode({ containerId: 'ab' }))).toBe('0a026162');
    expect(hex(PodSandboxIdRequest.encode({ podSandboxId: 'ab' }))).toBe('0a026162');
    // RemoveImageRequest / PullImageRequest { ImageSpec image = 1 { image = 1 } }
    expect(hex(ImageRequest.encode({ image: { image: 'x' } }))).toBe('0a030a0178');
    // ListContainersRequest { filter = 1 { label_selector = 4 { k: v } } }
    expect(hex(ListContainersRequest.encode({ filter: { labelSelector: { k: 'v' } } }))).toBe('0a0822060a016b120176');
    // ListPodSandboxRequest { filter = 1 { label_selector = 3 { k: v } } }
    expect(hex(ListPodSandboxRequest.encode({ filter: { labelSelector: { k: 'v' } } }))).toBe('0a081a060a016b120176');
    // ContainerFilter { id = 1; state = 2 { state = 1 } }: state 0 (created) is a real filter.
    expect(hex(ContainerFilter.encode({ id: 'a', state: 0 }))).toBe('0a01611200');
    expect(ContainerFilter.decode(ContainerFilter.encode({ state: 0 }))).toEqual({ state: 0 });
    // Proto3 defaults are left out.
    expect(StopContainerRequest.encode({ containerId: '', timeout: 0 }).length).toBe(0);
    expect(ListContainersRequest.encode({}).length).toBe(0);
  });

  it('encodes varints at their limits and negative int64 as ten bytes', () => {
    const w = new ProtoWriter()
      .varint(1, 2n ** 64n - 1n)
      .varint(2, -1n)
      .varint(3, 1)
      .varint(536_870_911, 150);
    const r = ProtoReader.decode(w.finish());
    expect(r.uint(1)).toBe(2n ** 64n - 1n);
    expect(r.int64(2)).toBe(-1n);
    expect(r.num(3)).toBe(1);
    expect(r.num(536_870_911)).toBe(150);
    expect(new ProtoWriter().varint(1, -1n).finish().length).toBe(11);
    expect(new ProtoWriter().varint(1, 150).finish().toString('hex')).toBe('089601');
  });

  it.each([
    ['a truncated varint', [0x08, 0x96]],
    ['a length beyond the message', [0x0a, 0x05, 0x61]],
    ['a truncated fixed64', [0x09, 1, 2, 3]],
    ['a group (wire type 3)', [0x0b]],
    ['field number 0', [0x00, 0x01]],
  ])('refuses %s', (_name, bytes) => {
    expect(() => ProtoReader.decode(Buffer.from(bytes))).toThrow(ProtoDecodeError);
  });

  it('frames gRPC messages and refuses compressed or truncated frames', () => {
    const frame = grpcFrame(Buffer.from([1, 2, 3]));
    expect(frame.toString('hex')).toBe('0000000003010203');
    expect(grpcUnframe(frame)).toEqual([Buffer.from([1, 2, 3])]);
    expect(grpcUnframe(Buffer.concat([frame, grpcFrame(Buffer.alloc(0))]))).toHaveLength(2);
    expect(() => grpcUnframe(Buffer.from('0100000000', 'hex'))).toThrow(/compressed/);
    expect(() => grpcUnframe(frame.subarray(0, 6))).toThrow(/truncated/);
  });
});

// ---------------------------------------------------------------------------------------------
// A fake CRI runtime.

type Reply = { message: Buffer } | { status: number; message?: string; inTrailers?: boolean } | 'hang';

interface FakeState {
  containers: CriContainer[];
  sandboxes: CriPodSandbox[];
  images: CriImage[];
}

interface FakeCri {
  socket: string;
  /** `<version> <Method>` of every call, in order, e.g. `v1 ListContainers`. */
  calls: string[];
  /** Decoded requests, in order. */
  requests: { method: string; body: unknown }[];
  state: FakeState;
  /** Answer a method differently (before the built-in behaviour). */
  override: Map<string, (body: Buffer) => Reply | undefined>;
  close(): Promise<void>;
}

function labelsMatch(labels: Record<string, string>, selector: Record<string, string> | undefined): boolean {
  return Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v);
}

/** containerd's reference normalisation, enough for the tests: `nginx:1` → `docker.io/library/nginx:1`. */
function normalize(ref: string): string {
  const first = ref.split('/')[0] ?? '';
  if (!ref.includes('/')) return `docker.io/library/${ref}`;
  return /[.:]/.test(first) || first === 'localhost' ? ref : `docker.io/${ref}`;
}

function builtIn(state: FakeState, method: string, body: Buffer, log: (b: unknown) => void): Reply {
  const ok = (message: Buffer = Buffer.alloc(0)): Reply => ({ message });
  const notFound = (what: string): Reply => ({ status: GRPC_STATUS.NOT_FOUND, message: `${what}: not found` });
  switch (method) {
    case 'Version':
      return ok(VersionResponse.encode({ version: '0.1.0', runtimeName: 'fake-containerd', runtimeVersion: 'v1.7.0', runtimeApiVersion: 'v1' }));
    case 'ListContainers': {
      const { filter } = ListContainersRequest.decode(body);
      log(filter ?? {});
      const containers = state.containers.filter((c) => (!filter?.id || c.id.startsWith(filter.id)) && labelsMatch(c.labels, filter?.labelSelector));
      return ok(ListContainersResponse.encode({ containers }));
    }
    case 'ListPodSandbox': {
      const { filter } = ListPodSandboxRequest.decode(body);
      log(filter ?? {});
      const items = state.sandboxes.filter((s) => (!filter?.id || s.id.startsWith(filter.id)) && labelsMatch(s.labels, filter?.labelSelector));
      return ok(ListPodSandboxResponse.encode({ items }));
    }
    case 'StopContainer': {
      const req = StopContainerRequest.decode(body);
      log(req);
      const c = state.containers.find((x) => x.id === req.containerId);
      if (!c) return notFound(`container ${req.containerId}`);
      c.state = 2;
      return ok();
    }
    case 'RemoveContainer': {
      const req = RemoveContainerRequest.decode(body);
      log(req);
      state.containers = state.containers.filter((x) => x.id !== req.containerId); // idempotent, like containerd
      return ok();
    }
    case 'StopPodSandbox': {
      const req = PodSandboxIdRequest.decode(body);
      log(req);
      const s = state.sandboxes.find((x) => x.id === req.podSandboxId);
      if (!s) return notFound(`sandbox ${req.podSandboxId}`);
      s.state = 1;
      return ok();
    }
    case 'RemovePodSandbox': {
      const req = PodSandboxIdRequest.decode(body);
      log(req);
      state.sandboxes = state.sandboxes.filter((x) => x.id !== req.podSandboxId);
      state.containers = state.containers.filter((x) => x.podSandboxId !== req.podSandboxId);
      return ok();
    }
    case 'ImageStatus': {
      const req = ImageStatusRequest.decode(body);
      log(req);
      const image = state.images.find((i) => i.id === req.image.image || i.repoTags.includes(normalize(req.image.image)));
      return ok(ImageStatusResponse.encode(image ? { image } : {}));
    }
    case 'RemoveImage': {
      const req = ImageRequest.decode(body);
      log(req);
      state.images = state.images.filter((i) => i.id !== req.image.image && !i.repoTags.includes(normalize(req.image.image)));
      return ok();
    }
    case 'PullImage': {
      const req = ImageRequest.decode(body);
      log(req);
      return ok(PullImageResponse.encode({ imageRef: NGINX_ID }));
    }
    default:
      return { status: GRPC_STATUS.UNIMPLEMENTED, message: `unknown method ${method}` };
  }
}

function initialState(): FakeState {
  const labels = (uid: string, name: string) => ({
    [POD_UID_LABEL]: uid,
    'io.kubernetes.pod.name': 'web-1',
    'io.kubernetes.pod.namespace': 'default',
    'io.kubernetes.container.name': name,
  });
  const container = (id: string, sandbox: string, uid: string, name: string, image: CriContainer['image'], state: number): CriContainer => ({
    id,
    podSandboxId: sandbox,
    metadata: { name, attempt: 0 },
    ...(image ? { image } : {}),
    imageRef: image?.image.startsWith('sha256:') ? image.image : `sha256:${'88'.repeat(32)}`,
    state,
    createdAt: 1_732_000_000_000_000_000n,
    labels: labels(uid, name),
    annotations: {},
    imageId: '',
  });
  return {
    containers: [
      // kubelet ≥ 1.29: the spec's text rides along in user_specified_image.
      container(WEB, SANDBOX, UID, 'web', { image: NGINX_ID, userSpecifiedImage: 'nginx:1.25' }, 1),
      // Older kubelets: only the image id; the name comes from ImageStatus.
      container(SIDECAR, SANDBOX, UID, 'envoy', { image: ENVOY_ID }, 2),
      container(FOREIGN, FOREIGN_SANDBOX, OTHER_UID, 'db', { image: 'postgres:16' }, 1),
    ],
    sandboxes: [
      {
        id: SANDBOX,
        metadata: { name: 'web-1', uid: UID, namespace: 'default', attempt: 0 },
        state: 0,
        createdAt: 1n,
        labels: labels(UID, 'POD'),
        annotations: {},
        runtimeHandler: '',
      },
      {
        id: FOREIGN_SANDBOX,
        metadata: { name: 'db-0', uid: OTHER_UID, namespace: 'default', attempt: 0 },
        state: 0,
        createdAt: 1n,
        labels: labels(OTHER_UID, 'POD'),
        annotations: {},
        runtimeHandler: '',
      },
    ],
    images: [
      { id: NGINX_ID, repoTags: ['docker.io/library/nginx:1.25'], repoDigests: [], size: 1n, username: '', pinned: false },
      { id: ENVOY_ID, repoTags: ['docker.io/envoyproxy/envoy:v1.31'], repoDigests: [], size: 1n, username: '', pinned: false },
      { id: `sha256:${'99'.repeat(32)}`, repoTags: ['docker.io/library/busybox:1.36'], repoDigests: [], size: 1n, username: '', pinned: false },
    ],
  };
}

async function startFakeCri(options: { versions?: string[]; hangAll?: boolean } = {}): Promise<FakeCri> {
  const dir = mkdtempSync(join(tmpdir(), 'pd-cri-'));
  const socket = join(dir, 'containerd.sock');
  const versions = options.versions ?? ['v1', 'v1alpha2'];
  const calls: string[] = [];
  const requests: { method: string; body: unknown }[] = [];
  const override = new Map<string, (body: Buffer) => Reply | undefined>();
  const sessions = new Set<Http2Session>();
  const fake: FakeCri = { socket, calls, requests, state: initialState(), override, close: async () => undefined };

  const answer = (stream: ServerHttp2Stream, reply: Reply) => {
    if (reply === 'hang') return;
    if ('status' in reply && reply.inTrailers) {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': String(reply.status), 'grpc-message': encodeURIComponent(reply.message ?? '') }));
      stream.end();
      return;
    }
    if ('status' in reply) {
      // Trailers-only: the status rides in the headers of an ended stream.
      stream.respond(
        { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': String(reply.status), 'grpc-message': encodeURIComponent(reply.message ?? '') },
        { endStream: true },
      );
      return;
    }
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(grpcFrame(reply.message));
  };

  const server: Http2Server = createServer();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', () => undefined);
    stream.on('end', () => {
      const m = /^\/runtime\.(v1|v1alpha2)\.(RuntimeService|ImageService)\/(\w+)$/.exec(String(headers[':path']));
      if (!m || headers['content-type'] !== 'application/grpc' || headers.te !== 'trailers')
        return answer(stream, { status: GRPC_STATUS.INTERNAL, message: 'bad request' });
      const version = m[1] ?? '';
      const method = m[3] ?? '';
      calls.push(`${version} ${method}`);
      if (options.hangAll) return;
      if (!versions.includes(version)) return answer(stream, { status: GRPC_STATUS.UNIMPLEMENTED, message: `unknown service runtime.${version}.${m[2]}` });
      let body: Buffer;
      try {
        [body = Buffer.alloc(0)] = grpcUnframe(Buffer.concat(chunks));
      } catch (err) {
        return answer(stream, { status: GRPC_STATUS.INTERNAL, message: String(err) });
      }
      const special = override.get(method)?.(body);
      answer(stream, special ?? builtIn(fake.state, method, body, (decoded) => requests.push({ method, body: decoded })));
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  fake.close = async () => {
    for (const s of sessions) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
  return fake;
}

// ---------------------------------------------------------------------------------------------
// client

describe('CRI client over a unix socket', () => {
  let fake: FakeCri;
  afterEach(async () => fake?.close());

  it('lists by label selector and decodes the reply', async () => {
    fake = await startFakeCri();
    const client = new CriClient({ socketPath: fake.socket, timeoutMs: 2000 });
    const r = await client.listContainers({ labelSelector: { [POD_UID_LABEL]: UID } });
    expect(r.ok && r.value.map((c) => c.id)).toEqual([WEB, SIDECAR]);
    expect(fake.requests).toEqual([{ method: 'ListContainers', body: { labelSelector: { [POD_UID_LABEL]: UID } } }]);
    expect(client.apiVersion).toBe('v1');
  });

  it('falls back once to runtime.v1alpha2 when v1 is UNIMPLEMENTED, and remembers it', async () => {
    fake = await startFakeCri({ versions: ['v1alpha2'] });
    const client = new CriClient({ socketPath: fake.socket, timeoutMs: 2000 });
    const v = await client.getVersion();
    expect(v.ok && v.value.runtimeName).toBe('fake-containerd');
    expect(client.apiVersion).toBe('v1alpha2');
    const images = await client.imageStatus('docker.io/library/nginx:1.25');
    expect(images.ok && images.value?.id).toBe(NGINX_ID);
    expect(fake.calls).toEqual(['v1 Version', 'v1alpha2 Version', 'v1alpha2 ImageStatus']);
  });

  it('reports UNIMPLEMENTED when neither version is served', async () => {
    fake = await startFakeCri({ versions: [] });
    const client = new CriClient({ socketPath: fake.socket, timeoutMs: 2000 });
    expect(await client.getVersion()).toMatchObject({ ok: false, kind: 'status', code: GRPC_STATUS.UNIMPLEMENTED });
    expect(fake.calls).toEqual(['v1 Version', 'v1alpha2 Version']);
    expect(client.apiVersion).toBeUndefined();
  });

  it('gives a timeout result, not a hang, when the runtime never answers', async () => {
    fake = await startFakeCri({ hangAll: true });
    const client = new CriClient({ socketPath: fake.socket, timeoutMs: 250 });
    const started = Date.now();
    expect(await client.listContainers()).toMatchObject({ ok: false, kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(fake.calls).toEqual(['v1 ListContainers']);
  });

  it('says "unreachable" when nothing listens on the socket, "failed" for a non-gRPC server', async () => {
    fake = await startFakeCri();
    expect(await grpcUnary(join(fake.socket, '..', 'absent.sock'), '/runtime.v1.RuntimeService/Version', Buffer.alloc(0), { timeoutMs: 1000 })).toMatchObject({
      kind: 'unreachable',
    });
    const docker = await startFakeDocker({ routes: {} });
    try {
      expect(await grpcUnary(docker.socket, '/runtime.v1.RuntimeService/Version', Buffer.alloc(0), { timeoutMs: 1000 })).toMatchObject({ kind: 'failed' });
    } finally {
      await docker.close();
    }
  });

  it('carries the gRPC status and message of an error reply', async () => {
    fake = await startFakeCri();
    fake.override.set('RemoveImage', () => ({ status: GRPC_STATUS.UNKNOWN, message: 'image used by 3f2a: image is in use' }));
    const r = await new CriClient({ socketPath: fake.socket, timeoutMs: 1000 }).removeImage('nginx:1.25');
    expect(r).toEqual({ ok: false, kind: 'status', code: GRPC_STATUS.UNKNOWN, message: 'image used by 3f2a: image is in use' });
    expect(!r.ok && failureCode(r)).toBe(409);
    // The same status sent in trailers after (empty) headers.
    fake.override.set('RemoveImage', () => ({ status: GRPC_STATUS.NOT_FOUND, message: 'no such image "nginx:1.25"', inTrailers: true }));
    expect(await new CriClient({ socketPath: fake.socket, timeoutMs: 1000 }).removeImage('nginx:1.25')).toEqual({
      ok: false,
      kind: 'status',
      code: GRPC_STATUS.NOT_FOUND,
      message: 'no such image "nginx:1.25"',
    });
    expect(failureCode({ kind: 'status', code: GRPC_STATUS.NOT_FOUND, message: 'x' })).toBe(404);
    expect(failureCode({ kind: 'status', code: GRPC_STATUS.INTERNAL, message: 'x' })).toBe(502);
    expect(failureCode({ kind: 'timeout', message: 'x' })).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// HostExec through CRI

describe('createHostExec with a CRI runtime', () => {
  let fake: FakeCri;
  beforeEach(async () => {
    fake = await startFakeCri();
  });
  afterEach(async () => fake.close());

  const exec = (more: Parameters<typeof createHostExec>[0] = { hostRoot: '/' }) =>
    createHostExec({ runtime: 'cri', criSockets: [fake.socket], timeoutMs: 2000, ...more });

  it("lists the pod's containers and its sandbox, with names, states, images and labels", async () => {
    const list = await exec().listPodContainers(UID);
    expect(list).toEqual([
      {
        id: WEB,
        name: 'web',
        image: 'nginx:1.25',
        imageNames: ['docker.io/library/nginx:1.25'],
        imageId: NGINX_ID,
        state: 'running',
        labels: expect.objectContaining({ [POD_UID_LABEL]: UID }),
      },
      {
        id: SIDECAR,
        name: 'envoy',
        image: 'docker.io/envoyproxy/envoy:v1.31',
        imageNames: ['docker.io/envoyproxy/envoy:v1.31'],
        imageId: ENVOY_ID,
        state: 'exited',
        labels: expect.objectContaining({ [POD_UID_LABEL]: UID }),
      },
      { id: SANDBOX, name: 'sandbox:web-1', image: '', state: 'ready', labels: expect.objectContaining({ [POD_UID_LABEL]: UID }) },
    ]);
    // The two lists go out together: compare them in a fixed order.
    expect(fake.requests.filter((r) => r.method.startsWith('List')).sort((a, b) => a.method.localeCompare(b.method))).toEqual([
      { method: 'ListContainers', body: { labelSelector: { [POD_UID_LABEL]: UID } } },
      { method: 'ListPodSandbox', body: { labelSelector: { [POD_UID_LABEL]: UID } } },
    ]);
    await expect(exec().listPodContainers('not-a-uid')).rejects.toThrow(/bad pod uid/);
  });

  it('removes a container with StopContainer(timeout 10) then RemoveContainer', async () => {
    expect(await exec().removeContainer(WEB)).toEqual({ ok: true, detail: '', code: 200 });
    expect(fake.requests.filter((r) => !r.method.startsWith('List'))).toEqual([
      { method: 'StopContainer', body: { containerId: WEB, timeout: 10 } },
      { method: 'RemoveContainer', body: { containerId: WEB } },
    ]);
    expect(fake.state.containers.map((c) => c.id)).toEqual([SIDECAR, FOREIGN]);
  });

  it('removes a sandbox with StopPodSandbox then RemovePodSandbox (its containers go with it)', async () => {
    expect(await exec().removeContainer(SANDBOX)).toMatchObject({ ok: true });
    expect(fake.calls.filter((c) => !c.includes('List'))).toEqual(['v1 Version', 'v1 StopPodSandbox', 'v1 RemovePodSandbox']);
    expect(fake.state.sandboxes.map((s) => s.id)).toEqual([FOREIGN_SANDBOX]);
    expect(fake.state.containers.map((c) => c.id)).toEqual([FOREIGN]);
  });

  it('answers 404 for an id the runtime does not know, and for NotFound from the runtime', async () => {
    expect(await exec().removeContainer('ab'.repeat(32))).toMatchObject({ ok: false, code: 404 });
    fake.override.set('StopContainer', () => ({ status: GRPC_STATUS.NOT_FOUND, message: 'container gone' }));
    expect(await exec().removeContainer(WEB)).toMatchObject({ ok: false, code: 404, detail: expect.stringContaining('container gone') });
    await expect(exec().removeContainer('../etc')).rejects.toThrow(/bad container id/);
  });

  it('removes an image no container uses, refuses one in use (409), says 404 for an absent one', async () => {
    const e = exec();
    expect(await e.removeImage('docker.io/library/busybox:1.36')).toEqual({ ok: true, detail: '', code: 200 });
    expect(fake.requests.find((r) => r.method === 'RemoveImage')).toEqual({ method: 'RemoveImage', body: { image: { image: `sha256:${'99'.repeat(32)}` } } });
    expect(await e.removeImage('docker.io/library/busybox:1.36')).toMatchObject({ ok: false, code: 404 });
    expect(await e.removeImage('docker.io/library/nginx:1.25')).toMatchObject({ ok: false, code: 409, detail: expect.stringMatching(/in use by 1 container/) });
    expect(fake.state.images.map((i) => i.id)).toContain(NGINX_ID);
    fake.state.containers = [];
    fake.override.set('RemoveImage', () => ({ status: GRPC_STATUS.NOT_FOUND, message: 'image gone meanwhile' }));
    expect(await e.removeImage('docker.io/library/nginx:1.25')).toMatchObject({ ok: false, code: 404 });
  });

  it('pulls through PullImage and reports the image reference', async () => {
    expect(await exec({ hostRoot: '/', pullTimeoutMs: 5000 }).pullImage('nginx:1.25')).toEqual({ ok: true, detail: NGINX_ID, code: 200 });
    expect(fake.requests.at(-1)).toEqual({ method: 'PullImage', body: { image: { image: 'nginx:1.25' } } });
    fake.override.set('PullImage', () => ({ status: GRPC_STATUS.UNKNOWN, message: 'failed to resolve reference' }));
    expect(await exec().pullImage('nginx:9.99')).toMatchObject({ ok: false, code: 502, detail: expect.stringContaining('failed to resolve reference') });
  });

  it('returns a result (code 0), not a hang, when the runtime stops answering', async () => {
    const e = exec({ hostRoot: '/', timeoutMs: 300 });
    expect((await e.listPodContainers(UID)).length).toBe(3);
    fake.override.set('ListContainers', () => 'hang');
    const started = Date.now();
    expect(await e.removeContainer(WEB)).toMatchObject({ ok: false, code: 0, detail: expect.stringMatching(/did not answer within 300ms/) });
    await expect(e.listPodContainers(UID)).rejects.toThrow(/did not answer/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('auto: Docker when a Docker socket answers, else the first CRI socket that answers Version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-auto-'));
    const docker = await startFakeDocker({ routes: { '/_ping': 'OK', '/containers/json': [] } });
    try {
      const viaCri = createHostExec({
        hostRoot: '/',
        runtime: 'auto',
        dockerSockets: [join(dir, 'docker.sock')],
        criSockets: [join(dir, 'crio.sock'), fake.socket],
        timeoutMs: 2000,
      });
      expect((await viaCri.listPodContainers(UID)).map((c) => c.id)).toEqual([WEB, SIDECAR, SANDBOX]);
      // Docker answers too but holds none of the pod's containers (a node moved to containerd
      // that kept Docker): the pod's containers are the CRI runtime's, and so are the removals.
      const both = createHostExec({ hostRoot: '/', dockerSockets: [docker.socket], criSockets: [fake.socket], timeoutMs: 2000 });
      expect((await both.listPodContainers(UID)).map((c) => c.id)).toEqual([WEB, SIDECAR, SANDBOX]);
      expect(docker.requests[0]).toBe('/_ping');
      expect(docker.requests.some((r) => r.startsWith('/containers/json'))).toBe(true);
      expect(await both.removeContainer(WEB)).toMatchObject({ ok: true });
      expect(fake.calls).toContain('v1 RemoveContainer');
      // A pod Docker does hold stays Docker's.
      const dockerOnly = await startFakeDocker({
        routes: {
          '/_ping': 'OK',
          '/containers/json': [{ Id: 'a'.repeat(64), Image: 'nginx:1.25', State: 'running', Labels: { 'io.kubernetes.pod.uid': UID } }],
        },
      });
      try {
        const viaDocker = createHostExec({ hostRoot: '/', dockerSockets: [dockerOnly.socket], criSockets: [fake.socket], timeoutMs: 2000 });
        expect((await viaDocker.listPodContainers(UID)).map((c) => c.id)).toEqual(['a'.repeat(64)]);
      } finally {
        await dockerOnly.close();
      }
      const nothing = createHostExec({ hostRoot: '/', dockerSockets: [join(dir, 'docker.sock')], criSockets: [join(dir, 'crio.sock')], timeoutMs: 2000 });
      expect(await nothing.removeContainer(WEB)).toMatchObject({ ok: false, code: 0, detail: expect.stringMatching(/no CRI runtime answered/) });
    } finally {
      await docker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// the actions, unchanged, on a CRI node

describe('remove-pod-containers through CRI, end to end', () => {
  let fake: FakeCri;
  beforeEach(async () => {
    fake = await startFakeCri();
  });
  afterEach(async () => fake.close());

  const handler = () =>
    createActionHandler({
      exec: createHostExec({ hostRoot: '/', runtime: 'cri', criSockets: [fake.socket], timeoutMs: 2000 }),
      probeEnv: { procRoot: '/nonexistent/proc', hostRoot: '/nonexistent' },
      nodeName: 'node-1',
      log: silent,
    });
  const body = (containerIds?: string[]) =>
    JSON.stringify({ node: 'node-1', pod: { uid: UID, namespace: 'default', name: 'web-1', containerIds: [] }, ...(containerIds ? { containerIds } : {}) });

  it("refuses a container whose uid label is another pod's, and removes nothing", async () => {
    const r = await handler()('remove-pod-containers', body([FOREIGN]));
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(new RegExp(`container\\(s\\) ${FOREIGN} are not containers of pod default/web-1`));
    expect(fake.calls.filter((c) => /Stop|Remove/.test(c))).toEqual([]);
    expect(fake.state.containers).toHaveLength(3);
  });

  it("removes the pod's containers, then its sandbox, and leaves the other pod alone", async () => {
    const r = await handler()('remove-pod-containers', body());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ ok: true, changed: true, items: [WEB.slice(0, 12), SIDECAR.slice(0, 12), SANDBOX.slice(0, 12)] });
    expect(fake.calls.filter((c) => /Stop|Remove/.test(c))).toEqual([
      'v1 StopContainer',
      'v1 RemoveContainer',
      'v1 StopContainer',
      'v1 RemoveContainer',
      'v1 StopPodSandbox',
      'v1 RemovePodSandbox',
    ]);
    expect(fake.state.containers.map((c) => c.id)).toEqual([FOREIGN]);
    expect(fake.state.sandboxes.map((s) => s.id)).toEqual([FOREIGN_SANDBOX]);
    const again = await handler()('remove-pod-containers', body());
    expect(again.body).toMatchObject({ changed: false });
  });

  it("remove-image refuses while another pod's container still uses the image", async () => {
    fake.state.containers.push({ ...fake.state.containers[0]!, id: '5a'.repeat(32), podSandboxId: FOREIGN_SANDBOX, labels: { [POD_UID_LABEL]: OTHER_UID } });
    const r = await handler()(
      'remove-image',
      JSON.stringify({ node: 'node-1', pod: { uid: UID, namespace: 'default', name: 'web-1', containerIds: [] }, image: 'nginx:1.25' }),
    );
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/in use by 1 container/);
    expect(fake.state.containers.map((c) => c.id)).not.toContain(WEB);
    expect(fake.state.images.map((i) => i.id)).toContain(NGINX_ID);
  });
});

describe('agent CLI runtime options', () => {
  it.each([
    [{}, {}, {}],
    [
      { runtime: 'cri', 'cri-socket': ['/host/run/k3s/containerd/containerd.sock'] },
      {},
      { runtime: 'cri', criSockets: ['/host/run/k3s/containerd/containerd.sock'] },
    ],
    [{}, { POD_DOCTOR_AGENT_RUNTIME: 'docker', POD_DOCTOR_AGENT_CRI_SOCKET: '/a.sock, /b.sock' }, { runtime: 'docker', criSockets: ['/a.sock', '/b.sock'] }],
    [{ runtime: 'auto' }, { POD_DOCTOR_AGENT_RUNTIME: 'cri' }, { runtime: 'auto' }],
  ])('reads %j with env %j', (values, env, expected) => {
    expect(runtimeOptionsFrom(values, env)).toEqual(expected);
  });

  it.each([
    [{ runtime: 'podman' }, {}, /--runtime .*expected one of auto, docker, cri/],
    [{}, { POD_DOCTOR_AGENT_RUNTIME: 'rkt' }, /got "rkt"/],
    [{ 'cri-socket': ['relative.sock'] }, {}, /--cri-socket .*absolute/],
  ])('refuses %j with env %j', (values, env, message) => {
    expect(runtimeOptionsFrom(values, env)).toMatch(message);
  });
});
