// fromClient must give exactly what client-node's ObjectSerializer gives (then canonical
// times), for every kind the collector reads: if a model ever renames a field, this fails.
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../sim/scenarios.js';
import { canonicalTime, canonicalTimes, fromClient } from './wire.js';

const MODELS: Record<string, string> = {
  Pod: 'V1Pod',
  Node: 'V1Node',
  Event: 'CoreV1Event',
  Namespace: 'V1Namespace',
  PersistentVolumeClaim: 'V1PersistentVolumeClaim',
  Lease: 'V1Lease',
  ReplicaSet: 'V1ReplicaSet',
  Deployment: 'V1Deployment',
  StatefulSet: 'V1StatefulSet',
  DaemonSet: 'V1DaemonSet',
  Job: 'V1Job',
};

const scenarios = await loadScenarios(join(import.meta.dirname, '../../test/fixtures/incidents'));
const objects = scenarios.flatMap((s) => s.objects).filter((o) => o.kind !== undefined && o.kind in MODELS);

describe('fromClient', () => {
  it('covers every kind the collector reads', () => {
    expect(new Set(objects.map((o) => o.kind))).toEqual(new Set(Object.keys(MODELS)));
  });

  it('equals ObjectSerializer.serialize + canonical times for every fixture object', () => {
    for (const o of objects) {
      const type = MODELS[o.kind!]!;
      const model: unknown = ObjectSerializer.deserialize(o, type);
      expect(fromClient(model), `${o.kind} ${o.metadata?.name}`).toEqual(canonicalTimes(ObjectSerializer.serialize(model, type)));
    }
  });

  it('turns Dates into RFC 3339 at second precision unless there is a fraction', () => {
    const pod = new k8s.V1Pod();
    pod.metadata = { name: 'x', creationTimestamp: new Date('2026-11-21T10:00:00Z'), deletionTimestamp: new Date('2026-11-21T10:00:00.250Z') };
    expect(fromClient(pod)).toEqual({ metadata: { name: 'x', creationTimestamp: '2026-11-21T10:00:00Z', deletionTimestamp: '2026-11-21T10:00:00.250Z' } });
    expect(canonicalTime('2026-11-21T09:37:12.000000Z')).toBe('2026-11-21T09:37:12Z');
  });
});
