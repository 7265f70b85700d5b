// The console chat: lines typed in a terminal enter the same chat edge as Slack's and
// Mattermost's slash commands and buttons (../../edge.ts). `approve 3` presses the Approve button
// of message 3, as the local user.
import { createInterface } from 'node:readline';
import type { ChatContext } from '../../context.js';
import { answerClick, answerCommand, answerDenyReason, type ChatEdge, GROUP_ACTIONS } from '../../edge.js';
import type { ActionKind } from '../../types.js';
import type { ConsoleAdapter } from './adapter.js';

export interface ConsoleChatOptions {
  chat: ChatContext;
  adapter: ConsoleAdapter;
  /** The local user: who asks and who approves. */
  user: string;
  channel?: string;
  /** Targets worth trying (the demo's seed incidents). */
  list?: () => string[];
  /** The demo's Alertmanager group: `alert fire` / `alert resolve` send its notifications. */
  alerts?: { fire(): Promise<void>; resolve(): Promise<void> };
}

export const CONSOLE_HELP = `Commands:
  /pod-doctor <namespace>/<pod> | node/<name> | ns/<name>   diagnose (also: diagnose …)
  approve <n> [as <name>]    press Approve on message <n> (as another local user: two-approver fixes)
  deny <n> [reason…]         press Deny on message <n>
  rerun <n>                  diagnose the thread of message <n> again
  writeup <n>                the post-incident report of the thread of message <n>
  not-a-problem <n> [k]      mark finding k (default 1) of message <n> as not a problem for its workload
  silence <n> 1h|4h|24h      silence the alert group of message <n> in Alertmanager (unsilence <n> expires it)
  mute <n>                   no new posts in the alert thread of message <n> for 4h (unmute <n> ends it)
  alert fire|resolve         (demo) Alertmanager sends its alert group firing, or resolved
  list                       targets of the seed incidents
  help                       this text
  quit                       leave`;

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

const edgeOf = (o: ConsoleChatOptions): ChatEdge => ({
  chat: o.chat,
  logger: o.chat.log,
  ...(o.chat.options.metrics ? { metrics: o.chat.options.metrics } : {}),
});

/** Handle one console line. Resolves 'quit' when the user leaves. */
export async function handleConsoleLine(line: string, o: ConsoleChatOptions): Promise<'quit' | undefined> {
  const channel = o.channel ?? 'console';
  const words = line.trim().split(/\s+/).filter(Boolean);
  const [verb = '', ...rest] = words;
  const say = (s: string) => o.adapter.say(s);
  switch (verb.toLowerCase()) {
    case '':
      return undefined;
    case 'quit':
    case 'exit':
    case '/quit':
      return 'quit';
    case 'help':
    case '?':
      say(CONSOLE_HELP);
      return undefined;
    case 'list':
      say((o.list?.() ?? []).map((t) => `  /pod-doctor ${t}`).join('\n') || '  (no incidents loaded)');
      return undefined;
    case '/pod-doctor':
    case 'pod-doctor':
    case 'diagnose': {
      const respond = (m: Parameters<ConsoleAdapter['ephemeral']>[2]) => o.adapter.ephemeral(channel, o.user, m);
      const answer = await answerCommand(edgeOf(o), { surface: 'console', text: rest.join(' '), channel, user: o.user, respond });
      await respond(answer.ack);
      await answer.follow?.();
      return undefined;
    }
    case 'approve':
    case 'deny':
    case 'rerun':
    case 'writeup':
    case 'not-a-problem': {
      const n = Number(rest[0]);
      const action = verb.toLowerCase() as ActionKind;
      // A findings message has one Not a problem per finding: `not-a-problem <n> <k>` presses the k-th.
      const k = action === 'not-a-problem' && rest[1] !== undefined ? Number(rest[1]) : 1;
      const button = Number.isInteger(n) && Number.isInteger(k) && k >= 1 ? o.adapter.buttons(n).filter((b) => b.action === action)[k - 1] : undefined;
      if (!button) {
        say(`  no "${action}" button on message ${rest[0] ?? '?'} (numbers are shown as [${action} <n>])`);
        return undefined;
      }
      const as = action === 'approve' && rest[1] === 'as' ? rest[2] : undefined;
      if (as !== undefined && !NAME.test(as)) {
        say(`  "${as}" is not a user name`);
        return undefined;
      }
      const out = await answerClick(edgeOf(o), { surface: 'console', action, value: button.value, user: as ?? o.user, channel });
      // `deny <n> <reason…>`: the reason a Slack denier types in the dialog that follows the click.
      const reason = rest.slice(1).join(' ');
      if (out.kind === 'denied' && reason) await answerDenyReason(edgeOf(o), 'console', out.planId, o.user, reason);
      return undefined;
    }
    case 'alert': {
      const sub = (rest[0] ?? '').toLowerCase();
      if (!o.alerts) say('  no Alertmanager here (the demo has one: npm run demo)');
      else if (sub === 'fire') await o.alerts.fire();
      else if (sub === 'resolve') await o.alerts.resolve();
      else say('  alert fire | alert resolve');
      return undefined;
    }
    case 'silence':
    case 'unsilence':
    case 'mute':
    case 'unmute':
      await groupCommand(verb.toLowerCase(), rest, o, channel);
      return undefined;
    default:
      say(`  unknown command "${verb}" (type help)`);
      return undefined;
  }
}

/** `silence 3 4h` presses Silence 4h on message 3 (an alert thread's note), `mute 3` Mute, as the local user. */
async function groupCommand(verb: string, rest: string[], o: ConsoleChatOptions, channel: string): Promise<void> {
  const wanted = verb === 'silence' ? `silence-${rest[1] ?? ''}` : verb;
  const n = Number(rest[0]);
  const button = Number.isInteger(n) ? o.adapter.buttons(n).find((b) => b.action === wanted) : undefined;
  const action = GROUP_ACTIONS.find((a) => a === button?.action);
  if (!button || !action) {
    const usage = verb === 'silence' ? `silence <n> 1h|4h|24h` : `${verb} <n>`;
    o.adapter.say(`  no "${wanted}" button on message ${rest[0] ?? '?'} (${usage}; alert thread notes show [${wanted} <n>])`);
    return;
  }
  await answerClick(edgeOf(o), { surface: 'console', action, value: button.value, user: o.user, channel });
}

/** Read lines until `quit` or end of input. */
export async function runConsoleChat(o: ConsoleChatOptions & { input: NodeJS.ReadableStream; output: NodeJS.WritableStream }): Promise<void> {
  const rl = createInterface({ input: o.input, output: o.output, prompt: 'pod-doctor> ', terminal: true });
  rl.prompt();
  try {
    for await (const line of rl) {
      try {
        if ((await handleConsoleLine(line, o)) === 'quit') break;
      } catch (err) {
        o.adapter.say(`  error: ${err instanceof Error ? err.message : String(err)}`);
      }
      rl.prompt();
    }
  } finally {
    rl.close();
  }
}
