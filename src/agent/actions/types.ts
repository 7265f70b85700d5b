// The node agent's action API: what a request may carry (strict patterns, no free text reaches
// a command) and the host operations an action may perform. `HostExec` is injected so tests run
// every check against fixture proc trees with a recording fake; the real one is host-exec.ts.
import type { Logger } from 'pino';
import { z } from 'zod';
import { podRefSchema, runPodProbes, type AgentProbeEnv } from '../../probes/index.js';

export const AGENT_ACTIONS = [
  'restart-unit',
  'stop-mount-holder',
  'remove-pod-containers',
  'lazy-unmount',
  'remove-image',
  'pull-image',
  'restart-kubelet',
] as const;
export type AgentActionName = (typeof AGENT_ACTIONS)[number];

export function isAgentActionName(name: string): name is AgentActionName {
  return (AGENT_ACTIONS as readonly string[]).includes(name);
}

export const nodeNameSchema = z
  .string()
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, 'expected a node name');
/** systemd service units only (never scopes, mounts or slices). */
export const unitSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9@._:-]*\.service$/, 'expected a systemd service unit name (…​.service)');
export const mountPathSchema = z
  .string()
  .max(4096)
  .regex(/^\/[A-Za-z0-9._/~:@+=,-]*$/, 'expected an absolute path of [A-Za-z0-9._/~:@+=,-]')
  .refine((s) => !s.split('/').includes('..'), 'must not contain ".."');
/** An image reference: `[registry[:port]/]repo[:tag][@sha256:…]`. */
export const imageRefSchema = z
  .string()
  .max(512)
  .regex(
    /^[A-Za-z0-9]+([._-][A-Za-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-]{1,2}[a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$/,
    'expected an image reference',
  );
/** A host process id (pid_max is at most 2^22). */
export const pidSchema = z.number().int().positive().max(4_194_304);
const containerIdText = z.string().regex(/^[0-9a-f]{12,64}$/, 'expected a container id (12-64 hex digits)');

const podScoped = { node: nodeNameSchema, pod: podRefSchema.strict() };

export const ACTION_REQUESTS = {
  'restart-unit': z.object({ ...podScoped, unit: unitSchema }).strict(),
  'stop-mount-holder': z.object({ ...podScoped, pid: pidSchema }).strict(),
  'remove-pod-containers': z.object({ ...podScoped, containerIds: z.array(containerIdText).max(32).optional() }).strict(),
  'lazy-unmount': z.object({ ...podScoped, mount: mountPathSchema }).strict(),
  'remove-image': z.object({ ...podScoped, image: imageRefSchema }).strict(),
  'pull-image': z.object({ ...podScoped, image: imageRefSchema }).strict(),
  'restart-kubelet': z.object({ node: nodeNameSchema }).strict(),
} as const satisfies Record<AgentActionName, z.ZodType>;

export type ActionRequest<K extends AgentActionName> = z.input<(typeof ACTION_REQUESTS)[K]>;

/** What the agent answers on success (HTTP 200). Refusals are `{ error }` with 4xx/5xx. */
export const actionResponseSchema = z.object({
  ok: z.literal(true),
  action: z.string(),
  node: z.string(),
  /** False when there was nothing to do (already unmounted, no containers left). */
  changed: z.boolean(),
  detail: z.string(),
  items: z.array(z.string()).default([]),
});
export type ActionResponse = z.infer<typeof actionResponseSchema>;

export interface ExecResult {
  ok: boolean;
  detail: string;
  /**
   * Exit code of a command; for the runtime (Docker API or CRI) an HTTP-like status: Docker's own,
   * or from CRI 200 done, 404 not found, 409 in use, 502 refused; 0 when the runtime did not answer.
   */
  code?: number;
}

export interface HostContainer {
  id: string;
  name?: string;
  image: string;
  imageId?: string;
  /** Every name the runtime has for that image (its tags and digests; CRI lists them). */
  imageNames?: string[];
  state: string;
  labels: Record<string, string>;
}

/** The only things an agent action can do to the host. Arguments are validated before a call. */
export interface HostExec {
  /** `systemctl restart <unit>` on the host. */
  restartUnit(unit: string): Promise<ExecResult>;
  /**
   * Send a signal to a host process (the agent runs with hostPID, so pids are the host's).
   * `code`: 0 sent, 404 no such process (ESRCH), 403 not permitted (EPERM: the agent lacks CAP_KILL).
   */
  signalProcess(pid: number, signal: 'SIGTERM' | 'SIGKILL'): Promise<ExecResult>;
  /** Whether a host process with this pid exists (`kill(pid, 0)`; a zombie still counts). */
  processAlive(pid: number): Promise<boolean>;
  /** `umount -l <path>` in the host's mount namespace. */
  lazyUnmount(path: string): Promise<ExecResult>;
  /**
   * The runtime (Docker API or CRI): containers (all states) labelled `io.kubernetes.pod.uid=<uid>`;
   * through CRI also the pod's sandboxes (named `sandbox:<name>`, state ready/notready).
   */
  listPodContainers(podUid: string): Promise<HostContainer[]>;
  /** The runtime (Docker API or CRI): force-remove a container, volumes kept (`DELETE /containers/<id>?force=1`; CRI: StopContainer + RemoveContainer, or StopPodSandbox + RemovePodSandbox for a sandbox id). */
  removeContainer(id: string): Promise<ExecResult>;
  /** The runtime (Docker API or CRI): remove an image, not forced: an image other containers use stays (409). */
  removeImage(ref: string): Promise<ExecResult>;
  /** The runtime (Docker API or CRI): pull an image (`POST /images/create?fromImage=<ref>`; CRI PullImage). */
  pullImage(ref: string): Promise<ExecResult>;
}

export interface AgentActionsOptions {
  exec: HostExec;
  /** How long a removed image may be pulled again for the pod it was removed for (default 30 min). */
  pullGrantMs?: number;
  /** How long stop-mount-holder waits after SIGTERM before SIGKILL (default 10 s). */
  stopGraceMs?: number;
}

export interface ActionEnv {
  exec: HostExec;
  probeEnv: AgentProbeEnv;
  nodeName: string;
  log: Logger;
  /** Images removed for a pod (`<uid> <image>` → expiry ms): pull-image may fetch them again. */
  grants: Map<string, number>;
  pullGrantMs: number;
  /** How long stop-mount-holder waits after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  now(): number;
}

/** A refusal or failure with the HTTP status the agent answers. */
export class ActionRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ActionRefused';
  }
}

export type ActionOutcome = Omit<ActionResponse, 'ok' | 'action' | 'node'>;

export interface AgentActionDef<K extends AgentActionName> {
  name: K;
  run(req: z.output<(typeof ACTION_REQUESTS)[K]>, env: ActionEnv): Promise<ActionOutcome>;
}

export const POD_UID_LABEL = 'io.kubernetes.pod.uid';

/**
 * An image reference in the runtime's full form: `nginx:1.25` and `docker.io/library/nginx:1.25`
 * name the same image (containerd and CRI-O list the full form, a pod spec often has the short
 * one), and a reference without tag or digest means `:latest`.
 */
export function normalizeImageRef(ref: string): string {
  const slash = ref.indexOf('/');
  const first = slash < 0 ? '' : ref.slice(0, slash);
  const hasDomain = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let name = hasDomain ? ref : `docker.io/${slash < 0 ? 'library/' : ''}${ref}`;
  const lastSlash = name.lastIndexOf('/');
  if (!name.includes('@') && !name.slice(lastSlash + 1).includes(':')) name = `${name}:latest`;
  return name;
}

/** Whether a container runs `ref`: by its image, any other name of that image, or the image id. */
export function runsImage(c: Pick<HostContainer, 'image' | 'imageId' | 'imageNames'>, ref: string): boolean {
  return sameImage(c.image, ref) || (c.imageNames ?? []).some((n) => sameImage(n, ref)) || c.imageId === ref;
}

/** Whether two references name the same image (see normalizeImageRef). */
export function sameImage(a: string | undefined, b: string): boolean {
  return a !== undefined && a !== '' && (a === b || normalizeImageRef(a) === normalizeImageRef(b));
}

export function podLabel(pod: { namespace: string; name: string; uid: string }): string {
  return `${pod.namespace}/${pod.name} (uid ${pod.uid})`;
}

/**
 * Who holds the pod's mounts at this moment: the mount-holders probe run again on the node when
 * an action is asked for (the finding may be minutes old, the pid reused). 503 when it cannot run.
 */
export async function mountHoldersNow(pod: z.output<typeof podRefSchema>, env: Pick<ActionEnv, 'probeEnv'>) {
  const facts = await runPodProbes(pod, ['mount-holders'], env.probeEnv);
  const mh = facts['mount-holders'];
  if (!mh?.ok) throw new ActionRefused(503, `cannot check who holds the mounts of pod ${podLabel(pod)}: ${mh?.error ?? 'probe did not run'}`);
  return mh;
}
