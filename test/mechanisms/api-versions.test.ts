// An API the cluster does not serve (src/diagnosis/mechanisms/catalogue/api-versions.ts): removed
// beta versions, versions newer than the cluster, custom resources without their CRD.
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { node } from '../helpers/factories.js';
import { describeFamilies, scopeOf } from '../helpers/mechanism-table.js';

const CRONJOB_V1BETA1 =
  'E0219 08:25:23.237544       1 reflector.go:123] pkg/mod/k8s.io/client-go@v0.16.10/tools/cache/reflector.go:96: Failed to list *v1beta1.CronJob: ' +
  'the server could not find the requested resource';
const PDB_V1 =
  'pkg/mod/k8s.io/client-go@v0.24.1/tools/cache/reflector.go:167: Failed to watch *v1.PodDisruptionBudget: failed to list *v1.PodDisruptionBudget: ' +
  'the server could not find the requested resource';

describeFamilies({
  'API versions': [
    {
      line: CRONJOB_V1BETA1,
      mechanism: 'api-not-served',
      variant: 'removed',
      knob: '.image',
      data: { kind: 'CronJob', groupVersion: 'batch/v1beta1', release: '1.25', use: 'batch/v1' },
    },
    {
      line:
        '{"kind": "ServiceMonitor.monitoring.coreos.com", "error": "failed to get restmapping: ' +
        'no matches for kind \\"ServiceMonitor\\" in version \\"monitoring.coreos.com/v1\\""}',
      mechanism: 'api-not-served',
      variant: 'crd-missing',
      knob: 'CustomResourceDefinition for ServiceMonitor (monitoring.coreos.com)',
      data: { kind: 'ServiceMonitor', groupVersion: 'monitoring.coreos.com/v1' },
    },
  ],
});

describe("an API version read against the nodes' Kubernetes version", () => {
  const at = (kubeletVersion: string) => ({ ...scopeOf(), node: node({ status: { nodeInfo: { kubeletVersion } } }) });
  it('a removed beta version on a cluster past its removal names the release and the replacement', () => {
    const r = readTexts([{ text: CRONJOB_V1BETA1, source: 'logs app' }], at('v1.29.4'));
    expect(r?.variant).toBe('removed');
    expect(r?.explanation).toContain('its nodes run v1.29.4');
    expect(r?.explanation).toContain('batch/v1');
  });
  it('a removed beta version on a cluster older than its removal is not read as removed', () => {
    expect(readTexts([{ text: CRONJOB_V1BETA1, source: 'logs app' }], at('v1.23.17'))?.variant).toBe('general');
  });
  it('a GA version on a cluster older than its introduction says the app is ahead of the cluster', () => {
    const r = readTexts([{ text: PDB_V1, source: 'logs app' }], at('v1.20.15'));
    expect(r?.variant).toBe('too-new');
    expect(r?.summary).toBe('policy/v1 PodDisruptionBudget is newer than the cluster (v1.20.15)');
  });
  it('a GA version the cluster serves is neither removed, too new nor a custom resource', () => {
    expect(readTexts([{ text: PDB_V1, source: 'logs app' }], at('v1.30.6'))?.variant).toBe('general');
  });
});
