import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catchError } from '../../test/helpers/errors.js';
import { loadObjects, parseDocuments, SimLoadError, splitSpecial } from './load.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-load-'));
  await mkdir(join(dir, 'nested', 'deeper'), { recursive: true });
  await writeFile(
    join(dir, 'a.yaml'),
    [
      'apiVersion: v1',
      'kind: Node',
      'metadata: {name: node-1, uid: fixed-uid, resourceVersion: "42"}',
      '---',
      '---',
      'apiVersion: v1',
      'kind: Namespace',
      'metadata: {name: shop}',
    ].join('\n'),
  );
  await writeFile(join(dir, 'nested', 'b.json'), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'shop' } }));
  await writeFile(
    join(dir, 'nested', 'deeper', 'dump.yml'),
    [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '- apiVersion: v1',
      '  kind: Pod',
      '  metadata: {name: p1, namespace: shop}',
      '- apiVersion: v1',
      '  kind: PodList',
      '  items:',
      '  - metadata: {name: p2, namespace: shop}',
    ].join('\n'),
  );
  await writeFile(join(dir, 'notes.txt'), 'not a fixture');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadObjects', () => {
  it('reads directories recursively in name order, skipping other extensions', async () => {
    const objects = await loadObjects([dir]);
    expect(objects.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual(['Node/node-1', 'Namespace/shop', 'ConfigMap/cm', 'Pod/p1', 'Pod/p2']);
  });

  it('keeps fixture uids and resourceVersions', async () => {
    const [node] = await loadObjects([join(dir, 'a.yaml')]);
    expect(node?.metadata).toMatchObject({ uid: 'fixed-uid', resourceVersion: '42' });
  });

  it('infers apiVersion/kind of typed list items', async () => {
    const objects = await loadObjects([join(dir, 'nested', 'deeper', 'dump.yml')]);
    expect(objects[1]).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p2' } });
  });

  it('fails with SIM_READ for a missing path', async () => {
    await expect(loadObjects([join(dir, 'missing.yaml')])).rejects.toMatchObject({ name: 'SimLoadError', code: 'SIM_READ' });
  });
});

describe('parseDocuments', () => {
  it.each([
    ['an item of a plain List without kind', 'kind: List\napiVersion: v1\nitems:\n- metadata: {name: x}\n', /item 1: object has no/],
    ['an object without metadata.name', 'apiVersion: v1\nkind: Pod\nmetadata: {}\n', /Pod has no metadata.name/],
    ['a scalar document', '42\n', /expected a Kubernetes object/],
    ['broken YAML', 'a: [\n', /f.yaml/],
  ])('rejects %s', (_name, text, message) => {
    const err = catchError(() => parseDocuments(text, 'f.yaml'));
    expect(err).toBeInstanceOf(SimLoadError);
    expect((err as Error).message).toMatch(message);
  });
});

describe('splitSpecial', () => {
  it('separates PodLog and other pod-doctor.dev documents from API objects', () => {
    const out = splitSpecial([
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop' } },
      { apiVersion: 'pod-doctor.dev/v1', kind: 'PodLog', metadata: { name: 'p', namespace: 'shop' }, container: 'app', previous: true, lines: ['boom'] },
      { apiVersion: 'pod-doctor.dev/v1', kind: 'NodeProbe', metadata: { name: 'n' } },
    ]);
    expect(out.api.map((o) => o.kind)).toEqual(['Pod']);
    expect(out.special.map((o) => o.kind)).toEqual(['PodLog', 'NodeProbe']);
    expect(out.podLogs).toEqual([{ namespace: 'shop', pod: 'p', container: 'app', previous: true, lines: ['boom'] }]);
  });

  it('rejects a malformed PodLog', () => {
    expect(() => splitSpecial([{ apiVersion: 'pod-doctor.dev/v1', kind: 'PodLog', metadata: { name: 'p', namespace: 'shop' }, lines: 'x' }])).toThrow(
      SimLoadError,
    );
  });
});
