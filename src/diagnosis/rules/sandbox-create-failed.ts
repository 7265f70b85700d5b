// sandbox.create-failed: Pod sandbox (pause container) cannot be created.

import type { JournalMatch } from '../../probes/types.js';
import { journalEvidence, journalMatches, nodeChecksMissing, probeResult } from '../agent-facts.js';
import { componentState } from '../components.js';
import {
  clip,
  containerStatuses,
  eventEvidence,
  eventsWithReason,
  formatDuration,
  isDeleting,
  isFinished,
  newestFirst,
  runtimeOf,
  secondsSince,
} from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, ProseList, Said, Snapshot } from '../types.js';

type SandboxFailure = 'sandbox-image' | 'cni' | 'runtime' | 'unknown';

/** What the node agent tells about the sandbox: the kubelet's pause image setting and its log lines. */
interface NodeSandboxFacts {
  /** The sentence saying which node checks could not run, when any could not. */
  missing?: string;
  /** kubelet --pod-infra-container-image (undefined: not set, the runtime's default applies). */
  infraImage?: string;
  infraImageSource?: string;
  /** kubelet/runtime log lines matching the sandbox-create-failed signature. */
  lines: JournalMatch[];
  /** Image named in those lines. */
  image?: string;
}

function nodeSandboxFacts(snapshot: Snapshot, nodeName: string): NodeSandboxFacts {
  const facts: NodeSandboxFacts = { lines: journalMatches(snapshot, ['sandbox-create-failed']) };
  const missing = nodeChecksMissing(snapshot, nodeName, 'host', 'journal');
  if (missing) facts.missing = missing;
  const host = probeResult(snapshot, 'host');
  if (host) {
    const setting = host.kubelet.settings.podInfraContainerImage;
    if (setting?.value !== undefined) facts.infraImage = String(setting.value);
    facts.infraImageSource = setting?.source ?? 'unset';
  }
  const image = facts.lines.map((m) => m.captures.image).find((i) => i);
  if (image) facts.image = image;
  return facts;
}

export function classifySandboxError(message: string): { kind: SandboxFailure; image?: string; plugin?: string } {
  // containerd: `failed to get sandbox image "registry.k8s.io/pause:3.9": failed to pull image ...` (2.x: after
  //   `failed to start sandbox "<id>": `);
  // dockershim: `failed pulling image "k8s.gcr.io/pause:3.2": Error response from daemon: ...`;
  // CRI-O: `creating pod sandbox with name "k8s_...": initializing source docker://registry.k8s.io/pause:3.9: ...`.
  const img =
    /sandbox image \\?"([^"\\]+)/i.exec(message) ??
    /(?:pulling|pull) image \\?"([^"\\]*(?:pause|pod-infra|infra)[^"\\]*)/i.exec(message) ??
    /docker:\/\/(\S*(?:pause|pod-infra)\S*?)[:,]?\s/i.exec(message);
  if (img?.[1]) return { kind: 'sandbox-image', image: img[1] };
  const plugin = /plugin type=\\?"([^"\\]+)/.exec(message)?.[1];
  if (plugin || /failed to (?:setup|set up) network|NetworkPlugin \S+ failed|network for sandbox|cni\b/i.test(message)) {
    return plugin ? { kind: 'cni', plugin } : { kind: 'cni' };
  }
  // CRI-O: `error reading container (probably exited) json message: EOF` when conmon loses the runtime mid-create.
  if (/OCI runtime|runc|crun|signal: killed|cgroup|shim|conmon|\(probably exited\)/i.test(message)) return { kind: 'runtime' };
  return { kind: 'unknown' };
}

const messages = {
  titleImage: 'Sandbox image cannot be pulled on {{node}}',
  titleCni: 'Pod network setup fails on {{node}}',
  titleCniPlugin: 'Pod network setup fails on {{node}} ({{plugin}})',
  title: 'Pod sandbox cannot be created on {{node}}',
  pending: 'Pending for {{age}}.',
  checksMissing: "{{missing}} Check the kubelet's --pod-infra-container-image on {{node}} and whether that image is present there.",
  imageNotChecked: 'Whether {{image}} is present on {{node}} was not checked (no image-list probe): `crictl images | grep pause` on the node.',
  imagePullNetwork:
    '{{runtime}} on {{node}} cannot get the sandbox (pause) image {{image}}: it is not on the node and pulling it fails ' +
    '(the node cannot reach the registry (a network path problem: firewall, proxy, DNS or egress, not credentials)), so no pod can start there.',
  imagePullAuth:
    '{{runtime}} on {{node}} cannot get the sandbox (pause) image {{image}}: it is not on the node and pulling it fails ' +
    "(the registry refuses the runtime's credentials), so no pod can start there.",
  imagePullUnknown:
    '{{runtime}} on {{node}} cannot get the sandbox (pause) image {{image}}: it is not on the node and pulling it fails ' +
    '(often registry authentication or no route to the registry), so no pod can start there.',
  checkRegistryPath:
    'From {{node}}, check the path to the registry of {{image}} ' +
    '(`curl -v https://<registry>/v2/`, DNS, HTTP(S)_PROXY of the runtime service, egress firewall), ' +
    'or load {{image}} there from a node that has it (`ctr -n k8s.io images export`/`import`).',
  giveCredentials:
    'Give the runtime credentials for that registry (containerd: registry config auth; docker: /root/.docker/config.json), ' +
    'or load {{image}} on {{node}} from a node that has it.',
  loadImage:
    'Load {{image}} on {{node}} from a node that has it (`docker save`/`ctr -n k8s.io images export`, then load/import), ' +
    'or give the runtime credentials for that registry.',
  checkInfraImage:
    'Check the kubelet `--pod-infra-container-image` (containerd: `sandbox_image` / `sandbox` in config.toml) on {{node}} points at a reachable image.',
  cniFails: 'The sandbox is created but its network setup fails on {{node}}, so the pod never gets an IP and its containers never start.',
  cniPluginFails:
    'The sandbox is created but its network setup fails in CNI plugin {{plugin}} on {{node}}, so the pod never gets an IP and its containers never start.',
  cniAgent: '{{summary}}',
  checkCalico: 'Check calico-node on {{node}} (running, /var/lib/calico/nodename mounted) and that it can reach the API (ClusterInformation).',
  checkCni: 'Check the CNI daemon pod on {{node}} and /etc/cni/net.d on the node.',
  cniRetries: 'The quoted error names the failing step; the kubelet retries by itself once the CNI is healthy.',
  runtimeFails:
    '{{runtime}} on {{node}} fails to start the sandbox container itself (OCI runtime error). ' +
    'A memory limit without a unit (`4` = 4 bytes) or with lower-case `m` kills the sandbox at start; ' +
    'otherwise the runtime or cgroups on the node are at fault.',
  checkMemoryUnits: "Check the pod's memory requests/limits for missing units (see resources.memory-units).",
  readRuntimeLog: 'Read the {{runtime}} log on {{node}} around the event time.',
  noDetail:
    'The kubelet on {{node}} cannot create the pod sandbox and the event gives no detail (older kubelets print only "Failed create pod sandbox"). ' +
    'The usual cause is the pause image (--pod-infra-container-image) missing on the node with its pull failing.',
  checkPauseImage:
    "On {{node}}: check the kubelet's `--pod-infra-container-image` and whether that image is present " +
    '(`docker images | grep pause` / `crictl images | grep pause`); pull it by hand to see the error.',
  readKubeletLog: 'Read the kubelet log for "CreatePodSandbox for pod failed".',
  preloadPause: 'Pre-load the pause image in node images, or mirror it to a registry the runtime can pull from without credentials.',
  monitorDaemons: 'Monitor the CNI/runtime daemons on every node and keep node images consistent.',
} as const;

type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'sandbox.create-failed',
    title: 'Pod sandbox (pause container) cannot be created',
    category: 'sandbox',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'agent', 'components'],
    priority: 55,
    doc:
      'FailedCreatePodSandBox on a pod stuck before its containers start. ' +
      'From the API: the error class (sandbox/pause image pull, CNI, runtime). ' +
      'From the node agent: the kubelet `--pod-infra-container-image` and the kubelet log line with the real error (old kubelets print no detail); ' +
      'without it the finding says the node check could not run.',
    messages,
  },
  check(snapshot, ctx) {
    const pod = snapshot.pod;
    const nodeName = pod?.spec?.nodeName;
    if (!pod || !nodeName || isFinished(pod) || isDeleting(pod)) return null;
    if (pod.status?.phase && pod.status.phase !== 'Pending') return null;
    const age = secondsSince(snapshot, pod.metadata?.creationTimestamp);
    if (age === undefined || age <= ctx.pendingGraceSeconds) return null;
    const failures = newestFirst(eventsWithReason(snapshot, 'FailedCreatePodSandBox'));
    const newest = failures[0];
    if (!newest) return null;
    // Once the sandbox exists the pod moves on (image pull, crash...): an old sandbox event is history.
    if (pod.status?.conditions?.some((c) => (c.type === 'PodReadyToStartContainers' || c.type === 'PodHasNetwork') && c.status === 'True')) return null;
    const stillCreating = (reason: string | undefined) => reason === undefined || reason === 'ContainerCreating' || reason === 'PodInitializing';
    const movedOn = containerStatuses(pod).some(
      (s) => s.status.state?.running || s.status.state?.terminated || !stillCreating(s.status.state?.waiting?.reason),
    );
    if (movedOn) return null;

    const fromNode = nodeSandboxFacts(snapshot, nodeName);
    // Old kubelets print only "Failed create pod sandbox."; the node's log line carries the real error.
    const message = newest.message ?? '';
    const classified = classifySandboxError(message);
    const { kind, image, plugin } =
      classified.kind === 'unknown' && fromNode.lines.length ? classifySandboxError(fromNode.lines.map((m) => m.line).join('\n')) : classified;
    const evidence: Evidence[] = [{ ...eventEvidence(newest), text: clip(message) }];
    const runtime = runtimeOf(snapshot) ?? 'the container runtime';

    for (const m of fromNode.lines.slice(-2)) evidence.push(journalEvidence(nodeName, m));
    if (fromNode.infraImageSource) {
      evidence.push({
        source: `node agent: kubelet --pod-infra-container-image on ${nodeName}`,
        text: fromNode.infraImage ? `${fromNode.infraImage} (from ${fromNode.infraImageSource})` : 'not set: the runtime default sandbox image applies',
      });
    }
    // No probe lists the node's images yet, so presence of the pause image is never confirmed here.
    const nodeCheck = fromNode.missing
      ? msg('checksMissing', { missing: fromNode.missing, node: nodeName })
      : msg('imageNotChecked', { image: fromNode.infraImage ?? image ?? 'the pause image', node: nodeName });

    const sandboxImage = image ?? fromNode.image ?? fromNode.infraImage;
    const imageMissing = kind === 'sandbox-image';
    let cause: (Said<Id> | false | undefined)[];
    let advice: ProseList<Id>;
    let causeKey: string;
    if (imageMissing) {
      const img = sandboxImage ?? 'the pause image';
      // Advise by what the pull error says: a timeout is the network path, a 401 the credentials.
      const said = [message, ...fromNode.lines.map((m) => m.line)].join('\n');
      const pullClass = /i\/o timeout|dial tcp|no such host|connection refused|TLS handshake timeout|no route to host|network is unreachable/i.test(said)
        ? 'network'
        : /401|403|unauthorized|authentication required|denied/i.test(said)
          ? 'auth'
          : 'unknown';
      const why = pullClass === 'network' ? 'imagePullNetwork' : pullClass === 'auth' ? 'imagePullAuth' : 'imagePullUnknown';
      cause = [msg(why, { runtime, node: nodeName, image: img }), nodeCheck];
      advice = [
        pullClass === 'network'
          ? msg('checkRegistryPath', { node: nodeName, image: img })
          : pullClass === 'auth'
            ? msg('giveCredentials', { image: img, node: nodeName })
            : msg('loadImage', { image: img, node: nodeName }),
        msg('checkInfraImage', { node: nodeName }),
      ];
      causeKey = `sandbox-image:${img}`;
    } else if (kind === 'cni') {
      // The CNI agent on the node usually says why in its own status and log.
      const agent = componentState(snapshot, 'cni');
      if (agent) evidence.push(...agent.evidence);
      cause = [
        plugin ? msg('cniPluginFails', { plugin, node: nodeName }) : msg('cniFails', { node: nodeName }),
        agent && msg('cniAgent', { summary: agent.summary }),
      ];
      advice = [plugin === 'calico' ? msg('checkCalico', { node: nodeName }) : msg('checkCni', { node: nodeName }), msg('cniRetries')];
      causeKey = `cni:${plugin ?? 'unknown'}`;
    } else if (kind === 'runtime') {
      cause = [msg('runtimeFails', { runtime, node: nodeName })];
      advice = [msg('checkMemoryUnits'), msg('readRuntimeLog', { runtime, node: nodeName })];
      causeKey = `node/${nodeName}:sandbox-runtime`;
    } else {
      cause = [msg('noDetail', { node: nodeName }), nodeCheck];
      advice = [msg('checkPauseImage', { node: nodeName }), msg('readKubeletLog')];
      causeKey = `node/${nodeName}:sandbox`;
    }
    if (failures.length > 1) evidence.push({ source: 'events FailedCreatePodSandBox', text: `${failures.length} distinct messages; newest quoted` });

    return {
      title: imageMissing
        ? msg('titleImage', { node: nodeName })
        : kind === 'cni'
          ? plugin
            ? msg('titleCniPlugin', { node: nodeName, plugin })
            : msg('titleCni', { node: nodeName })
          : msg('title', { node: nodeName }),
      cause: [msg('pending', { age: formatDuration(age) }), ...cause],
      evidence,
      advice,
      prevent: [imageMissing ? msg('preloadPause') : msg('monitorDaemons')],
      causeKey,
      params: { node: nodeName, kind: imageMissing ? 'sandbox-image' : kind, ...(sandboxImage ? { image: sandboxImage } : {}), ...(plugin ? { plugin } : {}) },
    };
  },
});
