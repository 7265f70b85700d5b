// The digest in chat: posted in its channel by the one bot replica that took the slot
// (src/report/schedule.ts), as a message of its sections.
import { type Digest, digestSections } from '../../report/digest.js';
import type { ChatContext } from '../context.js';
import type { ChatMessage, Part } from '../types.js';

export function digestMessage(d: Digest): ChatMessage {
  const { title, sections } = digestSections(d);
  const parts: Part[] = [
    { kind: 'header', text: d.untilMs - d.sinceMs <= 86_400_000 ? 'Daily digest' : 'Weekly digest' },
    { kind: 'section', text: title },
  ];
  for (const s of sections) parts.push({ kind: 'list', label: s.label, items: s.items });
  parts.push({ kind: 'context', text: `pod-doctor · clusters ${d.clusters.join(', ')} · \`pod-doctor digest --since 7d\` prints it` });
  return { text: `[${d.clusters.join(', ')}] ${title}`, parts };
}

export async function postDigest(ctx: Pick<ChatContext, 'adapter'>, channel: string, d: Digest): Promise<void> {
  await ctx.adapter.postRoot(channel, digestMessage(d));
}
