import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/helpers/errors.js';
import type { KubeObject } from '../diagnosis/types.js';
import { ObjectsSource } from './objects-source.js';

const log = (patch: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'pod-doctor.dev/v1',
    kind: 'PodLog',
    metadata: { namespace: 'shop', name: 'web-1' },
    container: 'app',
    lines: ['boom'],
    ...patch,
  }) as unknown as KubeObject;

describe('ObjectsSource: saved container logs', () => {
  it('reads a PodLog document', () => {
    expect(() => new ObjectsSource([log()], 'dump.yaml')).not.toThrow();
  });

  it('refuses a malformed one, naming the dump, the log and the field', () => {
    const err = catchError(() => new ObjectsSource([log({ lines: 'boom' })], 'dump.yaml'));
    expect(String(err)).toMatch(/dump\.yaml: PodLog shop\/web-1: lines /);
  });
});

describe('ObjectsSource: list order', () => {
  const svc = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace, name } }) as KubeObject;

  it('lists in the API server order (by namespace/name), not the order the objects were saved in', async () => {
    const source = new ObjectsSource([svc('etcd', 'etcd-headless'), svc('other', 'a'), svc('etcd', 'etcd'), svc('etcd', 'client')]);
    expect((await source.listServices('etcd')).map((s) => s.metadata?.name)).toEqual(['client', 'etcd', 'etcd-headless']);
  });
});
