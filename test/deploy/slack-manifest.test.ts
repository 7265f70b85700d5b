// deploy/slack/: the HTTP-mode and the Socket Mode app manifests describe the same app (command,
// scopes, interactivity) and differ only in how Slack reaches the bot.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/schema.js';
import { DEPLOY, parseYamlFile } from '../helpers/deploy.js';

interface Manifest {
  display_information: Record<string, string>;
  features: { bot_user: Record<string, unknown>; slash_commands: ({ command: string; url?: string } & Record<string, unknown>)[] };
  oauth_config: { scopes: { bot: string[] } };
  settings: { interactivity: { is_enabled: boolean; request_url?: string }; socket_mode_enabled: boolean } & Record<string, unknown>;
}

const read = (file: string) => parseYamlFile(join(DEPLOY, 'slack', file)).docs[0] as unknown as Manifest;
const http = read('manifest.yaml');
const socket = read('manifest-socket.yaml');
/** What Slack reaches in HTTP mode; nothing in Socket Mode. */
const withoutUrls = (m: Manifest) => ({
  ...m,
  features: { ...m.features, slash_commands: m.features.slash_commands.map(({ url: _, ...c }) => c) },
  settings: { ...m.settings, interactivity: { is_enabled: m.settings.interactivity.is_enabled }, socket_mode_enabled: undefined },
});

describe('deploy/slack/ manifests', () => {
  it('HTTP mode: every request to /slack/events, Socket Mode off', () => {
    expect(http.settings.socket_mode_enabled).toBe(false);
    const urls = [...http.features.slash_commands.map((c) => c.url), http.settings.interactivity.request_url];
    expect(urls.every((u) => u !== undefined && new URL(u).pathname === '/slack/events')).toBe(true);
  });

  it('Socket Mode: on, with no URL for Slack to call', () => {
    expect(socket.settings.socket_mode_enabled).toBe(true);
    expect(JSON.stringify(socket)).not.toMatch(/"(url|request_url)"/);
    expect(socket.settings.interactivity.is_enabled).toBe(true);
    expect(SETTINGS.slackMode.schema.parse('socket')).toBe('socket');
  });

  it('describe the same app otherwise', () => {
    expect(withoutUrls(socket)).toEqual(withoutUrls(http));
    expect(http.features.slash_commands.map((c) => c.command)).toEqual(['/pod-doctor']);
  });
});
