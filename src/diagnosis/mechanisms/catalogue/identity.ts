// Cloud workload identity and the instance metadata endpoint, as a pod meets them: the SDK's
// credential chain comes up empty because the pod's ServiceAccount is not federated to a cloud
// identity (IRSA / EKS Pod Identity, GKE Workload Identity, Azure Workload Identity); the cloud
// refuses the token exchange because its trust names another subject; or the SDK cannot reach
// 169.254.169.254 from the pod's network. The variants read what the pod spec shows
// (serviceAccountName, the env a mutating webhook injects, hostNetwork, the NetworkPolicies that
// select the pod) and, when the collector read it, the ServiceAccount's identity annotations
// (snapshot.podServiceAccount): they tell "never federated" from "federated after this pod was made".
import { cidrCovers } from '../../../kube/ip.js';
import type { Evidence, KubeObject } from '../../types.js';
import { containerPath } from '../context.js';
import { mechanisms, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

type Cloud = 'aws' | 'gcp' | 'azure';

const AZURE = /Azure|AADSTS|ManagedIdentityCredential|WorkloadIdentityCredential|login\.microsoftonline/i;
const GCP = /google|gcp|computeMetadata|DefaultCredentialsError|Application Default Credentials|default credentials|iam\.serviceAccounts|svc\.id\.goog/i;
const AWS = re(
  'NoCredentialProviders|botocore|\\bAWS|aws-sdk|awssdk|amazonaws|\\bsts[:.]|AssumeRoleWithWebIdentity|WebIdentity|OpenIDConnect|\\bEC2|ec2imds|IMDS|',
  'CredentialsProviderError|Could not load credentials from any providers|Unable to locate credentials|latest/(?:meta-data|dynamic|api/token)|',
  // The container credentials endpoints of ECS (169.254.170.2) and EKS Pod Identity (169.254.170.23).
  '169\\.254\\.170\\.2',
);

/** Which cloud's SDK printed the line: its own words name it (Azure and Google first: their lines never name AWS). */
function cloudOf(ctx: ReadingContext): Cloud | undefined {
  const text = ctx.line;
  if (AZURE.test(text)) return 'azure';
  if (GCP.test(text)) return 'gcp';
  if (AWS.test(text)) return 'aws';
  return undefined;
}

function envNames(ctx: ReadingContext): string[] {
  return (ctx.container?.env ?? []).map((e) => e.name);
}

/** The env the EKS Pod Identity webhook (IRSA) or the Pod Identity agent's webhook injects at admission. */
const AWS_WEB_IDENTITY_ENV = ['AWS_ROLE_ARN', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI'];
/** The env the Azure Workload Identity webhook injects into a pod labelled azure.workload.identity/use: "true". */
const AZURE_WEBHOOK_ENV = 'AZURE_FEDERATED_TOKEN_FILE';

/** The pod's ServiceAccount and the subject its projected token carries: what a cloud's trust must name. */
function identity(ctx: ReadingContext) {
  const ns = ctx.pod?.metadata?.namespace || '<namespace>';
  const named = ctx.pod?.spec?.serviceAccountName;
  const sa = named || 'default';
  return {
    sa,
    saNamespace: ns,
    subject: `system:serviceaccount:${ns}:${sa}`,
    gcpMember: `serviceAccount:<PROJECT_ID>.svc.id.goog[${ns}/${sa}]`,
    saNote: named ? '' : ' The pod names no serviceAccountName, so it runs as ServiceAccount default.',
  };
}

function envFact(ctx: ReadingContext, names: readonly string[]): Evidence {
  const present = envNames(ctx).filter((n) => names.includes(n));
  return {
    source: `pod.${containerPath(ctx)}.env`,
    text: present.length > 0 ? `${present.join(', ')} set` : `none of ${names.join(', ')}`,
  };
}

function saFact(ctx: ReadingContext): Evidence {
  return specFact(ctx, 'spec.serviceAccountName', ctx.pod?.spec?.serviceAccountName ?? '(not set: default)');
}

const ROLE_ARN = 'eks.amazonaws.com/role-arn';
const GKE_SA = 'iam.gke.io/gcp-service-account';
const AZURE_CLIENT_ID = 'azure.workload.identity/client-id';
const AZURE_USE = 'azure.workload.identity/use';

/** The pod's ServiceAccount's identity annotations, when the collector read the account (undefined: not known). */
function accountAnnotations(ctx: ReadingContext): Record<string, string> | undefined {
  const sa = ctx.snapshot?.podServiceAccount;
  return sa?.exists && sa.name === identity(ctx).sa ? sa.annotations : undefined;
}

/** The annotation as evidence: what the account names, or that it names nothing. */
function annotationFact(ctx: ReadingContext, key: string): Evidence {
  const { sa, saNamespace } = identity(ctx);
  const value = accountAnnotations(ctx)?.[key];
  return { source: `ServiceAccount ${saNamespace}/${sa} metadata.annotations`, text: value ? `${key}: ${value}` : `no ${key}` };
}

/** The account names `key` (data for the placeholders), or undefined. */
function annotated(ctx: ReadingContext, key: string): { value: string } | undefined {
  const value = accountAnnotations(ctx)?.[key];
  return value ? { value } : undefined;
}

/** The account was read and does not carry `key`. */
const lacks = (ctx: ReadingContext, key: string) => accountAnnotations(ctx) !== undefined && !accountAnnotations(ctx)?.[key];

// --- NetworkPolicy egress to the metadata address ----------------------------------------------

const METADATA_IP = '169.254.169.254';

interface EgressSpec {
  policyTypes?: string[];
  egress?: { to?: { ipBlock?: { cidr?: string; except?: string[] } }[] }[];
}

/** A rule with no `to` allows every destination; an ipBlock allows the address when it covers it and no `except` takes it out. */
function allowsMetadata(spec: EgressSpec): boolean {
  return (spec.egress ?? []).some(
    (rule) =>
      !rule.to ||
      rule.to.length === 0 ||
      rule.to.some((peer) => {
        const b = peer.ipBlock;
        return !!b?.cidr && cidrCovers(b.cidr, METADATA_IP) === true && !(b.except ?? []).some((e) => cidrCovers(e, METADATA_IP) === true);
      }),
  );
}

/** Policies that select the pod for egress, when none of them lets it reach 169.254.169.254 (egress rules add up). */
function blockingPolicies(ctx: ReadingContext): KubeObject[] {
  const egress = (ctx.snapshot?.history?.networkPolicies ?? []).filter((p) => {
    const s = p.spec as EgressSpec | undefined;
    return !!s && ((s.policyTypes ?? []).includes('Egress') || s.egress !== undefined);
  });
  if (egress.length === 0 || egress.some((p) => allowsMetadata(p.spec as EgressSpec))) return [];
  return egress;
}

const policyNames = (ps: KubeObject[]) => ps.map((p) => `NetworkPolicy ${p.metadata?.name ?? '?'}`).join(', ');

export const MECHANISMS = mechanisms([
  {
    id: 'cloud-identity-missing',
    kind: 'setting',
    resource: "a cloud identity federated to the pod's ServiceAccount",
    doc:
      "A cloud SDK walked its whole default credential chain (env keys, files, web identity, the instance's metadata endpoint) and found no credentials: " +
      "the pod's ServiceAccount is not federated to a cloud identity (IRSA or EKS Pod Identity, GKE Workload Identity, Azure Workload Identity), " +
      'or the pod runs under another ServiceAccount than the annotated one.',
    variants: [
      {
        id: 'aws-sdk-skips-web-identity',
        when: (ctx) => cloudOf(ctx) === 'aws' && envNames(ctx).some((n) => AWS_WEB_IDENTITY_ENV.includes(n)) && identity(ctx),
        summary: 'the AWS SDK finds no credentials although the pod carries the web identity env',
        explain:
          'The webhook did its part: the container has the role and token env of IRSA or EKS Pod Identity, yet the SDK found no credentials. ' +
          'The SDK in the image does not read them: one older than web identity (or Pod Identity) support, a Java SDK v1 without aws-java-sdk-sts ' +
          'on the classpath, or code that builds its own provider chain without the web identity provider.',
        knobs: [
          {
            place: 'image',
            path: 'the AWS SDK in {{container}}',
            change: 'update it to a version that reads AWS_WEB_IDENTITY_TOKEN_FILE (and add the STS module where it is separate)',
          },
          { place: 'app', path: "the app's credentials provider", change: "use the SDK's default chain rather than a fixed list of providers" },
        ],
        facts: (ctx) => [envFact(ctx, AWS_WEB_IDENTITY_ENV)],
      },
      {
        id: 'aws-annotated-after-admission',
        when: (ctx) => {
          const role = cloudOf(ctx) === 'aws' && annotated(ctx, ROLE_ARN);
          return !!role && { ...identity(ctx), roleArn: role.value };
        },
        summary: 'no AWS credentials in the pod although ServiceAccount {{saNamespace}}/{{sa}} names IAM role {{roleArn}}',
        explain:
          'ServiceAccount {{saNamespace}}/{{sa}} carries eks.amazonaws.com/role-arn {{roleArn}}, but the container has no AWS_ROLE_ARN or ' +
          'AWS_WEB_IDENTITY_TOKEN_FILE: the EKS pod identity webhook adds them only when it admits a pod. This pod was created before the ' +
          'annotation was set, or the webhook did not mutate it (it was down and its failurePolicy let the pod through). The node offered ' +
          'no instance role either, so the SDK found nothing.',
        knobs: [
          { place: 'pod', path: "the pod's workload", change: 'recreate the pods (kubectl rollout restart) so the webhook injects the role and token' },
          {
            place: 'cluster',
            path: 'MutatingWebhookConfiguration pod-identity-webhook',
            change: 'if new pods still lack AWS_ROLE_ARN, check the webhook runs and its objectSelector/namespaceSelector admit the pod',
          },
        ],
        facts: (ctx) => [annotationFact(ctx, ROLE_ARN), envFact(ctx, AWS_WEB_IDENTITY_ENV)],
      },
      {
        id: 'aws-default-service-account',
        when: (ctx) => cloudOf(ctx) === 'aws' && !ctx.pod?.spec?.serviceAccountName && identity(ctx),
        summary: 'no AWS identity: the pod runs as ServiceAccount default, which no IAM role is bound to',
        explain:
          'The AWS SDK found no credentials: the pod names no serviceAccountName, so it runs as {{saNamespace}}/default, and the IRSA webhook injected no ' +
          'AWS_ROLE_ARN or token file, since default carries no eks.amazonaws.com/role-arn annotation. The node offered no instance role either.',
        knobs: [
          { place: 'pod', path: 'spec.serviceAccountName', change: 'name the ServiceAccount annotated with the IAM role (its chart or manifests create one)' },
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/<sa> metadata.annotations[eks.amazonaws.com/role-arn]',
            change: 'annotate it with the role ARN, or create an EKS Pod Identity association for it; then recreate the pods',
          },
        ],
        facts: (ctx) => [saFact(ctx), envFact(ctx, AWS_WEB_IDENTITY_ENV)],
      },
      {
        id: 'aws-account-not-annotated',
        when: (ctx) => cloudOf(ctx) === 'aws' && lacks(ctx, ROLE_ARN) && identity(ctx),
        summary: 'no AWS identity: ServiceAccount {{saNamespace}}/{{sa}} has no eks.amazonaws.com/role-arn',
        explain:
          'The AWS SDK found no credentials. ServiceAccount {{saNamespace}}/{{sa}}, which the pod runs as, carries no eks.amazonaws.com/role-arn ' +
          'annotation, so no IAM role is bound to it and the IRSA webhook gave the container no AWS_ROLE_ARN or token file; the node offered ' +
          'no instance role either.',
        knobs: [
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[eks.amazonaws.com/role-arn]',
            change: 'set the IAM role ARN (or create an EKS Pod Identity association for {{saNamespace}}/{{sa}}), then recreate the pods',
          },
          { place: 'pod', path: 'spec.serviceAccountName', change: 'or name the ServiceAccount that carries the annotation' },
        ],
        facts: (ctx) => [saFact(ctx), annotationFact(ctx, ROLE_ARN), envFact(ctx, AWS_WEB_IDENTITY_ENV)],
      },
      {
        id: 'aws-not-federated',
        when: (ctx) => cloudOf(ctx) === 'aws' && identity(ctx),
        summary: 'no AWS identity: ServiceAccount {{saNamespace}}/{{sa}} is not bound to an IAM role',
        explain:
          'The AWS SDK found no credentials. The container has neither AWS_ROLE_ARN nor AWS_WEB_IDENTITY_TOKEN_FILE (nor the Pod Identity URI), so the ' +
          'mutating webhook did not run for this pod or ServiceAccount {{saNamespace}}/{{sa}} had no eks.amazonaws.com/role-arn annotation when the pod was ' +
          'created (the webhook adds the env only at admission), and the node offered no instance role.',
        knobs: [
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[eks.amazonaws.com/role-arn]',
            change: 'set the IAM role ARN (or create an EKS Pod Identity association for {{saNamespace}}/{{sa}}), then recreate the pods',
          },
          { place: 'pod', path: 'spec.serviceAccountName', change: 'check it names the ServiceAccount that carries the annotation' },
        ],
        facts: (ctx) => [saFact(ctx), envFact(ctx, AWS_WEB_IDENTITY_ENV)],
      },
      {
        id: 'gcp-annotated-no-metadata-server',
        when: (ctx) => {
          const gsa = cloudOf(ctx) === 'gcp' && annotated(ctx, GKE_SA);
          return !!gsa && { ...identity(ctx), gsa: gsa.value, node: ctx.pod?.spec?.nodeName ?? 'its node' };
        },
        summary: 'no Google credentials although ServiceAccount {{saNamespace}}/{{sa}} names {{gsa}}',
        explain:
          'ServiceAccount {{saNamespace}}/{{sa}} names the Google service account {{gsa}}, yet the client found no Application Default ' +
          'Credentials: only the GKE metadata server hands out that identity, and this pod did not get a token from it. The node pool of ' +
          "{{node}} does not run it (Workload Identity is off for the pool), or the pod bypasses it (hostNetwork pods reach the node's own " +
          'metadata server).',
        knobs: [
          { place: 'node', path: 'the node pool of {{node}} (--workload-metadata=GKE_METADATA)', change: 'enable Workload Identity on the pool' },
          { place: 'pod', path: 'spec.hostNetwork', change: 'leave it unset for pods that use Workload Identity' },
        ],
        facts: (ctx) => [annotationFact(ctx, GKE_SA)],
      },
      {
        id: 'gcp-account-not-annotated',
        when: (ctx) => cloudOf(ctx) === 'gcp' && lacks(ctx, GKE_SA) && identity(ctx),
        summary: 'no Google credentials: ServiceAccount {{saNamespace}}/{{sa}} has no iam.gke.io/gcp-service-account',
        explain:
          'The Google client found no Application Default Credentials. Under GKE Workload Identity a pod gets a token only when its ' +
          'ServiceAccount names a Google service account, and {{saNamespace}}/{{sa}} carries no iam.gke.io/gcp-service-account annotation.{{saNote}}',
        knobs: [
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[iam.gke.io/gcp-service-account]',
            change: 'set the Google service account email, and grant roles/iam.workloadIdentityUser to {{gcpMember}} on it',
          },
          { place: 'pod', path: 'spec.serviceAccountName', change: 'or name the ServiceAccount that carries the annotation' },
        ],
        facts: (ctx) => [saFact(ctx), annotationFact(ctx, GKE_SA)],
      },
      {
        id: 'gcp-not-federated',
        when: (ctx) => cloudOf(ctx) === 'gcp' && identity(ctx),
        summary: 'no Google credentials: ServiceAccount {{saNamespace}}/{{sa}} is not bound to a Google service account',
        explain:
          'The Google client found no Application Default Credentials: no GOOGLE_APPLICATION_CREDENTIALS file, and no token from the metadata server. ' +
          'Under GKE Workload Identity a pod gets one only when its ServiceAccount {{saNamespace}}/{{sa}} names a Google service account ' +
          'and the node pool runs the GKE metadata server.{{saNote}}',
        knobs: [
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[iam.gke.io/gcp-service-account]',
            change: 'set the Google service account email, and grant roles/iam.workloadIdentityUser to {{gcpMember}} on it',
          },
          { place: 'node', path: 'the node pool of {{node}} (--workload-metadata=GKE_METADATA)', change: 'enable Workload Identity on the pool' },
          { place: 'pod', path: 'spec.serviceAccountName', change: 'check it names the annotated ServiceAccount' },
        ],
        facts: (ctx) => [saFact(ctx)],
      },
      {
        id: 'azure-pod-not-labelled',
        when: (ctx) =>
          cloudOf(ctx) === 'azure' &&
          !envNames(ctx).includes(AZURE_WEBHOOK_ENV) &&
          !!annotated(ctx, AZURE_CLIENT_ID) &&
          ctx.pod?.metadata?.labels?.[AZURE_USE] !== 'true' &&
          identity(ctx),
        summary: 'no Azure credentials: the pod lacks the label azure.workload.identity/use: "true"',
        explain:
          'ServiceAccount {{saNamespace}}/{{sa}} carries azure.workload.identity/client-id, but the Azure Workload Identity webhook mutates only pods ' +
          'labelled azure.workload.identity/use: "true", and this one is not: the container got no AZURE_FEDERATED_TOKEN_FILE, so the SDK found ' +
          'no credentials.',
        knobs: [{ place: 'pod', path: 'metadata.labels[azure.workload.identity/use]', change: 'set "true" on the pod template, then recreate the pods' }],
        facts: (ctx) => [
          annotationFact(ctx, AZURE_CLIENT_ID),
          { source: 'pod.metadata.labels', text: `${AZURE_USE}: ${ctx.pod?.metadata?.labels?.[AZURE_USE] ?? '(not set)'}` },
          envFact(ctx, [AZURE_WEBHOOK_ENV, 'AZURE_CLIENT_ID']),
        ],
      },
      {
        id: 'azure-account-not-annotated',
        when: (ctx) => cloudOf(ctx) === 'azure' && !envNames(ctx).includes(AZURE_WEBHOOK_ENV) && lacks(ctx, AZURE_CLIENT_ID) && identity(ctx),
        summary: 'no Azure credentials: ServiceAccount {{saNamespace}}/{{sa}} has no azure.workload.identity/client-id',
        explain:
          'The Azure SDK found no credentials it could use: ServiceAccount {{saNamespace}}/{{sa}} carries no azure.workload.identity/client-id ' +
          'annotation, so no managed identity or app registration is federated to it and the container has no AZURE_FEDERATED_TOKEN_FILE.{{saNote}}',
        knobs: [
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[azure.workload.identity/client-id]',
            change: 'set the client ID of the managed identity or app registration (and a federated credential for {{subject}})',
          },
          { place: 'pod', path: 'metadata.labels[azure.workload.identity/use]', change: 'set "true" on the pod template, then recreate the pods' },
        ],
        facts: (ctx) => [saFact(ctx), annotationFact(ctx, AZURE_CLIENT_ID)],
      },
      {
        id: 'azure-webhook-env-absent',
        when: (ctx) => cloudOf(ctx) === 'azure' && !envNames(ctx).includes(AZURE_WEBHOOK_ENV) && identity(ctx),
        summary: 'no Azure credentials: the Workload Identity webhook did not inject its token into the pod',
        explain:
          'The Azure SDK found no credentials it could use: the container has no AZURE_FEDERATED_TOKEN_FILE (nor AZURE_CLIENT_ID), so the Azure Workload ' +
          'Identity webhook did not mutate this pod: the pod lacks the label azure.workload.identity/use: "true", or ServiceAccount ' +
          '{{saNamespace}}/{{sa}} lacks the azure.workload.identity/client-id annotation.{{saNote}}',
        knobs: [
          { place: 'pod', path: 'metadata.labels[azure.workload.identity/use]', change: 'set "true" on the pod template, then recreate the pods' },
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[azure.workload.identity/client-id]',
            change: 'set the client ID of the managed identity or app registration',
          },
        ],
        facts: (ctx) => [saFact(ctx), envFact(ctx, [AZURE_WEBHOOK_ENV, 'AZURE_CLIENT_ID'])],
      },
      {
        id: 'not-federated',
        when: (ctx) => identity(ctx),
        summary: 'the cloud SDK finds no credentials for ServiceAccount {{saNamespace}}/{{sa}}',
        explain:
          "The cloud SDK's credential chain came up empty: nothing in the env, no credentials file, and no identity federated to ServiceAccount " +
          '{{saNamespace}}/{{sa}}.{{saNote}}',
        knobs: [
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} annotations',
            change: 'federate it to a cloud identity (eks.amazonaws.com/role-arn, iam.gke.io/gcp-service-account, azure.workload.identity/client-id)',
          },
          { place: 'pod', path: 'spec.serviceAccountName', change: 'check it names the federated ServiceAccount' },
        ],
        facts: (ctx) => [saFact(ctx)],
      },
    ],
  },
  {
    id: 'cloud-identity-trust',
    kind: 'permission',
    resource: "a cloud trust that names the pod's ServiceAccount",
    doc:
      "The pod presents its ServiceAccount token and the cloud refuses to exchange it: the IAM role's trust policy, the federated identity credential or " +
      "the workloadIdentityUser binding names another subject (namespace/ServiceAccount), audience or issuer, or the cluster's OIDC issuer is not registered.",
    variants: [
      {
        id: 'aws-oidc-provider-missing',
        when: (ctx) => /OpenIDConnect provider/i.test(ctx.line) && { ...identity(ctx), issuer: ctx.groups.issuer ?? "the cluster's OIDC issuer" },
        summary: "STS does not know the cluster's OIDC issuer",
        explain:
          'AWS STS refused the web identity token because the account has no IAM OIDC identity provider for {{issuer}}, the issuer that signs the ' +
          "cluster's ServiceAccount tokens: IRSA was never enabled for this cluster in this " +
          'account, or the provider was deleted (a recreated cluster has a new issuer).',
        knobs: [
          {
            place: 'cluster',
            path: 'IAM OIDC identity provider for {{issuer}}',
            change: 'create it (eksctl utils associate-iam-oidc-provider --cluster <cluster> --approve), with audience sts.amazonaws.com',
          },
          { place: 'cluster', path: 'IAM role trust policy Principal.Federated', change: "name that provider's ARN" },
        ],
      },
      {
        id: 'aws-trust-subject',
        when: (ctx) => cloudOf(ctx) === 'aws' && { ...identity(ctx), role: annotated(ctx, ROLE_ARN)?.value ?? 'in eks.amazonaws.com/role-arn' },
        summary: "the IAM role's trust policy does not admit {{subject}}",
        explain:
          'AWS STS refused AssumeRoleWithWebIdentity: the token is valid, but the trust policy of the role {{role}} does not admit it. ' +
          'Its Condition must match sub {{subject}} (this pod runs as ServiceAccount {{saNamespace}}/{{sa}}) and aud sts.amazonaws.com, ' +
          "and its Federated principal must be this cluster's OIDC provider.{{saNote}}",
        knobs: [
          {
            place: 'cluster',
            path: 'IAM role trust policy Condition StringEquals oidc.eks.<region>.amazonaws.com/id/<ID>:sub',
            change: 'set "{{subject}}" (and :aud "sts.amazonaws.com")',
          },
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[eks.amazonaws.com/role-arn]',
            change: 'check it names the role whose trust policy was edited',
          },
        ],
        facts: (ctx) => [saFact(ctx), ...(accountAnnotations(ctx) ? [annotationFact(ctx, ROLE_ARN)] : [])],
      },
      {
        id: 'azure-client-id-unknown',
        when: (ctx) => ctx.groups.clientId !== undefined && { ...identity(ctx), clientId: ctx.groups.clientId },
        summary: 'Entra ID knows no application {{clientId}} in this tenant',
        explain:
          'Microsoft Entra ID refused the token request: the client ID the pod presents, {{clientId}}, names no application or managed identity in the ' +
          "tenant asked. The ServiceAccount's azure.workload.identity/client-id holds something else than the identity's client ID (a GUID: its resource " +
          'ID or name, a placeholder), or the tenant ID points at another tenant.',
        knobs: [
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[azure.workload.identity/client-id]',
            change: "set the managed identity's or app registration's client ID (az identity show --query clientId), then recreate the pods",
          },
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[azure.workload.identity/tenant-id]',
            change: "check it names the identity's tenant",
          },
        ],
        facts: (ctx) => [saFact(ctx)],
      },
      {
        id: 'azure-federated-subject',
        when: (ctx) =>
          cloudOf(ctx) === 'azure' && {
            ...identity(ctx),
            presentedPhrase: ctx.groups.presented ? `The token presented subject ${ctx.groups.presented}. ` : '',
          },
        summary: 'no federated identity credential matches {{subject}}',
        explain:
          "Microsoft Entra ID refused the pod's token: no federated identity credential on the identity in azure.workload.identity/client-id matches its " +
          "issuer, subject and audience together. {{presentedPhrase}}The credential's subject must be {{subject}} (ServiceAccount {{saNamespace}}/{{sa}}), " +
          "its issuer the cluster's OIDC issuer URL, its audience api://AzureADTokenExchange.{{saNote}}",
        knobs: [
          {
            place: 'cluster',
            path: 'the federated identity credential of the managed identity or app registration (subject, issuer, audience)',
            change: "set subject {{subject}} and the cluster's issuer (az aks show --query oidcIssuerProfile.issuerUrl); matching is case-sensitive",
          },
          { place: 'pod', path: 'spec.serviceAccountName', change: 'or run the pod as the ServiceAccount the credential names' },
        ],
        facts: (ctx) => [saFact(ctx)],
      },
      {
        id: 'gcp-workload-identity-user',
        when: (ctx) => cloudOf(ctx) === 'gcp' && identity(ctx),
        summary: 'ServiceAccount {{saNamespace}}/{{sa}} may not impersonate its Google service account',
        explain:
          'The GKE metadata server asked IAM for a token of the Google service account in iam.gke.io/gcp-service-account, and IAM refused: that account ' +
          'does not grant roles/iam.workloadIdentityUser to {{gcpMember}} (ServiceAccount {{saNamespace}}/{{sa}}), or the annotation names an ' +
          'account that does not exist.{{saNote}}',
        knobs: [
          {
            place: 'cluster',
            path: 'IAM policy of the Google service account in iam.gke.io/gcp-service-account',
            change: 'grant roles/iam.workloadIdentityUser to member {{gcpMember}}',
          },
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[iam.gke.io/gcp-service-account]',
            change: 'check the email names an existing account in the right project',
          },
        ],
        facts: (ctx) => [saFact(ctx)],
      },
      {
        id: 'trust',
        when: (ctx) => identity(ctx),
        summary: 'the cloud refuses the token of ServiceAccount {{saNamespace}}/{{sa}}',
        explain: "The cloud refused to exchange the pod's ServiceAccount token: its trust must name subject {{subject}}, the cluster's issuer and audience.",
        knobs: [{ place: 'cluster', path: 'the cloud trust (role trust policy, federated credential, IAM binding)', change: 'name subject {{subject}}' }],
      },
    ],
  },
  {
    id: 'cloud-metadata-unreachable',
    kind: 'dependency',
    resource: 'the instance metadata endpoint (169.254.169.254) from the pod',
    doc:
      "The SDK cannot reach the node's instance metadata endpoint from the pod: IMDSv2's token reply dies after one hop (HttpPutResponseHopLimit 1) " +
      'before it reaches a container, an egress NetworkPolicy leaves out 169.254.169.254/32, or the GKE metadata server on the node is not answering.',
    variants: [
      {
        id: 'network-policy',
        when: (ctx) => {
          const ps = blockingPolicies(ctx);
          return ps.length > 0 && { ...identity(ctx), policies: policyNames(ps) };
        },
        summary: '{{policies}} leaves out egress to 169.254.169.254',
        explain:
          "The pod is selected by {{policies}} for egress, and no rule of it allows 169.254.169.254, so the SDK's requests to the metadata endpoint " +
          '(instance credentials, region, the GKE metadata server) are dropped and time out.',
        knobs: [
          {
            place: 'cluster',
            path: '{{policies}} spec.egress',
            change: 'allow ipBlock 169.254.169.254/32 on port 80 (GKE Dataplane V2 also uses 988 on the node)',
          },
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} (IRSA / Workload Identity)',
            change: 'or give the pod its own identity, so it needs no instance credentials',
          },
        ],
        facts: (_ctx, d) => [{ source: 'NetworkPolicies selecting the pod', text: `${d.policies}: egress without 169.254.169.254` }],
      },
      {
        id: 'host-network',
        when: (ctx) => ctx.pod?.spec?.hostNetwork === true,
        summary: "the node's metadata endpoint does not answer, even on the host network",
        explain:
          "The pod uses the node's network (hostNetwork), so no extra hop or pod egress " +
          'policy stands between it and 169.254.169.254: the endpoint itself is off ' +
          'for the instance (metadata options HttpEndpoint disabled) or a firewall on {{node}} drops it.',
        knobs: [
          { place: 'node', path: 'instance metadata options of {{node}} (HttpEndpoint)', change: 'enable the endpoint in the node group launch template' },
          { place: 'node', path: 'the firewall on {{node}}', change: 'allow 169.254.169.254' },
        ],
        facts: (ctx) => [specFact(ctx, 'spec.hostNetwork', 'true')],
      },
      {
        id: 'gcp-metadata-server',
        when: (ctx) => cloudOf(ctx) === 'gcp',
        summary: 'the GKE metadata server does not answer the pod',
        explain:
          'The Google client cannot reach metadata.google.internal (169.254.169.254) from the pod. With Workload Identity the gke-metadata-server ' +
          'DaemonSet on {{node}} answers there for pods: it is not running or ready on ' +
          'the node, or an egress policy or a mesh sidecar does not let the request out.',
        knobs: [
          { place: 'cluster', path: 'DaemonSet kube-system/gke-metadata-server on {{node}}', change: 'check its pod there is running and ready' },
          {
            place: 'cluster',
            path: 'NetworkPolicy egress to 169.254.169.254/32',
            change: 'allow it on ports 80 and 988 (and a mesh ServiceEntry for metadata.google.internal)',
          },
        ],
      },
      {
        id: 'aws-hop-limit',
        when: (ctx) => cloudOf(ctx) === 'aws' && identity(ctx),
        summary: "IMDS does not answer the pod: the node's hop limit stops the reply",
        explain:
          "The AWS SDK cannot get an answer from the instance metadata endpoint. IMDSv2 sends its session token reply with the instance's " +
          'HttpPutResponseHopLimit as TTL; at 1 (the EC2 default, unless the AMI or launch ' +
          'template sets more) the reply dies at the hop into the pod network, so the ' +
          'SDK times out and finds no instance role or region.',
        knobs: [
          {
            place: 'node',
            path: 'aws ec2 modify-instance-metadata-options --http-put-response-hop-limit 2 (node group launch template)',
            change: 'set the hop limit to 2 for the instances behind {{node}}',
          },
          {
            place: 'cluster',
            path: 'ServiceAccount {{saNamespace}}/{{sa}} metadata.annotations[eks.amazonaws.com/role-arn]',
            change: 'or give the pod its own role (IRSA / Pod Identity) so it needs no instance credentials; set AWS_REGION in the env',
          },
        ],
      },
      {
        id: 'metadata',
        summary: 'the instance metadata endpoint does not answer the pod',
        explain:
          'The SDK cannot reach 169.254.169.254 from the pod: the node limits metadata ' +
          'to one hop (IMDSv2), an egress policy leaves it out, or the endpoint is off.',
        knobs: [
          { place: 'node', path: 'the metadata options of the instances behind {{node}}', change: 'allow a response hop limit of 2' },
          { place: 'cluster', path: 'NetworkPolicy egress to 169.254.169.254/32', change: 'allow it for this pod' },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'cloud.aws-no-credentials',
    family: 'runtime',
    mechanism: 'cloud-identity-missing',
    needles: [
      'nocredentialproviders',
      'no ec2 imds role found',
      'unable to locate credentials',
      'unable to load credentials from',
      'unable to load aws credentials from any provider',
      'could not load credentials from any providers',
      'only loopback hosts are allowed',
    ],
    patterns: [
      re('NoCredentialProviders: no valid providers in chain'),
      // Go v2: IMDS answered 404: reachable, but the node offers no instance role.
      re('no EC2 IMDS role found, operation error ec2imds: GetMetadata, http response error StatusCode: 404'),
      re('NoCredentialsError: Unable to locate credentials'),
      // The AWS CLI (botocore underneath): `aws s3 cp` in a Job or an init container.
      re('Unable to locate credentials\\. You can configure credentials by running "aws configure"'),
      re('fatal error: Unable to locate credentials'),
      // aws-sdk-go before Pod Identity support refuses the agent's link-local URI and goes on down the chain.
      re('HTTP credential provider invalid endpoint host, "169\\.254\\.170\\.23", only loopback hosts are allowed'),
      re('Unable to load credentials from any of the providers in the chain'),
      re('Unable to load AWS credentials from any provider in the chain'),
      re('Could not load credentials from any providers'),
    ],
    // Timeouts against IMDS are the endpoint out of reach, read by cloud.imds-unreachable.
    unless: /context deadline exceeded|request canceled|Client\.Timeout|i\/o timeout/i,
    source:
      'aws-sdk-go credentials/chain_provider.go (ErrNoValidProvidersFoundInChain), aws-sdk-go-v2 ec2rolecreds ("no EC2 IMDS role found"), botocore ' +
      'NoCredentialsError, aws-sdk-java-v2 AwsCredentialsProviderChain, aws-sdk-java DefaultAWSCredentialsProviderChain, aws-sdk-js-v3 ' +
      'credential-provider-node. Lines (GitHub): DaspawnW/prometheus-aws-discovery#12, traefik/traefik#10812, clong/DetectionLab#818, ' +
      'kubernetes-sigs/aws-iam-authenticator#285, aws/eventbridge-kafka-connector#396, aws/aws-sdk-java#1324, aws/aws-sdk-js#3672, aws/aws-cli#4684, ' +
      'ionic-team/starters#32, robertlestak/cert-manager-sync#20; near misses ' +
      'confluentinc/csid-secrets-providers#142, kubernetes-sigs/aws-load-balancer-controller#3955',
    examples: [
      'ERRO[0003] NoCredentialProviders: no valid providers in chain. Deprecated.',
      'time="2024-06-13T18:27:15Z" level=error msg="Provider connection error failed to get ECS configuration: listing tasks: NoCredentialProviders: ' +
        'no valid providers in chain. Deprecated.\\n\\tFor verbose messaging see ' +
        'aws.Config.CredentialsChainVerboseErrors, retrying in 518.265079ms" providerName=ecs',
      '│ Error: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, http response error StatusCode: 404, ' +
        'request to EC2 IMDS failed',
      'botocore.exceptions.NoCredentialsError: Unable to locate credentials',
      'Unable to locate credentials. You can configure credentials by running "aws configure".',
      'fatal error: Unable to locate credentials',
      '2025/03/05 21:13:59 Ignoring, HTTP credential provider invalid endpoint host, "169.254.170.23", only loopback hosts are allowed. <nil>',
      'org.apache.kafka.connect.errors.ConnectException: software.amazon.awssdk.core.exception.SdkClientException: Unable to load credentials from any of ' +
        'the providers in the chain AwsCredentialsProviderChain(credentialsProviders=[SystemPropertyCredentialsProvider(), ' +
        'EnvironmentVariableCredentialsProvider(), ' +
        'WebIdentityTokenCredentialsProvider(), ProfileCredentialsProvider(profileName=default), ' +
        'ContainerCredentialsProvider(), InstanceProfileCredentialsProvider()])',
      'Unable to load AWS credentials from any provider in the chain',
      'Could not load credentials from any providers',
    ],
    nearMisses: [
      'DEBUG  ||  Unable to load credentials from WebIdentityTokenCredentialsProvider: com.amazonaws.SdkClientException: To use assume role profiles the ' +
        'aws-java-sdk-sts module must be on the class path.',
      'failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, canceled, context deadline exceeded"',
    ],
  },
  {
    id: 'cloud.gcp-no-default-credentials',
    family: 'runtime',
    mechanism: 'cloud-identity-missing',
    needles: [
      'could not find default credentials',
      'default credentials were not found',
      'could not automatically determine credentials',
      'application default credentials are not available',
      'could not load the default credentials',
    ],
    patterns: [
      re('google: could not find default credentials'),
      re('Your default credentials were not found'),
      re('Could not automatically determine credentials'),
      re('The Application Default Credentials are not available'),
      re('Could not load the default credentials'),
    ],
    source:
      'golang.org/x/oauth2 google/default.go ("google: could not find default credentials"), google-auth-library-python _default.py ' +
      '(DefaultCredentialsError), google-auth-library-java DefaultCredentialsProvider, google-auth-library-nodejs googleauth.ts. Lines (GitHub): ' +
      'bettercollected/bettercollected#283, BrainPad/cliboa#91, googleapis/google-auth-library-java#140, hammerlab/coclobas#65; a cert-manager and a ' +
      'Cloud SQL proxy log quoted in public repositories',
    examples: [
      'google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found. To set up Application Default Credentials, see ' +
        'https://cloud.google.com/docs/authentication/external/set-up-adc for more information.',
      'google.auth.exceptions.DefaultCredentialsError: Could not automatically determine credentials. Please set GOOGLE_APPLICATION_CREDENTIALS or ' +
        'explicitly create credentials and re-run the application. For more information, ' +
        'please see https://cloud.google.com/docs/authentication/getting-started',
      'E1003 13:18:00.736199       1 dns.go:83] DNS provider could not be initialized: could not init DNS provider "google-clouddns": google: could not find ' +
        'default credentials. See https://developers.google.com/accounts/docs/application-default-credentials for more information.',
      '2024/12/10 16:36:44 Error starting proxy: error initializing dialer: failed ' +
        'to create default credentials: google: could not find default credentials. ' +
        'See https://cloud.google.com/docs/authentication/external/set-up-adc for more information',
      'Exception in thread "main" java.io.IOException: The Application Default Credentials are not available. They are available if running on Google App ' +
        'Engine, Google Compute Engine, or Google Cloud Shell. Otherwise, the ' +
        'environment variable GOOGLE_APPLICATION_CREDENTIALS must be defined pointing to ' +
        'a file defining the credentials. See https://developers.google.com/accounts/docs/application-default-credentials for more information.',
    ],
  },
  {
    id: 'cloud.azure-no-credentials',
    // The SDK's own sentence, weighed as a server's: it must beat the generic `<ENV> must be set` reading of the same line.
    family: 'server',
    mechanism: 'cloud-identity-missing',
    needles: [
      'defaultazurecredential failed to retrieve a token',
      'workloadidentitycredential authentication unavailable',
      'azure_federated_token_file must be set',
      'no token file specified',
    ],
    patterns: [
      re('DefaultAzureCredential failed to retrieve a token from the included credentials'),
      re('WorkloadIdentityCredential authentication unavailable'),
      re('AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_FEDERATED_TOKEN_FILE must be set'),
      re('no token file specified\\. Check pod configuration'),
    ],
    source:
      'azure-identity (Python chained.py, .NET DefaultAzureCredential and WorkloadIdentityCredential). Lines (GitHub): dask/dask-cloudprovider#340, ' +
      'Azure/azure-sdk-for-net#17113, AzureAD/microsoft-identity-web#2644, ' +
      'external-secrets/external-secrets#2436, Azure/AppConfiguration-KubernetesProvider#14',
    examples: [
      'ClientAuthenticationError: DefaultAzureCredential failed to retrieve a token from the included credentials.',
      'Exception: ClientAuthenticationError: DefaultAzureCredential failed to retrieve a token from the included credentials.',
      '- WorkloadIdentityCredential authentication unavailable. The workload options are not fully configured. See the troubleshooting guide for more ' +
        'information. https://aka.ms/azsdk/net/identity/workloadidentitycredential/troubleshoot',
      'could not get provider client: missing environment variables. AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_FEDERATED_TOKEN_FILE must be set.',
      "Fail to create the target ConfigMap or Secret of AzureAppConfigurationProvider 'xxx' in 'xxx' namespace: no token file specified. Check pod " +
        'configuration or set TokenFilePath in the options',
    ],
  },
  {
    id: 'cloud.aws-web-identity-refused',
    family: 'server',
    mechanism: 'cloud-identity-trust',
    needles: ['not authorized to perform', 'no openidconnect provider found'],
    patterns: [
      re('Not authorized to perform sts:AssumeRoleWithWebIdentity'),
      re('No OpenIDConnect provider found in your account for (?<issuer>https://[^\\s"\'\\\\]+)'),
    ],
    source:
      'AWS STS AssumeRoleWithWebIdentity errors (AccessDenied, InvalidIdentityToken) as the SDKs print them. Lines (GitHub): ' +
      'aws-samples/aws-cdk-for-emr-on-eks#2, aws/aws-node-termination-handler#373, humio/humio-operator#114, crossplane/crossplane#5578, ' +
      'kubernetes-sigs/aws-load-balancer-controller#1226; near miss external-secrets/kubernetes-external-secrets#419',
    examples: [
      'ClientError: An error occurred (AccessDenied) when calling the AssumeRoleWithWebIdentity ' +
        'operation: Not authorized to perform sts:AssumeRoleWithWebIdentity',
      '2021/02/24 18:21:12 ??? There was a problem monitoring for events error="WebIdentityErr: failed to retrieve credentials\\ncaused by: AccessDenied: ' +
        'Not authorized to perform sts:AssumeRoleWithWebIdentity\\n\\tstatus code: 403, ' +
        'request id: ef27c9bd-e129-44ca-bbbe-839cdcc3e840" event_type=SQS_TERMINATE',
      'ERROR c.h.m.ServerRunner$ - Got exception starting pid=1 com.amazonaws.services.securitytoken.model.AWSSecurityTokenServiceException: Not authorized ' +
        'to perform sts:AssumeRoleWithWebIdentity (Service: AWSSecurityTokenService; Status Code: 403; Error Code: AccessDenied; Request ID: ' +
        'c59017b1-8ce2-4afe-8815-7d7c9bae0f86; Proxy: null)',
      'cannot get terraform setup: failed to retrieve aws credentials from aws config: failed to refresh cached credentials, failed to retrieve credentials, ' +
        'operation error STS: AssumeRoleWithWebIdentity, https response error StatusCode: 403, RequestID: 4a8524d5-fc0e-46ff-9000-fd823d1b8661, api error ' +
        'AccessDenied: Not authorized to perform sts:AssumeRoleWithWebIdentity',
      'caused by: InvalidIdentityToken: No OpenIDConnect provider found in your account for https://oidc.eks.eu-west-1.amazonaws.com/id/xxxx',
    ],
    nearMisses: [
      'AccessDeniedException: User: arn:aws:sts::{accountId}:assumed-role/eksctl-{clusterName}-nodegroup-24b3-NodeInstanceRole-{hash}/i-0cee646fefe9d6da9 is ' +
        'not authorized to perform: secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:ap-southeast-2:{accountId}:secret:{secretKey}-nzYAC0',
    ],
  },
  {
    id: 'cloud.azure-federation-refused',
    family: 'server',
    mechanism: 'cloud-identity-trust',
    needles: ['no matching federated identity record found', 'aadsts700016'],
    patterns: [
      re("AADSTS700016: Application with identifier '(?<clientId>[^']+)' was not found in the directory"),
      re("AADSTS700213: No matching federated identity record found for presented assertion subject '(?<presented>[^']+)'"),
      re(
        'AADSTS70021: No matching federated identity record found for presented assertion\\.(?: ' +
          "Assertion Issuer: '[^']*'\\. Assertion Subject: '(?<presented>[^']+)')?",
      ),
    ],
    source:
      'Microsoft Entra ID token endpoint errors AADSTS70021 / AADSTS700213 (workload identity federation), AADSTS700016 (unknown client). Lines ' +
      '(GitHub): external-secrets/external-secrets#2783, Azure/azure-workload-identity#1200, Azure/azure-workload-identity#340, ' +
      'MicrosoftDocs/azure-docs#108526, Azure/aad-pod-identity#1277',
    examples: [
      '{"error":"invalid_client","error_description":"AADSTS70021: No matching federated identity record found for presented assertion. Assertion Issuer: ' +
        "'https://eastus.oic.prod-aks.azure.com/c90ea95b-aead-4931-b72e-f3e703fc342b/85ee619b-d637-4610-bacd-d4c64ff20348/'. Assertion Subject: " +
        "'system:serviceaccount:external-secrets:external-secrets'. Assertion Audience: 'api://AzureADTokenExchange'.",
      "AADSTS700213: No matching federated identity record found for presented assertion subject 'system:serviceaccount:xxx:yyy'. Check your federated " +
        'identity credential Subject, Audience and Issuer against the presented assertion. ' +
        'https://learn.microsoft.com/entra/workload-id/workload-identity-federation ' +
        'Trace ID: xx Correlation ID: xx Timestamp: 2025-04-22 01:01:11Z',
      'AADSTS70021: No matching federated identity record found for presented assertion.',
      '{"error":"unauthorized_client","error_description":"AADSTS700016: Application with identifier \'/subscriptions/a73ced30-c712-4405-8828-67a833b1e39a/' +
        "resourceGroups/rg-use2-ccl-aks-poc/providers/Microsoft.ManagedIdentity/userAssignedIdentities/uaid-use2-ccl-aks-poc-wkload-identity' was not " +
        "found in the directory 'Contoso'. This can happen if the application has not been installed by the administrator of the tenant or consented " +
        'to by any user in the tenant. You may have sent your authentication request to the wrong tenant.',
    ],
  },
  {
    id: 'cloud.gcp-workload-identity-refused',
    family: 'server',
    mechanism: 'cloud-identity-trust',
    needles: ['iam.serviceaccounts.getaccesstoken'],
    patterns: [re("Permission \\\\?'iam\\.serviceAccounts\\.getAccessToken\\\\?' denied")],
    source:
      'GKE metadata server (Workload Identity) relaying IAM Credentials generateAccessToken PERMISSION_DENIED. Lines (GitHub): camunda/camunda#31106; ' +
      'near miss google-github-actions/auth#340',
    examples: [
      "Unable to generate access token; IAM returned 403 Forbidden: Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).",
      '"com.google.cloud.storage.StorageException: Unexpected Error code 403 trying ' +
        'to get security access token from Compute Engine metadata for the default ' +
        'service account: Unable to generate access token; IAM returned 403 Forbidden: Permission ' +
        "'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).",
    ],
    nearMisses: ['          "permission": "iam.serviceAccounts.getAccessToken"'],
  },
  {
    id: 'cloud.imds-unreachable',
    family: 'runtime',
    mechanism: 'cloud-metadata-unreachable',
    needles: ['169.254.169.254', 'ec2metadatarequesterror', 'ec2imds'],
    patterns: [
      re('EC2MetadataRequestError: failed to get EC2 instance identity document'),
      re('operation error ec2imds: \\w+, (?:request )?(?:canceled, context deadline exceeded|send failed)'),
      re(
        'Get "?http://169\\.254\\.169\\.254/[^\\s"]*"?: (?:dial tcp [\\d.:]+: )?(?:i/o timeout|connect: ' +
          'connection refused|connect: no route to host|context deadline exceeded|net/http: request canceled)',
      ),
      re("HTTPConnectionPool\\(host='169\\.254\\.169\\.254', port=80\\): (?:Max retries exceeded|Read timed out)"),
      re('Connection to 169\\.254\\.169\\.254 timed out'),
    ],
    source:
      'aws-sdk-go ec2metadata (EC2MetadataRequestError), aws-sdk-go-v2 feature/ec2/imds ("operation error ec2imds"), Go net/http and urllib3 timeouts ' +
      'against 169.254.169.254. Lines (GitHub): aws/amazon-vpc-cni-k8s#1274, kubernetes-sigs/aws-load-balancer-controller#3955, aws/aws-sdk-go#5138, ' +
      'pulumi/pulumi#10303, aws/aws-sdk-go#870, google/cloudprober#432, aws-samples/eks-automated-ipmgmt-multus-pods#11, adamchainz/ec2-metadata#380; ' +
      'near misses aws/aws-sdk-go#870, google-github-actions/get-secretmanager-secrets#151, clong/DetectionLab#818',
    examples: [
      '{"level":"fatal","ts":"2020-10-31T04:03:52.733Z","caller":"runtime/proc.go:203","msg":"Failed to create publisher: publisher: unable to obtain EC2 ' +
        'service client: EC2MetadataRequestError: failed to get EC2 instance identity document\\ncaused by: RequestError: send request failed\\ncaused by: ' +
        'Get http://169.254.169.254/latest/dynamic/instance-identity/document: net/http: request canceled while waiting for connection (Client.Timeout ' +
        'exceeded while awaiting headers)"}',
      'failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, canceled, context deadline exceeded"',
      'failed to sign request: failed to retrieve credentials: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: ' +
        'GetMetadata, request canceled, context deadline exceeded',
      'Error: no EC2 IMDS role found, operation error ec2imds: GetMetadata, canceled, context deadline exceeded',
      'caused by: Get http://169.254.169.254/latest/meta-data/iam/security-credentials/: ' +
        'net/http: request canceled (Client.Timeout exceeded while awaiting headers)',
      '1 Error initializing cloudprober. Err: Get "http://169.254.169.254/computeMetadata/v1/project/project-id": dial tcp 169.254.169.254:80: connect: ' +
        'connection refused',
      "2025-09-16 17:17:02.972822 - Exception :HTTPConnectionPool(host='169.254.169.254', port=80): Max retries exceeded with url: " +
        '/latest/dynamic/instance-identity/document (Caused by ConnectTimeoutError(<urllib3.connection.HTTPConnection object at 0x7ff2c03871a0>, ' +
        "'Connection to 169.254.169.254 timed out. (connect timeout=2)'))",
      "requests.exceptions.ReadTimeout: HTTPConnectionPool(host='169.254.169.254', port=80): Read timed out. (read timeout=5.0)",
    ],
    nearMisses: [
      '2016-10-27T00:25:06.423888470Z Host: 169.254.169.254',
      'curl -H "Metadata-Flavor: Google" http://169.254.169.254/computeMetadata/v1/instance/service-accounts/',
      '│ Error: failed to refresh cached credentials, no EC2 IMDS role found, operation error ec2imds: GetMetadata, http response error StatusCode: 404, ' +
        'request to EC2 IMDS failed',
    ],
  },
]);
