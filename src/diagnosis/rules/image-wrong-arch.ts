// image.wrong-arch: Image built for another CPU architecture.

import { crashes, crashLogs, crashTexts, logEvidence } from '../crashes.js';
import { clip } from '../facts.js';
import { msg } from '../messages.js';
import { pullFailures, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';
import { scriptPath } from '../runtime-errors.js';
import type { Evidence, FindingDraft } from '../types.js';

// `exec format error`: the kernel refused the binary because it was built for another CPU.
// runc >= 1.1 prints `exec /usr/local/bin/app: exec format error` as the container's only log line
// (exit 1); older runc `standard_init_linux.go:228: exec user process caused: exec format error`;
// at create time: `runc create failed: unable to start container process: exec: "/app": ... exec format error`.
// crun (CRI-O's default runtime from 1.31) after start: `exec container process `/usr/local/bin/app`: Exec format error`.

const FORMAT = /exec format error/i;
const ARCH_WORDS: Record<string, RegExp> = {
  amd64: /(?:^|[^a-z0-9])(?:amd64|x86[_-]64)(?:[^a-z0-9]|$)/i,
  arm64: /(?:^|[^a-z0-9])(?:arm64(?:v8)?|aarch64|armv8)(?:[^a-z0-9]|$)/i,
  arm: /(?:^|[^a-z0-9])(?:armv7|armhf|arm32v7|armv6)(?:[^a-z0-9]|$)/i,
  ppc64le: /ppc64le/i,
  s390x: /s390x/i,
};

/** The architecture an image reference names in its repository or tag, if any. */
export function archHint(image: string): string | undefined {
  return Object.entries(ARCH_WORDS).find(([, re]) => re.test(image))?.[0];
}

const messages = {
  execTitle: '{{kind}} {{container}}: image is not built for {{arch}} (exec format error)',
  execTitleNoArch: "{{kind}} {{container}}: image is not built for the node's architecture (exec format error)",
  execRefused: 'The kernel on {{node}} refused to run the binary of {{image}}: "{{line}}".',
  execRefusedContainer: 'The kernel on {{node}} refused to run the binary of container {{container}}: "{{line}}".',
  otherCpu: 'The image (or the platform the registry served for it) contains executables for another CPU architecture.',
  archMismatch: 'The image name says {{imageArch}}, the node is {{nodeArch}}.',
  checkPlatforms: 'Check which platforms the image has: `docker buildx imagetools inspect {{image}}` (or `crane manifest`); it needs linux/{{arch}}.',
  multiArch:
    'Publish a multi-arch image (`docker buildx build --platform linux/amd64,linux/arm64 ...`), ' +
    'or pin the workload to matching nodes with nodeSelector kubernetes.io/arch: {{imageArch}}.',
  execPrevent:
    'Build images for every architecture in the cluster and add kubernetes.io/arch to node pools; ' +
    'a mixed cluster needs multi-arch images or an arch nodeSelector.',
  pullTitle: 'Image {{image}} has no linux/{{arch}} variant',
  pullTitleNoArch: "Image {{image}} has no node's platform variant",
  noVariant:
    'Pulling {{image}} for container "{{container}}" on {{node}} fails with {{phrase}}: ' +
    "the tag exists, but neither it nor its manifest list has an image for this node's OS and architecture.",
  nameSays: 'The image name says {{imageArch}}.',
  publishPlatform:
    'Publish the image for linux/{{arch}} (`docker buildx build --platform linux/amd64,linux/arm64 ...`), ' +
    'or schedule the workload on nodes of an architecture it has (nodeSelector kubernetes.io/arch).',
  pullPrevent: 'Build multi-arch images for every architecture of the cluster, and label node pools with kubernetes.io/arch.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'image.wrong-arch',
    title: 'Image built for another CPU architecture',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'node'],
    priority: 56,
    supersedes: ['crash.app-exit', 'container.start-error'],
    doc:
      "The image is for another CPU architecture than the node's `status.nodeInfo.architecture`: " +
      'the pull fails with `no match for platform in manifest` (containerd) / `no image found in manifest list for architecture` (CRI-O) ' +
      'because the image has no variant for the node, or the container fails with `exec format error` ' +
      "(in its log, its termination message or the runtime's error) because its binaries are for another CPU. " +
      "Compares the node's architecture with what the image name says.",
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const nodeArch = snapshot.node?.status?.nodeInfo?.architecture;
    // `node-1 (arm64)`: where it ran, with the node's architecture when known.
    const where = `${pod?.spec?.nodeName ?? 'the node'}${nodeArch ? ` (${nodeArch})` : ''}`;
    const out: FindingDraft<Id>[] = [];
    for (const c of crashes(snapshot)) {
      const tail = crashLogs(snapshot, c);
      const logLine = tail?.lines.find((l) => FORMAT.test(l));
      const text = crashTexts(snapshot, c).find((t) => FORMAT.test(t.text));
      if (!logLine && !text) continue;
      // A script the kernel cannot run has no `#!` line (or a CRLF one): the image's arch is not at fault.
      if (scriptPath(logLine ?? text?.text ?? '')) continue;
      const image = c.spec?.image ?? c.s.status.image ?? '';
      const hint = archHint(image);
      const evidence: Evidence[] = [];
      if (tail && logLine) evidence.push(logEvidence(tail, 3));
      if (text) evidence.push(text.evidence);
      if (nodeArch) evidence.push({ source: `node ${pod?.spec?.nodeName ?? ''} status.nodeInfo.architecture`, text: nodeArch });
      const kind = c.s.init ? 'Init container' : 'Container';
      const line = clip(logLine ?? text?.text ?? '', 300);
      out.push({
        title: nodeArch ? msg('execTitle', { kind, container: c.name, arch: nodeArch }) : msg('execTitleNoArch', { kind, container: c.name }),
        cause: [
          image ? msg('execRefused', { node: where, image, line }) : msg('execRefusedContainer', { node: where, container: c.name, line }),
          msg('otherCpu'),
          hint && nodeArch && hint !== nodeArch ? msg('archMismatch', { imageArch: hint, nodeArch }) : null,
        ],
        evidence,
        advice: [
          msg('checkPlatforms', { image: image || '<image>', arch: nodeArch ?? '<node arch>' }),
          msg('multiArch', { imageArch: hint ?? '<arch the image has>' }),
        ],
        prevent: [msg('execPrevent')],
        causeKey: `image/${image}:arch-${nodeArch ?? 'unknown'}`,
        params: { container: c.name, image, ...(nodeArch ? { nodeArch } : {}), ...(hint ? { imageArch: hint } : {}) },
      });
    }
    // At pull time: the image has no manifest for the node's platform (a single-arch image, or a
    // manifest list without linux/<arch>). containerd ends it with "not found", yet no tag is missing.
    for (const f of pullFailures(snapshot)) {
      if (f.error.class !== 'platform') continue;
      const hint = archHint(f.specImage);
      out.push({
        title: nodeArch ? msg('pullTitle', { image: f.specImage, arch: nodeArch }) : msg('pullTitleNoArch', { image: f.specImage }),
        cause: [
          msg('noVariant', { image: f.specImage, container: f.container, node: where, phrase: quotePhrase(f.error) }),
          hint && nodeArch && hint !== nodeArch ? msg('nameSays', { imageArch: hint }) : null,
        ],
        evidence: [...f.evidence, ...(nodeArch ? [{ source: `node ${pod?.spec?.nodeName ?? ''} status.nodeInfo.architecture`, text: nodeArch }] : [])],
        advice: [msg('checkPlatforms', { image: f.specImage, arch: nodeArch ?? '<node arch>' }), msg('publishPlatform', { arch: nodeArch ?? '<arch>' })],
        prevent: [msg('pullPrevent')],
        causeKey: `image/${f.specImage}:arch-${nodeArch ?? 'unknown'}`,
        params: { container: f.container, image: f.specImage, ...(nodeArch ? { nodeArch } : {}), ...(hint ? { imageArch: hint } : {}) },
      });
    }
    return out;
  },
});
