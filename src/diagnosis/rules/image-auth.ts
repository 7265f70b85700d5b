// image.auth: Registry refuses the pull: credentials missing or wrong.

import { eventEvidence, eventsWithReason, newestFirst } from '../facts.js';
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
    doc: 'The registry answers "unauthorized", "authentication required", "no basic auth credentials" or "pull access denied" (which registries also say for a repository that does not exist). Checks `imagePullSecrets`: none set, or naming a Secret missing from the namespace (only when Secrets may be read).',
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
        let secrets: string;
        if (names.length === 0)
          secrets = `The pod has no imagePullSecrets (neither in its spec nor from its ServiceAccount "${pod?.spec?.serviceAccountName ?? 'default'}"), so the node pulls anonymously.`;
        else if (missing.length > 0)
          secrets = `It references imagePullSecret${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}, which do${missing.length > 1 ? '' : 'es'} not exist in namespace ${ns}, so the kubelet pulls without ${missing.length > 1 ? 'them' : 'it'}.`;
        else if (known)
          secrets = `It uses imagePullSecret${names.length > 1 ? 's' : ''} ${names.map((m) => `"${m}"`).join(', ')}, which exist: the credentials are wrong or expired, or were issued for another registry server than ${registry}.`;
        else
          secrets = `It references imagePullSecret${names.length > 1 ? 's' : ''} ${names.map((m) => `"${m}"`).join(', ')}; whether they exist could not be checked (reading Secrets is an opt-in permission).`;

        const evidence: Evidence[] = [];
        if (names.length > 0) evidence.push({ source: 'pod.spec.imagePullSecrets', text: names.join(', ') });
        if (known) for (const m of missing) evidence.push({ source: `secret ${ns}/${m}`, text: 'does not exist' });
        if (retrieveFailed) evidence.push(eventEvidence(retrieveFailed));

        const secretName = missing[0] ?? names[0] ?? 'regcred';
        return {
          title: `Registry ${registry} refuses to pull ${f.specImage}${missing.length > 0 ? `: imagePullSecret ${missing[0]} is missing` : ''}`,
          cause: `${e.class === 'auth' ? `Pulling ${f.specImage} fails with ${quotePhrase(e)}: ${registry} wants valid credentials.` : `Pulling ${f.specImage} keeps failing (the kubelet no longer shows why).`} ${secrets}${ambiguous ? ' The registry gives the same answer for a repository that does not exist, so the image name may also be wrong.' : ''}`,
          evidence,
          advice: [
            ...(missing.length > 0 || names.length === 0
              ? [
                  `Create the Secret: kubectl create secret docker-registry ${secretName} -n ${ns} --docker-server=${registry} --docker-username=<user> --docker-password=<token>, then list it under spec.imagePullSecrets (or on the ServiceAccount).`,
                ]
              : [
                  `Check the Secret's server and credentials: kubectl get secret -n ${ns} ${secretName} -o jsonpath='{.data.\\.dockerconfigjson}' | base64 -d (the server must be ${registry}; tokens such as ECR's expire after 12h).`,
                ]),
            ...(ambiguous ? [`Check the repository name too: ${e.ref ?? f.specImage}.`] : []),
          ],
          prevent: [
            "Attach pull Secrets to the namespace's ServiceAccount so every pod gets them, and rotate registry tokens automatically (credential provider or an operator).",
          ],
          ...(e.class === 'auth' ? {} : { severity: 'warning' as const }),
          ...(missing[0] ? { causeKey: `secret/${ns}/${missing[0]}:image-pull` } : {}),
          params: { ...(names.length > 0 ? { imagePullSecrets: names } : {}), ...(missing.length > 0 ? { missingSecrets: missing } : {}) },
        };
      },
    );
  },
});
