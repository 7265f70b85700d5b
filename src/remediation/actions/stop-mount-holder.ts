// Stop the process (no systemd service: started by hand or by another supervisor) that pins one
// of the pod's mounts in its own mount namespace: SIGTERM, SIGKILL after 10 s. The agent refuses
// unless the pid holds such a mount now and is not pid 1, a node daemon, a service or a pod's.
import { z } from 'zod';
import { pidSchema } from '../../agent/actions/types.js';
import { callAgent, podRef, podScopedParams } from './agent-step.js';
import { defineAction } from './types.js';

const params = z.object({ ...podScopedParams, pid: pidSchema });

export const action = defineAction({
  kind: 'stop-mount-holder',
  summary: "Stop the process outside any service that holds one of the pod's mounts: SIGTERM, SIGKILL after 10 s (node agent; refused unless it holds one now)",
  params,
  destructive: true,
  timeoutMs: 60_000,
  describe: (p) => [
    `node agent on ${p.node}: kill -TERM ${p.pid}, then -KILL if it is still there after 10s (only if pid ${p.pid} still holds a mount of pod ${p.namespace}/${p.pod} and is no service, pod process or node daemon)`,
  ],
  run: (ctx, p) => callAgent(ctx, 'stop-mount-holder', { node: p.node, pod: podRef(p), pid: p.pid }),
  // Asking again is safe: the agent re-checks the pid, and a stopped holder answers "already gone".
  recheck: async () => 'not-done',
});
