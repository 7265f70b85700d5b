// `pod-doctor bot` refuses to start without what its chat surfaces need (Slack's mode, Mattermost's settings), saying everything at once.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { botCommand, checkChatConfig } from '../../src/cli/bot.js';
import { loadConfig } from '../../src/config/schema.js';
import { isPodDoctorError } from '../../src/errors.js';

const MATTERMOST = {
  MATTERMOST_URL: 'https://mm.example.com',
  MATTERMOST_BOT_TOKEN: 'mm-bot-token-1',
  MATTERMOST_COMMAND_TOKEN: 'mm-command-token-1',
  MATTERMOST_ACTION_SECRET: 'a'.repeat(32),
  POD_DOCTOR_PUBLIC_URL: 'https://pod-doctor.example.com',
} as const;

const io = () => ({ stdout: new PassThrough(), stderr: new PassThrough() });

describe('bot configuration', () => {
  it.each([
    ['nothing set', {}, [/SLACK_BOT_TOKEN is not set/, /SLACK_SIGNING_SECRET is not set/]],
    ['HTTP mode without a signing secret', { SLACK_BOT_TOKEN: 'xoxb-1' }, [/SLACK_SIGNING_SECRET is not set/]],
    ['Socket Mode without an app token', { SLACK_BOT_TOKEN: 'xoxb-1', POD_DOCTOR_SLACK_MODE: 'socket' }, [/SLACK_APP_TOKEN is not set/]],
    [
      'the Alertmanager webhook with no alert channel',
      { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret-secret', ALERTMANAGER_TOKEN: 'am-token-0123456789abcdef' },
      [/alerts would have no channel: set POD_DOCTOR_ALERT_CHANNEL/],
    ],
    [
      'alert routes without a catch-all and no default channel',
      {
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 'secret-secret',
        ALERTMANAGER_TOKEN: 'am-token-0123456789abcdef',
        POD_DOCTOR_ALERT_ROUTES: '[{"matchers":{"team":"db"},"channel":"C0DB"}]',
      },
      [/alerts no POD_DOCTOR_ALERT_ROUTES entry matches would have no channel/],
    ],
    [
      'Mattermost without its settings',
      { POD_DOCTOR_CHAT_SURFACES: 'mattermost' },
      [
        /MATTERMOST_URL is not set/,
        /MATTERMOST_BOT_TOKEN is not set/,
        /MATTERMOST_COMMAND_TOKEN is not set/,
        /MATTERMOST_ACTION_SECRET is not set/,
        /POD_DOCTOR_PUBLIC_URL is not set/,
      ],
    ],
    ['both surfaces with only Mattermost set', { POD_DOCTOR_CHAT_SURFACES: 'slack,mattermost', ...MATTERMOST }, [/SLACK_BOT_TOKEN is not set/]],
  ] as const)('refuses %s', (_name, env, problems) => {
    let error: unknown;
    try {
      checkChatConfig(loadConfig(env));
    } catch (err) {
      error = err;
    }
    expect(isPodDoctorError(error, 'BAD_CONFIG')).toBe(true);
    for (const p of problems) expect((error as Error).message).toMatch(p);
  });

  it.each([
    ['HTTP mode', { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret-secret' }],
    ['Socket Mode', { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', POD_DOCTOR_SLACK_MODE: 'socket' }],
    [
      'the webhook with a default alert channel',
      {
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 'secret-secret',
        ALERTMANAGER_TOKEN: 'am-token-0123456789abcdef',
        POD_DOCTOR_ALERT_CHANNEL: 'C0ALERTS',
      },
    ],
    [
      'the webhook with a catch-all route',
      {
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 'secret-secret',
        ALERTMANAGER_TOKEN: 'am-token-0123456789abcdef',
        POD_DOCTOR_ALERT_ROUTES: '[{"matchers":{"team":"db"},"channel":"C0DB"},{"channel":"C0ALL"}]',
      },
    ],
    ['Mattermost alone, without any Slack setting', { POD_DOCTOR_CHAT_SURFACES: 'mattermost', ...MATTERMOST }],
  ] as const)('accepts %s', (_name, env) => {
    expect(() => checkChatConfig(loadConfig(env))).not.toThrow();
  });

  it('rejects malformed tokens and URLs by name', () => {
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'xoxp-user-token', SLACK_APP_TOKEN: 'nope', SLACK_API_URL: 'ftp://x', PORT: '70000' })).toThrow(
      /SLACK_BOT_TOKEN[\s\S]*SLACK_APP_TOKEN[\s\S]*SLACK_API_URL[\s\S]*PORT/,
    );
  });

  it('stops a misconfigured start with BAD_CONFIG naming every problem (exit 2 from the CLI)', async () => {
    await expect(botCommand([], { ...io(), env: { POD_DOCTOR_SLACK_MODE: 'socket' } })).rejects.toThrow(
      /SLACK_BOT_TOKEN is not set[\s\S]*SLACK_APP_TOKEN is not set/,
    );
  });
});
