// Spans along a diagnosis: alert or command → job → collect → rules → chat post. Only
// @opentelemetry/api is used here: with tracing off (no endpoint, start.ts loads no SDK) its
// tracer is a no-op and a span costs next to nothing. The W3C trace context crosses Redis inside
// the job data (bot → worker) and the result (worker → bot) as `trace.traceparent`.
//
// Attributes are identifiers only (cluster, target, job id, rule ids, counts): never tokens,
// chat text or error messages, which may quote what the cluster or a user wrote.
import { type Attributes, type Context, context, isSpanContextValid, ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { type Target, targetKey } from '../kube/target.js';
import { TRACEPARENT, TraceCarrier } from './carrier.js';

const TRACER = 'pod-doctor';

/** The active span's context as a carrier; undefined when nothing is traced (tracing off). */
export function currentTrace(): TraceCarrier | undefined {
  const sc = trace.getSpanContext(context.active());
  if (!sc || !isSpanContextValid(sc)) return undefined;
  return { traceparent: `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}` };
}

/**
 * The context to continue a carried trace in: `carrier` is read as it came (a result from the
 * stream is not validated); the root context when there is none or it is not valid.
 */
export function contextFrom(carrier: unknown): Context {
  const parsed = TraceCarrier.safeParse(carrier);
  const m = parsed.success ? TRACEPARENT.exec(parsed.data.traceparent) : null;
  if (!m) return ROOT_CONTEXT;
  const sc = { traceId: m[1]!, spanId: m[2]!, traceFlags: Number.parseInt(m[3]!, 16), isRemote: true };
  return isSpanContextValid(sc) ? trace.setSpanContext(ROOT_CONTEXT, sc) : ROOT_CONTEXT;
}

export interface SpanOptions {
  attributes?: Attributes;
  /** `root`: start a new trace whatever is active; a Context: continue it (default: the active one). */
  parent?: Context | 'root';
}

/** A span begun by {@link beginSpan}: run its work in `context`, then end it once. */
export interface SpanScope {
  /** The parent's context with this span active: what `runIn` takes. */
  readonly context: Context;
  set(attributes: Attributes): void;
  /** With an error: the span failed (its status says the error's class or code only, `error.type`). */
  end(error?: unknown): void;
}

/**
 * Begins a span; the caller runs the work with `runIn(span.context, …)` and ends it (`settle`
 * does for a promise). No callback of this module sits between a caller and its work: call
 * stacks go from a flow straight into the next (test/chat/walk.test.ts counts the crossings).
 */
export function beginSpan(name: string, options: SpanOptions = {}): SpanScope {
  const parent = options.parent === 'root' ? ROOT_CONTEXT : (options.parent ?? context.active());
  const span = trace.getTracer(TRACER).startSpan(name, options.attributes ? { attributes: options.attributes } : {}, parent);
  return {
    context: trace.setSpan(parent, span),
    set: (attributes) => span.setAttributes(attributes),
    end(error) {
      if (error !== undefined) {
        const type = errorType(error);
        span.setAttribute('error.type', type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      }
      span.end();
    },
  };
}

/** Runs `fn` with `ctx` active: the API's own `context.with`, bound (it reads the current context manager at each call). */
export const runIn: <T>(ctx: Context, fn: () => T) => T = context.with.bind(context);

/** `work`'s outcome, once it has ended `span` (failed when `work` rejects), with `describe`'s attributes of the value. */
export function settle<T>(span: SpanScope, work: Promise<T>, describe?: (value: T) => Attributes): Promise<T> {
  return work.then(
    (value) => {
      if (describe) span.set(describe(value));
      span.end();
      return value;
    },
    (err: unknown) => {
      span.end(err ?? new Error('rejected'));
      throw err;
    },
  );
}

function errorType(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(code)) return code;
  if (typeof code === 'number') return String(code);
  return err instanceof Error ? err.name : typeof err;
}

/** Where a span's work points: the cluster, the target's key (`pod/ns/name`) and its Kubernetes parts (semantic-convention names). */
export function targetAttributes(cluster: string, target: Target): Attributes {
  const parts: Attributes =
    target.kind === 'pod'
      ? { 'k8s.namespace.name': target.namespace, 'k8s.pod.name': target.name }
      : target.kind === 'node'
        ? { 'k8s.node.name': target.name }
        : { 'k8s.namespace.name': target.name };
  return { 'k8s.cluster.name': cluster, 'pod_doctor.target': targetKey(target), ...parts };
}
