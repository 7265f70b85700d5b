import { describe, expect, it } from 'vitest';
import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './image-auth.js';

const pulling = (image: string, reason: string, message?: string, pullSecrets?: string[]) =>
  waitingPod(reason, message, {
    spec: { containers: [{ name: 'web', image }], ...(pullSecrets ? { imagePullSecrets: pullSecrets.map((name) => ({ name })) } : {}) },
  });

const HARBOR =
  'failed to pull and unpack image "harbor.example.com/team/app:1.0": failed to resolve reference "harbor.example.com/team/app:1.0": pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials';
const DOCKER_401 =
  'Failed to pull image "docker02:35000/rhel7/app:latest": rpc error: code = Unknown desc = Error response from daemon: Get https://docker02:35000/v2/rhel7/app/manifests/latest: unauthorized: authentication required';
const CONTAINERD_401 =
  'Back-off pulling image "ghcr.io/acme/private:2.1": ErrImagePull: failed to pull and unpack image "ghcr.io/acme/private:2.1": failed to resolve reference "ghcr.io/acme/private:2.1": failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://ghcr.io/token?scope=repository%3Aacme%2Fprivate%3Apull&service=ghcr.io: 401 Unauthorized';

const dockerPod = pulling('docker02:35000/rhel7/app:latest', 'ImagePullBackOff', 'Back-off pulling image "docker02:35000/rhel7/app:latest"', ['regcred']);
const dockerEvents = [
  event(dockerPod, {
    reason: 'FailedToRetrieveImagePullSecret',
    count: 9,
    message: 'Unable to retrieve some image pull secrets (regcred); attempting to pull the image may not succeed.',
  }),
  event(dockerPod, { reason: 'Failed', count: 9, message: DOCKER_401 }),
];

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    { name: 'tag not found is image.not-found', snapshot: snapshot(pulling('ghcr.io/acme/api:v9', 'ErrImagePull', 'ghcr.io/acme/api:v9: not found')) },
    {
      name: 'old back-off without error text, Secrets not readable: no claim',
      snapshot: snapshot(pulling('ghcr.io/acme/private:2.1', 'ImagePullBackOff', 'Back-off pulling image "ghcr.io/acme/private:2.1"', ['regcred'])),
    },
  ],
  invalid: [
    {
      name: 'containerd, Harbor without credentials: pull access denied, no imagePullSecrets',
      snapshot: snapshot(pulling('harbor.example.com/team/app:1.0', 'ErrImagePull', HARBOR)),
      expect: {
        severity: 'error',
        causeKey: 'image/harbor.example.com/team/app:1.0:auth',
        params: { container: 'web', registry: 'harbor.example.com' },
        said: ['noSecrets', 'maybeName'],
        quotes: [/no basic auth credentials/],
      },
    },
    {
      name: 'docker era: 401 and an imagePullSecret that does not exist (secrets readable)',
      snapshot: snapshot(dockerPod, { events: dockerEvents, secrets: { regcred: false } }),
      expect: {
        causeKey: 'secret/shop/regcred:image-pull',
        params: { missingSecrets: ['regcred'], imagePullSecrets: ['regcred'], registry: 'docker02:35000' },
        said: [
          { id: 'missingSecret', data: { namespace: 'shop', secrets: '"regcred"' } },
          { id: 'refused', data: { phrase: '"unauthorized: authentication required"' } },
        ],
        quotes: [/Unable to retrieve some image pull secrets/],
      },
    },
    {
      name: 'containerd >= 1.32 back-off: 401 although the Secret exists',
      snapshot: snapshot(pulling('ghcr.io/acme/private:2.1', 'ImagePullBackOff', CONTAINERD_401, ['ghcr-creds']), { secrets: { 'ghcr-creds': true } }),
      expect: { causeKey: 'image/ghcr.io/acme/private:2.1:auth', said: ['secretsExist'], quotes: [/401 Unauthorized/] },
    },
    {
      name: 'CRI-O: unauthorized, Secrets not readable: not verified, not claimed missing',
      snapshot: snapshot(
        pulling(
          'quay.io/acme/private:1.0',
          'ErrImagePull',
          'initializing source docker://quay.io/acme/private:1.0: reading manifest 1.0 in quay.io/acme/private: unauthorized: access to the requested resource is not authorized',
          ['quay-creds'],
        ),
      ),
      expect: { said: ['secretsUnknown'] },
    },
    {
      name: 'CRI-O 1.27+: Docker Hub DENIED without its code, no imagePullSecrets (missing or private: both said)',
      snapshot: snapshot(
        pulling(
          'acme/billing:2.3',
          'ErrImagePull',
          'initializing source docker://acme/billing:2.3: reading manifest 2.3 in docker.io/acme/billing: requested access to the resource is denied',
        ),
      ),
      expect: {
        causeKey: 'image/docker.io/acme/billing:2.3:auth',
        said: ['noSecrets', 'maybeName', { id: 'refused', data: { phrase: '"requested access to the resource is denied"' } }],
      },
    },
    {
      name: 'CRI-O: the token endpoint refuses the credentials ("Requesting bearer token: invalid status code from registry 403")',
      snapshot: snapshot(
        pulling(
          'quay.io/acme/private:1.0',
          'ErrImagePull',
          'initializing source docker://quay.io/acme/private:1.0: Requesting bearer token: invalid status code from registry 403 (Forbidden)',
          ['quay-creds'],
        ),
        { secrets: { 'quay-creds': true } },
      ),
      expect: {
        causeKey: 'image/quay.io/acme/private:1.0:auth',
        said: [{ id: 'refused', data: { phrase: /Requesting bearer token: invalid status code from registry 403/ } }],
      },
    },
    {
      name: 'containerd 2.1 (transfer service): failed to resolve image: failed to authorize ... 401 Unauthorized',
      snapshot: snapshot(
        pulling(
          'acrlaba1e1193.azurecr.io/labs/payments-api:1.8.0',
          'ErrImagePull',
          'failed to pull and unpack image "acrlaba1e1193.azurecr.io/labs/payments-api:1.8.0": failed to resolve image: failed to authorize: ' +
            'failed to fetch anonymous token: unexpected status from GET request to ' +
            'https://acrlaba1e1193.azurecr.io/oauth2/token?scope=repository%3Alabs%2Fpayments-api%3Apull&service=acrlaba1e1193.azurecr.io: 401 Unauthorized',
        ),
      ),
      expect: { causeKey: 'image/acrlaba1e1193.azurecr.io/labs/payments-api:1.8.0:auth', quotes: [/401 Unauthorized/] },
    },
    {
      name: 'pre-1.32 back-off, events gone, but the pull Secret is missing',
      snapshot: snapshot(pulling('ghcr.io/acme/private:2.1', 'ImagePullBackOff', 'Back-off pulling image "ghcr.io/acme/private:2.1"', ['regcred']), {
        secrets: { regcred: false },
      }),
      expect: { severity: 'warning', causeKey: 'secret/shop/regcred:image-pull' },
    },
  ],
});

describe('image.auth', () => {
  it('never says a Secret is missing when Secrets could not be read', () => {
    const [f] = findingsOf(rule, snapshot(dockerPod, { events: dockerEvents }));
    expect(f?.cause).not.toMatch(/does not exist/);
    expect(f?.causeKey).toBe('image/docker02:35000/rhel7/app:latest:auth');
  });
  it('advises creating a docker-registry Secret for the registry', () => {
    const [f] = findingsOf(rule, snapshot(pulling('harbor.example.com/team/app:1.0', 'ErrImagePull', HARBOR)));
    expect(f?.advice.join('\n')).toMatch(/kubectl create secret docker-registry regcred -n shop --docker-server=harbor\.example\.com/);
  });
});
