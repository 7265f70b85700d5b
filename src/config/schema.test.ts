import { describe, expect, it } from 'vitest';
import { slackIds } from '../chat/adapters/slack/ids.js';
import { isPodDoctorError } from '../errors.js';
import { loadConfig, SETTINGS } from './schema.js';

const RULE_IDS = ['crash.app-exit', 'image.auth'];

function configError(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(isPodDoctorError(err, 'BAD_CONFIG')).toBe(true);
    return (err as Error).message;
  }
  throw new Error('expected BAD_CONFIG');
}

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c.cluster).toBe('default');
    expect(c.apiTimeoutMs).toBe(5000);
    expect(c.checkSecrets).toBe(false);
    expect(c.rules).toEqual({});
    expect(c.agentUrls).toEqual({});
  });

  it('parses typed values', () => {
    const c = loadConfig(
      {
        POD_DOCTOR_CLUSTER: 'prod-eu',
        POD_DOCTOR_CHECK_SECRETS: 'true',
        POD_DOCTOR_API_TIMEOUT_MS: '1500',
        POD_DOCTOR_RULES: 'crash.app-exit=off,image.auth=warning',
        POD_DOCTOR_AGENT_URLS: '{"n1":"http://127.0.0.1:1"}',
      },
      ['crash.app-exit', 'image.auth'],
    );
    expect(c).toMatchObject({
      cluster: 'prod-eu',
      checkSecrets: true,
      apiTimeoutMs: 1500,
      rules: { 'crash.app-exit': { enabled: false }, 'image.auth': { severity: 'warning' } },
      agentUrls: { n1: 'http://127.0.0.1:1' },
    });
  });

  it('reports every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ POD_DOCTOR_CLUSTER: 'Bad Name', POD_DOCTOR_API_TIMEOUT_MS: 'soon', POD_DOCTOR_RULES: 'nope=maybe' }, ['crash.app-exit']);
    } catch (err) {
      error = err;
    }
    expect(isPodDoctorError(error, 'BAD_CONFIG')).toBe(true);
    const msg = (error as Error).message;
    for (const name of ['POD_DOCTOR_CLUSTER', 'POD_DOCTOR_API_TIMEOUT_MS', 'POD_DOCTOR_RULES', '"nope=maybe"']) expect(msg).toContain(name);
  });

  it('rejects unknown rule ids', () => {
    expect(() => loadConfig({ POD_DOCTOR_RULES: 'other.rule=off' }, ['crash.app-exit'])).toThrow(/unknown rule id "other.rule"/);
  });

  it('documents every setting', () => {
    for (const def of Object.values(SETTINGS)) {
      expect(def.env).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(def.description.length).toBeGreaterThan(10);
    }
  });
});

describe('loadConfig with a config file', () => {
  const file = (text: string) => ({ file: { path: '/etc/pod-doctor/config.yaml', text } });
  const FILE = [
    'cluster: prod-eu',
    'logLevel: debug',
    'approvers: [U0123ABCD]',
    'alertChannel: C0ALERTS',
    'alertRoutes:',
    '  - matchers: {team: db}',
    '    channel: C0DB',
    'policy:',
    '  channels:',
    '    C0SHOP: {namespaces: [shop]}',
  ].join('\n');

  it('takes what the environment does not set from the file, and says which file', () => {
    const c = loadConfig({}, RULE_IDS, file(FILE));
    expect(c).toMatchObject({
      configFile: '/etc/pod-doctor/config.yaml',
      cluster: 'prod-eu',
      logLevel: 'debug',
      approvers: ['U0123ABCD'],
      alertChannel: 'C0ALERTS',
      alertRoutes: [{ matchers: { team: 'db' }, channel: 'C0DB' }],
    });
    expect(c.policy.channels).toEqual({ C0SHOP: { clusters: ['*'], namespaces: ['shop'] } });
    // Defaults for the rest.
    expect(c.apiTimeoutMs).toBe(5000);
  });

  it('lets a variable win over the file: a scalar, and a structured setting replaced whole', () => {
    const c = loadConfig(
      { LOG_LEVEL: 'warn', POD_DOCTOR_APPROVERS: 'S0ONCALL', POD_DOCTOR_ALERT_ROUTES: '[{"channel":"C0ALL"}]', POD_DOCTOR_CLUSTER: '' },
      RULE_IDS,
      file(FILE),
    );
    expect(c.logLevel).toBe('warn');
    expect(c.approvers).toEqual(['S0ONCALL']);
    expect(c.alertRoutes).toEqual([{ channel: 'C0ALL' }]);
    // An empty variable is unset: the file's value stands.
    expect(c.cluster).toBe('prod-eu');
    expect(c.alertChannel).toBe('C0ALERTS');
  });

  it("checks chat ids with the surface's parser, in variables as in the file", () => {
    const env = {
      POD_DOCTOR_APPROVERS: 'U0ALICE,bob',
      POD_DOCTOR_DEFAULT_NAMESPACES: 'town-square=shop',
      POD_DOCTOR_POLICY: '{"usergroups":{"sre":{}},"channels":{"C0SHOP":{}}}',
    };
    expect(configError(() => loadConfig(env, RULE_IDS, { ids: slackIds })).split('\n')).toEqual([
      'invalid configuration:',
      '  POD_DOCTOR_APPROVERS: expected a Slack user id (U…, W…) or user-group id (S…)',
      '  POD_DOCTOR_DEFAULT_NAMESPACES: expected a Slack channel id (C…, G…, D…) or *',
      '  POD_DOCTOR_POLICY: usergroups.sre: expected a Slack user-group id (S…)',
    ]);
    // Without a surface's parser, any surface's ids pass.
    expect(loadConfig(env, RULE_IDS).approvers).toEqual(['U0ALICE', 'bob']);
    expect(
      loadConfig({ ...env, POD_DOCTOR_APPROVERS: 'S0SRE', POD_DOCTOR_DEFAULT_NAMESPACES: '*=shop', POD_DOCTOR_POLICY: '' }, RULE_IDS, { ids: slackIds })
        .approvers,
    ).toEqual(['S0SRE']);
  });

  it("lists every problem of the file and of the environment in one error, the file's by line", () => {
    const msg = configError(() =>
      loadConfig(
        { POD_DOCTOR_API_TIMEOUT_MS: 'soon', SLACK_BOT_TOKEN: 'xoxp-user' },
        RULE_IDS,
        file(['logLevel: loud', 'alertRoutes:', '  - matchers: {team: db}', 'rules:', '  crash.app-exitt: off', 'polcy: {}'].join('\n')),
      ),
    );
    expect(msg.split('\n')).toEqual([
      'invalid configuration:',
      expect.stringMatching(/^ {2}\/etc\/pod-doctor\/config\.yaml: logLevel: .*expected one of .*\(line 1\)$/),
      '  /etc/pod-doctor/config.yaml: alertRoutes[0].channel: required (line 3)',
      '  /etc/pod-doctor/config.yaml: rules["crash.app-exitt"]: unknown rule id "crash.app-exitt"; did you mean "crash.app-exit"? (line 5)',
      '  /etc/pod-doctor/config.yaml: polcy: unknown key; did you mean "policy"? (line 6)',
      expect.stringMatching(/^ {2}POD_DOCTOR_API_TIMEOUT_MS: /),
      expect.stringMatching(/^ {2}SLACK_BOT_TOKEN: expected a bot token/),
    ]);
  });

  it('reports unknown rule ids where they were set', () => {
    expect(configError(() => loadConfig({ POD_DOCTOR_RULES: 'image.authh=off' }, RULE_IDS, file('rules: {crash.nope: off}')))).toBe(
      'invalid configuration:\n  POD_DOCTOR_RULES: unknown rule id "image.authh"; did you mean "image.auth"?',
    );
    expect(configError(() => loadConfig({}, RULE_IDS, file('rules: {crash.nope: off}')))).toBe(
      'invalid configuration:\n  /etc/pod-doctor/config.yaml: rules["crash.nope"]: unknown rule id "crash.nope" (line 1)',
    );
  });
});

describe('the access policy setting', () => {
  it('is empty (no restriction) unless set, and takes JSON in its variable', () => {
    expect(loadConfig({}).policy).toEqual({ channels: {}, usergroups: {}, approvals: [] });
    const c = loadConfig({ POD_DOCTOR_POLICY: '{"usergroups":{"S0SRE":{"clusters":["prod-*"]}}}' });
    expect(c.policy.usergroups).toEqual({ S0SRE: { clusters: ['prod-*'], namespaces: ['*'] } });
    expect(configError(() => loadConfig({ POD_DOCTOR_POLICY: '{"channel":{}}' }))).toMatch(/POD_DOCTOR_POLICY: .*channel/);
  });
});

describe('POD_DOCTOR_INCIDENT_CHANNEL, the former name of POD_DOCTOR_ALERT_CHANNEL', () => {
  const load = (env: Record<string, string>, fileText?: string) => {
    const notes: string[] = [];
    const config = loadConfig(env, undefined, { onNote: (n) => notes.push(n), ...(fileText ? { file: { path: 'c.yaml', text: fileText } } : {}) });
    return { config, notes };
  };

  it('still sets the alert channel, with a deprecation note', () => {
    const { config, notes } = load({ POD_DOCTOR_INCIDENT_CHANNEL: 'C0INC' });
    expect(config.alertChannel).toBe('C0INC');
    expect(notes).toEqual(['POD_DOCTOR_INCIDENT_CHANNEL is deprecated: it is now POD_DOCTOR_ALERT_CHANNEL (the same setting); rename it']);
    // As a variable it wins over the file, as any variable does.
    expect(load({ POD_DOCTOR_INCIDENT_CHANNEL: 'C0INC' }, 'alertChannel: C0FILE').config.alertChannel).toBe('C0INC');
  });

  it('is noted when it repeats the new name, and refused when it contradicts it', () => {
    const same = load({ POD_DOCTOR_INCIDENT_CHANNEL: 'C0A', POD_DOCTOR_ALERT_CHANNEL: 'C0A' });
    expect(same.config.alertChannel).toBe('C0A');
    expect(same.notes).toEqual(['POD_DOCTOR_INCIDENT_CHANNEL is deprecated and repeats POD_DOCTOR_ALERT_CHANNEL: remove it']);
    expect(configError(() => load({ POD_DOCTOR_INCIDENT_CHANNEL: 'C0A', POD_DOCTOR_ALERT_CHANNEL: 'C0B' }))).toContain(
      'POD_DOCTOR_INCIDENT_CHANNEL: the deprecated name of POD_DOCTOR_ALERT_CHANNEL, which is set to another value',
    );
  });

  it('is no setting of its own any more', () => {
    expect(Object.values(SETTINGS).map((s) => s.env)).not.toContain('POD_DOCTOR_INCIDENT_CHANNEL');
    expect(load({}).notes).toEqual([]);
  });
});
