// The node agent's action API: the one table of its actions (what a request may carry: strict
// patterns, no free text reaches a command; what each may touch; the playbook step that asks for
// it) and the host operations an action may perform. `HostExec` is injected so tests run every
// check against fixture proc trees with a recording fake; the real one is host-exec.ts.
import type { Logger } from 'pino';
import { z } from 'zod';
import { subdomainSchema } from '../../kube/names.js';
import { type AgentProbeEnv, type PodRef, podRefSchema, runPodProbes } from '../../probes/index.js';

export const nodeNameSchema = subdomainSchema('expected a node name');
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

/**
 * What an action is confined to on its node, and so what its request names: `pod` the pod on
 * this node (its containers, its mounts and what holds them), `image` an image of the pod on this
 * node, `node` the node itself (its kubelet; the request names only the node).
 */
export type AgentActionScope = 'pod' | 'image' | 'node';

/** How a playbook step names the pod of a pod- or image-scoped action: flat, as findings give it. */
export type PodStepParams = { node: string; namespace: string; pod: string; uid: string; containerIds: string[] };
/** The parameters a step has before its own, by scope (remediation checks them against these types). */
export type ScopeStepParams = { pod: PodStepParams; image: PodStepParams; node: { node: string } };
/** A step's parameters: its scope's and its own (zod's output for no own ones, Record<string, never>, would let any name through). */
type OwnParams<X extends z.ZodRawShape> = [keyof X] extends [never] ? unknown : z.output<z.ZodObject<X>>;
export type StepParams<S extends AgentActionScope, X extends z.ZodRawShape> = ScopeStepParams[S] & OwnParams<X>;

/** One agent action: what the agent accepts and may do, and the playbook step kind of the same name that asks for it. */
export interface AgentActionSpec<R extends z.ZodObject = z.ZodObject, S extends AgentActionScope = AgentActionScope, X extends z.ZodRawShape = z.ZodRawShape> {
  scope: S;
  /** What it may change on the host, in one line. */
  touches: string;
  /** The request body the agent accepts (strict). */
  request: R;
  step: {
    /** One line for `playbook list` and docs. */
    summary: string;
    /** Changes that cannot simply be undone. */
    destructive: boolean;
    /** Default time limit of one run of the step. */
    timeoutMs: number;
    /** The step's own parameters, after its scope's. */
    params: X;
    /** Exact text of what the step will do. */
    describe(p: StepParams<S, X>): string[];
    /** The agent request for the step's parameters. */
    toRequest(p: StepParams<S, X>): z.input<R>;
    /** After a crash a step found running is asked again: safe where the agent re-checks and a repeat changes nothing. Without it the run stops for a human. */
    recheck?: 'not-done';
  };
}

/** What a request of each scope names, at least. */
type ScopeRequest = { pod: { node: string; pod: PodRef }; image: { node: string; pod: PodRef; image: string }; node: { node: string } };

/**
 * Infers one entry's types, so that its step's describe and toRequest are checked against its own
 * parameters and request, and its request against its scope.
 */
function agentAction<R extends z.ZodObject, S extends AgentActionScope, X extends z.ZodRawShape>(
  spec: AgentActionSpec<R, S, X> & { request: z.ZodType<ScopeRequest[S]> },
): AgentActionSpec<R, S, X> {
  return spec;
}

/** The pod reference of a request, from a step's flat parameters. */
export function stepPodRef(p: PodStepParams) {
  return { uid: p.uid, namespace: p.namespace, name: p.pod, containerIds: p.containerIds };
}

/**
 * The agent's actions, in one table: the agent serves exactly these (index.ts, one `run` per
 * entry in ./<name>.ts) and remediation has a step kind for each (src/remediation/actions/agent-step.ts).
 */
export const AGENT_ACTION_TABLE = {
  // Frees a mount a service pins in its private mount namespace (ntpd with PrivateTmp in seed 001).
  'restart-unit': agentAction({
    scope: 'pod',
    touches: "systemctl restart of one systemd service that holds one of the pod's mounts now (never the kubelet, the runtime or the node's plumbing)",
    request: z.object({ ...podScoped, unit: unitSchema }).strict(),
    step: {
      summary: "Restart the systemd unit holding one of the pod's mounts (node agent; refused unless it holds one now)",
      destructive: true,
      timeoutMs: 90_000,
      params: { unit: unitSchema },
      describe: (p) => [`node agent on ${p.node}: systemctl restart ${p.unit} (only if it still holds a mount of pod ${p.namespace}/${p.pod})`],
      toRequest: (p) => ({ node: p.node, pod: stepPodRef(p), unit: p.unit }),
    },
  }),
  // The same for a process no service runs (started by hand or by another supervisor).
  'stop-mount-holder': agentAction({
    scope: 'pod',
    touches: "SIGTERM, then SIGKILL, to one process outside any service holding one of the pod's mounts now (not pid 1, the agent, a node daemon or a pod's)",
    request: z.object({ ...podScoped, pid: pidSchema }).strict(),
    step: {
      summary:
        "Stop the process outside any service that holds one of the pod's mounts: SIGTERM, SIGKILL after 10 s (node agent; refused unless it holds one now)",
      destructive: true,
      timeoutMs: 60_000,
      params: { pid: pidSchema },
      describe: (p) => [
        `node agent on ${p.node}: kill -TERM ${p.pid}, then -KILL if it is still there after 10s ` +
          `(only if pid ${p.pid} still holds a mount of pod ${p.namespace}/${p.pod} and is no service, pod process or node daemon)`,
      ],
      toRequest: (p) => ({ node: p.node, pod: stepPodRef(p), pid: p.pid }),
      // The agent re-checks the pid, and a stopped holder answers "already gone".
      recheck: 'not-done',
    },
  }),
  // docker rm -f, or CRI stop + remove of the containers and the sandbox on containerd/CRI-O.
  'remove-pod-containers': agentAction({
    scope: 'pod',
    touches: "the runtime's containers and sandboxes labelled io.kubernetes.pod.uid=<the pod's UID>, removed with their volumes kept",
    request: z.object({ ...podScoped, containerIds: z.array(containerIdText).max(32).optional() }).strict(),
    step: {
      summary: "Remove the pod's containers on its node (node agent; only containers labelled with the pod's UID)",
      destructive: true,
      timeoutMs: 90_000,
      params: {},
      describe: (p) => [
        `node agent on ${p.node}: remove the containers labelled io.kubernetes.pod.uid=${p.uid} ` +
          `(pod ${p.namespace}/${p.pod}; docker rm -f, or CRI stop + remove)`,
      ],
      toRequest: (p) => ({ node: p.node, pod: stepPodRef(p) }),
      // Removing them again removes nothing.
      recheck: 'not-done',
    },
  }),
  // Releases the processes blocked on a hung FUSE/network mount, so the runtime can act again.
  'lazy-unmount': agentAction({
    scope: 'pod',
    touches: "umount -l of one FUSE or network mount that is the pod's or does not answer stat (never an overlay, a bind mount or a local disk)",
    request: z.object({ ...podScoped, mount: mountPathSchema }).strict(),
    step: {
      summary: 'Lazy-unmount a hung FUSE/network mount of the pod (node agent; umount -l)',
      destructive: true,
      timeoutMs: 60_000,
      // fsType only for the text: the agent reads the type from the host's mount table.
      params: { mount: mountPathSchema, fsType: z.string().max(64).optional() },
      describe: (p) => [
        `node agent on ${p.node}: umount -l ${p.mount}${p.fsType ? ` (${p.fsType})` : ''}` +
          ` — only a FUSE/network mount of pod ${p.namespace}/${p.pod} or one that hangs`,
      ],
      toRequest: (p) => ({ node: p.node, pod: stepPodRef(p), mount: p.mount }),
      // Unmounting what is no longer mounted does nothing.
      recheck: 'not-done',
    },
  }),
  // So that the next pull fetches a fresh copy (a corrupt local image).
  'remove-image': agentAction({
    scope: 'image',
    touches: "one image a container of the pod uses (removal not forced: an image other pods use stays), and the pod's containers that use it",
    request: z.object({ ...podScoped, image: imageRefSchema }).strict(),
    step: {
      summary: "Remove the pod's image (and the pod's containers using it) from its node (node agent)",
      destructive: true,
      timeoutMs: 120_000,
      params: { image: imageRefSchema },
      describe: (p) => [
        `node agent on ${p.node}: remove the containers of pod ${p.namespace}/${p.pod} that use ${p.image}, then remove image ${p.image} (not forced)`,
      ],
      toRequest: (p) => ({ node: p.node, pod: stepPodRef(p), image: p.image }),
    },
  }),
  // After remove-image.
  'pull-image': agentAction({
    scope: 'image',
    touches: 'a pull of one image the pod uses, or that remove-image removed for it a short while ago',
    request: z.object({ ...podScoped, image: imageRefSchema }).strict(),
    step: {
      summary: "Pull the pod's image on its node (node agent)",
      destructive: false,
      timeoutMs: 600_000,
      params: { image: imageRefSchema },
      describe: (p) => [`node agent on ${p.node}: pull image ${p.image}`],
      toRequest: (p) => ({ node: p.node, pod: stepPodRef(p), image: p.image }),
    },
  }),
  'restart-kubelet': agentAction({
    scope: 'node',
    touches: 'systemctl restart kubelet.service',
    request: z.object({ node: nodeNameSchema }).strict(),
    step: {
      summary: 'Restart the kubelet on a node (node agent)',
      destructive: true,
      timeoutMs: 90_000,
      params: {},
      describe: (p) => [`node agent on ${p.node}: systemctl restart kubelet.service`],
      toRequest: (p) => ({ node: p.node }),
    },
  }),
} satisfies Record<string, AgentActionSpec>;

export type AgentActionName = keyof typeof AGENT_ACTION_TABLE;

export function isAgentActionName(name: string): name is AgentActionName {
  return Object.hasOwn(AGENT_ACTION_TABLE, name);
}

/** The action names, in table order (the agent's "unknown action" answer lists them). */
export const AGENT_ACTIONS: readonly AgentActionName[] = Object.keys(AGENT_ACTION_TABLE).filter(isAgentActionName);

export type ActionRequest<K extends AgentActionName> = z.input<(typeof AGENT_ACTION_TABLE)[K]['request']>;

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
  /**
   * The runtime (Docker API or CRI): force-remove a container, volumes kept (`DELETE /containers/<id>?force=1`;
   * CRI: StopContainer + RemoveContainer, or StopPodSandbox + RemovePodSandbox for a sandbox id).
   */
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

/** The agent side of one action, in ./<name>.ts: index.ts must have one for every table entry and no other. */
export interface AgentActionDef<K extends AgentActionName> {
  run(req: z.output<(typeof AGENT_ACTION_TABLE)[K]['request']>, env: ActionEnv): Promise<ActionOutcome>;
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
