// pod-network: the pod's network namespace seen through one of its processes
// (`/proc/<pid>/net/route`, `net/arp`), and the host's `cali*` interfaces. With Calico the pod's
// default gateway is 169.254.1.1, answered by proxy ARP on the host veth; when the endpoint was
// deleted under a live pod the neighbour entry stays incomplete and the pod is cut off (seed 004).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { CALICO_GATEWAY, calicoVethName } from './calico.js';
import { capped, defineProbe, ipv4Schema, namespaceSchema, type ProbeEnv, podNameSchema, podUidSchema } from './probe.js';
import { findPodPids, readStat, readText } from './proc.js';

export const params = z
  .object({
    podUid: podUidSchema.optional(),
    /** A process in the pod's network namespace (found from the pod's cgroups when absent). */
    pid: z.number().int().positive().max(4_194_304).optional(),
    namespace: namespaceSchema.optional(),
    name: podNameSchema.optional(),
    podIp: ipv4Schema.optional(),
  })
  .refine((p) => p.podUid !== undefined || p.pid !== undefined, 'needs podUid or pid');
export type PodNetworkParams = z.infer<typeof params>;

const MAX_IFACES = 512;

const neighbour = z.object({
  ip: z.string(),
  hw: z.string(),
  flags: z.string(),
  device: z.string(),
  /** incomplete: flags 0x0 or hw 00:00:00:00:00:00; permanent: static entry (flag 0x4). */
  state: z.enum(['complete', 'incomplete', 'permanent']),
  line: z.string(),
});
export type Neighbour = z.infer<typeof neighbour>;

const route = z.object({ iface: z.string(), destination: z.string(), gateway: z.string(), mask: z.string(), line: z.string() });

export const result = z.object({
  pid: z.number().optional(),
  pod: z
    .object({
      defaultRoute: route.optional(),
      routes: z.array(route),
      /** The default gateway's neighbour entry; `missing` when the table has none. */
      gateway: z.object({ ip: z.string(), state: z.enum(['complete', 'incomplete', 'permanent', 'missing']), entry: neighbour.optional() }).optional(),
      calicoGateway: z.boolean(),
      interfaces: z.array(z.string()),
    })
    .optional(),
  /** Why the pod side could not be read (no live process, netns gone). */
  podError: z.string().optional(),
  host: z.object({
    caliInterfaces: z.array(z.string()),
    /** Calico's veth name for this pod and whether the host has it. */
    expectedInterface: z.string().optional(),
    expectedPresent: z.boolean().optional(),
    /** Host neighbour entries for the pod IP (two entries on two devices: two pods with one IP). */
    arpForPodIp: z.array(neighbour),
    routeForPodIp: route.optional(),
  }),
  truncated: z.boolean(),
});
export type PodNetworkResult = z.infer<typeof result>;

/** `0101FEA9` (little-endian hex from /proc/net/route) → `169.254.1.1`. */
export function hexToIp(hex: string): string {
  const n = Number.parseInt(hex, 16);
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255].join('.');
}

export function parseRoutes(text: string): z.infer<typeof route>[] {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 8)
    .map((f) => ({ iface: f[0]!, destination: hexToIp(f[1]!), gateway: hexToIp(f[2]!), mask: hexToIp(f[7]!), line: f.join(' ') }));
}

export function parseArp(text: string): Neighbour[] {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const f = line.split(/\s+/);
      const flags = Number.parseInt(f[2] ?? '0', 16) || 0;
      const hw = f[3] ?? '';
      const state: Neighbour['state'] = flags === 0 || hw === '00:00:00:00:00:00' ? 'incomplete' : flags & 0x4 ? 'permanent' : 'complete';
      return { ip: f[0] ?? '', hw, flags: f[2] ?? '', device: f[5] ?? '', state, line };
    });
}

/** Interface names from /proc/<pid>/net/dev. */
export function parseNetDev(text: string): string[] {
  return text
    .split('\n')
    .slice(2)
    .map((line) => line.slice(0, line.indexOf(':')).trim())
    .filter(Boolean);
}

async function hostInterfaces(env: ProbeEnv): Promise<string[]> {
  const dev = await readText(join(env.procRoot, '1', 'net', 'dev'));
  if (dev !== undefined) return parseNetDev(dev);
  try {
    return await readdir(join(env.hostRoot, 'sys', 'class', 'net'));
  } catch {
    return [];
  }
}

export async function inspectPodNetwork(p: PodNetworkParams, env: ProbeEnv): Promise<PodNetworkResult> {
  let pid = p.pid;
  let podError: string | undefined;
  if (pid === undefined && p.podUid) {
    const pids = await findPodPids(env.procRoot, p.podUid, { concurrency: env.concurrency, signal: env.signal, max: 64 });
    // Any live member shares the pod's network namespace; skip zombies (their ns links are gone).
    for (const candidate of pids) {
      const st = await readStat(env.procRoot, candidate);
      if (st && st.state !== 'Z' && st.state !== 'X') {
        pid = candidate;
        break;
      }
    }
    if (pid === undefined) podError = `no live process of pod ${p.podUid} on this node`;
  }
  let pod: PodNetworkResult['pod'];
  if (pid !== undefined) {
    const [routeText, arpText, devText] = await Promise.all([
      readText(join(env.procRoot, String(pid), 'net', 'route')),
      readText(join(env.procRoot, String(pid), 'net', 'arp')),
      readText(join(env.procRoot, String(pid), 'net', 'dev')),
    ]);
    if (routeText === undefined) podError = `cannot read /proc/${pid}/net/route`;
    else {
      const routes = parseRoutes(routeText);
      const arp = arpText ? parseArp(arpText) : [];
      const defaultRoute = routes.find((r) => r.destination === '0.0.0.0' && r.mask === '0.0.0.0');
      const gwIp = defaultRoute?.gateway;
      const entry = gwIp ? arp.find((n) => n.ip === gwIp) : undefined;
      pod = {
        defaultRoute,
        routes: routes.slice(0, 16),
        gateway: gwIp ? { ip: gwIp, state: entry?.state ?? 'missing', entry } : undefined,
        calicoGateway: gwIp === CALICO_GATEWAY,
        interfaces: devText ? parseNetDev(devText).slice(0, 16) : [],
      };
    }
  }

  const [ifaces, hostArp, hostRoute] = await Promise.all([
    hostInterfaces(env),
    p.podIp ? readText(join(env.procRoot, '1', 'net', 'arp')) : Promise.resolve(undefined),
    p.podIp ? readText(join(env.procRoot, '1', 'net', 'route')) : Promise.resolve(undefined),
  ]);
  const cali = capped(ifaces.filter((i) => i.startsWith('cali')).sort(), MAX_IFACES);
  const expectedInterface = p.namespace && p.name ? calicoVethName(p.namespace, p.name) : undefined;
  return {
    pid,
    pod,
    podError,
    host: {
      caliInterfaces: cali.items,
      expectedInterface,
      expectedPresent: expectedInterface ? ifaces.includes(expectedInterface) : undefined,
      arpForPodIp: hostArp ? parseArp(hostArp).filter((n) => n.ip === p.podIp) : [],
      routeForPodIp: hostRoute ? parseRoutes(hostRoute).find((r) => r.destination === p.podIp && r.mask === '255.255.255.255') : undefined,
    },
    truncated: cali.truncated,
  };
}

export const probe = defineProbe({
  name: 'pod-network',
  description:
    "The pod's default route and gateway neighbour state (Calico 169.254.1.1) through a pod process's /proc/<pid>/net, and the host's cali* interfaces.",
  params,
  result,
  timeoutMs: 3000,
  run: inspectPodNetwork,
});
