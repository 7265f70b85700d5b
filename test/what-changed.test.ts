// "What changed" end to end: the rollout and config-edit fixtures diagnosed from saved objects and
// through the client against the simulated API name the change, on the finding it explains and
// as its own line; the negative (an old revision's pod failing before the rollout) blames nothing.
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeSource } from '../src/collect/kube-source.js';
import { ObjectsSource } from '../src/collect/objects-source.js';
import type { Diagnosis } from '../src/diagnosis/types.js';
import { parseTarget } from '../src/kube/target.js';
import { loadScenario, type Scenario } from '../src/sim/scenarios.js';
import { startSim } from '../src/sim/server.js';
import { diagnoseTarget } from '../src/usecases/diagnose.js';

const ROOT = join(import.meta.dirname, 'fixtures/incidents');

interface Expected {
  changes: { kind: string; object: string; revision?: number; by?: string; explains?: number }[];
  /** The evidence the first finding carries, or null for none. */
  evidence: string | null;
}

const CASES: [string, Expected][] = [
  [
    'rollout-new-image-crashloop',
    {
      changes: [{ kind: 'rollout', object: 'Deployment web', revision: 2, by: 'argocd-controller', explains: 40 }],
      evidence: 'began 40s after revision 2 of Deployment web (image web 2.3.1 → 2.4.0), by argocd-controller',
    },
  ],
  [
    'configmap-edit-parse-error',
    {
      changes: [{ kind: 'config', object: 'ConfigMap web-config', by: 'kubectl-edit', explains: 240 }],
      evidence: 'began 4m after ConfigMap web-config was edited, by kubectl-edit',
    },
  ],
  ['rollout-not-blamed-old-revision', { changes: [{ kind: 'rollout', object: 'Deployment web', revision: 2, by: 'argocd-controller' }], evidence: null }],
];

function summary(d: Diagnosis) {
  return {
    changes: (d.changes ?? []).map((c) => ({
      kind: c.kind,
      object: c.object,
      ...(c.revision !== undefined ? { revision: c.revision } : {}),
      ...(c.by ? { by: c.by } : {}),
      ...(c.explains !== undefined ? { explains: c.explains } : {}),
    })),
    evidence: d.findings[0]?.evidence.find((e) => e.source.startsWith('what changed'))?.text ?? null,
  };
}

describe.each(CASES)('what changed: %s', (slug, expected) => {
  let scenario: Scenario;
  let sim: Awaited<ReturnType<typeof startSim>>;
  beforeAll(async () => {
    scenario = await loadScenario(join(ROOT, slug));
    sim = await startSim({ objects: scenario.objects });
  });
  afterAll(async () => {
    await sim?.close();
  });
  const options = () => ({ cluster: 'fixture', now: () => new Date(scenario.meta.now) });

  it('from saved objects (--from)', async () => {
    const d = await diagnoseTarget(new ObjectsSource(scenario.objects), parseTarget(scenario.meta.target), options());
    expect(summary(d)).toEqual(expected);
  });

  it('through the API (the simulated cluster)', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    const d = await diagnoseTarget(new KubeSource(kc), parseTarget(scenario.meta.target), options());
    expect(d.skipped).toEqual([]);
    expect(summary(d)).toEqual(expected);
  });
});

it('looks no further back than the window before the failure began', async () => {
  const scenario = await loadScenario(join(ROOT, 'configmap-edit-parse-error'));
  const diagnose = (changeWindowMinutes: number) =>
    diagnoseTarget(new ObjectsSource(scenario.objects), parseTarget(scenario.meta.target), {
      cluster: 'fixture',
      now: () => new Date(scenario.meta.now),
      changeWindowMinutes,
    });
  // The edit came 4 minutes before the failure began.
  expect((await diagnose(3)).changes).toBeUndefined();
  expect((await diagnose(5)).changes?.map((c) => c.object)).toEqual(['ConfigMap web-config']);
});

it("names an edit of a RoleBinding of the pod's ServiceAccount, from saved objects and through the API", async () => {
  const scenario = await loadScenario(join(ROOT, 'configmap-edit-parse-error'));
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: {
      name: 'web-config-reader',
      namespace: 'storefront',
      creationTimestamp: '2026-10-01T10:00:00Z',
      managedFields: [
        {
          manager: 'helm',
          operation: 'Update',
          apiVersion: 'rbac.authorization.k8s.io/v1',
          time: '2026-11-21T09:57:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:subjects': {} },
        },
      ],
    },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'config-reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'storefront' }],
  };
  const other = { ...binding, metadata: { ...binding.metadata, name: 'ops' }, subjects: [{ kind: 'ServiceAccount', name: 'ops', namespace: 'storefront' }] };
  const objects = [...scenario.objects, binding, other];
  const options = { cluster: 'fixture', now: () => new Date(scenario.meta.now) };
  const sim = await startSim({ objects });
  try {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    for (const source of [new ObjectsSource(objects), new KubeSource(kc)]) {
      const d = await diagnoseTarget(source, parseTarget(scenario.meta.target), options);
      expect(summary(d).changes).toEqual([
        { kind: 'config', object: 'ConfigMap web-config', by: 'kubectl-edit', explains: 240 },
        { kind: 'access', object: "RoleBinding web-config-reader (of the pod's ServiceAccount, role config-reader)", by: 'helm', explains: 120 },
      ]);
    }
  } finally {
    await sim.close();
  }
});

it("names the HPA's last scale and the NetworkPolicies and budgets selecting the pod, from saved objects and through the API", async () => {
  const scenario = await loadScenario(join(ROOT, 'configmap-edit-parse-error'));
  const fields = (manager: string, time: string, status = false) => [
    {
      manager,
      operation: 'Update',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: status ? { 'f:status': {} } : { 'f:spec': {} },
      ...(status ? { subresource: 'status' } : {}),
    },
  ];
  const hpa = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'storefront', creationTimestamp: '2026-10-01T10:00:00Z', managedFields: fields('helm', '2026-10-01T10:00:00Z') },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 4, metrics: [] },
    status: { lastScaleTime: '2026-11-21T09:50:00Z', currentReplicas: 3, desiredReplicas: 4, conditions: [] },
  };
  const policy = (name: string, app: string) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: 'storefront', creationTimestamp: '2026-11-21T09:58:00Z', managedFields: fields('kubectl-create', '2026-11-21T09:58:00Z') },
    spec: { podSelector: { matchLabels: { app } }, policyTypes: ['Egress'] },
  });
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name: 'web',
      namespace: 'storefront',
      creationTimestamp: '2026-11-21T09:30:00Z',
      managedFields: [...fields('helm', '2026-11-21T09:30:00Z'), ...fields('kube-controller-manager', '2026-11-21T09:59:50Z', true)],
    },
    spec: { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 },
  };
  const objects = [...scenario.objects, hpa, policy('deny-egress', 'web'), policy('db-only', 'db'), pdb];
  const options = { cluster: 'fixture', now: () => new Date(scenario.meta.now) };
  const sim = await startSim({ objects });
  try {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    for (const source of [new ObjectsSource(objects), new KubeSource(kc)]) {
      const d = await diagnoseTarget(source, parseTarget(scenario.meta.target), options);
      expect(d.skipped).toEqual([]);
      // A parse error names no connection: the new NetworkPolicy is listed, not blamed; HPA and budget never are.
      expect(summary(d).changes).toEqual([
        { kind: 'policy', object: 'PodDisruptionBudget web (selects the pod; maxUnavailable 1)', by: 'helm' },
        { kind: 'scaling', object: 'HorizontalPodAutoscaler web' },
        { kind: 'config', object: 'ConfigMap web-config', by: 'kubectl-edit', explains: 240 },
        { kind: 'policy', object: 'NetworkPolicy deny-egress (selects the pod; Egress)', by: 'kubectl-create' },
      ]);
      expect(d.changes?.find((c) => c.kind === 'scaling')?.text).toBe('scaled Deployment web to 4 replicas (min 2, max 4, at its maximum, 3 running now)');
    }
  } finally {
    await sim.close();
  }
});
