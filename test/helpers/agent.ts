// Builders for node agent facts in rule tests: each probe result with healthy defaults, so a
// case states only the node fact it is about (a holder, a hung mount, a log line).
import type { AgentFacts, JournalMatch, MountCheck, MountHolder, ProbeName, ProbeResults, RuntimeContainer } from '../../src/probes/types.js';
import { merge } from './factories.js';

type Ok<K extends ProbeName> = { ok: true; durationMs: number } & ProbeResults[K];

export function ok<K extends ProbeName>(result: ProbeResults[K]): Ok<K> {
  return { ok: true, durationMs: 5, ...result };
}

export function failed(error: string, timedOut = false) {
  return { ok: false as const, error, durationMs: 5000, ...(timedOut ? { timedOut } : {}) };
}

export function agent(node: string, probes: AgentFacts['probes']): AgentFacts {
  return { node, probes };
}

export function holder(patch: Partial<MountHolder> = {}): MountHolder {
  return merge<MountHolder>(
    {
      pid: 2725007,
      command: '/usr/sbin/ntpd -u ntp:ntp -g',
      state: 'S',
      startedAt: '2026-11-20T08:00:00.000Z',
      mountNamespace: 'mnt:[4026532601]',
      hostNamespace: false,
      unit: 'ntpd.service',
      unitFile: '/usr/lib/systemd/system/ntpd.service',
      privateTmp: true,
      namespaceSettings: ['PrivateTmp=true'],
      ownPod: false,
      mounts: ['/var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged'],
      notInHost: ['/var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged'],
      inUse: [],
    },
    patch,
  );
}

export function mountHolders(holders: MountHolder[]): Ok<'mount-holders'> {
  return ok<'mount-holders'>({
    match: ['98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36'],
    hostMountNamespace: 'mnt:[4026531840]',
    namespaces: holders.map((h) => ({
      mountNamespace: h.mountNamespace,
      hostNamespace: h.hostNamespace,
      pidCount: 1,
      pids: [h.pid],
      mounts: h.mounts.map((m) => ({
        mountPoint: m,
        source: 'overlay',
        fsType: 'overlay',
        match: m.split('/').at(-2) ?? m,
        line: `296 183 0:183 / ${m} rw,relatime shared:88 - overlay overlay rw`,
      })),
    })),
    holders,
    scanned: { processes: 200, namespaces: 20, unreadable: 0 },
    truncated: false,
  });
}

export function mountCheck(patch: Partial<MountCheck> = {}): MountCheck {
  return merge<MountCheck>(
    {
      mountPoint: '/var/lib/kubelet/pods/2b8e5882-5146-11e9-b3b3-525400dd6f19/volumes/kubernetes.io~glusterfs/log',
      fsType: 'fuse.glusterfs',
      source: '10.10.64.58:gv-log',
      state: 'ok',
      ms: 3,
      podMount: true,
      line: '312 45 0:95 / /var/lib/kubelet/pods/2b8e5882-5146-11e9-b3b3-525400dd6f19/volumes/kubernetes.io~glusterfs/log rw,relatime shared:180 - fuse.glusterfs 10.10.64.58:gv-log rw',
    },
    patch,
  );
}

export function fsMounts(mounts: MountCheck[]): Ok<'fs-mounts'> {
  return ok<'fs-mounts'>({ mounts, hung: mounts.filter((m) => m.state === 'hung').length, statTimeoutMs: 2000, truncated: false });
}

export function container(patch: Partial<RuntimeContainer> = {}): RuntimeContainer {
  return merge<RuntimeContainer>(
    { id: 'e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9', sandbox: false, state: 'running', status: 'Up 2 hours', execs: [] },
    patch,
  );
}

export function runtime(
  patch: { docker?: Partial<ProbeResults['runtime']['docker']>; containerd?: Partial<ProbeResults['runtime']['containerd']> } = {},
): Ok<'runtime'> {
  return ok<'runtime'>({
    docker: {
      socket: '/var/run/docker.sock',
      state: 'ok',
      pingMs: 2,
      version: '20.10.24',
      apiVersion: '1.41',
      storageDriver: 'overlay2',
      timedOut: [],
      callTimeoutMs: 2000,
      containers: [],
      truncated: false,
      ...patch.docker,
    },
    containerd: { state: 'absent', note: 'no containerd socket', timedOut: [], containers: [], ...patch.containerd },
  });
}

export function line(text: string, signatures: string[], captures: Record<string, string> = {}, aboutPod = true): JournalMatch {
  return { signatures, source: '/host/var/log/messages', line: text, captures, aboutPod };
}

export function journal(matches: JournalMatch[]): Ok<'journal'> {
  const counts: Record<string, number> = {};
  for (const m of matches) for (const s of m.signatures) counts[s] = (counts[s] ?? 0) + 1;
  return ok<'journal'>({ sources: [{ source: '/host/var/log/messages', lines: 1000 }], keys: [], matches, counts, truncated: false });
}

export function processes(containers: ProbeResults['processes']['containers'], patch: Partial<ProbeResults['processes']> = {}): Ok<'processes'> {
  return ok<'processes'>({
    podUid: '2b8e5882-5146-11e9-b3b3-525400dd6f19',
    processes: containers.reduce((n, c) => n + c.processCount, 0),
    containers,
    zombies: [],
    uninterruptible: [],
    nodeUninterruptible: { count: 0, sample: [] },
    truncated: false,
    ...patch,
  });
}

export function host(patch: Partial<ProbeResults['host']> = {}): Ok<'host'> {
  return ok<'host'>({ kernel: '5.15.0-91-generic', kubelet: { settings: {} }, ...patch });
}

export function podNetwork(patch: Partial<ProbeResults['pod-network']> = {}): Ok<'pod-network'> {
  return ok<'pod-network'>({
    pid: 21740,
    pod: {
      defaultRoute: {
        iface: 'eth0',
        destination: '0.0.0.0',
        gateway: '169.254.1.1',
        mask: '0.0.0.0',
        line: 'eth0 00000000 0101FEA9 0003 0 0 0 00000000 0 0 0',
      },
      routes: [],
      gateway: {
        ip: '169.254.1.1',
        state: 'complete',
        entry: {
          ip: '169.254.1.1',
          hw: 'ee:ee:ee:ee:ee:ee',
          flags: '0x2',
          device: 'eth0',
          state: 'complete',
          line: '169.254.1.1 0x1 0x2 ee:ee:ee:ee:ee:ee * eth0',
        },
      },
      calicoGateway: true,
      interfaces: ['lo', 'eth0'],
    },
    host: { caliInterfaces: [], arpForPodIp: [] },
    truncated: false,
    ...patch,
  });
}
