// security.run-as-non-root: runAsNonRoot refuses the image user.

import { clip, eventEvidence, eventsOfContainer, statusEvidence, waitingWith } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// The kubelet refuses to start a container whose securityContext says runAsNonRoot when the
// image would run as root, or names its user by name (it cannot check a name is not uid 0):
//   CreateContainerConfigError  container has runAsNonRoot and image will run as root (pod: "web-..._shop(uid)", container: web)
//   CreateContainerConfigError  container has runAsNonRoot and image has non-numeric user (nginx), cannot verify user is non-root (pod: "...", container: web)
const NON_ROOT = /container has runAsNonRoot and image (will run as root|has non-numeric user \(([^)]*)\))/;

const messages = {
  titleUserName: '{{container}}: image user "{{user}}" is not numeric, runAsNonRoot cannot verify it',
  titleRoot: '{{container}}: image runs as root but runAsNonRoot is set',
  userName:
    'The securityContext of "{{container}}" sets runAsNonRoot, and the image {{image}} names its user "{{user}}" instead of a uid. ' +
    'The kubelet cannot prove a user name is not root, so it refuses to create the container.',
  root:
    'The securityContext of "{{container}}" sets runAsNonRoot, but the image {{image}} has no USER (or USER 0) and no runAsUser overrides it, ' +
    'so the container would run as root; the kubelet refuses to create it.',
  setUidOfUser: 'Set a numeric user: securityContext.runAsUser: <uid of "{{user}}" in the image, e.g. from `id -u {{user}}`>.',
  setUid:
    'Set a numeric user: securityContext.runAsUser: 10001 (or the uid the image expects), ' +
    'and make sure the app can run as that uid (file ownership, ports above 1024).',
  changeDockerfile: 'Or change the Dockerfile to `USER <uid>` (numeric) instead of `USER {{user}}`.',
  buildNonRoot: 'Or build the image with `USER <uid>` (numeric), e.g. the non-root variant many images publish.',
  prevent: 'Use numeric USER lines in Dockerfiles and check images against the restricted Pod Security level in CI.',
} as const;

type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'security.run-as-non-root',
    title: 'runAsNonRoot refuses the image user',
    category: 'security',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 60,
    doc:
      'CreateContainerConfigError "container has runAsNonRoot and image will run as root" ' +
      'or "... image has non-numeric user (x), cannot verify user is non-root": ' +
      'the securityContext demands a non-root user but the image runs as root or names its user instead of giving a uid. ' +
      'Fix with a numeric runAsUser or USER <uid> in the Dockerfile.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft<Id>[] = [];
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
      const container = s.status.name;
      const image = s.spec?.image ?? '';
      out.push({
        title: userName ? msg('titleUserName', { container, user: userName }) : msg('titleRoot', { container }),
        cause: userName ? msg('userName', { container, image, user: userName }) : msg('root', { container, image }),
        evidence,
        advice: [
          userName ? msg('setUidOfUser', { user: userName }) : msg('setUid'),
          userName ? msg('changeDockerfile', { user: userName }) : msg('buildNonRoot'),
        ],
        prevent: [msg('prevent')],
        causeKey: `workload/${pod?.metadata?.namespace ?? ''}/${s.status.name}:run-as-non-root`,
        params: { container: s.status.name, ...(userName ? { imageUser: userName } : {}) },
      });
    }
    return out;
  },
});
