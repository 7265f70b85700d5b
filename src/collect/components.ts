// The cluster components a failure points at. A pod that cannot resolve a name is often a victim
// of cluster DNS (CoreDNS crash-looping); a sandbox without network, of the CNI agent on its node;
// a volume that will not mount, of the CSI node plugin that never registered. Each is read only
// when a line in the pod's facts names it, and that line is kept as the reason.
import type { ComponentFact, KubeObject, LogTail, Pod } from '../diagnosis/types.js';
import { redactLines } from '../redact.js';
import type { Guard } from './guard.js';
import type { FactSource } from './source.js';

/** Resolver failures as Go, glibc, musl, the JVM, Node.js, libpq and curl word them. */
const DNS_FAILURE = new RegExp(
  [
    String.raw`lookup \S+ on (\S+?):53: (?:server misbehaving|no such host|read udp|dial udp)`,
    'Temporary failure in name resolution',
    'Name or service not known',
    'Name does not resolve',
    String.raw`java\.net\.UnknownHostException`,
    'getaddrinfo (?:EAI_AGAIN|ENOTFOUND)',
    'could not translate host name',
    'Could not resolve host',
    'no servers could be reached',
    String.raw`\bnslookup: can't resolve\b`,
    String.raw`dial tcp: lookup \S+: (?:no such host|i\/o timeout)`,
  ].join('|'),
);

/** A sandbox without network, or a node whose network plugin is not ready. */
const CNI_FAILURE = new RegExp(
  [
    'failed to (?:setup|set up) network for sandbox',
    'NetworkPlugin cni failed',
    'network plugin is not ready',
    'NetworkPluginNotReady',
    'cni plugin not initialized',
    String.raw`failed to find plugin "[\w-]+"`,
    String.raw`\/run\/flannel\/subnet\.env`,
    'failed to assign an IP address to container',
    'failed to allocate for range',
    String.raw`plugin type="[\w-]+" (?:name="[^"]*" )?failed`,
  ].join('|'),
);

const CSI_FAILURE = new RegExp(
  [
    String.raw`driver name ([\w.-]+) not found in the list of registered CSI drivers`,
    String.raw`kubernetes\.io\/csi: \w+\.\w+ failed`,
    String.raw`rpc error: code = \w+ desc = .*(?:NodeStageVolume|NodePublishVolume|ControllerPublishVolume)`,
    String.raw`CSINode \S+ does not contain driver ([\w.-]+)`,
  ].join('|'),
);

/** CNI agents by the name of their DaemonSet (or pod): Calico, Cilium, Flannel, AWS VPC CNI, Weave, Antrea... */
const CNI_AGENT =
  /^(?:calico-node|cilium|kube-flannel|flannel|aws-node|weave-net|canal|antrea-agent|kube-router|kube-ovn-cni|ovnkube-node|multus|azure-cns|azure-cni|cni)/;

export interface ComponentTriggers {
  dns?: string;
  /** A kubelet that stopped posting status: the API server's log says whether it refuses the kubelet. */
  apiserver?: string;
  cni?: { line: string; plugin?: string };
  csi?: { line: string; driver?: string };
}

/**
 * Which components the given lines point at, with the line that does. Cluster DNS serves the pod's
 * own lookups only (`app`: its logs, termination messages, probes): an image pull resolves through
 * the node's resolver, so a pull's "no such host" says nothing about CoreDNS. The CNI and CSI read
 * everything (`all`: events, statuses, the node, the claims).
 */
export function componentTriggers(texts: { app?: readonly string[]; all: readonly string[] }, csiDrivers: readonly string[] = []): ComponentTriggers {
  const out: ComponentTriggers = {};
  const dns = (texts.app ?? []).flatMap((t) => t.split('\n')).find((l) => DNS_FAILURE.test(l));
  if (dns) out.dns = dns.trim();
  for (const text of texts.all) {
    for (const line of text.split('\n')) {
      if (!out.cni && CNI_FAILURE.test(line)) {
        const plugin = /plugin type="([\w-]+)"/.exec(line)?.[1] ?? /failed to find plugin "([\w-]+)"/.exec(line)?.[1];
        out.cni = { line: line.trim(), ...(plugin ? { plugin } : {}) };
      }
      const csi = CSI_FAILURE.exec(line);
      if (!out.csi && csi) {
        const driver = csi[1] ?? csi[2] ?? csiDrivers[0];
        out.csi = { line: line.trim(), ...(driver ? { driver } : {}) };
      }
    }
  }
  return out;
}

function daemonSetName(pod: Pod): string {
  return pod.metadata?.ownerReferences?.find((o) => o.kind === 'DaemonSet')?.name ?? pod.metadata?.name ?? '';
}

function isCniAgent(pod: Pod): boolean {
  return CNI_AGENT.test(daemonSetName(pod));
}

/** A CSI node plugin pod for `driver` (ebs.csi.aws.com → ebs-csi-node), or any CSI node pod without a driver name. */
function isCsiNodePlugin(pod: Pod, driver?: string): boolean {
  const name = daemonSetName(pod);
  if (!/csi/.test(name)) return false;
  if (!driver) return true;
  const short = driver.split('.')[0] ?? driver;
  const images = (pod.spec?.containers ?? []).map((c) => c.image ?? '').join(' ');
  return name.includes(short) || images.includes(short) || (pod.spec?.containers ?? []).some((c) => (c.args ?? []).join(' ').includes(driver));
}

/**
 * Reads the components the triggers name: CoreDNS (kube-system, k8s-app=kube-dns), the API server
 * (component=kube-apiserver, for a silent kubelet), and the pods on the node for the CNI agent and
 * the CSI node plugin (`podsOnNode` when already read), with the node's CSINode for the drivers
 * registered there.
 */
export async function collectComponents(
  source: FactSource,
  triggers: ComponentTriggers,
  nodeName: string | undefined,
  podsOnNode: Pod[] | undefined,
  guard: Guard,
): Promise<ComponentFact[]> {
  const out: ComponentFact[] = [];
  const needNodePods = nodeName !== undefined && (triggers.cni !== undefined || triggers.csi !== undefined);
  const systemPods = (what: string, labelSelector: string) =>
    guard(`${what} pods (kube-system, ${labelSelector})`, () => source.listPods({ namespace: 'kube-system', labelSelector }), [] as Pod[]);
  const [dnsPods, apiPods, nodePods, csiNode] = await Promise.all([
    triggers.dns ? systemPods('cluster DNS', 'k8s-app=kube-dns') : undefined,
    triggers.apiserver ? systemPods('API server', 'component=kube-apiserver') : undefined,
    needNodePods ? (podsOnNode ?? guard(`pods on node ${nodeName}`, () => source.listPods({ nodeName }), [] as Pod[])) : undefined,
    triggers.csi && nodeName ? guard(`csinode ${nodeName}`, () => source.getCsiNode(nodeName), undefined as KubeObject | null | undefined) : undefined,
  ]);
  if (triggers.dns && dnsPods) out.push({ role: 'dns', why: triggers.dns, pods: dnsPods });
  // Managed control planes show no API server pods: then there is nothing to read, and no gap.
  if (triggers.apiserver && apiPods && apiPods.length > 0) out.push({ role: 'apiserver', why: triggers.apiserver, pods: apiPods });
  if (triggers.cni && nodePods) {
    out.push({ role: 'cni', why: triggers.cni.line, ...(triggers.cni.plugin ? { name: triggers.cni.plugin } : {}), pods: nodePods.filter(isCniAgent) });
  }
  if (triggers.csi && nodePods) {
    const drivers = ((csiNode?.spec as { drivers?: { name?: string }[] } | undefined)?.drivers ?? []).flatMap((d) => (d.name ? [d.name] : []));
    out.push({
      role: 'csi',
      why: triggers.csi.line,
      ...(triggers.csi.driver ? { name: triggers.csi.driver } : {}),
      pods: nodePods.filter((p) => isCsiNodePlugin(p, triggers.csi?.driver)),
      ...(csiNode !== undefined ? { registered: csiNode === null ? null : drivers } : {}),
    });
  }
  // A component that is down says why in its own log: read the tail of its pods that are not Ready.
  // The API server is up (it answers us); what it logs about the kubelet is the point.
  await Promise.all(
    out.map(async (c) => {
      const pods = c.role === 'apiserver' ? c.pods : c.pods.filter(notReady);
      const lines = c.role === 'apiserver' ? API_SERVER_LOG_LINES : COMPONENT_LOG_LINES;
      const tails = await Promise.all(pods.slice(0, MAX_LOGGED_PODS).map((p) => componentLog(source, p, guard, lines)));
      const logs = tails.filter((t): t is LogTail & { pod: string } => t !== undefined);
      if (logs.length > 0) c.logs = logs;
    }),
  );
  return out;
}

const MAX_LOGGED_PODS = 2;
const COMPONENT_LOG_LINES = 50;
const API_SERVER_LOG_LINES = 300;

function notReady(p: Pod): boolean {
  return p.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True';
}

/** The log of the pod's first container that crashed (its previous run), else of its first container. */
async function componentLog(source: FactSource, p: Pod, guard: Guard, tail: number): Promise<(LogTail & { pod: string }) | undefined> {
  const statuses = p.status?.containerStatuses ?? [];
  const crashed = statuses.find((s) => s.lastState?.terminated || s.state?.terminated) ?? statuses[0];
  const container = crashed?.name ?? p.spec?.containers?.[0]?.name;
  if (!container) return undefined;
  const previous = Boolean(crashed?.lastState?.terminated) && !crashed?.state?.terminated;
  const ns = p.metadata?.namespace ?? 'kube-system';
  const name = p.metadata?.name ?? '';
  const lines = await guard(`logs of ${ns}/${name}`, () => source.podLog(ns, name, container, previous, tail), null);
  return lines ? { pod: `${ns}/${name}`, container, previous, lines: redactLines(lines) } : undefined;
}
