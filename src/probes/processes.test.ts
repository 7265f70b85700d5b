import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProbe } from './probe.js';
import { probe } from './processes.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const env = (seed: string) => ({ procRoot: join(FIXTURES, seed, 'proc'), hostRoot: join(FIXTURES, seed, 'host'), timeoutMs: 5000 });

describe('processes', () => {
  it('seed 000: the container init (java) is a zombie; sshd still lives under it (cgroupfs driver)', async () => {
    const cid = '17619dcf545c0936b5a5bad416c1fe50064547f49ba3f34721baf4201f242c1b';
    const out = await runProbe(probe, { podUid: '2b8e5882-5146-11e9-b3b3-525400dd6f19', containerIds: [`docker://${cid}`] }, env('000'));
    if (!out.ok) throw new Error(out.error);
    expect(out.containers).toEqual([
      { id: cid, known: true, processCount: 2, initPid: 31238, initState: 'Z', initCommand: '[java]', initAlive: false, zombies: 1, uninterruptible: 0 },
    ]);
    expect(out.zombies).toEqual([
      expect.objectContaining({ pid: 31238, ppid: 31221, state: 'Z', command: '[java] <defunct>', startedAt: '2019-03-28T10:42:35.000Z', containerId: cid }),
    ]);
    // A live member to enter the network namespace through: not the zombie.
    expect(out.samplePid).toBe(31284);
  });

  it('seed 002: systemd cgroup driver (pod<uid_with_underscores>), sandbox found from cgroups', async () => {
    const out = await runProbe(probe, { podUid: '1da9e4f1-a5d4-40db-b8bc-4db1d27ca458', containerIds: [] }, env('002'));
    if (!out.ok) throw new Error(out.error);
    expect(out.processes).toBe(2);
    expect(out.containers.map((c) => [c.id.slice(0, 12), c.initAlive, c.known])).toEqual(
      expect.arrayContaining([
        ['8e2f6a1c9d3b', true, false],
        ['a3c9e1f7b5d2', true, false],
      ]),
    );
    expect(out.zombies).toEqual([]);
  });

  it('a container named in the request but without processes has no live init', async () => {
    const out = await runProbe(probe, { podUid: '2b8e5882-5146-11e9-b3b3-525400dd6f19', containerIds: ['aaaaaaaaaaaa'] }, env('000'));
    if (!out.ok) throw new Error(out.error);
    expect(out.containers.find((c) => c.id === 'aaaaaaaaaaaa')).toMatchObject({ processCount: 0, initAlive: false, known: true });
  });

  it('needs a pod UID of UUID form', async () => {
    const out = await runProbe(probe, { podUid: '../../1' }, env('000'));
    expect(out).toMatchObject({ ok: false, error: expect.stringMatching(/^bad parameters: podUid/) });
  });
});
