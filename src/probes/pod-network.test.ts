import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calicoVethName, workloadEndpointName } from './calico.js';
import { hexToIp, parseArp, probe } from './pod-network.js';
import { runProbe } from './probe.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const env = (seed: string) => ({ procRoot: join(FIXTURES, seed, 'proc'), hostRoot: join(FIXTURES, seed, 'host'), timeoutMs: 3000 });

describe('calico names', () => {
  it.each([
    ['default', 'nginx', 'calic440f455693'],
    ['prod', 'api-7d9f8c6b5-x2k4q', 'calia31e6777cc6'],
    // Seed 004 prints these next to the pods they belong to.
    ['lijiaob', 'stateful-new-pod-0', 'cali91dded39638'],
    ['lijiaob', 'etcd1-0', 'cali9118ebbb10b'],
  ])('%s.%s → %s', (ns, name, veth) => expect(calicoVethName(ns, name)).toBe(veth));
  it('doubles dashes in WorkloadEndpoint names', () => expect(workloadEndpointName('node-1', 'pod-name')).toBe('node--1-k8s-pod--name-eth0'));
});

describe('parsing /proc/net', () => {
  it('little-endian hex addresses', () =>
    expect([hexToIp('0101FEA9'), hexToIp('00000000'), hexToIp('0C08A8C0')]).toEqual(['169.254.1.1', '0.0.0.0', '192.168.8.12']));
  it('neighbour states', () => {
    const arp = parseArp(
      'IP address HW type Flags HW address Mask Device\n169.254.1.1 0x1 0x0 00:00:00:00:00:00 * eth0\n10.0.0.1 0x1 0x2 52:54:00:12:35:02 * eth0\n169.254.1.1 0x1 0x6 ee:ee:ee:ee:ee:ee * eth1\n',
    );
    expect(arp.map((n) => n.state)).toEqual(['incomplete', 'complete', 'permanent']);
  });
});

describe('pod-network', () => {
  it('seed 004: default via 169.254.1.1, neighbour incomplete; host veths listed', async () => {
    const out = await runProbe(
      probe,
      { podUid: '35b722f5-dfad-11e7-9a8f-52549da43ad9', namespace: 'lijiaob', name: 'stateful-new-pod-0', podIp: '192.168.8.34' },
      env('004'),
    );
    if (!out.ok) throw new Error(out.error);
    expect(out.pid).toBe(21740);
    expect(out.pod).toMatchObject({
      calicoGateway: true,
      defaultRoute: { iface: 'eth0', gateway: '169.254.1.1' },
      gateway: { ip: '169.254.1.1', state: 'incomplete', entry: { line: '169.254.1.1      0x1         0x0         00:00:00:00:00:00     *        eth0' } },
    });
    expect(out.host).toMatchObject({
      caliInterfaces: ['cali9118ebbb10b', 'cali91dded39638', 'calie0a5d64c6f1'],
      expectedInterface: 'cali91dded39638',
      expectedPresent: true,
      arpForPodIp: [],
    });
    expect(out.host.routeForPodIp).toBeUndefined();
  });

  it('seed 002: a healthy Calico gateway (0x2, ee:ee:ee:ee:ee:ee)', async () => {
    const out = await runProbe(probe, { pid: 4300 }, env('002'));
    expect(out).toMatchObject({ ok: true, pod: { gateway: { state: 'complete' } } });
  });

  it('a pod with no live process: says so, host side still read', async () => {
    const out = await runProbe(probe, { podUid: '00000000-0000-4000-8000-000000000001' }, env('004'));
    expect(out).toMatchObject({ ok: true, podError: expect.stringMatching(/no live process/), host: { caliInterfaces: expect.any(Array) } });
  });

  it('needs a pod UID or a pid, and validates them', async () => {
    expect((await runProbe(probe, {}, env('004'))).ok).toBe(false);
    expect((await runProbe(probe, { pid: -1 }, env('004'))).ok).toBe(false);
    expect((await runProbe(probe, { pid: '1/../../etc' }, env('004'))).ok).toBe(false);
  });
});
