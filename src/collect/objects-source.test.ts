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
