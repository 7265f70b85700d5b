import { describe, expect, it } from 'vitest';
import { isPodDoctorError } from '../errors.js';
import { loadConfig, SETTINGS } from './schema.js';

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
