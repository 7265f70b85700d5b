// security.run-as-non-root: runAsNonRoot refuses the image user.

import { clip, eventEvidence, eventsOfContainer, statusEvidence, waitingWith } from '../facts.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// The kubelet refuses to start a container whose securityContext says runAsNonRoot when the
// image would run as root, or names its user by name (it cannot check a name is not uid 0):
//   CreateContainerConfigError  container has runAsNonRoot and image will run as root (pod: "web-..._shop(uid)", container: web)
//   CreateContainerConfigError  container has runAsNonRoot and image has non-numeric user (nginx), cannot verify user is non-root (pod: "...", container: web)
const NON_ROOT = /container has runAsNonRoot and image (will run as root|has non-numeric user \(([^)]*)\))/;

export const rule = defineRule({
  meta: {
    id: 'security.run-as-non-root',
    title: 'runAsNonRoot refuses the image user',
    category: 'security',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 60,
    doc: 'CreateContainerConfigError "container has runAsNonRoot and image will run as root" or "... image has non-numeric user (x), cannot verify user is non-root": the securityContext demands a non-root user but the image runs as root or names its user instead of giving a uid. Fix with a numeric runAsUser or USER <uid> in the Dockerfile.',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft[] = [];
    for (const s of waitingWith(pod, 'CreateContainerConfigError')) {
      const failed = eventsOfContainer(snapshot, s, ['Failed'])[0];
      const text = NON_ROOT.test(s.message) ? s.message : failed && NON_ROOT.test(failed.message ?? '') ? (failed.message ?? '') : undefined;
      if (!text) continue;
      const m = NON_ROOT.exec(text);
      const userName = m?.[2];
      const evidence: Evidence[] = [statusEvidence(s, 'state', `${s.reason}: ${clip(s.message || text)}`)];
      if (failed) evidence.push(eventEvidence(failed));
      const ctx = { ...(pod?.spec?.securityContext ?? {}), ...(s.spec?.securityContext ?? {}) };
      evidence.push({
        source: `securityContext of ${s.status.name} (pod and container merged)`,
        text: JSON.stringify({ runAsNonRoot: ctx.runAsNonRoot, runAsUser: ctx.runAsUser }),
      });
      out.push({
        title: userName
          ? `${s.status.name}: image user "${userName}" is not numeric, runAsNonRoot cannot verify it`
          : `${s.status.name}: image runs as root but runAsNonRoot is set`,
        cause: userName
          ? `The securityContext of "${s.status.name}" sets runAsNonRoot, and the image ${s.spec?.image ?? ''} names its user "${userName}" instead of a uid. The kubelet cannot prove a user name is not root, so it refuses to create the container.`
          : `The securityContext of "${s.status.name}" sets runAsNonRoot, but the image ${s.spec?.image ?? ''} has no USER (or USER 0) and no runAsUser overrides it, so the container would run as root; the kubelet refuses to create it.`,
        evidence,
        advice: [
          `Set a numeric user: securityContext.runAsUser: ${userName ? `<uid of "${userName}" in the image, e.g. from \`id -u ${userName}\`>` : '10001 (or the uid the image expects)'}${userName ? '' : ', and make sure the app can run as that uid (file ownership, ports above 1024)'}.`,
          userName
            ? `Or change the Dockerfile to \`USER <uid>\` (numeric) instead of \`USER ${userName}\`.`
            : 'Or build the image with `USER <uid>` (numeric), e.g. the non-root variant many images publish.',
        ],
        prevent: ['Use numeric USER lines in Dockerfiles and check images against the restricted Pod Security level in CI.'],
        causeKey: `workload/${pod?.metadata?.namespace ?? ''}/${s.status.name}:run-as-non-root`,
        params: { container: s.status.name, ...(userName ? { imageUser: userName } : {}) },
      });
    }
    return out;
  },
});
