// What a Not a problem button stands for: its value is an opaque id, and this record (kept as long
// as a thread, 8 days) says which finding of which object in which thread it marks. Written when
// the findings are posted, read when the button is pressed.
import { z } from 'zod';
import { markId } from '../../jobs/not-a-problem.js';
import { Dns1123Label, TargetSchema } from '../../kube/target.js';
import type { RedisClient } from '../../redis/client.js';
import { keys } from '../../redis/keys.js';

const OFFER_TTL_SECONDS = 8 * 86_400;
const MARK_ID = /^mk[0-9a-f]{24}$/;

export const MarkOfferSchema = z.object({
  cluster: Dns1123Label,
  target: TargetSchema,
  /** `shop/Deployment web`: what the mark is recorded for. */
  object: z.string().min(1).max(400),
  rule: z.string().min(1).max(128),
  title: z.string().max(3000),
  channel: z.string().min(1).max(64),
  threadId: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
});
export type MarkOffer = z.infer<typeof MarkOfferSchema>;

/** Keep the offers; returns their ids in order. */
export async function saveMarkOffers(redis: RedisClient, prefix: string, offers: readonly MarkOffer[]): Promise<string[]> {
  const ids = offers.map(markId);
  if (offers.length === 0) return ids;
  const tx = redis.multi();
  offers.forEach((o, i) => {
    tx.set(keys.chat(prefix, 'mark', ids[i] ?? ''), JSON.stringify(MarkOfferSchema.parse(o)), 'EX', OFFER_TTL_SECONDS);
  });
  await tx.exec();
  return ids;
}

/** The offer behind a button value; null when the value is not one of ours or the offer is gone. */
export async function readMarkOffer(redis: RedisClient, prefix: string, id: string): Promise<MarkOffer | null> {
  if (!MARK_ID.test(id)) return null;
  const raw = await redis.get(keys.chat(prefix, 'mark', id));
  if (raw === null) return null;
  try {
    const parsed = MarkOfferSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
