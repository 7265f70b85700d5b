// Gaps carry their kind from where the failure is seen: the retry policy and the chat text read
// the kind, never the reason's wording.
import { describe, expect, it } from 'vitest';
import { node, pod } from '../../test/helpers/factories.js';
import { scriptedSource, sleep } from '../../test/helpers/jobs.js';
import type { KubeObject } from '../diagnosis/types.js';
import { ObjectsSource } from './objects-source.js';
import { collectSnapshot } from './snapshot.js';

const objects = [pod({ spec: { nodeName: 'node-1' } }), node({ metadata: { name: 'node-1' } })] as KubeObject[];
const target = { kind: 'pod' as const, namespace: 'shop', name: 'web-7d9f8c6b5-x2k4q' };

describe('collectSnapshot gaps', () => {
  it.each([
    ['403 (RBAC)', { code: 403, body: '{"message":"nodes \\"node-1\\" is forbidden"}' }, 'forbidden'],
    ['404', { code: 404, body: '{"message":"not found"}' }, 'not-found'],
    ['429', { code: 429, body: '' }, 'throttled'],
    ['503', { code: 503, body: '{"message":"etcdserver: leader changed"}' }, 'server-error'],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:6443'), { code: 'ECONNREFUSED' }), 'unreachable'],
    ['anything else', new Error('unexpected end of JSON input'), 'failed'],
  ])('a %s on the node read is a gap of kind %s', async (_name, error, kind) => {
    const source = scriptedSource(objects, (call) => {
      if (call === 'getNode') throw error;
    });
    const s = await collectSnapshot(source, target, { cluster: 'c1', needs: new Set(['pod', 'events', 'node']) });
    expect(s.gaps).toEqual([expect.objectContaining({ check: 'node node-1', kind, origin: 'api' })]);
  });

  it('a read slower than the time limit is a timeout gap', async () => {
    const source = scriptedSource(objects, async (call) => {
      if (call === 'getNode') await sleep(500);
    });
    const s = await collectSnapshot(source, target, { cluster: 'c1', needs: new Set(['pod', 'events', 'node']), timeoutMs: 50 });
    expect(s.gaps).toEqual([{ check: 'node node-1', reason: 'timed out after 50 ms', kind: 'timeout', origin: 'api' }]);
  });

  it("an agent lookup that fails is the agent's gap", async () => {
    const s = await collectSnapshot(scriptedSource(objects), target, {
      cluster: 'c1',
      needs: new Set(['pod', 'events', 'node', 'agent']),
      agent: {
        fetch: async () => {
          throw new Error('socket hang up');
        },
      },
    });
    expect(s.gaps).toEqual([expect.objectContaining({ check: 'node agent on node-1', kind: 'unreachable', origin: 'agent' })]);
  });

  it('reads the other pods a Multi-Attach event names (volumeUsers)', async () => {
    const other = pod({ metadata: { name: 'web-0-old', namespace: 'shop' }, spec: { nodeName: 'node-2' } });
    const me = pod({ metadata: { uid: 'me' }, spec: { nodeName: 'node-1' } });
    const ev = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e1', namespace: 'shop' },
      involvedObject: { kind: 'Pod', name: me.metadata?.name ?? '', namespace: 'shop', uid: 'me' },
      reason: 'FailedAttachVolume',
      type: 'Warning',
      message: 'Multi-Attach error for volume "pvc-1" Volume is already used by pod(s) web-0-old, ghost-pod',
    };
    const source = scriptedSource([me, other, ev] as KubeObject[]);
    const s = await collectSnapshot(source, target, { cluster: 'c1', needs: new Set(['pod', 'events', 'volumeUsers']) });
    expect(s.volumeUsers?.map((p) => p.metadata?.name)).toEqual(['web-0-old']);
    expect(source.calls.filter((c) => c === 'getPod')).toHaveLength(3);
  });

  it('reads the budgets selecting the pod when its node is cordoned', async () => {
    const cordoned = node({ metadata: { name: 'node-1' }, spec: { unschedulable: true } });
    const budget = (name: string, matchLabels: Record<string, string>) => ({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name, namespace: 'shop' },
      spec: { selector: { matchLabels } },
      status: { disruptionsAllowed: 0 },
    });
    const source = scriptedSource([
      pod({ spec: { nodeName: 'node-1' } }),
      cordoned,
      budget('web', { app: 'web' }),
      budget('db', { app: 'db' }),
    ] as KubeObject[]);
    const s = await collectSnapshot(source, target, { cluster: 'c1', needs: new Set(['pod', 'events', 'node', 'disruptionBudgets']) });
    expect(s.disruptionBudgets?.map((b) => b.metadata?.name)).toEqual(['web']);
    const uncordoned = scriptedSource(objects);
    await collectSnapshot(uncordoned, target, { cluster: 'c1', needs: new Set(['pod', 'events', 'node', 'disruptionBudgets']) });
    expect(uncordoned.calls).not.toContain('listDisruptionBudgets');
  });
});

describe('collectSnapshot redaction', () => {
  const crashed = pod({
    status: {
      containerStatuses: [
        {
          name: 'web',
          ready: false,
          restartCount: 4,
          image: 'registry.example.com/shop/web:1.4.2',
          imageID: '',
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          // FallbackToLogsOnError: the message is the log's last lines.
          lastState: { terminated: { exitCode: 1, reason: 'Error', message: 'fatal: dial postgres://app:S3cr3t!@db:5432/shop: refused' } },
        },
      ],
    },
  });
  const log = {
    apiVersion: 'pod-doctor.dev/v1',
    kind: 'PodLog',
    metadata: { namespace: 'shop', name: crashed.metadata?.name ?? '' },
    container: 'web',
    previous: true,
    lines: [
      'loading key',
      '-----BEGIN RSA PRIVATE KEY-----',
      'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
      '-----END RSA PRIVATE KEY-----',
      'level=error msg="db login failed" password=hunter2',
    ],
  };

  it('keeps container log lines and termination messages redacted, and leaves the source objects as they were', async () => {
    const source = new ObjectsSource([crashed, node({ metadata: { name: 'node-1' } }), log] as KubeObject[], 'test');
    const s = await collectSnapshot(source, target, { cluster: 'c1', needs: new Set(['pod', 'events', 'logs']) });
    expect(s.logs).toEqual([
      {
        container: 'web',
        previous: true,
        lines: [
          'loading key',
          '-----BEGIN RSA PRIVATE KEY-----[redacted]-----END RSA PRIVATE KEY-----',
          'level=error msg="db login failed" password=[redacted]',
        ],
      },
    ]);
    expect(s.pod?.status?.containerStatuses?.[0]?.lastState?.terminated?.message).toBe('fatal: dial postgres://app:[redacted]@db:5432/shop: refused');
    expect((await source.getPod('shop', target.name))?.status?.containerStatuses?.[0]?.lastState?.terminated?.message).toContain('S3cr3t!');
  });
});
