// The silence flow (flows/silences.ts) on real Redis with the console adapter: the console's
// `silence <n> <duration>`, `unsilence <n>`, `mute <n>` and `unmute <n>` press the buttons of an
// alert group thread's note as the local user; a permalink goes into the silence's comment; an
// Alertmanager that refuses leaves nothing behind. The silence port here records what it is asked
// (the Alertmanager side is tested against the real one in silences.e2e.test.ts).
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertGroupEvent } from '../../src/alerts/group-events.js';
import { SilenceError, type SilenceInput, type SilencePort } from '../../src/alerts/silences.js';
import { ConsoleAdapter } from '../../src/chat/adapters/console/adapter.js';
import { handleConsoleLine } from '../../src/chat/adapters/console/repl.js';
import type { ChatContext } from '../../src/chat/context.js';
import { alertGroups } from '../../src/chat/flows/alerts.js';
import { groupAction } from '../../src/chat/flows/silences.js';
import { DEFAULT_JOB_SETTINGS, JobQueues } from '../../src/jobs/queues.js';
import { testChat } from '../helpers/chat.js';
import { cleanup, connect, testPrefix } from '../helpers/jobs.js';

const CHANNEL = 'console';

function recordingPort(): SilencePort & { created: SilenceInput[]; expired: string[] } {
  const created: SilenceInput[] = [];
  const expired: string[] = [];
  return {
    created,
    expired,
    create: async (input) => {
      created.push(input);
      return { id: `00000000-0000-4000-8000-00000000000${created.length}` };
    },
    expire: async (id) => {
      expired.push(id);
      return 'expired';
    },
  };
}

function groupEvents(): [AlertGroupEvent, AlertGroupEvent] {
  const base = {
    v: 1 as const,
    cluster: 'c1',
    channel: CHANNEL,
    groupKey: '{}:{alertname="KubePodCrashLooping", namespace="shop"}',
    groupId: 'abc123',
    episode: 1,
    at: new Date().toISOString(),
    receiver: 'pod-doctor',
    externalURL: 'http://alertmanager:9093',
    notificationReason: null,
    groupLabels: { namespace: 'shop', alertname: 'KubePodCrashLooping' },
    summary: {
      firing: 1,
      resolved: 0,
      diagnosable: 1,
      notDiagnosable: 0,
      truncatedAlerts: 0,
      byAlertname: { KubePodCrashLooping: 1 },
      byNamespace: { shop: 1 },
    },
  };
  return [
    { ...base, type: 'group-opened', commonLabels: { alertname: 'KubePodCrashLooping', namespace: 'shop', pod: 'web-1' }, reopened: false },
    {
      ...base,
      type: 'alerts-added',
      alerts: [
        {
          fingerprint: 'f00d',
          alertname: 'KubePodCrashLooping',
          status: 'firing',
          startsAt: new Date().toISOString(),
          endsAt: null,
          severity: 'warning',
          namespace: 'shop',
          summary: 'web-1 is crash looping',
          description: null,
          generatorURL: null,
          labels: { alertname: 'KubePodCrashLooping', namespace: 'shop', pod: 'web-1' },
          target: { kind: 'pod', namespace: 'shop', name: 'web-1' },
          jobIds: [],
          expansionJobId: null,
        },
      ],
      notDiagnosable: [],
      omitted: 0,
    },
  ];
}

describe('silence and mute flow, and the console commands', () => {
  const redis = connect();
  let prefix: string;
  let queues: JobQueues;
  let out: PassThrough;
  let text: () => string;
  let adapter: ConsoleAdapter;

  const chatWith = (port: SilencePort | undefined): ChatContext => testChat({ adapter, redis, queues }, port ? { silences: port } : {});
  const open = async (chat: ChatContext): Promise<number> => {
    const [opened, added] = groupEvents();
    await alertGroups(chat).event(opened, '1-0');
    await alertGroups(chat).event(added, '1-1');
    const n = /\[mute (\d+)\] Mute 4h/.exec(text())?.[1];
    if (!n) throw new Error(`no Mute button in:\n${text()}`);
    return Number(n);
  };
  const line = (chat: ChatContext, l: string) => handleConsoleLine(l, { chat, adapter, user: 'dana', channel: CHANNEL });

  beforeEach(() => {
    prefix = testPrefix('console-silences');
    queues = new JobQueues(redis, { ...DEFAULT_JOB_SETTINGS, prefix });
    out = new PassThrough();
    let buf = '';
    out.on('data', (c: Buffer) => (buf += c.toString()));
    text = () => buf;
    adapter = new ConsoleAdapter({ out });
  });
  afterEach(async () => {
    await queues.close();
    await cleanup(redis, prefix);
  });
  afterAll(() => redis.disconnect());

  it('silence <n> 4h silences the group (its group labels as matchers, the local user as author); unsilence <n> expires it', async () => {
    const port = recordingPort();
    const chat = chatWith(port);
    const n = await open(chat);
    expect(text()).toContain(`[silence-1h ${n}] Silence 1h`);

    await line(chat, `silence ${n} 4h`);
    expect(port.created).toHaveLength(1);
    const s = port.created[0]!;
    expect(s.matchers).toEqual([
      { name: 'alertname', value: 'KubePodCrashLooping', isRegex: false, isEqual: true },
      { name: 'namespace', value: 'shop', isRegex: false, isEqual: true },
    ]);
    expect(s.createdBy).toBe('dana');
    expect(s.comment).toMatch(/^Silenced for 4h from pod-doctor \(cluster c1\) by dana: console channel console, thread \d+$/);
    expect(new Date(s.endsAt).getTime() - new Date(s.startsAt).getTime()).toBe(4 * 3_600_000);
    expect(text()).toContain('@dana silenced this group in Alertmanager for 4h');
    expect(text()).toContain(`unsilence ${n}`);

    // The note now offers Unsilence only; a second silence finds no button.
    await line(chat, `silence ${n} 1h`);
    expect(text()).toContain(`no "silence-1h" button on message ${n}`);
    await line(chat, `unsilence ${n}`);
    expect(port.expired).toEqual(['00000000-0000-4000-8000-000000000001']);
    expect(text()).toContain('@dana expired silence 00000000-0000-4000-8000-000000000001 (set by @dana');
    expect(port.created).toHaveLength(1);
  });

  it('mute <n> and unmute <n> work without an Alertmanager; a bad duration is refused', async () => {
    const chat = chatWith(undefined);
    const n = await open(chat);
    // No Alertmanager configured: only Mute is offered.
    expect(text()).not.toContain('Silence 1h');
    await line(chat, `silence ${n} 2h`);
    expect(text()).toContain(`no "silence-2h" button on message ${n} (silence <n> 1h|4h|24h`);

    await line(chat, `mute ${n}`);
    expect(text()).toContain('@dana muted this thread until');
    expect(text()).toContain(`unmute ${n}`);
    await line(chat, `unmute ${n}`);
    expect(text()).toContain('@dana unmuted this thread');
  });

  it("puts the thread's permalink in the silence's comment when the medium has one", async () => {
    const port = recordingPort();
    const chat = chatWith(port);
    const n = await open(chat);
    const threadId = adapter.buttons(n)[0]!.value;
    const asked: { channel: string; ts: string }[] = [];
    const out = await groupAction(chat, {
      action: 'silence-24h',
      value: threadId,
      user: 'U0ALICE',
      userName: 'alice',
      channel: CHANNEL,
      permalink: async (ref) => {
        asked.push(ref);
        return `https://acme.slack.com/archives/${ref.channel}/p${ref.ts.replace('.', '')}`;
      },
    });
    expect(out.kind).toBe('silenced');
    const thread = await chat.threads.get(threadId);
    expect(asked).toEqual([{ channel: CHANNEL, ts: thread!.ts }]);
    expect(port.created[0]!.createdBy).toBe('alice (U0ALICE)');
    expect(port.created[0]!.comment).toBe(
      `Silenced for 24h from pod-doctor (cluster c1) by alice (U0ALICE): https://acme.slack.com/archives/console/p${thread!.ts}`,
    );
  });

  it('an Alertmanager that refuses: the clicker is told why, nothing is recorded, the note still offers Silence', async () => {
    const port: SilencePort = {
      create: async () => {
        throw new SilenceError('rejected', 'Alertmanager answered POST /silences with 400: bad matcher', 400);
      },
      expire: async () => 'expired',
    };
    const chat = chatWith(port);
    const n = await open(chat);
    const threadId = adapter.buttons(n)[0]!.value;
    const out = await groupAction(chat, { action: 'silence-1h', value: threadId, user: 'dana', channel: CHANNEL });
    expect(out).toEqual({ kind: 'refused', reason: 'alertmanager' });
    expect(text()).toContain('Could not silence this group: Alertmanager answered POST /silences with 400: bad matcher. Nothing was silenced.');
    expect(text()).not.toContain('silenced this group in Alertmanager');
    expect(adapter.buttons(n).map((b) => b.action)).toEqual(['silence-1h', 'silence-4h', 'silence-24h', 'mute', 'writeup']);
    // Unknown thread ids (a stale or forged button) change nothing either.
    expect(await groupAction(chat, { action: 'silence-1h', value: 'nope', user: 'dana', channel: CHANNEL })).toEqual({
      kind: 'refused',
      reason: 'unknown-thread',
    });
  });
});
