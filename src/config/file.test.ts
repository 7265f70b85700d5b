import { describe, expect, it } from 'vitest';
import { slackIds } from '../chat/adapters/slack/ids.js';
import { closest, formatPath, parseConfigFile } from './file.js';
import { loadConfig, SETTINGS } from './schema.js';

const parse = (text: string) => parseConfigFile({ path: 'pod-doctor.yaml', text }, SETTINGS);

/** The lines of the BAD_CONFIG `load` throws. */
function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (err) {
    return (err as Error).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
  return [];
}

describe('parseConfigFile', () => {
  it('reads single values through their variable schema and structured settings as YAML', () => {
    const file = parse(
      [
        'cluster: prod-eu',
        'apiTimeoutMs: 1500',
        'checkSecrets: true',
        'apiRatePerSecond: 2.5',
        'approvers: [U0123ABCD, S0456EFGH]',
        'defaultNamespaces: {C0123ABC: shop, "*": default}',
        'rules: {crash.app-exit: off, image.auth: warning}',
        'alertRoutes:',
        '  - matchers: {team: db}',
        '    channel: C0DB',
        'alertLabels: {namespace: [exported_namespace, namespace]}',
        'policy:',
        '  channels:',
        '    C0123ABC: {clusters: [prod-*], namespaces: [shop*]}',
        '  approvals:',
        '    - namespaces: [shop]',
        '      approvers: [S0SHOPOPS]',
      ].join('\n'),
    );
    expect(file.problems).toEqual([]);
    expect(file.values).toMatchObject({
      cluster: 'prod-eu',
      apiTimeoutMs: 1500,
      checkSecrets: true,
      apiRatePerSecond: 2.5,
      approvers: ['U0123ABCD', 'S0456EFGH'],
      defaultNamespaces: { C0123ABC: 'shop', '*': 'default' },
      rules: { 'crash.app-exit': { enabled: false }, 'image.auth': { severity: 'warning' } },
      alertRoutes: [{ matchers: { team: 'db' }, channel: 'C0DB' }],
      policy: {
        channels: { C0123ABC: { clusters: ['prod-*'], namespaces: ['shop*'] } },
        usergroups: {},
        approvals: [{ clusters: ['*'], namespaces: ['shop'], playbooks: ['*'], approvers: ['S0SHOPOPS'], twoPersonRisks: ['high'] }],
      },
    });
    // The label mapping is merged over the defaults, as the variable's is.
    expect((file.values.alertLabels as Record<string, string[]>).namespace).toEqual(['exported_namespace', 'namespace']);
    expect((file.values.alertLabels as Record<string, string[]>).pod).toEqual(['pod']);
    // Keys the file does not set are absent (their variable or default applies).
    expect(Object.keys(file.values)).not.toContain('logLevel');
  });

  it('counts an empty file, and empty values, as unset', () => {
    expect(parse('').values).toEqual({});
    expect(parse('# nothing yet\n').problems).toEqual([]);
    const file = parse('alertChannel: ""\ncluster:\nlogLevel: debug\n');
    expect(file.problems).toEqual([]);
    expect(file.values).toEqual({ logLevel: 'debug' });
  });

  it("lists every problem at once, each with its path and line, in line order (ids by the chat surface's parser)", () => {
    const text = [
      'cluster: Prod EU', // 1
      'alertRoutes:', // 2
      '  - matchers: {team: db}', // 3
      '    chanel: C0DB', // 4
      'port: [3000]', // 5
      'approvers: [U0123ABCD, bob]', // 6
      'policy:', // 7
      '  channels:', // 8
      '    C0123ABC: {namespace: [shop]}', // 9
      '  usergroups: {sre: {}}', // 10
    ].join('\n');
    expect(parse(text).values).toEqual({});
    expect(problemsOf(() => loadConfig({}, undefined, { file: { path: 'pod-doctor.yaml', text }, ids: slackIds }))).toEqual([
      'pod-doctor.yaml: cluster: expected a cluster name (a DNS-1123 label) (line 1)',
      'pod-doctor.yaml: alertRoutes[0].channel: required (line 3)',
      'pod-doctor.yaml: alertRoutes[0].chanel: unknown key; did you mean "channel"? (line 4)',
      'pod-doctor.yaml: port: expected a single value (text, a number, true or false) (line 5)',
      'pod-doctor.yaml: approvers[1]: expected a Slack user id (U…, W…) or user-group id (S…) (line 6)',
      'pod-doctor.yaml: policy.channels.C0123ABC.namespace: unknown key; did you mean "namespaces"? (line 9)',
      'pod-doctor.yaml: policy.usergroups.sre: expected a Slack user-group id (S…) (line 10)',
    ]);
    // Without a surface's parser, any surface's ids pass.
    expect(parse(text).problems.join('\n')).not.toMatch(/approvers|usergroups/);
  });

  it('refuses unknown keys, naming the setting meant (a typo, a variable name, a former name)', () => {
    const file = parse(['polcy: {}', 'POD_DOCTOR_ALERT_ROUTES: []', 'alert_routes: []', 'incidentChannel: C0INC', 'colour: blue'].join('\n'));
    expect(file.problems).toEqual([
      'pod-doctor.yaml: polcy: unknown key; did you mean "policy"? (line 1)',
      'pod-doctor.yaml: POD_DOCTOR_ALERT_ROUTES: unknown key; did you mean "alertRoutes"? (line 2)',
      'pod-doctor.yaml: alert_routes: unknown key; did you mean "alertRoutes"? (line 3)',
      'pod-doctor.yaml: incidentChannel: unknown key; did you mean "alertChannel"? (line 4)',
      'pod-doctor.yaml: colour: unknown key (line 5)',
    ]);
  });

  it('keeps secrets and the file path itself out of the file', () => {
    const file = parse('slackBotToken: xoxb-1\nredisUrl: redis://r:6379\nconfigFile: other.yaml\n');
    expect(file.problems).toEqual([
      'pod-doctor.yaml: slackBotToken: a secret: set SLACK_BOT_TOKEN in the environment ' +
        '(in Kubernetes from the Secret pod-doctor), never in this file (line 1)',
      'pod-doctor.yaml: redisUrl: a secret: set REDIS_URL in the environment (in Kubernetes from the Secret pod-doctor), never in this file (line 2)',
      'pod-doctor.yaml: configFile: set only by POD_DOCTOR_CONFIG or a flag (line 3)',
    ]);
  });

  it('reports YAML syntax errors by line and column, and a file that is not a mapping', () => {
    expect(parse('cluster: a\ncluster: b\n').problems).toEqual(['pod-doctor.yaml: line 2, column 1: Map keys must be unique']);
    expect(parse('approvers: [U0123ABCD\n').problems[0]).toMatch(/^pod-doctor\.yaml: line \d+, column \d+: /);
    expect(parse('- cluster: a\n').problems).toEqual([
      'pod-doctor.yaml: (top level): expected a mapping of settings (`cluster: prod`, `alertRoutes: [...]`) (line 1)',
    ]);
  });

  it('stops an alias bomb at the alias that exceeds the limit, naming its line; a few aliases are fine', () => {
    // Nine-fold nesting: 9^5 strings from five short lines (the "billion laughs" of YAML).
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...['b', 'c', 'd', 'e'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcd'[i]}`).join(', ')}]`)];
    const file = parse(['cluster: prod', ...bomb].join('\n'));
    expect(file.problems).toEqual(['pod-doctor.yaml: too many aliases (line 5)']);
    expect(file.values).toEqual({});
    const shared = parse(
      [
        'approvers: &sre [U0123ABCD]',
        'policy:',
        '  approvals:',
        '    - {namespaces: [shop], approvers: *sre}',
        '    - {namespaces: [db], approvers: *sre}',
      ].join('\n'),
    );
    expect(shared.problems).toEqual([]);
    expect(shared.values.approvers).toEqual(['U0123ABCD']);
  });

  it('places a later problem (an unknown rule id) at its line', () => {
    const file = parse('logLevel: info\nrules:\n  crash.nope: off\n');
    expect(file.problem(['rules', 'crash.nope'], 'unknown rule id "crash.nope"')).toBe(
      'pod-doctor.yaml: rules["crash.nope"]: unknown rule id "crash.nope" (line 3)',
    );
  });
});

describe('helpers', () => {
  it('formats paths with indexes and quoted odd keys', () => {
    expect(formatPath(['policy', 'approvals', 0, 'namespaces', 1])).toBe('policy.approvals[0].namespaces[1]');
    expect(formatPath(['rules', 'crash.app-exit'])).toBe('rules["crash.app-exit"]');
    expect(formatPath([])).toBe('(top level)');
  });

  it('suggests the closest key only when it is close', () => {
    expect(closest('approver', ['approvers', 'policy'])).toBe('approvers');
    expect(closest('LOG_LEVEL', ['logLevel', 'cluster'])).toBe('logLevel');
    expect(closest('xyz', ['approvers', 'policy'])).toBeUndefined();
  });
});
