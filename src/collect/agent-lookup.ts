// Finds the node agent of a pod's node and asks it for node facts. Without a token the
// node checks are skipped, and that is said in the diagnosis as a gap.
import type { Config } from '../config/schema.js';
import type { Node, Pod } from '../diagnosis/types.js';
import { fetchAgentFacts } from './agent-client.js';
import type { AgentLookup } from './snapshot.js';

export interface AgentLocator {
  /** Static node → URL map (simulated clusters, tests); wins over the template. */
  urls: Record<string, string>;
  /** e.g. `http://{hostIP}:9477`. */
  template: string;
}

export function agentUrl(node: Node, locator: AgentLocator): string | undefined {
  const name = node.metadata?.name ?? '';
  const fixed = locator.urls[name];
  if (fixed) return fixed;
  const hostIP = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  if (!hostIP && locator.template.includes('{hostIP}')) return undefined;
  return locator.template.replaceAll('{hostIP}', hostIP ?? '').replaceAll('{nodeName}', name);
}

/** Container IDs without the runtime prefix (`containerd://abc` → `abc`). */
export function containerIdsOf(pod: Pod): string[] {
  return [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]
    .map((s) => s.containerID?.replace(/^[a-z-]+:\/\//, ''))
    .filter((id): id is string => Boolean(id));
}

export function agentLookup(options: { token: string; timeoutMs: number; locator: AgentLocator }): AgentLookup {
  return {
    async fetch({ node, pod }) {
      const nodeName = node.metadata?.name ?? '?';
      const url = agentUrl(node, options.locator);
      if (!url) return { gaps: [{ check: `node agent on ${nodeName}`, reason: 'the node has no InternalIP address to reach its agent' }] };
      return fetchAgentFacts({
        url,
        token: options.token,
        timeoutMs: options.timeoutMs,
        node: nodeName,
        pod: { uid: pod.metadata?.uid ?? '', namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', containerIds: containerIdsOf(pod) },
      });
    },
  };
}

/** The lookup a worker or the CLI uses; undefined (checks skipped) without an agent token. */
export function agentLookupFromConfig(config: Pick<Config, 'agentToken' | 'agentTimeoutMs' | 'agentUrls' | 'agentUrlTemplate'>): AgentLookup | undefined {
  if (!config.agentToken) return undefined;
  return agentLookup({ token: config.agentToken, timeoutMs: config.agentTimeoutMs, locator: { urls: config.agentUrls, template: config.agentUrlTemplate } });
}
