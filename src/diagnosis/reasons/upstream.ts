// The upstream reason catalogue: the reasons and message fragments that the kubelet, the
// scheduler, the controllers, the API server's admission and the container runtimes put on a
// pod or on the objects around it. upstream.json is extracted from the Kubernetes source by
// scripts/reasons/extract.ts (do not edit it by hand); additions.ts holds what newer releases
// and the runtimes add. coverage.ts says which rule handles each one, and
// test/reason-coverage.test.ts fails when one is left unmapped.
import { z } from 'zod';
import { ADDITIONS } from './additions.js';
import { type UpstreamReason, upstreamReasonSchema } from './reason.js';
import extracted from './upstream.json' with { type: 'json' };

export {
  EXAMPLE_SURFACES,
  type ExampleSurface,
  REASON_KINDS,
  type ReasonKind,
  type UpstreamReason,
  upstreamReasonSchema,
} from './reason.js';

const extractionSchema = z.object({
  kubernetes: z.string(),
  generatedBy: z.string(),
  reasons: z.array(upstreamReasonSchema),
});

const extraction = extractionSchema.parse(extracted);

/** The Kubernetes release upstream.json was extracted from. */
export const EXTRACTED_FROM = extraction.kubernetes;

export const UPSTREAM_REASONS: readonly UpstreamReason[] = [...extraction.reasons, ...ADDITIONS];

/** Identifies a reason within its component in coverage.ts: `event:FailedMount`. */
export function coverageKey(r: Pick<UpstreamReason, 'kind' | 'reason'>): string {
  return `${r.kind}:${r.reason}`;
}
