// Which logs a diagnosis reads (issue 32: the evidence where it lies): the current run of a
// container that runs without being Ready, beside the previous run of one that restarted; init
// containers and native sidecars with their own history; bounded however many containers or
// however long the lines.
import { describe, expect, it } from 'vitest';
import { pod } from '../../test/helpers/factories.js';
import type { ContainerStatus, KubeObject } from '../diagnosis/types.js';
import { ObjectsSource } from './objects-source.js';
import { LOG_LINE_CHARS, MAX_LOG_CONTAINERS } from './pod-facts.js';
import { collectSnapshot } from './snapshot.js';

const target = { kind: 'pod' as const, namespace: 'shop', name: 'web-7d9f8c6b5-x2k4q' };
const running = (name: string, ready: boolean, lastExit?: number): ContainerStatus => ({
  name,
  ready,
  restartCount: lastExit === undefined ? 0 : 3,
  image: 'x',
  imageID: '',
  state: { running: { startedAt: '2026-11-21T09:00:00Z' } },
  ...(lastExit === undefined ? {} : { lastState: { terminated: { exitCode: lastExit, reason: 'Error' } } }),
});
const log = (container: string, previous: boolean, lines: string[]) => ({
  apiVersion: 'pod-doctor.dev/v1',
  kind: 'PodLog',
  metadata: { namespace: 'shop', name: target.name },
  container,
  previous,
  lines,
});

async function logsOf(statuses: ContainerStatus[], init: ContainerStatus[], docs: object[]) {
  const p = pod({
    spec: {
      containers: statuses.map((s) => ({ name: s.name, image: 'x' })),
      initContainers: init.map((s) => ({ name: s.name, image: 'x', restartPolicy: 'Always' })),
    },
    status: { containerStatuses: statuses, initContainerStatuses: init },
  });
  const s = await collectSnapshot(new ObjectsSource([p, ...docs] as KubeObject[]), target, { cluster: 'c1', needs: new Set(['pod', 'events', 'logs']) });
  return s.logs ?? [];
}

describe('the logs a diagnosis reads', () => {
  it('reads the current run of a running container that is not Ready, and the previous run of one that restarted', async () => {
    const logs = await logsOf(
      [running('app', false, 1), running('ok', true)],
      [],
      [log('app', true, ['crashed before']), log('app', false, ['x509: certificate signed by unknown authority']), log('ok', false, ['fine'])],
    );
    expect(logs.map((l) => [l.container, l.previous, l.lines[0]])).toEqual([
      ['app', true, 'crashed before'],
      ['app', false, 'x509: certificate signed by unknown authority'],
    ]);
  });
  it('reads a native sidecar (an init container that keeps running) that is not Ready', async () => {
    const logs = await logsOf(
      [running('app', false)],
      [running('proxy', false, 137)],
      [log('proxy', true, ['old']), log('proxy', false, ['now']), log('app', false, ['a'])],
    );
    expect(logs.map((l) => `${l.container}:${l.previous}`).sort()).toEqual(['app:false', 'proxy:false', 'proxy:true']);
  });
  it('reads at most MAX_LOG_CONTAINERS runs, and cuts a long line in the middle', async () => {
    const many = Array.from({ length: MAX_LOG_CONTAINERS + 10 }, (_, i) => running(`c${i}`, false));
    const huge = `${'a'.repeat(600_000)}EROFS at the end`;
    const logs = await logsOf(many, [], [log('c0', false, [huge]), ...many.slice(1).map((c) => log(c.name, false, ['x']))]);
    expect(logs).toHaveLength(MAX_LOG_CONTAINERS);
    const first = logs.find((l) => l.container === 'c0')!.lines[0]!;
    expect(first.length).toBeLessThanOrEqual(LOG_LINE_CHARS + 3);
    expect(first.endsWith('EROFS at the end')).toBe(true);
  });
});
