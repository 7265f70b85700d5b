// The CRI client of the agent's runtime probe and actions: unary gRPC calls to the runtime's unix
// socket (containerd, CRI-O) through @grpc/grpc-js, with the messages of kubernetes/cri-api's own
// api.proto (vendor/cri-api/, read at run time by @grpc/proto-loader).
//
// Memory: the agent idles well under its budget only if nothing gRPC is loaded until a CRI call
// is made, so grpc-js and proto-loader are imported on the first call and each API version's
// proto is parsed at most once per process (v1alpha2 only when a runtime lacks v1).
//
// Every call has a deadline (sent to the runtime as grpc-timeout) and its own channel, closed when
// the call settles: a runtime that accepts the connection and never answers gives a `timeout`
// result, never a hang, and a runtime that comes back is seen at once (no reconnect backoff).
// The first call tries `runtime.v1`; on UNIMPLEMENTED it tries `runtime.v1alpha2` once, and the
// client remembers whichever service answered (containerd 1.6 serves both, 1.5 only v1alpha2).
import { fileURLToPath } from 'node:url';
import type * as Grpc from '@grpc/grpc-js';
import type { Options as LoaderOptions, MethodDefinition, PackageDefinition } from '@grpc/proto-loader';
import { z } from 'zod';

export type CriApiVersion = 'v1' | 'v1alpha2';
export const CRI_API_VERSIONS: readonly CriApiVersion[] = ['v1', 'v1alpha2'];

/** ContainerState enum: CONTAINER_CREATED = 0, RUNNING = 1, EXITED = 2, UNKNOWN = 3. */
export const CONTAINER_STATES = ['created', 'running', 'exited', 'unknown'] as const;
/** PodSandboxState enum: SANDBOX_READY = 0, SANDBOX_NOTREADY = 1. */
export const SANDBOX_STATES = ['ready', 'notready'] as const;

/** gRPC status codes (grpc-js' `status`, here so callers need not load grpc-js to read a result). */
export const GRPC_STATUS = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

const STATUS_NAMES = new Map<number, string>(Object.entries(GRPC_STATUS).map(([k, v]) => [v, k]));

export function grpcStatusName(code: number): string {
  return STATUS_NAMES.get(code) ?? `status ${code}`;
}

// ---------------------------------------------------------------------------------------------
// The messages the agent reads, as proto-loader decodes them (camelCase, int64 as strings, enums
// as numbers, unset fields as defaults, unset messages as null), checked and turned into the
// module's types. Fields only v1 has (ImageSpec 18-20, Container.image_id) read as absent on v1alpha2.

/** ImageSpec { image = 1; map annotations = 2; user_specified_image = 18; runtime_handler = 19; image_ref = 20 } (18-20: v1 only). */
export interface ImageSpec {
  image: string;
  annotations?: Record<string, string>;
  /** The image as written in the pod spec (set by kubelets that know the field). */
  userSpecifiedImage?: string;
  runtimeHandler?: string;
  imageRef?: string;
}

export interface VersionResponse {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface CriContainer {
  id: string;
  podSandboxId: string;
  metadata?: { name: string; attempt: number };
  image?: ImageSpec;
  imageRef: string;
  /** Index into CONTAINER_STATES. */
  state: number;
  /** Nanoseconds since the epoch. */
  createdAt: bigint;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** v1 only ('' on v1alpha2). */
  imageId: string;
}

export interface CriPodSandbox {
  id: string;
  metadata?: { name: string; uid: string; namespace: string; attempt: number };
  /** Index into SANDBOX_STATES. */
  state: number;
  createdAt: bigint;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  runtimeHandler: string;
}

export interface CriImage {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: bigint;
  username: string;
  spec?: ImageSpec;
  pinned: boolean;
}

const int64 = z.union([z.string(), z.number()]).transform((v) => BigInt(v));
const labels = z.record(z.string(), z.string());
/** A nested message: null (unset) reads as undefined. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const imageSpec: z.ZodType<ImageSpec> = z
  .object({
    image: z.string(),
    annotations: labels.optional(),
    userSpecifiedImage: z.string().optional(),
    runtimeHandler: z.string().optional(),
    imageRef: z.string().optional(),
  })
  .transform(({ image, annotations, userSpecifiedImage, runtimeHandler, imageRef }) => {
    // Only what the runtime filled in: other runtimes and v1alpha2 leave these empty.
    const spec: ImageSpec = { image };
    if (annotations && Object.keys(annotations).length > 0) spec.annotations = annotations;
    if (userSpecifiedImage) spec.userSpecifiedImage = userSpecifiedImage;
    if (runtimeHandler) spec.runtimeHandler = runtimeHandler;
    if (imageRef) spec.imageRef = imageRef;
    return spec;
  });

const versionResponse: z.ZodType<VersionResponse> = z.object({
  version: z.string(),
  runtimeName: z.string(),
  runtimeVersion: z.string(),
  runtimeApiVersion: z.string(),
});

const container: z.ZodType<CriContainer> = z.object({
  id: z.string(),
  podSandboxId: z.string(),
  metadata: optional(z.object({ name: z.string(), attempt: z.number() })),
  image: optional(imageSpec),
  imageRef: z.string(),
  state: z.number(),
  createdAt: int64,
  labels,
  annotations: labels,
  imageId: z.string().default(''),
});

const podSandbox: z.ZodType<CriPodSandbox> = z.object({
  id: z.string(),
  metadata: optional(z.object({ name: z.string(), uid: z.string(), namespace: z.string(), attempt: z.number() })),
  state: z.number(),
  createdAt: int64,
  labels,
  annotations: labels,
  runtimeHandler: z.string(),
});

const image: z.ZodType<CriImage> = z.object({
  id: z.string(),
  repoTags: z.array(z.string()),
  repoDigests: z.array(z.string()),
  size: int64,
  username: z.string(),
  spec: optional(imageSpec),
  pinned: z.boolean().default(false),
});

/** ContainerFilter; `state` (an index into CONTAINER_STATES) present means "filter on it" (0 = created is a real value). */
export interface ContainerFilter {
  id?: string;
  state?: number;
  podSandboxId?: string;
  labelSelector?: Record<string, string>;
}

/** PodSandboxFilter; `state` (an index into SANDBOX_STATES) present means "filter on it". */
export interface PodSandboxFilter {
  id?: string;
  state?: number;
  labelSelector?: Record<string, string>;
}

/** The filter as the request message: the state rides in a wrapper message (ContainerStateValue). */
function filterMessage(filter: ContainerFilter | PodSandboxFilter | undefined): object {
  if (!filter) return {};
  const { state, ...rest } = filter;
  return { filter: { ...rest, ...(state === undefined ? {} : { state: { state } }) } };
}

// ---------------------------------------------------------------------------------------------
// Loading grpc-js and the protos, once and only when needed.

/** The vendored api.proto of an API version; from src/probes/ (tsx) and dist/probes/ (tsc) alike. */
export function criProtoPath(version: CriApiVersion): string {
  return fileURLToPath(new URL(`../../vendor/cri-api/runtime/${version}/api.proto`, import.meta.url));
}

const LOADER_OPTIONS: LoaderOptions = { keepCase: false, longs: String, enums: Number, defaults: true, arrays: true, objects: true };

let grpcModule: Promise<typeof Grpc> | undefined;
const packages = new Map<CriApiVersion, Promise<PackageDefinition>>();

function loadGrpc(): Promise<typeof Grpc> {
  grpcModule ??= import('@grpc/grpc-js');
  return grpcModule;
}

function loadPackage(version: CriApiVersion): Promise<PackageDefinition> {
  let loaded = packages.get(version);
  if (!loaded) {
    loaded = import('@grpc/proto-loader').then((loader) => loader.loadSync(criProtoPath(version), LOADER_OPTIONS));
    // A failed load (a missing file) is not remembered: the next call says why again.
    loaded.catch(() => packages.delete(version));
    packages.set(version, loaded);
  }
  return loaded;
}

type Service = 'RuntimeService' | 'ImageService';

async function methodOf(version: CriApiVersion, service: Service, method: string): Promise<MethodDefinition<object, object>> {
  const definition = (await loadPackage(version))[`runtime.${version}.${service}`];
  // Messages and enums carry a `format`; a service is its methods.
  const found = definition && !('format' in definition) ? definition[method] : undefined;
  if (!found) throw new Error(`runtime.${version}.${service}/${method} is not in the vendored api.proto`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Calls and their outcomes.

/** Why a call gave no message: the runtime's gRPC status, no answer in time, no socket, or a broken reply. */
export type CriFailure =
  | { kind: 'status'; code: number; message: string }
  | { kind: 'timeout'; message: string }
  | { kind: 'unreachable'; message: string }
  | { kind: 'failed'; message: string };

export type CriResult<T> = { ok: true; value: T } | ({ ok: false } & CriFailure);

export function describeFailure(f: CriFailure): string {
  return f.kind === 'status' ? `${grpcStatusName(f.code)}: ${f.message}` : f.message;
}

/** Connect errors that mean "no runtime here" (try the next socket), as opposed to a broken one. */
const ABSENT_ERRNO = /\b(ENOENT|ECONNREFUSED|ENOTSOCK|ENOTDIR)\b/;
/**
 * Statuses grpc-js makes up on this side (its wording, 1.14): no connection, a reply that is not
 * gRPC, a broken stream or message. The runtime said nothing, so they are not its status.
 */
const CLIENT_SIDE = new RegExp(
  `^(${[
    'Received HTTP status code',
    'Received RST_STREAM',
    'Connection dropped',
    'Stream refused by server',
    'Call cancelled',
    'Channel closed before call started',
    'Failed to start HTTP/2 stream',
    'Write (error|failed)',
    'No status information received',
    'No message received',
    'Too many responses received',
    'Response message parsing error',
    'Request message serialization failure',
    'Received message (larger than max|that decompresses)',
    'Failed to decompress',
  ].join('|')})`,
);

interface CallContext {
  socketPath: string;
  path: string;
  timeoutMs: number;
}

/** A grpc-js error as a CriFailure. DEADLINE_EXCEEDED is ours even when the runtime sends it: it obeys our grpc-timeout. */
function failureOf(err: { code: number; details: string }, ctx: CallContext): CriFailure {
  if (err.code === GRPC_STATUS.DEADLINE_EXCEEDED) return { kind: 'timeout', message: `${ctx.path} did not answer within ${ctx.timeoutMs}ms` };
  const noConnection = /^No connection established\. Last error: (?:Error: )?(.*?)(?:\. Resolution note:.*)?$/s.exec(err.details);
  if (noConnection) {
    const why = noConnection[1] ?? err.details;
    return ABSENT_ERRNO.test(why) ? { kind: 'unreachable', message: `${ctx.socketPath}: ${why}` } : { kind: 'failed', message: `${ctx.path}: ${why}` };
  }
  if (CLIENT_SIDE.test(err.details)) return { kind: 'failed', message: `${ctx.path}: ${err.details}` };
  return { kind: 'status', code: err.code, message: err.details || grpcStatusName(err.code) };
}

function unary(client: Grpc.Client, grpc: typeof Grpc, method: MethodDefinition<object, object>, request: object, timeoutMs: number) {
  return new Promise<{ ok: true; reply: unknown } | { ok: false; error: Grpc.ServiceError }>((resolve) => {
    client.makeUnaryRequest(
      method.path,
      method.requestSerialize,
      method.responseDeserialize,
      request,
      new grpc.Metadata(),
      { deadline: Date.now() + timeoutMs },
      (error, reply) => resolve(error ? { ok: false, error } : { ok: true, reply }),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// The client.

export interface CriClientOptions {
  socketPath: string;
  /** Time limit of one call (ms, default 30 s); PullImage takes its own. */
  timeoutMs?: number;
  /** Largest reply accepted (default 16 MiB, kubelet's own limit). */
  maxBytes?: number;
  /** Skip the v1 → v1alpha2 discovery. */
  apiVersion?: CriApiVersion;
}

/** What kubelet sends in VersionRequest.version. */
const KUBELET_API_VERSION = '0.1.0';

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

export class CriClient {
  readonly socketPath: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private version: CriApiVersion | undefined;

  constructor(options: CriClientOptions) {
    this.socketPath = options.socketPath;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.version = options.apiVersion;
  }

  /** The API version that answered (undefined before the first answer). */
  get apiVersion(): CriApiVersion | undefined {
    return this.version;
  }

  private channelOptions(): Grpc.ChannelOptions {
    return {
      // Its own connection per call, none kept between calls (nor their reconnect backoff).
      'grpc.use_local_subchannel_pool': 1,
      'grpc.enable_retries': 0,
      'grpc.max_receive_message_length': this.maxBytes,
      'grpc.primary_user_agent': 'pod-doctor-agent',
    };
  }

  private async call<T>(service: Service, method: string, request: object, reply: z.ZodType<T>, timeoutMs = this.timeoutMs): Promise<CriResult<T>> {
    let grpc: typeof Grpc;
    try {
      grpc = await loadGrpc();
    } catch (err) {
      return { ok: false, kind: 'failed', message: `${method}: cannot load @grpc/grpc-js: ${err instanceof Error ? err.message : String(err)}` };
    }
    const target = this.socketPath.startsWith('/') ? `unix://${this.socketPath}` : `unix:${this.socketPath}`;
    const client = new grpc.Client(target, grpc.credentials.createInsecure(), this.channelOptions());
    try {
      let failure: CriFailure = { kind: 'failed', message: 'no API version to try' };
      for (const version of this.version ? [this.version] : CRI_API_VERSIONS) {
        const path = `/runtime.${version}.${service}/${method}`;
        let definition: MethodDefinition<object, object>;
        try {
          definition = await methodOf(version, service, method);
        } catch (err) {
          return { ok: false, kind: 'failed', message: `${path}: ${err instanceof Error ? err.message : String(err)}` };
        }
        const outcome = await unary(client, grpc, definition, request, timeoutMs);
        if (outcome.ok) {
          this.version = version;
          const parsed = reply.safeParse(outcome.reply);
          if (parsed.success) return { ok: true, value: parsed.data };
          return { ok: false, kind: 'failed', message: `${path}: unexpected reply: ${z.prettifyError(parsed.error)}` };
        }
        failure = failureOf(outcome.error, { socketPath: this.socketPath, path, timeoutMs });
        if (failure.kind === 'status' && failure.code === GRPC_STATUS.UNIMPLEMENTED && !this.version) continue;
        // Any other gRPC answer proves the service exists at this version.
        if (failure.kind === 'status') this.version = version;
        break;
      }
      return { ok: false, ...failure };
    } finally {
      client.close();
    }
  }

  getVersion(): Promise<CriResult<VersionResponse>> {
    return this.call('RuntimeService', 'Version', { version: KUBELET_API_VERSION }, versionResponse);
  }

  async listContainers(filter?: ContainerFilter): Promise<CriResult<CriContainer[]>> {
    const r = await this.call('RuntimeService', 'ListContainers', filterMessage(filter), z.object({ containers: z.array(container) }));
    return r.ok ? { ok: true, value: r.value.containers } : r;
  }

  async listPodSandbox(filter?: PodSandboxFilter): Promise<CriResult<CriPodSandbox[]>> {
    const r = await this.call('RuntimeService', 'ListPodSandbox', filterMessage(filter), z.object({ items: z.array(podSandbox) }));
    return r.ok ? { ok: true, value: r.value.items } : r;
  }

  /** `timeoutSeconds` is the grace period before the runtime kills; the call may take that long. */
  stopContainer(containerId: string, timeoutSeconds: number): Promise<CriResult<Record<string, never>>> {
    return this.call('RuntimeService', 'StopContainer', { containerId, timeout: timeoutSeconds }, EMPTY, this.timeoutMs + timeoutSeconds * 1000);
  }

  removeContainer(containerId: string): Promise<CriResult<Record<string, never>>> {
    return this.call('RuntimeService', 'RemoveContainer', { containerId }, EMPTY);
  }

  stopPodSandbox(podSandboxId: string): Promise<CriResult<Record<string, never>>> {
    return this.call('RuntimeService', 'StopPodSandbox', { podSandboxId }, EMPTY);
  }

  removePodSandbox(podSandboxId: string): Promise<CriResult<Record<string, never>>> {
    return this.call('RuntimeService', 'RemovePodSandbox', { podSandboxId }, EMPTY);
  }

  /** `image` undefined: the image is not present. */
  async imageStatus(ref: string): Promise<CriResult<CriImage | undefined>> {
    const r = await this.call('ImageService', 'ImageStatus', { image: { image: ref } }, z.object({ image: optional(image) }));
    return r.ok ? { ok: true, value: r.value.image?.id ? r.value.image : undefined } : r;
  }

  /** The pulled image's reference (an id or digest). */
  async pullImage(ref: string, timeoutMs: number): Promise<CriResult<string>> {
    const r = await this.call('ImageService', 'PullImage', { image: { image: ref } }, z.object({ imageRef: z.string() }), timeoutMs);
    return r.ok ? { ok: true, value: r.value.imageRef } : r;
  }

  removeImage(ref: string): Promise<CriResult<Record<string, never>>> {
    return this.call('ImageService', 'RemoveImage', { image: { image: ref } }, EMPTY);
  }
}

/** The empty replies (StopContainer, RemoveContainer, StopPodSandbox, RemovePodSandbox, RemoveImage). */
const EMPTY = z.object({}).transform((): Record<string, never> => ({}));
