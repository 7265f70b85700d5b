// The node agent's allow-listed actions (AGENT_ACTION_TABLE in ./types.ts), mounted by the agent
// server at `POST /v1/actions/<name>` behind the same bearer token as the probes. Every request is
// validated against a strict schema, must name this node, runs one at a time, and is logged
// on the node with its outcome; anything outside the allow-list is refused with 403 and why.
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { AgentProbeEnv } from '../../probes/index.js';
import { action as lazyUnmount } from './lazy-unmount.js';
import { action as pullImage } from './pull-image.js';
import { action as removeImage } from './remove-image.js';
import { action as removePodContainers } from './remove-pod-containers.js';
import { action as restartKubelet } from './restart-kubelet.js';
import { action as restartUnit } from './restart-unit.js';
import { action as stopMountHolder } from './stop-mount-holder.js';
import {
  type ActionEnv,
  ActionRefused,
  AGENT_ACTION_TABLE,
  AGENT_ACTIONS,
  type AgentActionDef,
  type AgentActionName,
  type AgentActionsOptions,
  isAgentActionName,
} from './types.js';

/** The implementations, by the table's names: a missing or an extra one does not compile. */
export const AGENT_ACTION_DEFS: { [K in AgentActionName]: AgentActionDef<K> } = {
  'restart-unit': restartUnit,
  'stop-mount-holder': stopMountHolder,
  'remove-pod-containers': removePodContainers,
  'lazy-unmount': lazyUnmount,
  'remove-image': removeImage,
  'pull-image': pullImage,
  'restart-kubelet': restartKubelet,
};

export interface ActionHttpResult {
  status: number;
  body: Record<string, unknown>;
}

export type ActionHandler = (name: string, rawBody: string, log?: Logger) => Promise<ActionHttpResult>;

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || 'input'}: ${i.message}`)
    .join('; ');
}

/**
 * The handler the agent server mounts. `probeEnv` is the agent's own probe environment (the
 * checks re-run the same probes), `nodeName` the node it serves.
 */
export function createActionHandler(
  options: AgentActionsOptions & { probeEnv: AgentProbeEnv; nodeName: string; log: Logger; now?: () => number },
): ActionHandler {
  const env: ActionEnv = {
    exec: options.exec,
    probeEnv: options.probeEnv,
    nodeName: options.nodeName,
    log: options.log,
    grants: new Map(),
    pullGrantMs: options.pullGrantMs ?? 30 * 60_000,
    stopGraceMs: options.stopGraceMs ?? 10_000,
    now: options.now ?? Date.now,
  };
  // One action at a time on a node: two restarts, unmounts or stops must not interleave.
  let queue: Promise<unknown> = Promise.resolve();

  return async (name, rawBody, log = options.log) => {
    if (!isAgentActionName(name)) return { status: 404, body: { error: `unknown action; known: ${AGENT_ACTIONS.join(', ')}` } };
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      return { status: 400, body: { error: 'body is not JSON' } };
    }
    const parsed = AGENT_ACTION_TABLE[name].request.safeParse(json);
    if (!parsed.success) return { status: 400, body: { error: issues(parsed.error) } };
    const req = parsed.data;
    const pod = (req as { pod?: { uid: string; namespace: string; name: string } }).pod;
    const actionLog = log.child({ action: name, ...(pod ? { podUid: pod.uid, pod: `${pod.namespace}/${pod.name}` } : {}) });
    if (req.node !== env.nodeName) {
      actionLog.warn({ status: 403, asked: req.node }, 'agent action refused');
      return { status: 403, body: { error: `this agent serves node ${env.nodeName}, not ${req.node}` } };
    }
    const run = async (): Promise<ActionHttpResult> => {
      const started = performance.now();
      try {
        const def = AGENT_ACTION_DEFS[name] as AgentActionDef<AgentActionName>;
        const out = await def.run(req as never, env);
        actionLog.info({ status: 200, changed: out.changed, detail: out.detail, ms: Math.round(performance.now() - started) }, 'agent action done');
        return { status: 200, body: { ok: true, action: name, node: env.nodeName, ...out } };
      } catch (err) {
        if (err instanceof ActionRefused) {
          const level = err.status >= 500 ? 'error' : 'warn';
          actionLog[level]({ status: err.status, reason: err.message, ms: Math.round(performance.now() - started) }, 'agent action refused');
          return { status: err.status, body: { error: err.message } };
        }
        actionLog.error({ err }, 'agent action failed');
        return { status: 500, body: { error: `internal error: ${err instanceof Error ? err.message : String(err)}` } };
      }
    };
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
}

/**
 * One call without a server (tests, `pod-doctor agent` tooling): same checks, same answers.
 * Prefer `createActionHandler` in a long-lived process (it keeps the re-pull grants).
 */
export async function handleAction(
  name: string,
  rawBody: string,
  env: AgentActionsOptions & { probeEnv: AgentProbeEnv; nodeName: string; log: Logger },
): Promise<ActionHttpResult> {
  return createActionHandler(env)(name, rawBody);
}

export { createHostExec, type HostExecOptions } from './host-exec.js';
export { AGENT_ACTION_TABLE, AGENT_ACTIONS, type AgentActionName, type AgentActionsOptions, type HostExec, isAgentActionName } from './types.js';
