import { describe, expect, it } from 'vitest';
import { catchError } from '../../test/helpers/errors.js';
import type { JsonObject } from './json.js';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, PatchError } from './patch.js';
import { SMP } from './smp-schemas.js';

const pod = (): JsonObject => ({
  metadata: { name: 'p', finalizers: ['example.com/a', 'example.com/b'], labels: { app: 'web' } },
  spec: { containers: [{ name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }] }], tolerations: [{ key: 't1' }] },
  status: { conditions: [{ type: 'Ready', status: 'False' }] },
});

describe('merge patch (RFC 7386)', () => {
  it.each([
    ['null deletes a key', { metadata: { finalizers: null } }, (r: JsonObject) => expect((r.metadata as JsonObject).finalizers).toBeUndefined()],
    ['[] replaces a list', { metadata: { finalizers: [] } }, (r: JsonObject) => expect((r.metadata as JsonObject).finalizers).toEqual([])],
    ['maps merge', { metadata: { labels: { tier: 'x' } } }, (r: JsonObject) => expect((r.metadata as JsonObject).labels).toEqual({ app: 'web', tier: 'x' })],
  ])('%s', (_name, patch, check) => {
    check(applyMergePatch(pod(), patch) as JsonObject);
  });
});

describe('JSON patch (RFC 6902)', () => {
  it('applies add/remove/replace/move/copy/test in order', () => {
    const out = applyJsonPatch(pod(), [
      { op: 'test', path: '/metadata/name', value: 'p' },
      { op: 'add', path: '/metadata/finalizers/-', value: 'example.com/c' },
      { op: 'remove', path: '/metadata/finalizers/0' },
      { op: 'replace', path: '/metadata/labels/app', value: 'api' },
      { op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/copy' },
      { op: 'move', from: '/metadata/labels/copy', path: '/metadata/labels/moved' },
      { op: 'add', path: '/metadata/annotations', value: { 'a~b/c': 'x' } },
      { op: 'remove', path: '/metadata/annotations/a~0b~1c' },
    ]) as JsonObject;
    expect(out.metadata).toEqual({ name: 'p', finalizers: ['example.com/b', 'example.com/c'], labels: { app: 'api', moved: 'api' }, annotations: {} });
  });

  it.each([
    ['a failed test', [{ op: 'test', path: '/metadata/name', value: 'q' }], 'testing value /metadata/name failed: test failed'],
    ['removing a missing key', [{ op: 'remove', path: '/metadata/annotations' }], 'Unable to remove nonexistent key: annotations: missing value'],
    ['removing under a missing parent', [{ op: 'remove', path: '/nope/x' }], 'remove operation does not apply: doc is missing path: "/nope/x": missing value'],
    [
      'replacing a missing key',
      [{ op: 'replace', path: '/metadata/nope', value: 1 }],
      'replace operation does not apply: doc is missing key: /metadata/nope: missing value',
    ],
    ['an unknown op', [{ op: 'frob', path: '/x' }], 'Unexpected kind: frob'],
  ])('rejects %s (422)', (_name, ops, message) => {
    const err = catchError(() => applyJsonPatch(pod(), ops)) as PatchError;
    expect(err).toBeInstanceOf(PatchError);
    expect(err.code).toBe('rejected');
    expect(err.message).toBe(message);
  });

  it('rejects a body that is not a list (400)', () => {
    expect((catchError(() => applyJsonPatch(pod(), { op: 'add' })) as PatchError).code).toBe('bad-request');
  });

  it('does not modify its input', () => {
    const input = pod();
    applyJsonPatch(input, [{ op: 'remove', path: '/metadata/finalizers' }]);
    expect((input.metadata as JsonObject).finalizers).toHaveLength(2);
  });
});

describe('strategic merge patch', () => {
  const smp = (patch: unknown) => applyStrategicMergePatch(pod(), patch, SMP.pod);
  const meta = (o: JsonObject) => o.metadata as JsonObject;
  const spec = (o: JsonObject) => o.spec as JsonObject;

  it.each([
    ['finalizers null clears', { metadata: { finalizers: null } }, undefined],
    ['finalizers [] is a no-op (set merge of nothing)', { metadata: { finalizers: [] } }, ['example.com/a', 'example.com/b']],
    ['$deleteFromPrimitiveList removes values', { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } }, ['example.com/b']],
    [
      'a new finalizer goes first (normalizeElementOrder)',
      { metadata: { finalizers: ['example.com/c'] } },
      ['example.com/c', 'example.com/a', 'example.com/b'],
    ],
    ['$patch: replace on the list', { metadata: { finalizers: [{ $patch: 'replace' }, 'example.com/z'] } }, ['example.com/z']],
  ])('metadata.finalizers: %s', (_name, patch, expected) => {
    expect(meta(smp(patch)).finalizers).toEqual(expected);
  });

  it('merges containers by name and their env by name', () => {
    const out = smp({ spec: { containers: [{ name: 'app', image: 'app:2', env: [{ name: 'B', value: '2' }] }] } });
    expect(spec(out).containers).toEqual([
      {
        name: 'app',
        image: 'app:2',
        env: [
          { name: 'B', value: '2' },
          { name: 'A', value: '1' },
        ],
      },
    ]);
  });

  it('deletes a container with $patch: delete and keeps server order for untouched ones', () => {
    const base = pod();
    (base.spec as JsonObject).containers = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
    const out = applyStrategicMergePatch(
      base,
      {
        spec: {
          containers: [
            { name: 'b', $patch: 'delete' },
            { name: 'c', image: 'x' },
          ],
        },
      },
      SMP.pod,
    );
    expect(spec(out).containers).toEqual([{ name: 'a' }, { name: 'c', image: 'x' }]);
  });

  it('merges status conditions by type', () => {
    const out = smp({
      status: {
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'PodScheduled', status: 'True' },
        ],
      },
    });
    expect((out.status as JsonObject).conditions).toEqual([
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ]);
  });

  it('replaces lists without a patch strategy (tolerations)', () => {
    expect(spec(smp({ spec: { tolerations: [{ key: 't2' }] } })).tolerations).toEqual([{ key: 't2' }]);
  });

  it('replaces a map with $patch: replace', () => {
    expect(meta(smp({ metadata: { labels: { $patch: 'replace', only: 'x' } } })).labels).toEqual({ only: 'x' });
  });

  it('fails like the apiserver when a merge key is missing (bare 500)', () => {
    const err = catchError(() => smp({ spec: { containers: [{ image: 'x' }] } })) as PatchError;
    expect(err.code).toBe('internal');
    expect(err.message).toBe('map: map[image:x] does not contain declared merge key: name');
  });
});
