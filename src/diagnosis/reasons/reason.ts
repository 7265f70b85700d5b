// The shape of one entry of the reason catalogue, shared by the extracted list (upstream.ts) and the
// hand-written additions (additions.ts).
import { z } from 'zod';

export const REASON_KINDS = ['event', 'status', 'condition', 'scheduler-filter', 'admission-error', 'runtime-error'] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];

/**
 * Where a runtime's text reaches the API, so a test can put an example there: a container's waiting
 * message (`pull`: ErrImagePull, `create`: CreateContainerError), a StartError termination message
 * (`start`), the crashed run's only log line (`log`), the Unhealthy event of a probe that kills the container
 * (`probe`), a FailedCreatePodSandBox event (`sandbox`), a FailedKillPod event on a pod deleted past its grace
 * period (`teardown`), the node's Ready message (`node`).
 */
export const EXAMPLE_SURFACES = ['pull', 'create', 'start', 'log', 'probe', 'sandbox', 'teardown', 'node'] as const;
export type ExampleSurface = (typeof EXAMPLE_SURFACES)[number];

export const upstreamReasonSchema = z.object({
  /** The reason (`FailedMount`) or a message fragment with the source's Go verbs (`Insufficient %v`). */
  reason: z.string().min(1),
  kind: z.enum(REASON_KINDS),
  /** Who emits it: `kubelet`, `scheduler`, `apiserver`, `<name>-controller`, `containerd`, `cri-o`, `runc`... */
  component: z.string().regex(/^[a-z][a-z-]*$/),
  /** Where it was read: repository or tree, version, path. */
  from: z.string().min(1),
  /** Which releases emit it, as far as the source says. */
  versions: z.string().min(1),
  note: z.string().optional(),
  /**
   * A message in this wording as the kubelet shows it, and where it shows: test/reason-coverage.test.ts
   * requires a rule this reason maps to to read it. `from` names the issue or page it is quoted from;
   * without it, it is the source's own format with the values of a real failure.
   */
  example: z.object({ surface: z.enum(EXAMPLE_SURFACES), text: z.string().min(1), from: z.string().optional() }).optional(),
});
export type UpstreamReason = z.infer<typeof upstreamReasonSchema>;
