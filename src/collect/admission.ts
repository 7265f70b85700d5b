// What an admission refusal names, read back from the cluster: the webhook (its configuration,
// failure policy, and whether the Service it calls has ready endpoints: a webhook that is down
// refuses every pod with failurePolicy Fail) and the ServiceAccount a FailedCreate says is missing
// (it may exist by now). Only what the events name is read: nothing for a healthy pod.
import type { KubeObject, WebhookFact } from '../diagnosis/types.js';
import type { Guard } from './guard.js';
import type { FactSource } from './source.js';

/** `failed calling webhook "x"` (unreachable or erroring) and `admission webhook "x" denied the request`. */
const WEBHOOK_NAMED = /(?:failed calling webhook|admission webhook) "([^"]+)"/g;

export function webhooksNamed(texts: readonly string[]): string[] {
  const names = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(WEBHOOK_NAMED)) if (m[1]) names.add(m[1]);
  return [...names];
}

/** `serviceaccount "x" not found` / `error looking up service account ns/x`: the account a creation needed. */
export function serviceAccountNamed(texts: readonly string[]): string | undefined {
  for (const t of texts) {
    const m = /error looking up service account [\w.-]+\/([\w.-]+)/.exec(t) ?? /serviceaccounts? "([\w.-]+)" not found/.exec(t);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

interface WebhookSpec {
  name?: string;
  failurePolicy?: string;
  timeoutSeconds?: number;
  clientConfig?: { url?: string; service?: { namespace?: string; name?: string; port?: number; path?: string } };
}

interface EndpointSubset {
  addresses?: unknown[];
  notReadyAddresses?: unknown[];
}

export async function collectWebhooks(source: FactSource, names: readonly string[], guard: Guard): Promise<WebhookFact[]> {
  if (names.length === 0) return [];
  const configs = await guard('admission webhook configurations', () => source.listWebhookConfigurations(), [] as KubeObject[]);
  const facts: WebhookFact[] = [];
  for (const config of configs) {
    for (const w of ((config as { webhooks?: WebhookSpec[] }).webhooks ?? []).filter((x) => x.name && names.includes(x.name))) {
      const svc = w.clientConfig?.service;
      facts.push({
        configuration: `${config.kind ?? 'WebhookConfiguration'}/${config.metadata?.name ?? ''}`,
        name: w.name ?? '',
        ...(w.failurePolicy ? { failurePolicy: w.failurePolicy } : {}),
        ...(w.timeoutSeconds !== undefined ? { timeoutSeconds: w.timeoutSeconds } : {}),
        ...(svc?.namespace && svc.name
          ? { service: { namespace: svc.namespace, name: svc.name, ...(svc.port ? { port: svc.port } : {}), ...(svc.path ? { path: svc.path } : {}) } }
          : {}),
        ...(w.clientConfig?.url ? { url: w.clientConfig.url } : {}),
      });
    }
  }
  // The Service each one calls, and its endpoints: is anything there to answer?
  await Promise.all(
    facts.map(async (f) => {
      const svc = f.service;
      if (!svc) return;
      const [service, endpoints] = await Promise.all([
        guard(`service ${svc.namespace}/${svc.name}`, () => source.getService(svc.namespace, svc.name), undefined as KubeObject | null | undefined),
        guard(`endpoints ${svc.namespace}/${svc.name}`, () => source.getEndpoints(svc.namespace, svc.name), undefined as KubeObject | null | undefined),
      ]);
      if (service !== undefined) f.serviceExists = service !== null;
      if (endpoints === null) f.endpoints = null;
      else if (endpoints) {
        const subsets = ((endpoints as { subsets?: EndpointSubset[] }).subsets ?? []) as EndpointSubset[];
        f.endpoints = {
          ready: subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0),
          notReady: subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0),
        };
      }
    }),
  );
  return facts;
}
