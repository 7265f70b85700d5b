// The runtime half of HostExec through CRI (containerd, CRI-O), with the same meaning and the
// same result codes as the Docker half, so the actions do not know which runtime answered:
// - a pod's "containers" are its CRI containers and its pod sandboxes (the sandbox is Docker's
//   `POD` pause container), both found by the `io.kubernetes.pod.uid` label kubelet sets;
// - removal is stop-then-remove (a sandbox's removal also removes its containers);
// - image removal is not forced: CRI's RemoveImage deletes an image whoever uses it, so an
//   image any container still references is refused here with 409, as Docker refuses it.
// Codes are HTTP-like: 200 done, 404 not there, 409 in use, 502 the runtime refused, 0 no answer.
import { CONTAINER_STATES, type CriClient, type CriContainer, type CriFailure, describeFailure, GRPC_STATUS, SANDBOX_STATES } from '../../probes/cri.js';
import { type ExecResult, type HostContainer, type HostExec, imageRefSchema, POD_UID_LABEL } from './types.js';

export type RuntimeOps = Pick<HostExec, 'listPodContainers' | 'removeContainer' | 'removeImage' | 'pullImage'>;

export interface CriRuntimeOptions {
  /** Time limit of an image pull (ms). */
  pullTimeoutMs: number;
  /** Grace period of StopContainer (seconds, default 10). */
  stopTimeoutSeconds?: number;
}

const CONTAINER_ID = /^[0-9a-f]{12,64}$/;
const IMAGE_ID = /^(sha256:)?[0-9a-f]{64}$/;

/** The ExecResult code of a failed CRI call. */
export function failureCode(f: CriFailure): number {
  if (f.kind !== 'status') return 0;
  if (f.code === GRPC_STATUS.NOT_FOUND) return 404;
  // Runtimes say "in use" in the text only (CRI-O: "image used by <id>"); this is where it gets a kind.
  if (f.code === GRPC_STATUS.FAILED_PRECONDITION || /\bin use\b|\bbeing used\b|\bused by\b/i.test(f.message)) return 409;
  return 502;
}

function failed(f: CriFailure, what: string): ExecResult {
  return { ok: false, detail: `${what}: ${describeFailure(f)}`.slice(0, 500), code: failureCode(f) };
}

const OK: ExecResult = { ok: true, detail: '', code: 200 };

/**
 * The image as the pod names it: the pod spec's text when kubelet sent it (user_specified_image),
 * else the spec's image unless it is a bare id, else a tag of that id (one ImageStatus per id and listing).
 */
async function imageOf(client: CriClient, c: CriContainer, tags: Map<string, Promise<string[]>>): Promise<{ image: string; names: string[] }> {
  const spec = c.image?.image ?? '';
  const id = c.imageId || c.imageRef || (IMAGE_ID.test(spec) ? spec : '');
  let names = id ? tags.get(id) : undefined;
  if (id && !names) {
    // Every tag and digest of the image: a pod may name it by any of them.
    names = client.imageStatus(id).then((r) => (r.ok && r.value ? [...r.value.repoTags, ...r.value.repoDigests] : []));
    tags.set(id, names);
  }
  const all = (await names) ?? [];
  if (c.image?.userSpecifiedImage) return { image: c.image.userSpecifiedImage, names: all };
  if (spec && !IMAGE_ID.test(spec)) return { image: spec, names: all };
  return { image: all[0] ?? id, names: all };
}

/** Which kind of object an id names on this runtime. */
async function locate(client: CriClient, id: string): Promise<{ kind: 'container' | 'sandbox'; id: string } | ExecResult> {
  const pick = <T extends { id: string }>(list: T[]): T | 'ambiguous' | undefined => {
    const exact = list.find((x) => x.id === id);
    if (exact) return exact;
    const prefixed = list.filter((x) => x.id.startsWith(id));
    return prefixed.length > 1 ? 'ambiguous' : prefixed[0];
  };
  const containers = await client.listContainers({ id });
  if (!containers.ok) return failed(containers, `cannot look up container ${id}`);
  const c = pick(containers.value);
  if (c === 'ambiguous') return { ok: false, detail: `container id ${id} is ambiguous`, code: 502 };
  if (c) return { kind: 'container', id: c.id };
  const sandboxes = await client.listPodSandbox({ id });
  if (!sandboxes.ok) return failed(sandboxes, `cannot look up pod sandbox ${id}`);
  const s = pick(sandboxes.value);
  if (s === 'ambiguous') return { ok: false, detail: `pod sandbox id ${id} is ambiguous`, code: 502 };
  if (s) return { kind: 'sandbox', id: s.id };
  return { ok: false, detail: `no container or pod sandbox ${id} on this runtime`, code: 404 };
}

export function createCriRuntime(client: CriClient, options: CriRuntimeOptions): RuntimeOps {
  const stopSeconds = options.stopTimeoutSeconds ?? 10;

  return {
    async listPodContainers(podUid) {
      if (!/^[0-9a-f-]{36}$/i.test(podUid)) throw new Error('bad pod uid');
      const labelSelector = { [POD_UID_LABEL]: podUid };
      const [containers, sandboxes] = await Promise.all([client.listContainers({ labelSelector }), client.listPodSandbox({ labelSelector })]);
      if (!containers.ok) throw new Error(`cri: cannot list containers: ${describeFailure(containers)}`);
      if (!sandboxes.ok) throw new Error(`cri: cannot list pod sandboxes: ${describeFailure(sandboxes)}`);
      const out: HostContainer[] = [];
      const tags = new Map<string, Promise<string[]>>();
      // Containers first: removing a sandbox first would take its containers along unreported.
      for (const c of containers.value) {
        const imageId = c.imageId || c.imageRef;
        const { image, names } = await imageOf(client, c, tags);
        out.push({
          id: c.id,
          ...(c.metadata?.name ? { name: c.metadata.name } : {}),
          image,
          ...(names.length > 0 ? { imageNames: names } : {}),
          ...(imageId ? { imageId } : {}),
          state: CONTAINER_STATES[c.state] ?? 'unknown',
          labels: c.labels,
        });
      }
      for (const s of sandboxes.value) {
        out.push({
          id: s.id,
          name: `sandbox:${s.metadata?.name ?? s.id.slice(0, 12)}`,
          image: '',
          state: SANDBOX_STATES[s.state] ?? 'unknown',
          labels: s.labels,
        });
      }
      return out;
    },

    async removeContainer(id) {
      if (!CONTAINER_ID.test(id)) throw new Error('bad container id');
      const found = await locate(client, id);
      if ('ok' in found) return found;
      if (found.kind === 'container') {
        const stop = await client.stopContainer(found.id, stopSeconds);
        if (!stop.ok && (failureCode(stop) === 404 || stop.kind === 'timeout' || stop.kind === 'unreachable'))
          return failed(stop, `cannot stop container ${found.id.slice(0, 12)}`);
        // Any other stop failure: RemoveContainer must force-remove a running container anyway.
        const removed = await client.removeContainer(found.id);
        if (removed.ok) return OK;
        return failed(removed, `cannot remove container ${found.id.slice(0, 12)}${stop.ok ? '' : ` (stop: ${describeFailure(stop)})`}`);
      }
      const stop = await client.stopPodSandbox(found.id);
      if (!stop.ok && (failureCode(stop) === 404 || stop.kind === 'timeout' || stop.kind === 'unreachable'))
        return failed(stop, `cannot stop pod sandbox ${found.id.slice(0, 12)}`);
      const removed = await client.removePodSandbox(found.id);
      if (removed.ok) return OK;
      return failed(removed, `cannot remove pod sandbox ${found.id.slice(0, 12)}${stop.ok ? '' : ` (stop: ${describeFailure(stop)})`}`);
    },

    async removeImage(ref) {
      imageRefSchema.parse(ref);
      const status = await client.imageStatus(ref);
      if (!status.ok) return failed(status, `cannot look up image ${ref}`);
      const image = status.value;
      if (!image) return { ok: false, detail: `image ${ref} is not present`, code: 404 };
      const all = await client.listContainers();
      if (!all.ok) return failed(all, 'cannot list containers');
      const names = new Set([ref, image.id, ...image.repoTags, ...image.repoDigests].filter(Boolean));
      const users = all.value.filter((c) => [c.image?.image, c.image?.userSpecifiedImage, c.imageRef, c.imageId].some((n) => n && names.has(n)));
      if (users.length > 0) {
        const ids = users.slice(0, 5).map((c) => c.id.slice(0, 12));
        return {
          ok: false,
          detail: `image ${ref} is in use by ${users.length} container(s): ${ids.join(', ')}${users.length > ids.length ? ', …' : ''}`,
          code: 409,
        };
      }
      const removed = await client.removeImage(image.id);
      return removed.ok ? OK : failed(removed, `cannot remove image ${ref}`);
    },

    async pullImage(ref) {
      imageRefSchema.parse(ref);
      const r = await client.pullImage(ref, options.pullTimeoutMs);
      return r.ok ? { ok: true, detail: r.value, code: 200 } : failed(r, `cannot pull ${ref}`);
    },
  };
}
