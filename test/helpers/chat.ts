// A chat context for tests of the flows: real Redis, the given adapter and queues, cluster `c1`,
// no approvers, parents redrawn at once; `extra` adds or overrides options.
import { type ChatContext, type ChatOptions, createChatContext } from '../../src/chat/context.js';
import { ApproverPolicy } from '../../src/chat/store/approvals.js';
import { silent } from './logger.js';

export function testChat(parts: Pick<ChatOptions, 'adapter' | 'redis' | 'queues'>, extra: Partial<ChatOptions> = {}): ChatContext {
  return createChatContext({
    cluster: 'c1',
    logger: silent,
    approvers: new ApproverPolicy({ approvers: [] }),
    rootUpdateIntervalMs: 0,
    ...parts,
    ...extra,
  });
}
