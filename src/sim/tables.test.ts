import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../diagnosis/types.js';
import { ResourceTable } from './resources.js';
import { humanDuration, toTable } from './tables.js';

const NOW = new Date('2026-11-21T10:00:00Z');
const pods = new ResourceTable().lookup('', 'v1', 'pods')!;

describe('humanDuration', () => {
  it.each([
    [5, '5s'],
    [119, '119s'],
    [150, '2m30s'],
    [600, '10m'],
    [3 * 3600 + 60, '3h1m'],
    [30 * 3600, '30h'],
    [3 * 86400 + 3600, '3d1h'],
    [40 * 86400, '40d'],
  ])('%is → %s', (seconds, text) => {
    expect(humanDuration(seconds * 1000)).toBe(text);
  });
});

describe('pod STATUS column', () => {
  const row = (status: Record<string, unknown>, extra: Partial<KubeObject> = {}) => {
    const pod: KubeObject = {
      metadata: { name: 'p', creationTimestamp: '2026-11-21T09:55:00Z', ...extra.metadata },
      spec: { containers: [{ name: 'app' }], initContainers: extra.spec?.initContainers },
      status,
    };
    const table = toTable(pods, [pod], NOW, {}, 'v1') as { rows: { cells: unknown[] }[] };
    return table.rows[0]?.cells.slice(0, 5);
  };

  it.each([
    [
      'a crash-looping container',
      { phase: 'Running', containerStatuses: [{ restartCount: 7, state: { waiting: { reason: 'CrashLoopBackOff' } } }] },
      ['p', '0/1', 'CrashLoopBackOff', 7, '5m'],
    ],
    [
      'a ready container',
      { phase: 'Running', containerStatuses: [{ ready: true, restartCount: 0, state: { running: {} } }] },
      ['p', '1/1', 'Running', 0, '5m'],
    ],
    [
      'an OOM-killed container',
      { phase: 'Running', containerStatuses: [{ restartCount: 1, state: { terminated: { reason: 'OOMKilled', exitCode: 137 } } }] },
      ['p', '0/1', 'OOMKilled', 1, '5m'],
    ],
    ['an evicted pod', { phase: 'Failed', reason: 'Evicted' }, ['p', '0/1', 'Evicted', 0, '5m']],
  ])('shows %s', (_name, status, cells) => {
    expect(row(status)).toEqual(cells);
  });

  it('shows an init container waiting and a Terminating pod', () => {
    expect(
      row(
        { phase: 'Pending', initContainerStatuses: [{ state: { waiting: { reason: 'ImagePullBackOff' } } }] },
        { spec: { initContainers: [{ name: 'i' }] } },
      )?.[2],
    ).toBe('Init:ImagePullBackOff');
    expect(
      row({ phase: 'Running' }, { metadata: { name: 'p', creationTimestamp: '2026-11-21T09:55:00Z', deletionTimestamp: '2026-11-21T09:59:00Z' } })?.[2],
    ).toBe('Terminating');
  });
});
