// A stand-in OpenTelemetry collector: POST /v1/traces on loopback, OTLP/JSON (what
// @opentelemetry/exporter-trace-otlp-http sends: `Content-Type: application/json`, hex ids).
// Each request is checked against the parts of the OTLP schema read here; spans are flattened
// with their resource's attributes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

type Value = string | number | boolean | Value[] | undefined;

interface AnyValueShape {
  stringValue?: string | undefined;
  intValue?: string | number | undefined;
  doubleValue?: number | undefined;
  boolValue?: boolean | undefined;
  arrayValue?: { values?: AnyValueShape[] | undefined } | undefined;
}
const AnyValue: z.ZodType<AnyValueShape> = z.lazy(() =>
  z.object({
    stringValue: z.string().optional(),
    intValue: z.union([z.string(), z.number()]).optional(),
    doubleValue: z.number().optional(),
    boolValue: z.boolean().optional(),
    arrayValue: z.object({ values: z.array(AnyValue).optional() }).optional(),
  }),
);
const KeyValues = z.array(z.object({ key: z.string(), value: AnyValue })).default([]);
const Hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
const OtlpSpan = z.object({
  traceId: Hex(16),
  spanId: Hex(8),
  parentSpanId: z.union([Hex(8), z.literal('')]).optional(),
  name: z.string(),
  attributes: KeyValues,
  status: z.object({ code: z.number().optional() }).optional(),
});
const ExportRequest = z.object({
  resourceSpans: z.array(
    z.object({
      resource: z.object({ attributes: KeyValues }).optional(),
      scopeSpans: z.array(z.object({ spans: z.array(OtlpSpan).default([]) })).default([]),
    }),
  ),
});

function plainValue(v: AnyValueShape): Value {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(plainValue);
  return undefined;
}

const attributesOf = (kvs: { key: string; value: AnyValueShape }[]) => Object.fromEntries(kvs.map((kv) => [kv.key, plainValue(kv.value)]));

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** Undefined for a root span. */
  parentSpanId: string | undefined;
  attributes: Record<string, Value>;
  resource: Record<string, Value>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: number;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** Every request: its path, content type and raw body (to look for what must not be there). */
  requests: { path: string; contentType: string; body: string }[];
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const contentType = req.headers['content-type'] ?? '';
      requests.push({ path: req.url ?? '', contentType, body });
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !contentType.startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const parsed = ExportRequest.safeParse(JSON.parse(body));
      if (!parsed.success) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message: parsed.error.message }));
        return;
      }
      for (const rs of parsed.data.resourceSpans) {
        const resource = attributesOf(rs.resource?.attributes ?? []);
        for (const s of rs.scopeSpans.flatMap((ss) => ss.spans)) {
          spans.push({
            name: s.name,
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || undefined,
            attributes: attributesOf(s.attributes),
            resource,
            status: s.status?.code ?? 0,
          });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(spans)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`OTLP receiver: condition not met within ${timeoutMs} ms (${spans.map((s) => s.name).join(', ')})`);
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          };
          const timer = setTimeout(done, left);
          waiters.add(done);
        });
      }
      return spans;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
