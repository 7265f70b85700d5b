// A CRI runtime for the tests: a real grpc-js server on a unix socket in a temp dir, serving
// RuntimeService and ImageService of the same vendored api.proto the client reads. Every method
// goes to one handler, which answers with a reply, a gRPC status, or nothing at all (a hung runtime).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as loader from '@grpc/proto-loader';
import { type CriApiVersion, criProtoPath } from '../../src/probes/cri.js';

/** A reply message (bigints allowed), a status (sent after the response headers when `inTrailers`), or no answer. */
export type CriReply = { reply: object } | { status: number; message?: string; inTrailers?: boolean } | 'hang';

export interface CriCall {
  version: CriApiVersion;
  service: 'RuntimeService' | 'ImageService';
  method: string;
  /** The decoded request: only the fields the client set (int64 as numbers). */
  request: unknown;
}

export interface CriServer {
  socket: string;
  close(): Promise<void>;
}

/** int64 fields go out as decimal strings, which protobufjs accepts. */
function wire(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(wire);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wire(v)]));
  return value;
}

type Handler = (call: CriCall) => CriReply;

function implementation(version: CriApiVersion, service: CriCall['service'], methods: string[], handle: Handler): grpc.UntypedServiceImplementation {
  const entries = methods.map((method): [string, grpc.handleUnaryCall<unknown, unknown>] => [
    method,
    (call, callback) => {
      const answer = handle({ version, service, method, request: call.request });
      if (answer === 'hang') return;
      if ('reply' in answer) return callback(null, wire(answer.reply));
      if (answer.inTrailers) call.sendMetadata(new grpc.Metadata());
      callback({ code: answer.status, details: answer.message ?? '' });
    },
  ]);
  return Object.fromEntries(entries);
}

/** Serve `versions` (default both) of the CRI on a fresh socket; other versions are UNIMPLEMENTED, as grpc-js answers unknown services. */
export async function startCriServer(handle: Handler, options: { versions?: readonly CriApiVersion[] } = {}): Promise<CriServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pd-cri-'));
  const socket = join(dir, 'containerd.sock');
  const server = new grpc.Server();
  for (const version of options.versions ?? ['v1', 'v1alpha2']) {
    // Sparse decoding: a request reads as what the client put in it.
    const pkg = loader.loadSync(criProtoPath(version), { longs: Number, enums: Number, defaults: false });
    for (const service of ['RuntimeService', 'ImageService'] as const) {
      const definition = pkg[`runtime.${version}.${service}`] as grpc.ServiceDefinition;
      server.addService(definition, implementation(version, service, Object.keys(definition), handle));
    }
  }
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
  );
  return {
    socket,
    close: async () => {
      server.forceShutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
