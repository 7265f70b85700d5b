// runtime.handler-missing: The node's container runtime has no handler for the pod's RuntimeClass.

import { clip, eventEvidence, eventsWithReason, newestFirst } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';

// A RuntimeClass maps to a handler the node's runtime must have configured (containerd
// `plugins."io.containerd.grpc.v1.cri".containerd.runtimes.<handler>`, CRI-O `[crio.runtime.runtimes.<handler>]`).
// A node without it cannot create the pod's sandbox:
//   containerd ≤ 1.7: failed to get sandbox runtime: no runtime for "nvidia" is configured
//   containerd 2.x:   unable to get OCI runtime for sandbox "<id>": no runtime for "nvidia" is configured
//   CRI-O 1.27–1.32:  failed to find runtime handler kata from runtime list map[crun:0xc000... runc:0xc000...]
//                     (internal/oci/oci.go ValidateRuntimeHandler; the map prints the configured handlers)
//   cri-dockerd:      RuntimeHandler "kata" not supported
// Typical after a GPU or sandboxed-runtime install that has not (yet) reconfigured this node, or on a
// node pool the RuntimeClass's scheduling rules should have kept the pod away from.

const NO_HANDLER = new RegExp(
  [
    'no runtime for "([^"]+)" is configured',
    'RuntimeHandler "([^"]+)" not supported',
    String.raw`unknown runtime handler "?([^"\s]+)"?`,
    String.raw`failed to find runtime handler (\S+) from runtime list`,
  ].join('|'),
);

const messages = {
  title: 'No "{{handler}}" runtime on {{node}}',
  titleClass: 'No "{{handler}}" runtime on {{node}} for RuntimeClass {{runtimeClass}}',
  noHandler:
    'The pod needs the runtime handler "{{handler}}", and {{runtime}} on {{node}} has no such handler configured: "{{text}}". ' +
    'Every pod of that class fails the same way on this node until its runtime is configured.',
  noHandlerClass:
    'The pod asks for RuntimeClass {{runtimeClass}}, whose handler is "{{handler}}", ' +
    'and {{runtime}} on {{node}} has no such handler configured: "{{text}}". ' +
    'Every pod of that class fails the same way on this node until its runtime is configured.',
  configureHandler:
    'Configure the handler on {{node}}: for "{{handler}}" install its runtime ' +
    '(e.g. the NVIDIA container toolkit, then `nvidia-ctk runtime configure --runtime=containerd`) and restart the runtime; ' +
    'check `crictl info` lists it.',
  nodeSelector: 'Or keep the pod on nodes that have it: give RuntimeClass {{runtimeClass}} a scheduling.nodeSelector matching those nodes.',
  prevent: 'Label the nodes whose runtime has each handler, and give every RuntimeClass a scheduling.nodeSelector for them.',
} as const;

export const rule = defineRule({
  meta: {
    id: 'runtime.handler-missing',
    title: "The node's container runtime has no handler for the pod's RuntimeClass",
    category: 'runtime',
    severity: 'error',
    needs: ['pod', 'events', 'node'],
    priority: 62,
    supersedes: ['sandbox.create-failed'],
    doc:
      'FailedCreatePodSandBox with `no runtime for "X" is configured` (containerd), `failed to find runtime handler X from runtime list` (CRI-O) ' +
      'or `RuntimeHandler "X" not supported` (cri-dockerd): ' +
      "the pod's runtimeClassName maps to handler X, which the runtime on this node does not have " +
      '(the NVIDIA container toolkit, Kata or gVisor not installed or not yet configured there). ' +
      'A node problem, not the image: configure the handler on the node, or keep the pod off nodes without it.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const node = pod?.spec?.nodeName;
    if (!pod || !node || pod.status?.phase !== 'Pending') return null;
    const event = newestFirst(eventsWithReason(snapshot, 'FailedCreatePodSandBox')).find((e) => NO_HANDLER.test(e.message ?? ''));
    if (!event) return null;
    const m = NO_HANDLER.exec(event.message ?? '');
    const handler = m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4] ?? '?';
    const runtimeClass = pod.spec?.runtimeClassName;
    const runtime = snapshot.node?.status?.nodeInfo?.containerRuntimeVersion ?? 'the runtime';
    return {
      title: runtimeClass ? msg('titleClass', { handler, node, runtimeClass }) : msg('title', { handler, node }),
      cause: runtimeClass
        ? msg('noHandlerClass', { runtimeClass, handler, runtime, node, text: clip(event.message ?? '', 400) })
        : msg('noHandler', { handler, runtime, node, text: clip(event.message ?? '', 400) }),
      evidence: [eventEvidence(event), ...(runtimeClass ? [{ source: 'pod.spec.runtimeClassName', text: runtimeClass }] : [])],
      advice: [msg('configureHandler', { node, handler }), msg('nodeSelector', { runtimeClass: runtimeClass ?? '<class>' })],
      prevent: [msg('prevent')],
      causeKey: `node/${node}:runtime-handler:${handler}`,
      params: { node, handler, ...(runtimeClass ? { runtimeClass } : {}) },
    };
  },
});
