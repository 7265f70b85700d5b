import { describe, expect, it } from 'vitest';
import { combineIds, surfaceOf } from '../../../access/ids.js';
import { chatIds } from '../../../cli/config.js';
import { loadConfig } from '../../../config/schema.js';
import { slackIds } from '../slack/ids.js';
import { groupIdOf, mattermostIds } from './ids.js';

const USER = 'k5z1w9mfhtgyxe7ay3b8suqkro';
const GROUP = 'q3n8x1d7o7gk5yhxjk3dw1p5fc';

describe("Mattermost's ids", () => {
  it('are 26 lowercase letters and digits; a group is written group:<id>', () => {
    expect([mattermostIds.isUser(USER), mattermostIds.isChannel(USER), mattermostIds.isGroup(USER)]).toEqual([true, true, false]);
    expect(mattermostIds.isGroup(`group:${GROUP}`)).toBe(true);
    expect(groupIdOf(`group:${GROUP}`)).toBe(GROUP);
    for (const bad of ['U0BOB', 'C0SHOP', USER.toUpperCase(), `${USER}x`, USER.slice(1), `group:${GROUP.slice(1)}`]) {
      expect([mattermostIds.isUser(bad), mattermostIds.isGroup(bad)], bad).toEqual([false, false]);
    }
  });

  it("do not overlap Slack's: a bot serving both takes each and knows whose it is", () => {
    const both = combineIds([slackIds, mattermostIds]);
    expect(['C0SHOP', 'U0BOB', 'S0SRE', USER, `group:${GROUP}`].map((id) => surfaceOf([slackIds, mattermostIds], id)?.surface)).toEqual([
      'Slack',
      'Slack',
      'Slack',
      'Mattermost',
      'Mattermost',
    ]);
    expect([both.isChannel('C0SHOP'), both.isChannel(USER), both.isGroup('S0SRE'), both.isGroup(`group:${GROUP}`), both.isUser('nope')]).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('are the ones the config checks when the bot serves Mattermost (POD_DOCTOR_CHAT_SURFACES)', () => {
    const env = { POD_DOCTOR_APPROVERS: `${USER},group:${GROUP}` };
    expect(loadConfig({ ...env, POD_DOCTOR_CHAT_SURFACES: 'mattermost' }, undefined, { ids: chatIds }).approvers).toEqual([USER, `group:${GROUP}`]);
    expect(() => loadConfig({ ...env, POD_DOCTOR_CHAT_SURFACES: 'slack' }, undefined, { ids: chatIds })).toThrow(/expected a Slack user id/);
    expect(() => loadConfig({ POD_DOCTOR_APPROVERS: 'U0BOB', POD_DOCTOR_CHAT_SURFACES: 'mattermost' }, undefined, { ids: chatIds })).toThrow(
      /POD_DOCTOR_APPROVERS: expected a Mattermost user id/,
    );
    expect(loadConfig({ POD_DOCTOR_APPROVERS: `U0BOB,${USER}`, POD_DOCTOR_CHAT_SURFACES: 'slack,mattermost' }, undefined, { ids: chatIds }).approvers).toEqual([
      'U0BOB',
      USER,
    ]);
  });
});
