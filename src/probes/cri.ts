// A minimal CRI client for the agent's runtime actions: gRPC unary calls over HTTP/2 on the
// runtime's unix socket (containerd, CRI-O), with the dozen protobuf messages the actions need
// encoded by hand. Why not @grpc/grpc-js + generated code: the agent image stays free of native
// and generated dependencies, and the subset is small and stable (runtime.v1 and v1alpha2 share
// every field number used here; checked against kubernetes/cri-api pkg/apis/runtime/v1/api.proto).
//
// Every call has a hard timeout and its own HTTP/2 session, closed when the call settles: a
// runtime that accepts the connection and never answers gives a `timeout` result, never a hang.
// The first call tries `runtime.v1`; on UNIMPLEMENTED it tries `runtime.v1alpha2` once, and the
// client remembers whichever service answered (containerd 1.6 serves both, 1.5 only v1alpha2).
import { type ClientHttp2Session, connect as http2Connect, type IncomingHttpHeaders } from 'node:http2';
import { connect as netConnect } from 'node:net';

// ---------------------------------------------------------------------------------------------
// Protobuf wire format (proto3): varints, length-delimited fields, nested messages, maps.

/** Bytes that are not a valid protobuf message (or not the one expected). */
export class ProtoDecodeError extends Error {
  readonly code = 'PROTO_DECODE';
  constructor(message: string) {
    super(message);
    this.name = 'ProtoDecodeError';
  }
}

export type WireField = { no: number; wire: 0; value: bigint } | { no: number; wire: 1 | 2 | 5; value: Buffer };

function readVarint(buf: Buffer, start: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let pos = start;
  for (let i = 0; i < 10; i++) {
    const b = buf[pos++];
    if (b === undefined) throw new ProtoDecodeError('truncated varint');
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [BigInt.asUintN(64, result), pos];
    shift += 7n;
  }
  throw new ProtoDecodeError('varint longer than 10 bytes');
}

/** Split a message into its fields, in wire order. Fixed-width fields are kept as raw bytes. */
export function decodeFields(bytes: Uint8Array): WireField[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: WireField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, afterKey] = readVarint(buf, pos);
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (no === 0) throw new ProtoDecodeError('field number 0');
    pos = afterKey;
    if (wire === 0) {
      const [value, next] = readVarint(buf, pos);
      out.push({ no, wire: 0, value });
      pos = next;
      continue;
    }
    let len: number;
    if (wire === 1) len = 8;
    else if (wire === 5) len = 4;
    else if (wire === 2) {
      const [n, next] = readVarint(buf, pos);
      if (n > BigInt(buf.length - next)) throw new ProtoDecodeError(`field ${no}: length ${n} beyond the message`);
      len = Number(n);
      pos = next;
    } else throw new ProtoDecodeError(`field ${no}: unsupported wire type ${wire}`);
    if (pos + len > buf.length) throw new ProtoDecodeError(`field ${no}: truncated`);
    out.push({ no, wire, value: buf.subarray(pos, pos + len) });
    pos += len;
  }
  return out;
}

/** Typed reads over a decoded message. Absent fields read as proto3 defaults; unknown ones are ignored. */
export class ProtoReader {
  constructor(readonly fields: WireField[]) {}

  static decode(bytes: Uint8Array): ProtoReader {
    return new ProtoReader(decodeFields(bytes));
  }

  private bytesOf(no: number): Buffer[] {
    const out: Buffer[] = [];
    for (const f of this.fields) if (f.no === no && f.wire === 2) out.push(f.value);
    return out;
  }

  /** Unsigned varint (last occurrence wins); 0 when absent. */
  uint(no: number): bigint {
    let v = 0n;
    for (const f of this.fields) if (f.no === no && f.wire === 0) v = f.value;
    return v;
  }

  /** int64 as a signed value. */
  int64(no: number): bigint {
    return BigInt.asIntN(64, this.uint(no));
  }

  /** uint32 / enum / bool as a number. */
  num(no: number): number {
    return Number(BigInt.asUintN(32, this.uint(no)));
  }

  bool(no: number): boolean {
    return this.uint(no) !== 0n;
  }

  string(no: number): string {
    return this.bytesOf(no).at(-1)?.toString('utf8') ?? '';
  }

  strings(no: number): string[] {
    return this.bytesOf(no).map((b) => b.toString('utf8'));
  }

  /** A nested message; several occurrences merge, as protobuf specifies. */
  message(no: number): ProtoReader | undefined {
    const parts = this.bytesOf(no);
    if (parts.length === 0) return undefined;
    return new ProtoReader(parts.flatMap((p) => decodeFields(p)));
  }

  messages(no: number): ProtoReader[] {
    return this.bytesOf(no).map((b) => ProtoReader.decode(b));
  }

  /** `map<string, string>`: repeated entry messages with key = 1, value = 2. */
  map(no: number): Record<string, string> {
    const out: Record<string, string> = {};
    for (const entry of this.messages(no)) out[entry.string(1)] = entry.string(2);
    return out;
  }
}

function varintBytes(value: bigint): Buffer {
  let v = BigInt.asUintN(64, value);
  const bytes: number[] = [];
  while (v >= 0x80n) {
    bytes.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  bytes.push(Number(v));
  return Buffer.from(bytes);
}

/** Builds a message. Scalars equal to their proto3 default are left out, like protoc's encoders. */
export class ProtoWriter {
  private readonly parts: Buffer[] = [];

  private key(no: number, wire: number): void {
    this.parts.push(varintBytes(BigInt(no) * 8n + BigInt(wire)));
  }

  /** Any varint: uint32, uint64, enum, bool; negative int64 as its two's complement. */
  varint(no: number, value: number | bigint | boolean): this {
    const v = typeof value === 'boolean' ? (value ? 1n : 0n) : BigInt(value);
    if (v === 0n) return this;
    this.key(no, 0);
    this.parts.push(varintBytes(v));
    return this;
  }

  string(no: number, value: string | undefined): this {
    if (!value) return this;
    return this.bytes(no, Buffer.from(value, 'utf8'));
  }

  strings(no: number, values: readonly string[] | undefined): this {
    for (const v of values ?? []) this.bytes(no, Buffer.from(v, 'utf8'));
    return this;
  }

  /** A length-delimited field, written even when empty (a present, empty nested message). */
  bytes(no: number, value: Uint8Array): this {
    this.key(no, 2);
    this.parts.push(varintBytes(BigInt(value.byteLength)), Buffer.from(value));
    return this;
  }

  message(no: number, value: ProtoWriter | undefined): this {
    return value ? this.bytes(no, value.finish()) : this;
  }

  map(no: number, value: Record<string, string> | undefined): this {
    for (const [k, v] of Object.entries(value ?? {})) {
      // Entries carry key and value even when empty, as the reference encoders do.
      this.bytes(no, new ProtoWriter().bytes(1, Buffer.from(k, 'utf8')).bytes(2, Buffer.from(v, 'utf8')).finish());
    }
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

// ---------------------------------------------------------------------------------------------
// The CRI messages the agent uses (field numbers from k8s.io/cri-api runtime/v1/api.proto).

export interface MessageCodec<T> {
  write(w: ProtoWriter, value: T): void;
  read(r: ProtoReader): T;
}

export interface Codec<T> {
  encode(value: T): Buffer;
  decode(bytes: Uint8Array): T;
}

function codec<T>(m: MessageCodec<T>): Codec<T> & MessageCodec<T> {
  return {
    ...m,
    encode(value) {
      const w = new ProtoWriter();
      m.write(w, value);
      return w.finish();
    },
    decode(bytes) {
      return m.read(ProtoReader.decode(bytes));
    },
  };
}

function sub<T>(m: MessageCodec<T>, value: T | undefined): ProtoWriter | undefined {
  if (value === undefined) return undefined;
  const w = new ProtoWriter();
  m.write(w, value);
  return w;
}

function readSub<T>(m: MessageCodec<T>, r: ProtoReader | undefined): T | undefined {
  return r ? m.read(r) : undefined;
}

export type CriApiVersion = 'v1' | 'v1alpha2';
export const CRI_API_VERSIONS: readonly CriApiVersion[] = ['v1', 'v1alpha2'];

/** ContainerState enum: CONTAINER_CREATED = 0, RUNNING = 1, EXITED = 2, UNKNOWN = 3. */
export const CONTAINER_STATES = ['created', 'running', 'exited', 'unknown'] as const;
/** PodSandboxState enum: SANDBOX_READY = 0, SANDBOX_NOTREADY = 1. */
export const SANDBOX_STATES = ['ready', 'notready'] as const;

/** VersionRequest { string version = 1 } */
export interface VersionRequest {
  version: string;
}
export const VersionRequest = codec<VersionRequest>({
  write: (w, v) => void w.string(1, v.version),
  read: (r) => ({ version: r.string(1) }),
});

/** VersionResponse { version = 1; runtime_name = 2; runtime_version = 3; runtime_api_version = 4 } */
export interface VersionResponse {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}
export const VersionResponse = codec<VersionResponse>({
  write: (w, v) => void w.string(1, v.version).string(2, v.runtimeName).string(3, v.runtimeVersion).string(4, v.runtimeApiVersion),
  read: (r) => ({ version: r.string(1), runtimeName: r.string(2), runtimeVersion: r.string(3), runtimeApiVersion: r.string(4) }),
});

/** ImageSpec { image = 1; map annotations = 2; user_specified_image = 18; runtime_handler = 19; image_ref = 20 } (18-20: v1 only). */
export interface ImageSpec {
  image: string;
  annotations?: Record<string, string>;
  /** The image as written in the pod spec (set by kubelets that know the field). */
  userSpecifiedImage?: string;
  runtimeHandler?: string;
  imageRef?: string;
}
export const ImageSpec = codec<ImageSpec>({
  write: (w, v) => void w.string(1, v.image).map(2, v.annotations).string(18, v.userSpecifiedImage).string(19, v.runtimeHandler).string(20, v.imageRef),
  read: (r) => {
    const out: ImageSpec = { image: r.string(1) };
    const annotations = r.map(2);
    if (Object.keys(annotations).length > 0) out.annotations = annotations;
    if (r.string(18)) out.userSpecifiedImage = r.string(18);
    if (r.string(19)) out.runtimeHandler = r.string(19);
    if (r.string(20)) out.imageRef = r.string(20);
    return out;
  },
});

/** ContainerFilter { id = 1; ContainerStateValue state = 2 { state = 1 }; pod_sandbox_id = 3; map label_selector = 4 } */
export interface ContainerFilter {
  id?: string;
  /** Index into CONTAINER_STATES; present means "filter on it" (0 = created is a real value). */
  state?: number;
  podSandboxId?: string;
  labelSelector?: Record<string, string>;
}
export const ContainerFilter = codec<ContainerFilter>({
  write: (w, v) => {
    w.string(1, v.id);
    if (v.state !== undefined) w.message(2, new ProtoWriter().varint(1, v.state));
    w.string(3, v.podSandboxId).map(4, v.labelSelector);
  },
  read: (r) => {
    const out: ContainerFilter = {};
    if (r.string(1)) out.id = r.string(1);
    const state = r.message(2);
    if (state) out.state = state.num(1);
    if (r.string(3)) out.podSandboxId = r.string(3);
    const labels = r.map(4);
    if (Object.keys(labels).length > 0) out.labelSelector = labels;
    return out;
  },
});

/** ListContainersRequest { ContainerFilter filter = 1 } */
export interface ListContainersRequest {
  filter?: ContainerFilter;
}
export const ListContainersRequest = codec<ListContainersRequest>({
  write: (w, v) => void w.message(1, sub(ContainerFilter, v.filter)),
  read: (r) => {
    const filter = readSub(ContainerFilter, r.message(1));
    return filter ? { filter } : {};
  },
});

/**
 * Container { id = 1; pod_sandbox_id = 2; ContainerMetadata metadata = 3 { name = 1; uint32 attempt = 2 };
 * ImageSpec image = 4; image_ref = 5; ContainerState state = 6; int64 created_at = 7;
 * map labels = 8; map annotations = 9; image_id = 10 (v1 only) }
 */
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
  imageId: string;
}
const ContainerMetadata: MessageCodec<{ name: string; attempt: number }> = {
  write: (w, v) => void w.string(1, v.name).varint(2, v.attempt),
  read: (r) => ({ name: r.string(1), attempt: r.num(2) }),
};
export const CriContainer = codec<CriContainer>({
  write: (w, v) =>
    void w
      .string(1, v.id)
      .string(2, v.podSandboxId)
      .message(3, sub(ContainerMetadata, v.metadata))
      .message(4, sub(ImageSpec, v.image))
      .string(5, v.imageRef)
      .varint(6, v.state)
      .varint(7, v.createdAt)
      .map(8, v.labels)
      .map(9, v.annotations)
      .string(10, v.imageId),
  read: (r) => {
    const out: CriContainer = {
      id: r.string(1),
      podSandboxId: r.string(2),
      imageRef: r.string(5),
      state: r.num(6),
      createdAt: r.int64(7),
      labels: r.map(8),
      annotations: r.map(9),
      imageId: r.string(10),
    };
    const metadata = readSub(ContainerMetadata, r.message(3));
    if (metadata) out.metadata = metadata;
    const image = readSub(ImageSpec, r.message(4));
    if (image) out.image = image;
    return out;
  },
});

/** ListContainersResponse { repeated Container containers = 1 } */
export interface ListContainersResponse {
  containers: CriContainer[];
}
export const ListContainersResponse = codec<ListContainersResponse>({
  write: (w, v) => {
    for (const c of v.containers) w.message(1, sub(CriContainer, c));
  },
  read: (r) => ({ containers: r.messages(1).map((m) => CriContainer.read(m)) }),
});

/** PodSandboxFilter { id = 1; PodSandboxStateValue state = 2 { state = 1 }; map label_selector = 3 } */
export interface PodSandboxFilter {
  id?: string;
  /** Index into SANDBOX_STATES; present means "filter on it". */
  state?: number;
  labelSelector?: Record<string, string>;
}
export const PodSandboxFilter = codec<PodSandboxFilter>({
  write: (w, v) => {
    w.string(1, v.id);
    if (v.state !== undefined) w.message(2, new ProtoWriter().varint(1, v.state));
    w.map(3, v.labelSelector);
  },
  read: (r) => {
    const out: PodSandboxFilter = {};
    if (r.string(1)) out.id = r.string(1);
    const state = r.message(2);
    if (state) out.state = state.num(1);
    const labels = r.map(3);
    if (Object.keys(labels).length > 0) out.labelSelector = labels;
    return out;
  },
});

/** ListPodSandboxRequest { PodSandboxFilter filter = 1 } */
export interface ListPodSandboxRequest {
  filter?: PodSandboxFilter;
}
export const ListPodSandboxRequest = codec<ListPodSandboxRequest>({
  write: (w, v) => void w.message(1, sub(PodSandboxFilter, v.filter)),
  read: (r) => {
    const filter = readSub(PodSandboxFilter, r.message(1));
    return filter ? { filter } : {};
  },
});

/**
 * PodSandbox { id = 1; PodSandboxMetadata metadata = 2 { name = 1; uid = 2; namespace = 3; uint32 attempt = 4 };
 * PodSandboxState state = 3; int64 created_at = 4; map labels = 5; map annotations = 6; runtime_handler = 7 }
 */
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
const PodSandboxMetadata: MessageCodec<{ name: string; uid: string; namespace: string; attempt: number }> = {
  write: (w, v) => void w.string(1, v.name).string(2, v.uid).string(3, v.namespace).varint(4, v.attempt),
  read: (r) => ({ name: r.string(1), uid: r.string(2), namespace: r.string(3), attempt: r.num(4) }),
};
export const CriPodSandbox = codec<CriPodSandbox>({
  write: (w, v) =>
    void w
      .string(1, v.id)
      .message(2, sub(PodSandboxMetadata, v.metadata))
      .varint(3, v.state)
      .varint(4, v.createdAt)
      .map(5, v.labels)
      .map(6, v.annotations)
      .string(7, v.runtimeHandler),
  read: (r) => {
    const out: CriPodSandbox = {
      id: r.string(1),
      state: r.num(3),
      createdAt: r.int64(4),
      labels: r.map(5),
      annotations: r.map(6),
      runtimeHandler: r.string(7),
    };
    const metadata = readSub(PodSandboxMetadata, r.message(2));
    if (metadata) out.metadata = metadata;
    return out;
  },
});

/** ListPodSandboxResponse { repeated PodSandbox items = 1 } */
export interface ListPodSandboxResponse {
  items: CriPodSandbox[];
}
export const ListPodSandboxResponse = codec<ListPodSandboxResponse>({
  write: (w, v) => {
    for (const s of v.items) w.message(1, sub(CriPodSandbox, s));
  },
  read: (r) => ({ items: r.messages(1).map((m) => CriPodSandbox.read(m)) }),
});

/** StopContainerRequest { container_id = 1; int64 timeout = 2 (seconds) } */
export interface StopContainerRequest {
  containerId: string;
  timeout: number;
}
export const StopContainerRequest = codec<StopContainerRequest>({
  write: (w, v) => void w.string(1, v.containerId).varint(2, v.timeout),
  read: (r) => ({ containerId: r.string(1), timeout: Number(r.int64(2)) }),
});

/** RemoveContainerRequest { container_id = 1 } */
export interface RemoveContainerRequest {
  containerId: string;
}
export const RemoveContainerRequest = codec<RemoveContainerRequest>({
  write: (w, v) => void w.string(1, v.containerId),
  read: (r) => ({ containerId: r.string(1) }),
});

/** StopPodSandboxRequest and RemovePodSandboxRequest { pod_sandbox_id = 1 } */
export interface PodSandboxIdRequest {
  podSandboxId: string;
}
export const PodSandboxIdRequest = codec<PodSandboxIdRequest>({
  write: (w, v) => void w.string(1, v.podSandboxId),
  read: (r) => ({ podSandboxId: r.string(1) }),
});

/** RemoveImageRequest and PullImageRequest { ImageSpec image = 1 } (PullImage's auth = 2 and sandbox_config = 3 are not sent). */
export interface ImageRequest {
  image: ImageSpec;
}
export const ImageRequest = codec<ImageRequest>({
  write: (w, v) => void w.message(1, sub(ImageSpec, v.image)),
  read: (r) => ({ image: readSub(ImageSpec, r.message(1)) ?? { image: '' } }),
});

/** PullImageResponse { image_ref = 1 } */
export interface PullImageResponse {
  imageRef: string;
}
export const PullImageResponse = codec<PullImageResponse>({
  write: (w, v) => void w.string(1, v.imageRef),
  read: (r) => ({ imageRef: r.string(1) }),
});

/** ImageStatusRequest { ImageSpec image = 1; bool verbose = 2 } */
export interface ImageStatusRequest {
  image: ImageSpec;
  verbose?: boolean;
}
export const ImageStatusRequest = codec<ImageStatusRequest>({
  write: (w, v) => void w.message(1, sub(ImageSpec, v.image)).varint(2, v.verbose ?? false),
  read: (r) => ({ image: readSub(ImageSpec, r.message(1)) ?? { image: '' }, verbose: r.bool(2) }),
});

/** Image { id = 1; repeated repo_tags = 2; repeated repo_digests = 3; uint64 size = 4; (uid = 5 skipped) username = 6; ImageSpec spec = 7; bool pinned = 8 } */
export interface CriImage {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: bigint;
  username: string;
  spec?: ImageSpec;
  pinned: boolean;
}
export const CriImage = codec<CriImage>({
  write: (w, v) =>
    void w
      .string(1, v.id)
      .strings(2, v.repoTags)
      .strings(3, v.repoDigests)
      .varint(4, v.size)
      .string(6, v.username)
      .message(7, sub(ImageSpec, v.spec))
      .varint(8, v.pinned),
  read: (r) => {
    const out: CriImage = { id: r.string(1), repoTags: r.strings(2), repoDigests: r.strings(3), size: r.uint(4), username: r.string(6), pinned: r.bool(8) };
    const spec = readSub(ImageSpec, r.message(7));
    if (spec) out.spec = spec;
    return out;
  },
});

/** ImageStatusResponse { Image image = 1 (unset: not present); map info = 2 } */
export interface ImageStatusResponse {
  image?: CriImage;
}
export const ImageStatusResponse = codec<ImageStatusResponse>({
  write: (w, v) => void w.message(1, sub(CriImage, v.image)),
  read: (r) => {
    const image = readSub(CriImage, r.message(1));
    return image ? { image } : {};
  },
});

/** The empty responses (StopContainer, RemoveContainer, StopPodSandbox, RemovePodSandbox, RemoveImage). */
export const Empty = codec<Record<string, never>>({
  write: () => undefined,
  read: () => ({}),
});

// ---------------------------------------------------------------------------------------------
// gRPC unary calls over HTTP/2 on a unix socket.

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

/** Why a call gave no message: the runtime's gRPC status, no answer in time, no socket, or a broken reply. */
export type CriFailure =
  | { kind: 'status'; code: number; message: string }
  | { kind: 'timeout'; message: string }
  | { kind: 'unreachable'; message: string }
  | { kind: 'failed'; message: string };

export type GrpcOutcome = { kind: 'ok'; message: Buffer } | CriFailure;

/** One gRPC message frame: compression flag 0, 4-byte big-endian length, the message. */
export function grpcFrame(message: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(0, 0);
  head.writeUInt32BE(message.byteLength, 1);
  return Buffer.concat([head, message]);
}

/** The messages in a gRPC body (unary replies carry one). */
export function grpcUnframe(body: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < body.length) {
    if (pos + 5 > body.length) throw new ProtoDecodeError('truncated gRPC frame header');
    const compressed = body.readUInt8(pos);
    const len = body.readUInt32BE(pos + 1);
    if (compressed !== 0) throw new ProtoDecodeError('compressed gRPC message (none was asked for)');
    if (pos + 5 + len > body.length) throw new ProtoDecodeError('truncated gRPC message');
    out.push(body.subarray(pos + 5, pos + 5 + len));
    pos += 5 + len;
  }
  return out;
}

function headerText(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

function grpcMessageText(raw: string | undefined): string {
  if (!raw) return '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Connect errors that mean "no runtime here" (try the next socket), as opposed to a broken one. */
const ABSENT_ERRNO = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR']);

export interface GrpcCallOptions {
  timeoutMs: number;
  /** Largest reply body accepted (default 16 MiB, kubelet's own limit). */
  maxBytes?: number;
}

/** One unary call: POST `path` with `request`, resolve with the reply message or why there is none. Never rejects. */
export function grpcUnary(socketPath: string, path: string, request: Uint8Array, options: GrpcCallOptions): Promise<GrpcOutcome> {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  return new Promise((resolve) => {
    let settled = false;
    let session: ClientHttp2Session | undefined;
    const finish = (outcome: GrpcOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (outcome.kind === 'ok' || outcome.kind === 'status') session?.close();
      else session?.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout', message: `${path} did not answer within ${options.timeoutMs}ms` }), options.timeoutMs);

    // A failed connect cancels the pending stream first; the socket's errno is in its cause.
    const onError = (err: NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException }) => {
      const errno = err.cause?.code ?? err.code;
      const why = err.cause?.message ?? err.message;
      finish(errno && ABSENT_ERRNO.has(errno) ? { kind: 'unreachable', message: `${socketPath}: ${why}` } : { kind: 'failed', message: `${path}: ${why}` });
    };
    session = http2Connect('http://localhost', { createConnection: () => netConnect(socketPath) });
    session.on('error', onError);
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
      // The runtime stops working on the call when we stop waiting (at most 8 digits).
      'grpc-timeout': `${Math.min(options.timeoutMs, 99_999_999)}m`,
      'user-agent': 'pod-doctor-agent',
    });
    let httpStatus = 0;
    let contentType = '';
    let grpcStatus: string | undefined;
    let grpcMessage: string | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const takeStatus = (h: IncomingHttpHeaders) => {
      const s = headerText(h, 'grpc-status');
      if (s !== undefined) {
        grpcStatus = s;
        grpcMessage = headerText(h, 'grpc-message');
      }
    };
    stream.on('response', (h) => {
      httpStatus = Number(h[':status'] ?? 0);
      contentType = headerText(h, 'content-type') ?? '';
      takeStatus(h); // trailers-only replies carry the status in the headers
    });
    stream.on('trailers', takeStatus);
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) return finish({ kind: 'failed', message: `${path}: reply larger than ${maxBytes} bytes` });
      chunks.push(c);
    });
    stream.on('error', onError);
    const evaluate = () => {
      if (grpcStatus === undefined) {
        const why = httpStatus === 0 ? 'the stream closed without a reply' : httpStatus !== 200 ? `HTTP ${httpStatus}` : 'no grpc-status in the reply';
        return finish({ kind: 'failed', message: `${path}: ${why}` });
      }
      const code = Number(grpcStatus);
      if (!Number.isInteger(code)) return finish({ kind: 'failed', message: `${path}: bad grpc-status ${grpcStatus}` });
      if (code !== GRPC_STATUS.OK) return finish({ kind: 'status', code, message: grpcMessageText(grpcMessage) || grpcStatusName(code) });
      if (!contentType.startsWith('application/grpc'))
        return finish({ kind: 'failed', message: `${path}: not a gRPC reply (content-type ${contentType || 'none'})` });
      try {
        const [message] = grpcUnframe(Buffer.concat(chunks));
        return finish({ kind: 'ok', message: message ?? Buffer.alloc(0) });
      } catch (err) {
        return finish({ kind: 'failed', message: `${path}: ${err instanceof Error ? err.message : String(err)}` });
      }
    };
    stream.on('end', evaluate);
    stream.on('close', evaluate);
    stream.end(grpcFrame(request));
  });
}

// ---------------------------------------------------------------------------------------------
// The client.

export type CriResult<T> = { ok: true; value: T } | ({ ok: false } & CriFailure);

export interface CriClientOptions {
  socketPath: string;
  /** Time limit of one call (ms, default 30 s); PullImage takes its own. */
  timeoutMs?: number;
  maxBytes?: number;
  /** Skip the v1 → v1alpha2 discovery. */
  apiVersion?: CriApiVersion;
}

type Service = 'RuntimeService' | 'ImageService';

/** What kubelet sends in VersionRequest.version. */
const KUBELET_API_VERSION = '0.1.0';

export function describeFailure(f: CriFailure): string {
  return f.kind === 'status' ? `${grpcStatusName(f.code)}: ${f.message}` : f.message;
}

export class CriClient {
  readonly socketPath: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number | undefined;
  private version: CriApiVersion | undefined;

  constructor(options: CriClientOptions) {
    this.socketPath = options.socketPath;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxBytes = options.maxBytes;
    this.version = options.apiVersion;
  }

  /** The API version that answered (undefined before the first answer). */
  get apiVersion(): CriApiVersion | undefined {
    return this.version;
  }

  private async call<Req, Res>(
    service: Service,
    method: string,
    req: Codec<Req>,
    value: Req,
    res: Codec<Res>,
    timeoutMs = this.timeoutMs,
  ): Promise<CriResult<Res>> {
    const body = req.encode(value);
    const versions = this.version ? [this.version] : CRI_API_VERSIONS;
    let outcome: GrpcOutcome = { kind: 'failed', message: 'no API version to try' };
    for (const version of versions) {
      outcome = await grpcUnary(this.socketPath, `/runtime.${version}.${service}/${method}`, body, {
        timeoutMs,
        ...(this.maxBytes ? { maxBytes: this.maxBytes } : {}),
      });
      if (outcome.kind === 'status' && outcome.code === GRPC_STATUS.UNIMPLEMENTED && !this.version) continue;
      // Any other gRPC answer proves the service exists at this version.
      if (outcome.kind === 'ok' || outcome.kind === 'status') this.version = version;
      break;
    }
    if (outcome.kind !== 'ok') return { ok: false, ...outcome };
    try {
      return { ok: true, value: res.decode(outcome.message) };
    } catch (err) {
      return { ok: false, kind: 'failed', message: `${method}: ${err instanceof Error ? err.message : String(err)}` };
    }
  }

  getVersion(): Promise<CriResult<VersionResponse>> {
    return this.call('RuntimeService', 'Version', VersionRequest, { version: KUBELET_API_VERSION }, VersionResponse);
  }

  async listContainers(filter?: ContainerFilter): Promise<CriResult<CriContainer[]>> {
    const r = await this.call('RuntimeService', 'ListContainers', ListContainersRequest, filter ? { filter } : {}, ListContainersResponse);
    return r.ok ? { ok: true, value: r.value.containers } : r;
  }

  async listPodSandbox(filter?: PodSandboxFilter): Promise<CriResult<CriPodSandbox[]>> {
    const r = await this.call('RuntimeService', 'ListPodSandbox', ListPodSandboxRequest, filter ? { filter } : {}, ListPodSandboxResponse);
    return r.ok ? { ok: true, value: r.value.items } : r;
  }

  /** `timeoutSeconds` is the grace period before the runtime kills; the call may take that long. */
  stopContainer(containerId: string, timeoutSeconds: number): Promise<CriResult<Record<string, never>>> {
    return this.call(
      'RuntimeService',
      'StopContainer',
      StopContainerRequest,
      { containerId, timeout: timeoutSeconds },
      Empty,
      this.timeoutMs + timeoutSeconds * 1000,
    );
  }

  removeContainer(containerId: string): Promise<CriResult<Record<string, never>>> {
    return this.call('RuntimeService', 'RemoveContainer', RemoveContainerRequest, { containerId }, Empty);
  }

  stopPodSandbox(podSandboxId: string): Promise<CriResult<Record<string, never>>> {
    return this.call('RuntimeService', 'StopPodSandbox', PodSandboxIdRequest, { podSandboxId }, Empty);
  }

  removePodSandbox(podSandboxId: string): Promise<CriResult<Record<string, never>>> {
    return this.call('RuntimeService', 'RemovePodSandbox', PodSandboxIdRequest, { podSandboxId }, Empty);
  }

  /** `image` undefined: the image is not present. */
  async imageStatus(image: string): Promise<CriResult<CriImage | undefined>> {
    const r = await this.call('ImageService', 'ImageStatus', ImageStatusRequest, { image: { image } }, ImageStatusResponse);
    return r.ok ? { ok: true, value: r.value.image?.id ? r.value.image : undefined } : r;
  }

  /** The pulled image's reference (an id or digest). */
  async pullImage(image: string, timeoutMs: number): Promise<CriResult<string>> {
    const r = await this.call('ImageService', 'PullImage', ImageRequest, { image: { image } }, PullImageResponse, timeoutMs);
    return r.ok ? { ok: true, value: r.value.imageRef } : r;
  }

  removeImage(image: string): Promise<CriResult<Record<string, never>>> {
    return this.call('ImageService', 'RemoveImage', ImageRequest, { image: { image } }, Empty);
  }
}
