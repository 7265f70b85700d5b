// Calico naming, shared by the pod-network probe and the network rules (pure, no I/O).
import { createHash } from 'node:crypto';

/** Calico's link-local default gateway inside every pod (answered by proxy ARP on the host veth). */
export const CALICO_GATEWAY = '169.254.1.1';

/** Host-side veth of a pod: `cali` + the first 11 hex digits of sha1("<namespace>.<pod>") (15 chars, IFNAMSIZ). */
export function calicoVethName(namespace: string, pod: string, prefix = 'cali'): string {
  return `${prefix}${createHash('sha1').update(`${namespace}.${pod}`).digest('hex').slice(0, 11)}`;
}

/** WorkloadEndpoint name: `<node>-k8s-<pod>-<endpoint>`, each segment with its dashes doubled. */
export function workloadEndpointName(node: string, pod: string, endpoint = 'eth0'): string {
  const esc = (s: string) => s.replace(/-/g, '--');
  return [esc(node), 'k8s', esc(pod), esc(endpoint)].join('-');
}
