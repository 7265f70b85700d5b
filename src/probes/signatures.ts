// Catalogue log signatures: the kubelet/runtime lines that prove a node-level cause. Shared by
// the journal probe (which picks lines on the node) and the rules (which read its captures and
// match the same wording in events). Pure: no I/O.
import { redactText } from '../redact.js';

export type SignatureId =
  | 'device-busy'
  | 'subpath-cleanup-busy'
  | 'kill-deadline'
  | 'runtime-deadline'
  | 'ns-lstat'
  | 'exec-failed'
  | 'kill-timeout'
  | 'docker-delete-failed'
  | 'cni-teardown'
  | 'cni-del'
  | 'calico-wep-deleted'
  | 'sandbox-create-failed'
  | 'image-checksum'
  | 'image-inspect-readlink'
  | 'pleg-unhealthy';

export interface Signature {
  id: SignatureId;
  /** `pod`: kept only when the line names the pod; `node`: kept for any pod on the node. */
  scope: 'pod' | 'node';
  /** Cheap substring(s), one of which must be present before the regex runs. */
  needle: string | readonly string[];
  test: RegExp;
  /** Named groups become the match's captures. */
  extract?: RegExp[];
}

const HEX = '[0-9a-f]{12,64}';

export const SIGNATURES: readonly Signature[] = [
  {
    id: 'subpath-cleanup-busy',
    scope: 'pod',
    needle: 'error cleaning subPath mounts',
    test: /error cleaning subPath mounts.*device or resource busy/,
    extract: [/remove (?<path>\/[^\s:"\\]+): device or resource busy/, /error cleaning subPath mounts for volume \\?"(?<volume>[^"\\]+)/],
  },
  {
    id: 'device-busy',
    scope: 'pod',
    // EBUSY from the runtime (Docker, containerd), and umount(8)'s own words when the kubelet's
    // volume TearDown runs it: `unmount failed: exit status 32 … umount: <dir>: target is busy.`
    needle: ['device or resource busy', 'target is busy'],
    test: /device or resource busy|umount: \/[^\s:]+: target is busy/,
    extract: [
      /(?:remove|unlinkat|rmdir|unmount|umount|Unmount)\s+(?<path>\/[^\s:"\\]+): device or resource busy/,
      /umount: (?<path>\/[^\s:"\\]+): target is busy/,
      /TearDown failed for volume \\?"(?<volume>[^"\\]+)/,
      new RegExp(`(?:layer|filesystem for|root filesystem for) (?<containerId>${HEX})`),
    ],
  },
  {
    id: 'kill-deadline',
    scope: 'pod',
    needle: 'deadline exceeded',
    test: /(KillContainerError|StopContainer|termination failed|KillContainer).*(context deadline exceeded|operation timeout)/,
    extract: [new RegExp(`StopContainer "(?<containerId>${HEX})"`), /for "(?<container>[^"]+)" with KillContainerError/],
  },
  {
    id: 'runtime-deadline',
    scope: 'node',
    needle: 'deadline exceeded',
    test: /(remote_runtime|PLEG|GenericPLEG|ListPodSandbox|ListContainers|docker_|ContainerStatus).*(context deadline exceeded|DeadlineExceeded|operation timeout)/,
  },
  {
    id: 'ns-lstat',
    scope: 'node',
    needle: '/ns/',
    test: /lstat \/proc\/\d+\/ns\/\w+: no such file or directory/,
    extract: [/lstat \/proc\/(?<pid>\d+)\/ns\/(?<ns>\w+)/],
  },
  {
    id: 'exec-failed',
    scope: 'pod',
    needle: 'exec',
    test: /Error running exec in container|exec failed:|Exec lifecycle hook .* failed|PostStartHook failed|preStop hook .* failed/,
  },
  {
    id: 'kill-timeout',
    scope: 'pod',
    needle: 'failed to exit within',
    test: /failed to exit within \d+ seconds of (kill|signal \d+)/,
    extract: [new RegExp(`Container (?<containerId>${HEX}) failed to exit`)],
  },
  {
    id: 'docker-delete-failed',
    scope: 'pod',
    needle: 'Handler for DELETE',
    test: /Handler for DELETE \/(v[\d.]+\/)?containers\/[0-9a-f]+ returned error/,
    extract: [new RegExp(`containers/(?<containerId>${HEX}) returned error`)],
  },
  {
    id: 'cni-teardown',
    scope: 'pod',
    needle: 'network',
    test: /NetworkPlugin cni failed to teardown pod|failed to destroy network for sandbox|Error deleting network: resource does not exist: WorkloadEndpoint/,
    extract: [
      /teardown pod \\?"(?<pod>[^"\\]+)\\?" network: (?<reason>.*?)"?$/,
      new RegExp(`StopPodSandbox "(?<sandboxId>${HEX})"`),
      new RegExp(`failed to destroy network for sandbox \\\\?"(?<sandboxId>${HEX})`),
      /KillPodSandbox" for "(?<podUid>[0-9a-f-]{36})"/,
      /WorkloadEndpoint\((?<workloadEndpoint>[^)]*)\)/,
    ],
  },
  {
    id: 'cni-del',
    scope: 'pod',
    needle: 'CNI_COMMAND=DEL',
    test: /CNI_COMMAND=DEL/,
    extract: [new RegExp(`CNI_CONTAINERID=(?<sandboxId>${HEX})`), /K8S_POD_NAMESPACE=(?<namespace>[^;\s]+);K8S_POD_NAME=(?<podName>[^;\s]+)/],
  },
  {
    id: 'calico-wep-deleted',
    scope: 'pod',
    needle: 'Delete Key: /calico/v1/host/',
    test: /Delete Key: \/calico\/v1\/host\/[^/]+\/workload\/[^/]+\/[^/]+\/endpoint\/\w+"?/,
    extract: [/host\/(?<node>[^/]+)\/workload\/[^/]+\/(?<workload>[^/]+)\/endpoint\/(?<endpoint>\w+)/],
  },
  {
    id: 'sandbox-create-failed',
    scope: 'pod',
    needle: 'andbox',
    test: /FailedCreatePodSandBox|Failed to create pod sandbox|CreatePodSandbox for pod .* failed|RunPodSandbox .* failed/,
    extract: [/image \\?"(?<image>[^"\\]+)/],
  },
  {
    id: 'image-checksum',
    scope: 'node',
    needle: 'checksum',
    test: /file integrity checksum failed|checksum mismatch|unexpected EOF.*checksum|filesystem layer verification failed/,
    extract: [/checksum failed for \\?"(?<file>[^"\\]+)/],
  },
  {
    id: 'image-inspect-readlink',
    scope: 'node',
    needle: 'readlink',
    test: /readlink \S+: invalid argument/,
    extract: [/images\/(?<image>[^\s]+)\/json returned error/, /readlink (?<path>\/\S+): invalid argument/],
  },
  {
    id: 'pleg-unhealthy',
    scope: 'node',
    needle: 'PLEG is not healthy',
    test: /PLEG is not healthy/,
  },
];

export interface SignatureHit {
  signatures: SignatureId[];
  captures: Record<string, string>;
}

/** Every signature a line matches, with the captures of their extract patterns. */
export function matchSignatures(line: string): SignatureHit | undefined {
  let hit: SignatureHit | undefined;
  for (const sig of SIGNATURES) {
    if (!(typeof sig.needle === 'string' ? line.includes(sig.needle) : sig.needle.some((n) => line.includes(n))) || !sig.test.test(line)) continue;
    hit ??= { signatures: [], captures: {} };
    hit.signatures.push(sig.id);
    for (const re of sig.extract ?? []) {
      const groups = re.exec(line)?.groups;
      if (!groups) continue;
      for (const [k, v] of Object.entries(groups)) if (v !== undefined && hit.captures[k] === undefined) hit.captures[k] = v;
    }
  }
  return hit;
}

export function signatureScope(id: SignatureId): 'pod' | 'node' {
  return SIGNATURES.find((s) => s.id === id)?.scope ?? 'pod';
}

/** Credentials that runtime logs print (Calico's CNI env dump carries K8S_API_TOKEN): the one redactor's patterns. */
export function redactLine(line: string): string {
  return redactText(line);
}
