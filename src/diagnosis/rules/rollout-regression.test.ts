import { describe, expect, it } from 'vitest';
import { ago, crashedPod, event, pod, snapshot } from '../../../test/helpers/factories.js';
import { controllerRevision, deploymentHistory, statefulSet } from '../../../test/helpers/history.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './rollout-regression.js';

const V1 = { revision: 1, createdAgo: 9 * 86_400, image: 'registry.example.com/shop/web:2.3.1', hash: '6b5d8c7f9' };
// Rolled out six minutes ago; the new pods crash from their first run on.
const V2 = { revision: 2, createdAgo: 360, image: 'registry.example.com/shop/web:2.4.0', hash: '7d9f8c6b5' };

/** A pod of revision `hash` whose container crash-loops, first failing `failedAgo` seconds before NOW. */
function crashing(hash: string, failedAgo: number) {
  const p = crashedPod(
    { exitCode: 1, restarts: 6, finishedAgo: 30 },
    {
      metadata: {
        name: `web-${hash}-x2k4q`,
        labels: { app: 'web', 'pod-template-hash': hash },
        creationTimestamp: ago(failedAgo + 20),
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `web-${hash}`, uid: `rs-${hash}`, controller: true }],
      },
    },
  );
  return { pod: p, events: [event(p, { reason: 'BackOff', type: 'Warning', message: 'Back-off restarting failed container web', firstSeenAgo: failedAgo })] };
}

function rolledOut(hash: string, failedAgo: number, manager = 'argocd-controller', revisions = [V1, V2]) {
  const c = crashing(hash, failedAgo);
  return snapshot(c.pod, { events: c.events, history: deploymentHistory(manager, revisions) });
}

const db = (() => {
  const p = crashedPod(
    { exitCode: 1, restarts: 4, finishedAgo: 30 },
    {
      metadata: {
        name: 'db-0',
        labels: { app: 'db', 'controller-revision-hash': 'db-5f6d7c8b9' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts-db', controller: true }],
      },
    },
  );
  const revisions = [
    controllerRevision({ revision: 3, createdAgo: 86_400, image: 'postgres:16.3', hash: '4c5b6a7d8' }),
    controllerRevision({ revision: 4, createdAgo: 300, image: 'postgres:17.0', hash: '5f6d7c8b9', memoryLimit: '256Mi' }),
  ];
  return snapshot(p, {
    events: [event(p, { reason: 'BackOff', type: 'Warning', message: 'Back-off restarting failed container web', firstSeenAgo: 240 })],
    history: { workload: { kind: 'StatefulSet', name: 'db', object: statefulSet('kubectl-client-side-apply', 300), revisions }, configs: [] },
  });
})();

testRule(rule, {
  valid: [
    { name: 'near miss (a pod of the old revision vs rollout.regression): it was failing before and is not of revision 2', snapshot: rolledOut(V1.hash, 300) },
    { name: 'near miss (failure before the rollout vs rollout.regression): the pod failed 20 minutes before revision 2', snapshot: rolledOut(V2.hash, 1560) },
    {
      name: 'near miss (a later failure vs rollout.regression): revision 2 ran for 50 minutes before failing',
      snapshot: rolledOut(V2.hash, 300, 'argocd-controller', [V1, { ...V2, createdAgo: 3300 }]),
    },
    {
      name: 'a healthy pod of the new revision: a rollout with no failure after it is not blamed',
      snapshot: snapshot(pod({ metadata: { labels: { app: 'web', 'pod-template-hash': V2.hash } } }), {
        history: deploymentHistory('argocd-controller', [V1, V2]),
      }),
    },
    { name: 'the first revision: nothing to roll back to', snapshot: rolledOut(V2.hash, 320, 'argocd-controller', [{ ...V2, revision: 1 }]) },
    { name: 'no history collected', snapshot: snapshot(crashing(V2.hash, 320).pod, { events: crashing(V2.hash, 320).events }) },
  ],
  invalid: [
    {
      name: 'a new image rolled out 6 minutes before the crash loop began (by Argo CD)',
      snapshot: rolledOut(V2.hash, 320),
      expect: {
        severity: 'error',
        causeKey: 'rollout/shop/Deployment/web:2',
        params: { kind: 'Deployment', name: 'web', revision: 1, fromRevision: 2, revisionName: `web-${V1.hash}` },
        said: [
          { id: 'title', data: { kind: 'Deployment', name: 'web', revision: 2 } },
          { id: 'rolledOutBy', data: { what: 'image web 2.3.1 → 2.4.0', by: 'argocd-controller' } },
          { id: 'runsIt', data: { after: '40s' } },
        ],
      },
    },
    {
      name: 'a StatefulSet revision (ControllerRevision) that changed the image and the memory limit',
      snapshot: db,
      expect: {
        params: { kind: 'StatefulSet', name: 'db', revision: 3, fromRevision: 4 },
        said: [{ id: 'rolledOutBy', data: { what: 'image web 16.3 → 17.0, memory limit of web none → 256Mi' } }],
      },
    },
  ],
});

describe('rollout.regression in a diagnosis', () => {
  it('ranks after the crash it explains, which carries the rollout as evidence and the answer lists it', () => {
    const d = diagnose(rolledOut(V2.hash, 320), { rules: RULES });
    expect(d.ruleErrors).toEqual([]);
    expect(d.findings.map((f) => f.rule).slice(0, 2)).toEqual(['crash.app-exit', 'rollout.regression']);
    const evidence = d.findings[0]?.evidence.find((e) => e.source === 'what changed: Deployment web');
    expect(evidence?.text).toBe('began 40s after revision 2 of Deployment web (image web 2.3.1 → 2.4.0), by argocd-controller');
    expect(d.changes?.map((c) => ({ kind: c.kind, revision: c.revision, by: c.by, explains: c.explains }))).toEqual([
      { kind: 'rollout', revision: 2, by: 'argocd-controller', explains: 40 },
    ]);
  });

  it('lists a rollout that does not explain the failure without blaming it', () => {
    const d = diagnose(rolledOut(V1.hash, 300), { rules: RULES });
    expect(d.changes?.map((c) => c.explains)).toEqual([undefined]);
    expect(d.findings.flatMap((f) => f.evidence).filter((e) => e.source.startsWith('what changed'))).toEqual([]);
  });
});
