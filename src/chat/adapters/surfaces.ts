// One ChatAdapter over several chat surfaces (a bot serving Slack and Mattermost): each call goes
// to the surface whose channel (or user) id it names. Their id formats do not overlap, and the
// thread records keep the channel, so results reach the surface their command came from.
import type { ChatIds } from '../../access/ids.js';
import type { ChatAdapter, ChatFile, ChatMessage, MessageRef, PostOptions } from '../types.js';

export interface Surface {
  ids: ChatIds;
  adapter: ChatAdapter;
}

export class SurfacesAdapter implements ChatAdapter {
  /** The first surface's, for logs; `mediumOf` tells a channel's. */
  readonly medium: ChatAdapter['medium'];

  constructor(private readonly surfaces: readonly Surface[]) {
    if (surfaces.length === 0) throw new Error('SurfacesAdapter needs at least one surface');
    this.medium = surfaces[0]!.adapter.medium;
  }

  /** The adapter of a channel's surface; an id no surface takes goes to the first (its API says what is wrong). */
  private of(channel: string): ChatAdapter {
    return (this.surfaces.find((s) => s.ids.isChannel(channel)) ?? this.surfaces[0]!).adapter;
  }

  mediumOf(channel: string): ChatAdapter['medium'] {
    return this.of(channel).medium;
  }

  postRoot(channel: string, message: ChatMessage, options?: PostOptions): Promise<MessageRef> {
    return this.of(channel).postRoot(channel, message, options);
  }

  postInThread(parent: MessageRef, message: ChatMessage, options?: PostOptions): Promise<MessageRef[]> {
    return this.of(parent.channel).postInThread(parent, message, options);
  }

  update(ref: MessageRef, message: ChatMessage): Promise<void> {
    return this.of(ref.channel).update(ref, message);
  }

  ephemeral(channel: string, user: string, message: ChatMessage, thread?: MessageRef): Promise<void> {
    return this.of(channel).ephemeral(channel, user, message, thread);
  }

  /** Absent on a surface without files: the flow posts the content as a code block instead. */
  async postFile(parent: MessageRef, file: ChatFile): Promise<void> {
    const adapter = this.of(parent.channel);
    if (!adapter.postFile) throw new Error(`${adapter.medium} takes no files`);
    await adapter.postFile(parent, file);
  }

  /** Each id asked of the surface that takes it. */
  async userNames(ids: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const s of this.surfaces) {
      const mine = ids.filter((id) => s.ids.isUser(id));
      if (mine.length > 0 && s.adapter.userNames) Object.assign(out, await s.adapter.userNames(mine).catch(() => ({})));
    }
    return out;
  }

  postedTo(channel: string): boolean {
    return this.of(channel).postedTo?.(channel) ?? false;
  }
}
