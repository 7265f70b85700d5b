// The CRI client and the CRI half of HostExec behind a fake CRI runtime (a grpc-js server on a
// unix socket in a temp dir, test/helpers/fake-cri.ts, serving the vendored api.proto): the
// client, createHostExec and the action handler. The client's own cases are in probes/cri.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CriReply, startCriServer } from '../../../test/helpers/fake-cri.js';
import { silent } from '../../../test/helpers/logger.js';
import { type CriApiVersion, CriClient, type CriContainer, type CriImage, type CriPodSandbox, GRPC_STATUS } from '../../probes/cri.js';
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
// A fake CRI runtime.

type Reply = CriReply;

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
  override: Map<string, (request: unknown) => Reply | undefined>;
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

// Requests read as sent (only the fields the client set); replies are plain objects.
type Filter = { id?: string; labelSelector?: Record<string, string> } | undefined;
type ImageReq = { image: { image: string } };

function builtIn(state: FakeState, method: string, body: unknown, log: (b: unknown) => void): Reply {
  const ok = (reply: object = {}): Reply => ({ reply });
  const notFound = (what: string): Reply => ({ status: GRPC_STATUS.NOT_FOUND, message: `${what}: not found` });
  switch (method) {
    case 'Version':
      return ok({ version: '0.1.0', runtimeName: 'fake-containerd', runtimeVersion: 'v1.7.0', runtimeApiVersion: 'v1' });
    case 'ListContainers': {
      const { filter } = body as { filter: Filter };
      log(filter ?? {});
      const containers = state.containers.filter((c) => (!filter?.id || c.id.startsWith(filter.id)) && labelsMatch(c.labels, filter?.labelSelector));
      return ok({ containers });
    }
    case 'ListPodSandbox': {
      const { filter } = body as { filter: Filter };
      log(filter ?? {});
      const items = state.sandboxes.filter((s) => (!filter?.id || s.id.startsWith(filter.id)) && labelsMatch(s.labels, filter?.labelSelector));
      return ok({ items });
    }
    case 'StopContainer': {
      const req = body as { containerId: string; timeout: number };
      log(req);
      const c = state.containers.find((x) => x.id === req.containerId);
      if (!c) return notFound(`container ${req.containerId}`);
      c.state = 2;
      return ok();
    }
    case 'RemoveContainer': {
      const req = body as { containerId: string };
      log(req);
      state.containers = state.containers.filter((x) => x.id !== req.containerId); // idempotent, like containerd
      return ok();
    }
    case 'StopPodSandbox': {
      const req = body as { podSandboxId: string };
      log(req);
      const s = state.sandboxes.find((x) => x.id === req.podSandboxId);
      if (!s) return notFound(`sandbox ${req.podSandboxId}`);
      s.state = 1;
      return ok();
    }
    case 'RemovePodSandbox': {
      const req = body as { podSandboxId: string };
      log(req);
      state.sandboxes = state.sandboxes.filter((x) => x.id !== req.podSandboxId);
      state.containers = state.containers.filter((x) => x.podSandboxId !== req.podSandboxId);
      return ok();
    }
    case 'ImageStatus': {
      const req = body as ImageReq;
      log(req);
      const image = state.images.find((i) => i.id === req.image.image || i.repoTags.includes(normalize(req.image.image)));
      return ok(image ? { image } : {});
    }
    case 'RemoveImage': {
      const req = body as ImageReq;
      log(req);
      state.images = state.images.filter((i) => i.id !== req.image.image && !i.repoTags.includes(normalize(req.image.image)));
      return ok();
    }
    case 'PullImage': {
      const req = body as ImageReq;
      log(req);
      return ok({ imageRef: NGINX_ID });
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

async function startFakeCri(options: { versions?: CriApiVersion[]; hangAll?: boolean } = {}): Promise<FakeCri> {
  const versions = options.versions ?? ['v1', 'v1alpha2'];
  const calls: string[] = [];
  const requests: { method: string; body: unknown }[] = [];
  const override = new Map<string, (request: unknown) => Reply | undefined>();
  const state = initialState();
  // Both versions are served so that every call is seen; an unserved one answers as containerd does.
  const server = await startCriServer(({ version, service, method, request }) => {
    calls.push(`${version} ${method}`);
    if (options.hangAll) return 'hang';
    if (!versions.includes(version)) return { status: GRPC_STATUS.UNIMPLEMENTED, message: `unknown service runtime.${version}.${service}` };
    return override.get(method)?.(request) ?? builtIn(fake.state, method, request, (decoded) => requests.push({ method, body: decoded }));
  });
  const fake: FakeCri = { socket: server.socket, calls, requests, state, override, close: server.close };
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
    expect(await new CriClient({ socketPath: join(fake.socket, '..', 'absent.sock'), timeoutMs: 1000 }).getVersion()).toMatchObject({
      ok: false,
      kind: 'unreachable',
    });
    const docker = await startFakeDocker({ routes: {} });
    try {
      expect(await new CriClient({ socketPath: docker.socket, timeoutMs: 1000 }).getVersion()).toMatchObject({ ok: false, kind: 'failed' });
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
