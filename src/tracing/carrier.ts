// The W3C trace context as it crosses Redis: inside a job's data (bot → worker) and a result
// (worker → bot). Plain zod, no OpenTelemetry: the job schemas load it in every role.
import { z } from 'zod';

/** version 00 - trace id - parent span id - flags (https://www.w3.org/TR/trace-context/#traceparent-header). */
export const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export const TraceCarrier = z.object({ traceparent: z.string().regex(TRACEPARENT, 'not a W3C traceparent') });
export type TraceCarrier = z.infer<typeof TraceCarrier>;
