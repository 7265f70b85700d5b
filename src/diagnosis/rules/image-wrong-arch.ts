import { defineRule } from '../rule.js';
import { clip } from '../facts.js';
import type { Evidence, FindingDraft } from '../types.js';
import { crashes, crashLogs, crashTexts, logEvidence } from './crash-app-exit.js';

// `exec format error`: the kernel refused the binary because it was built for another CPU.
// runc >= 1.1 prints `exec /usr/local/bin/app: exec format error` as the container's only log line
// (exit 1); older runc `standard_init_linux.go:228: exec user process caused: exec format error`;
// at create time: `runc create failed: unable to start container process: exec: "/app": ... exec format error`.

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

export const rule = defineRule({
  meta: {
    id: 'image.wrong-arch',
    title: 'Image built for another CPU architecture',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'node'],
    priority: 56,
    supersedes: ['crash.app-exit', 'container.start-error'],
    doc: "The container fails with `exec format error` (in its log, its termination message or the runtime's error): the image's binaries are for another architecture than the node's `status.nodeInfo.architecture` (an amd64-only image on an arm64 node, or the reverse). Compares the node's architecture with what the image name says.",
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const nodeArch = snapshot.node?.status?.nodeInfo?.architecture;
    const out: FindingDraft[] = [];
    for (const c of crashes(snapshot)) {
      const tail = crashLogs(snapshot, c);
      const logLine = tail?.lines.find((l) => FORMAT.test(l));
      const text = crashTexts(snapshot, c).find((t) => FORMAT.test(t.text));
      if (!logLine && !text) continue;
      const image = c.spec?.image ?? c.s.status.image ?? '';
      const hint = archHint(image);
      const evidence: Evidence[] = [];
      if (tail && logLine) evidence.push(logEvidence(tail, 3));
      if (text) evidence.push(text.evidence);
      if (nodeArch) evidence.push({ source: `node ${pod?.spec?.nodeName ?? ''} status.nodeInfo.architecture`, text: nodeArch });
      const mismatch = hint && nodeArch && hint !== nodeArch ? ` The image name says ${hint}, the node is ${nodeArch}.` : '';
      out.push({
        title: `${c.s.init ? 'Init container' : 'Container'} ${c.name}: image is not built for ${nodeArch ?? "the node's architecture"} (exec format error)`,
        cause: `The kernel on ${pod?.spec?.nodeName ?? 'the node'}${nodeArch ? ` (${nodeArch})` : ''} refused to run the binary of ${image || `container ${c.name}`}: "${clip(logLine ?? text?.text ?? '', 300)}". The image (or the platform the registry served for it) contains executables for another CPU architecture.${mismatch}`,
        evidence,
        advice: [
          `Check which platforms the image has: \`docker buildx imagetools inspect ${image || '<image>'}\` (or \`crane manifest\`); it needs linux/${nodeArch ?? '<node arch>'}.`,
          `Publish a multi-arch image (\`docker buildx build --platform linux/amd64,linux/arm64 ...\`), or pin the workload to matching nodes with nodeSelector kubernetes.io/arch: ${hint ?? '<arch the image has>'}.`,
        ],
        prevent: [
          'Build images for every architecture in the cluster and add kubernetes.io/arch to node pools; a mixed cluster needs multi-arch images or an arch nodeSelector.',
        ],
        causeKey: `image/${image}:arch-${nodeArch ?? 'unknown'}`,
        params: { container: c.name, image, ...(nodeArch ? { nodeArch } : {}), ...(hint ? { imageArch: hint } : {}) },
      });
    }
    return out;
  },
});
