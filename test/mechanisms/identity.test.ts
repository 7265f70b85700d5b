// Cloud workload identity and instance metadata, as a pod meets them: a credential chain that comes
// up empty (the ServiceAccount is not federated), a cloud that refuses the token exchange (its trust
// names another subject), and a metadata endpoint out of the pod's reach. Variants follow the pod
// spec: the env the identity webhooks inject, serviceAccountName, hostNetwork, egress policies.
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { snapshot } from '../helpers/factories.js';
import { type ContainerPatch, describeFamilies, type Row, scopeOf } from '../helpers/mechanism-table.js';

const IRSA_ENV: ContainerPatch = {
  env: [
    { name: 'AWS_ROLE_ARN', value: 'arn:aws:iam::111122223333:role/shop-app' },
    { name: 'AWS_WEB_IDENTITY_TOKEN_FILE', value: '/var/run/secrets/eks.amazonaws.com/serviceaccount/token' },
  ],
};
const AZURE_ENV: ContainerPatch = { env: [{ name: 'AZURE_FEDERATED_TOKEN_FILE', value: '/var/run/secrets/azure/tokens/azure-identity-token' }] };
const SA = { serviceAccountName: 'shop-app' };

const BOTO = 'botocore.exceptions.NoCredentialsError: Unable to locate credentials';
const STS_DENIED =
  'ClientError: An error occurred (AccessDenied) when calling the AssumeRoleWithWebIdentity operation: Not authorized to perform sts:AssumeRoleWithWebIdentity';
const IMDS_TIMEOUT = 'Error: no EC2 IMDS role found, operation error ec2imds: GetMetadata, canceled, context deadline exceeded';

const FAMILIES: Record<string, Row[]> = {
  'cloud identity missing': [
    { line: BOTO, mechanism: 'cloud-identity-missing', variant: 'aws-not-federated', knob: 'metadata.annotations[eks.amazonaws.com/role-arn]', spec: SA },
    { line: BOTO, mechanism: 'cloud-identity-missing', variant: 'aws-default-service-account', knob: 'spec.serviceAccountName' },
    {
      line: 'ERRO[0003] NoCredentialProviders: no valid providers in chain. Deprecated.',
      mechanism: 'cloud-identity-missing',
      variant: 'aws-sdk-skips-web-identity',
      knob: 'the AWS SDK in app',
      container: IRSA_ENV,
      spec: SA,
    },
    {
      line:
        'google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found. To set up Application ' +
        'Default Credentials, see https://cloud.google.com/docs/authentication/external/set-up-adc for more information.',
      mechanism: 'cloud-identity-missing',
      variant: 'gcp-not-federated',
      knob: 'ServiceAccount shop/shop-app metadata.annotations[iam.gke.io/gcp-service-account]',
      spec: SA,
    },
    {
      line: 'could not get provider client: missing environment variables. AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_FEDERATED_TOKEN_FILE must be set.',
      mechanism: 'cloud-identity-missing',
      variant: 'azure-webhook-env-absent',
      knob: 'metadata.labels[azure.workload.identity/use]',
      spec: SA,
    },
    {
      line: 'ClientAuthenticationError: DefaultAzureCredential failed to retrieve a token from the included credentials.',
      mechanism: 'cloud-identity-missing',
      variant: 'not-federated',
      knob: 'ServiceAccount shop/shop-app annotations',
      container: AZURE_ENV,
      spec: SA,
    },
    {
      line: '2025/03/05 21:13:59 Ignoring, HTTP credential provider invalid endpoint host, "169.254.170.23", only loopback hosts are allowed. <nil>',
      mechanism: 'cloud-identity-missing',
      variant: 'aws-sdk-skips-web-identity',
      knob: 'the AWS SDK in app',
      container: { env: [{ name: 'AWS_CONTAINER_CREDENTIALS_FULL_URI', value: 'http://169.254.170.23/v1/credentials' }] },
      spec: SA,
    },
  ],
  'cloud identity trust': [
    {
      line: STS_DENIED,
      mechanism: 'cloud-identity-trust',
      variant: 'aws-trust-subject',
      knob: 'IAM role trust policy Condition StringEquals',
      spec: SA,
      data: { subject: 'system:serviceaccount:shop:shop-app' },
    },
    {
      line: 'caused by: InvalidIdentityToken: No OpenIDConnect provider found in your account for https://oidc.eks.eu-west-1.amazonaws.com/id/xxxx',
      mechanism: 'cloud-identity-trust',
      variant: 'aws-oidc-provider-missing',
      knob: 'IAM OIDC identity provider for https://oidc.eks.eu-west-1.amazonaws.com/id/xxxx',
    },
    {
      line:
        "AADSTS700213: No matching federated identity record found for presented assertion subject 'system:serviceaccount:xxx:yyy'. Check your federated " +
        'identity credential Subject, Audience and Issuer against the presented assertion.',
      mechanism: 'cloud-identity-trust',
      variant: 'azure-federated-subject',
      knob: 'the federated identity credential',
      spec: SA,
      data: { presented: 'system:serviceaccount:xxx:yyy' },
    },
    {
      line:
        '{"error":"unauthorized_client","error_description":"AADSTS700016: Application with identifier \'/subscriptions/a73ced30/resourceGroups/rg/providers/' +
        "Microsoft.ManagedIdentity/userAssignedIdentities/wkload-identity' was not found in the directory 'Contoso'.",
      mechanism: 'cloud-identity-trust',
      variant: 'azure-client-id-unknown',
      knob: 'ServiceAccount shop/shop-app metadata.annotations[azure.workload.identity/client-id]',
      spec: SA,
    },
    {
      line:
        'Unable to generate access token; IAM returned 403 Forbidden: Permission ' +
        "'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).",
      mechanism: 'cloud-identity-trust',
      variant: 'gcp-workload-identity-user',
      knob: 'IAM policy of the Google service account',
      spec: SA,
      data: { gcpMember: 'serviceAccount:<PROJECT_ID>.svc.id.goog[shop/shop-app]' },
    },
  ],
  'cloud metadata unreachable': [
    {
      line: IMDS_TIMEOUT,
      mechanism: 'cloud-metadata-unreachable',
      variant: 'aws-hop-limit',
      knob: 'aws ec2 modify-instance-metadata-options --http-put-response-hop-limit 2',
    },
    {
      line: IMDS_TIMEOUT,
      mechanism: 'cloud-metadata-unreachable',
      variant: 'host-network',
      knob: 'instance metadata options of node-1',
      spec: { hostNetwork: true },
    },
    {
      line:
        '1 Error initializing cloudprober. Err: Get "http://169.254.169.254/computeMetadata/v1/project/project-id": ' +
        'dial tcp 169.254.169.254:80: connect: connection refused',
      mechanism: 'cloud-metadata-unreachable',
      variant: 'gcp-metadata-server',
      knob: 'DaemonSet kube-system/gke-metadata-server on node-1',
    },
    {
      line: "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='169.254.169.254', port=80): Read timed out. (read timeout=5.0)",
      mechanism: 'cloud-metadata-unreachable',
      variant: 'metadata',
      knob: 'NetworkPolicy egress to 169.254.169.254/32',
    },
  ],
};

describeFamilies(FAMILIES);

function policy(name: string, spec: Record<string, unknown>): KubeObject {
  return { kind: 'NetworkPolicy', metadata: { name, namespace: 'shop' }, spec: { podSelector: {}, ...spec } };
}

describe('cloud identity: what the reading says about this pod', () => {
  const read = (line: string, scope = scopeOf({}, SA), policies?: KubeObject[]) => {
    const snap = policies ? snapshot(scope.pod, { history: { configs: [], networkPolicies: policies } }) : undefined;
    return readTexts([{ text: line, source: 'logs app' }], { ...scope, ...(snap ? { snapshot: snap } : {}) });
  };

  it('prints the exact subject the IAM trust policy must name, from the pod namespace and ServiceAccount', () => {
    const r = read(STS_DENIED);
    expect(r?.knobs[0]).toContain('"system:serviceaccount:shop:shop-app"');
    expect(r?.explanation).toContain('sts.amazonaws.com');
    expect(r?.evidence.map((e) => e.text)).toContain('shop-app');
  });

  it('says the webhook env is absent when the container has no AWS_ROLE_ARN', () => {
    const r = read(BOTO);
    expect(r?.explanation).toMatch(/mutating webhook did not run/);
    expect(r?.evidence.find((e) => e.source.endsWith('.env'))?.text).toMatch(/^none of AWS_ROLE_ARN/);
  });

  it('names an egress policy that leaves out 169.254.169.254, and not one that allows it', () => {
    const denyAll = policy('deny-egress', { policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] });
    const r = read(IMDS_TIMEOUT, scopeOf(), [denyAll]);
    expect(r?.variant).toBe('network-policy');
    expect(r?.knobPaths[0]).toBe('NetworkPolicy deny-egress spec.egress');
    const allowMeta = policy('allow-imds', { policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: '169.254.169.254/32' } }] }] });
    expect(read(IMDS_TIMEOUT, scopeOf(), [denyAll, allowMeta])?.variant).toBe('aws-hop-limit');
    const except = policy('all-but-imds', { policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] } }] }] });
    expect(read(IMDS_TIMEOUT, scopeOf(), [except])?.variant).toBe('network-policy');
    const ingressOnly = policy('ingress-only', { policyTypes: ['Ingress'] });
    expect(read(IMDS_TIMEOUT, scopeOf(), [ingressOnly])?.variant).toBe('aws-hop-limit');
  });

  it('keeps a reachable IMDS without a role apart from one that times out', () => {
    const notFound =
      '│ Error: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, http response error StatusCode: 404, ' +
      'request to EC2 IMDS failed';
    expect(read(notFound)?.mechanism).toBe('cloud-identity-missing');
    expect(read(IMDS_TIMEOUT)?.mechanism).toBe('cloud-metadata-unreachable');
  });

  it('reads a refusal of another AWS action (the node role used instead) as something else', () => {
    const nodeRole =
      'AccessDeniedException: User: arn:aws:sts::111122223333:assumed-role/nodegroup-NodeInstanceRole/i-0cee646fefe9d6da9 is not authorized to perform: ' +
      'secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:ap-southeast-2:111122223333:secret:app-nzYAC0';
    expect(read(nodeRole)?.mechanism).not.toBe('cloud-identity-trust');
  });
});

describe("cloud identity: what the pod's ServiceAccount says (snapshot.podServiceAccount)", () => {
  const GCP_ADC =
    'google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found. To set up Application ' +
    'Default Credentials, see https://cloud.google.com/docs/authentication/external/set-up-adc for more information.';
  const AZURE_MISSING =
    'could not get provider client: missing environment variables. AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_FEDERATED_TOKEN_FILE must be set.';
  const read = (line: string, annotations: Record<string, string> | undefined, labels?: Record<string, string>, name = 'shop-app') => {
    const scope = scopeOf({}, SA);
    const pod = labels ? { ...scope.pod, metadata: { ...scope.pod.metadata, labels } } : scope.pod;
    const snap = snapshot(pod, annotations ? { podServiceAccount: { name, exists: true, annotations } } : {});
    return readTexts([{ text: line, source: 'logs app' }], { ...scope, pod, snapshot: snap });
  };
  const ROLE = 'arn:aws:iam::111122223333:role/shop-app';

  it('tells an IAM role set after the pod was admitted from an account no role is bound to', () => {
    const late = read(BOTO, { 'eks.amazonaws.com/role-arn': ROLE });
    expect(late?.variant).toBe('aws-annotated-after-admission');
    expect(late?.summary).toContain(ROLE);
    expect(late?.knobs[0]).toMatch(/rollout restart/);
    expect(late?.evidence.map((e) => e.text)).toContain(`eks.amazonaws.com/role-arn: ${ROLE}`);
    const none = read(BOTO, {});
    expect(none?.variant).toBe('aws-account-not-annotated');
    expect(none?.explanation).toContain('carries no eks.amazonaws.com/role-arn');
    expect(none?.evidence.map((e) => e.text)).toContain('no eks.amazonaws.com/role-arn');
    // Not read (no ServiceAccount fact), or another account than the pod's: the hedged reading stays.
    expect(read(BOTO, undefined)?.variant).toBe('aws-not-federated');
    expect(read(BOTO, { 'eks.amazonaws.com/role-arn': ROLE }, undefined, 'other')?.variant).toBe('aws-not-federated');
  });

  it('keeps the SDK reading when the webhook env is there, whatever the account says', () => {
    const scope = scopeOf(IRSA_ENV, SA);
    const snap = snapshot(scope.pod, { podServiceAccount: { name: 'shop-app', exists: true, annotations: {} } });
    expect(readTexts([{ text: BOTO, source: 'logs app' }], { ...scope, snapshot: snap })?.variant).toBe('aws-sdk-skips-web-identity');
  });

  it('names the Google service account the metadata server should have served, or the missing annotation', () => {
    const gsa = 'shop-app@acme-prod.iam.gserviceaccount.com';
    const annotated = read(GCP_ADC, { 'iam.gke.io/gcp-service-account': gsa });
    expect(annotated?.variant).toBe('gcp-annotated-no-metadata-server');
    expect(annotated?.knobPaths[0]).toContain('--workload-metadata=GKE_METADATA');
    expect(annotated?.summary).toContain(gsa);
    expect(read(GCP_ADC, {})?.variant).toBe('gcp-account-not-annotated');
  });

  it('says whether the pod label or the account annotation keeps the Azure webhook away', () => {
    const client = { 'azure.workload.identity/client-id': '6ad2b3b0-8c4e-4f1e-9d2a-0c6f4f2b9e11' };
    expect(read(AZURE_MISSING, client)?.variant).toBe('azure-pod-not-labelled');
    expect(read(AZURE_MISSING, client, { 'azure.workload.identity/use': 'true' })?.variant).toBe('azure-webhook-env-absent');
    expect(read(AZURE_MISSING, {}, { 'azure.workload.identity/use': 'true' })?.variant).toBe('azure-account-not-annotated');
  });

  it('names the role whose trust refused the token when the account is known', () => {
    expect(read(STS_DENIED, { 'eks.amazonaws.com/role-arn': ROLE })?.explanation).toContain(`the role ${ROLE} does not admit it`);
    expect(read(STS_DENIED, undefined)?.explanation).toContain('the role in eks.amazonaws.com/role-arn');
  });
});
