// What a refusal names: the admission webhooks and the service account that the failure lines of
// a target (its events, its owners' events and conditions) cite.
import type { FactName, OwnerFact, Snapshot } from '../diagnosis/types.js';
import { collectWebhooks, serviceAccountNamed, webhooksNamed } from './admission.js';
import type { Guard } from './guard.js';
import type { FactSource } from './source.js';

/** The owners' event messages and condition messages (ReplicaFailure, Failed, Progressing...). */
export function ownerTexts(owners: OwnerFact[] | undefined): string[] {
  return (owners ?? []).flatMap((o) => [
    ...o.events.map((e) => e.message ?? ''),
    ...((o.object?.status as { conditions?: { message?: string }[] } | undefined)?.conditions ?? []).map((c) => c.message ?? ''),
  ]);
}

/** The webhooks and the service account that refusals in `texts` name. */
export async function collectRefusals(
  source: FactSource,
  snapshot: Snapshot,
  namespace: string,
  texts: string[],
  needs: Set<FactName>,
  guard: Guard,
): Promise<void> {
  const hooks = needs.has('webhooks') ? webhooksNamed(texts) : [];
  const account = needs.has('serviceAccount') ? serviceAccountNamed(texts) : undefined;
  await Promise.all([
    hooks.length > 0 ? collectWebhooks(source, hooks, guard).then((w) => (snapshot.webhooks = w)) : undefined,
    account
      ? guard(
          `serviceaccount ${account}`,
          async () => (await source.serviceAccountMetadata(namespace, account)) !== null,
          undefined as boolean | undefined,
        ).then((exists) => {
          if (exists !== undefined) snapshot.serviceAccount = { name: account, exists };
        })
      : undefined,
  ]);
}
