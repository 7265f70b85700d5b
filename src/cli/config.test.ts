import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/schema.js';
import { isPodDoctorError } from '../errors.js';
import { servedClusters } from './config.js';

describe('clusters a bot serves', () => {
  it('is the one cluster when POD_DOCTOR_CLUSTERS is unset', () => {
    const config = loadConfig({ POD_DOCTOR_CLUSTER: 'prod-eu' });
    expect(config.clusters).toBeUndefined();
    expect(servedClusters('prod-eu', config)).toEqual(['prod-eu']);
  });

  it('reads a comma list (and a YAML list in the file) that must hold the default cluster', () => {
    expect(servedClusters('a', loadConfig({ POD_DOCTOR_CLUSTER: 'a', POD_DOCTOR_CLUSTERS: 'a, b' }))).toEqual(['a', 'b']);
    const fromFile = loadConfig({}, undefined, { file: { path: 'c.yaml', text: 'cluster: b\nclusters: [a, b]\n' } });
    expect(servedClusters(fromFile.cluster, fromFile)).toEqual(['a', 'b']);
    let caught: unknown;
    try {
      servedClusters('c', loadConfig({ POD_DOCTOR_CLUSTERS: 'a,b' }));
    } catch (err) {
      caught = err;
    }
    expect(isPodDoctorError(caught, 'BAD_CONFIG')).toBe(true);
    expect((caught as Error).message).toContain('"c" is not in POD_DOCTOR_CLUSTERS (a, b)');
  });

  it('refuses names that are not DNS-1123 labels and repeats', () => {
    expect(() => loadConfig({ POD_DOCTOR_CLUSTERS: 'a,Prod EU' })).toThrow(/POD_DOCTOR_CLUSTERS: expected cluster names/);
    expect(() => loadConfig({ POD_DOCTOR_CLUSTERS: 'a,a' })).toThrow(/listed twice/);
  });
});
