// image.auth: Registry refuses the pull: credentials missing or wrong.

import { eventEvidence, eventsWithReason, newestFirst } from '../facts.js';
import { msg } from '../messages.js';
import { pullFindings, quotePhrase } from '../pull-errors.js';
import { defineRule } from '../rule.js';
import type { Evidence } from '../types.js';

export const rule = defineRule({
  meta: {
    id: 'image.auth',
    title: 'Registry refuses the pull: credentials missing or wrong',
    category: 'image',
    severity: 'error',
    needs: ['pod', 'events', 'secrets'],
    priority: 58,
    doc:
      'The registry answers "unauthorized", "authentication required", "no basic auth credentials" or "pull access denied" ' +
      '(which registries also say for a repository that does not exist). ' +
      'Checks `imagePullSecrets`: none set, or naming a Secret missing from the namespace (only when Secrets may be read).',
    messages: {
      title: 'Registry {{registry}} refuses to pull {{image}}',
      titleMissing: 'Registry {{registry}} refuses to pull {{image}}: imagePullSecret {{secret}} is missing',
      refused: 'Pulling {{image}} fails with {{phrase}}: {{registry}} wants valid credentials.',
      keepsFailing: 'Pulling {{image}} keeps failing (the kubelet no longer shows why).',
      noSecrets: 'The pod has no imagePullSecrets (neither in its spec nor from its ServiceAccount "{{serviceAccount}}"), so the node pulls anonymously.',
      missingSecret: 'It references imagePullSecret {{secrets}}, which does not exist in namespace {{namespace}}, so the kubelet pulls without it.',
      missingSecrets: 'It references imagePullSecrets {{secrets}}, which do not exist in namespace {{namespace}}, so the kubelet pulls without them.',
      secretsExist:
        'It uses {{secretWord}} {{secrets}}, which exist: the credentials are wrong or expired, or were issued for another registry server than {{registry}}.',
      secretsUnknown: 'It references {{secretWord}} {{secrets}}; whether they exist could not be checked (reading Secrets is an opt-in permission).',
      maybeName: 'The registry gives the same answer for a repository that does not exist, so the image name may also be wrong.',
      createSecret:
        'Create the Secret: kubectl create secret docker-registry {{secret}} -n {{namespace}} --docker-server={{registry}} ' +
        '--docker-username=<user> --docker-password=<token>, then list it under spec.imagePullSecrets (or on the ServiceAccount).',
      checkSecret:
        "Check the Secret's server and credentials: kubectl get secret -n {{namespace}} {{secret}} -o jsonpath='{.data.\\.dockerconfigjson}' | base64 -d " +
        "(the server must be {{registry}}; tokens such as ECR's expire after 12h).",
      checkName: 'Check the repository name too: {{ref}}.',
      prevent:
        "Attach pull Secrets to the namespace's ServiceAccount so every pod gets them, " +
        'and rotate registry tokens automatically (credential provider or an operator).',
    },
  },
  check(snapshot, ctx) {
    const pod = snapshot.pod;
    const ns = pod?.metadata?.namespace ?? '';
    const names = (pod?.spec?.imagePullSecrets ?? []).map((s) => s.name).filter((n): n is string => Boolean(n));
    // `snapshot.secrets` is present only with the opt-in permission; without it, never claim a Secret is missing.
    const known = snapshot.secrets;
    const missing = known ? names.filter((n) => known[n] === false) : [];
    const retrieveFailed = newestFirst(eventsWithReason(snapshot, 'FailedToRetrieveImagePullSecret'))[0];

    return pullFindings(
      snapshot,
      ctx,
      // A back-off without the error text (pre-1.32, events gone) still points here when a pull Secret is missing.
      (f) => f.error.class === 'auth' || (f.error.class === 'unknown' && missing.length > 0),
      (f) => {
        const e = f.error;
        const registry = e.registry ?? 'the registry';
        const ambiguous = e.hint === 'pull-access-denied';
        const quoted = (list: string[]) => list.map((m) => `"${m}"`).join(', ');
        const secretWord = (list: string[]) => (list.length > 1 ? 'imagePullSecrets' : 'imagePullSecret');
        const secrets =
          names.length === 0
            ? msg('noSecrets', { serviceAccount: pod?.spec?.serviceAccountName ?? 'default' })
            : missing.length > 0
              ? msg(missing.length > 1 ? 'missingSecrets' : 'missingSecret', { secrets: quoted(missing), namespace: ns })
              : msg(known ? 'secretsExist' : 'secretsUnknown', { secretWord: secretWord(names), secrets: quoted(names), registry });

        const evidence: Evidence[] = [];
        if (names.length > 0) evidence.push({ source: 'pod.spec.imagePullSecrets', text: names.join(', ') });
        if (known) for (const m of missing) evidence.push({ source: `secret ${ns}/${m}`, text: 'does not exist' });
        if (retrieveFailed) evidence.push(eventEvidence(retrieveFailed));

        const secretName = missing[0] ?? names[0] ?? 'regcred';
        const image = f.specImage;
        return {
          title: missing[0] ? msg('titleMissing', { registry, image, secret: missing[0] }) : msg('title', { registry, image }),
          cause: [
            e.class === 'auth' ? msg('refused', { image, phrase: quotePhrase(e), registry }) : msg('keepsFailing', { image }),
            secrets,
            ambiguous && msg('maybeName'),
          ],
          evidence,
          advice: [
            missing.length > 0 || names.length === 0
              ? msg('createSecret', { secret: secretName, namespace: ns, registry })
              : msg('checkSecret', { namespace: ns, secret: secretName, registry }),
            ambiguous && msg('checkName', { ref: e.ref ?? image }),
          ],
          prevent: [msg('prevent')],
          ...(e.class === 'auth' ? {} : { severity: 'warning' as const }),
          ...(missing[0] ? { causeKey: `secret/${ns}/${missing[0]}:image-pull` } : {}),
          params: { ...(names.length > 0 ? { imagePullSecrets: names } : {}), ...(missing.length > 0 ? { missingSecrets: missing } : {}) },
        };
      },
    );
  },
});
