// host: node facts rules compare against known-bad combinations: the kernel (3.10 umount bug),
// docker.service's MountFlags (slave stops mount leaks into service namespaces), and the kubelet
// settings behind throttling and sandbox failures, from its command line or its --config file.
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { defineProbe, type ProbeEnv } from './probe.js';
import { listPids, mapPool, readText } from './proc.js';
import { readUnit } from './systemd.js';

export const params = z.object({});

/** Kubelet flags rules read, and their KubeletConfiguration field names. */
export const KUBELET_SETTINGS = {
  maxPods: { flag: 'max-pods', field: 'maxPods' },
  kubeAPIQPS: { flag: 'kube-api-qps', field: 'kubeAPIQPS' },
  kubeAPIBurst: { flag: 'kube-api-burst', field: 'kubeAPIBurst' },
  eventRecordQPS: { flag: 'event-qps', field: 'eventRecordQPS' },
  eventBurst: { flag: 'event-burst', field: 'eventBurst' },
  registryPullQPS: { flag: 'registry-qps', field: 'registryPullQPS' },
  registryBurst: { flag: 'registry-burst', field: 'registryBurst' },
  serializeImagePulls: { flag: 'serialize-image-pulls', field: 'serializeImagePulls' },
  runtimeRequestTimeout: { flag: 'runtime-request-timeout', field: 'runtimeRequestTimeout' },
  imagePullProgressDeadline: { flag: 'image-pull-progress-deadline', field: undefined },
  podInfraContainerImage: { flag: 'pod-infra-container-image', field: undefined },
  containerRuntimeEndpoint: { flag: 'container-runtime-endpoint', field: 'containerRuntimeEndpoint' },
} as const;
export type KubeletSettingName = keyof typeof KUBELET_SETTINGS;

const setting = z.object({
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  /** `unset`: neither flag nor config file sets it, so the kubelet's default applies. */
  source: z.enum(['flag', 'config', 'unset']),
});

export const result = z.object({
  kernel: z.string().optional(),
  os: z.string().optional(),
  dockerService: z
    .object({ unitFile: z.string(), mountFlags: z.string().optional(), dropIns: z.array(z.string()) })
    .optional(),
  kubelet: z.object({
    pid: z.number().optional(),
    command: z.string().optional(),
    configFile: z.string().optional(),
    configError: z.string().optional(),
    settings: z.record(z.string(), setting),
  }),
});
export type HostResult = z.infer<typeof result>;

/** `--name=value` / `--name value` / bare `--name` (true) from an argv. */
export function parseFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    if (eq > 0) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        flags.set(arg.slice(2), next);
        i += 1;
      } else flags.set(arg.slice(2), 'true');
    }
  }
  return flags;
}

async function findKubelet(env: ProbeEnv): Promise<{ pid: number; argv: string[] } | undefined> {
  const pids = await listPids(env.procRoot);
  const comms = await mapPool(pids, env.concurrency ?? 64, (pid) => readText(join(env.procRoot, String(pid), 'comm')), env.signal);
  const candidates = pids.filter((_, i) => {
    const c = comms[i]?.trim();
    return c === 'kubelet' || c === 'hyperkube';
  });
  for (const pid of candidates) {
    const raw = await readText(join(env.procRoot, String(pid), 'cmdline'));
    if (!raw) continue;
    const argv = raw.replace(/\0+$/, '').split('\0');
    const bin = argv[0]?.split('/').pop();
    if (bin === 'kubelet' || (bin === 'hyperkube' && argv[1] === 'kubelet')) return { pid, argv };
  }
  return undefined;
}

/** Hide values of flags that may carry credentials (`--token=...`, `--password ...`). */
export function redactArgs(argv: readonly string[]): string[] {
  const secret = /token|password|secret/i;
  return argv.map((arg, i) => {
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0 && secret.test(arg.slice(0, eq))) return `${arg.slice(0, eq)}=[redacted]`;
    const prev = argv[i - 1];
    if (prev?.startsWith('--') && !prev.includes('=') && secret.test(prev) && !arg.startsWith('--')) return '[redacted]';
    return arg;
  });
}

function coerce(v: unknown): string | number | boolean | undefined {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return undefined;
}

export async function inspectHost(_p: z.infer<typeof params>, env: ProbeEnv): Promise<HostResult> {
  const [kernel, osRelease, redhat, docker, kubelet] = await Promise.all([
    readText(join(env.procRoot, 'sys', 'kernel', 'osrelease')),
    readText(join(env.hostRoot, 'etc', 'os-release')),
    readText(join(env.hostRoot, 'etc', 'redhat-release')),
    readUnit(env.hostRoot, 'docker.service'),
    findKubelet(env),
  ]);
  const pretty = osRelease ? /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(osRelease)?.[1] : undefined;

  const settings: HostResult['kubelet']['settings'] = {};
  let configFile: string | undefined;
  let configError: string | undefined;
  let config: Record<string, unknown> = {};
  const flags = kubelet ? parseFlags(kubelet.argv.slice(1)) : new Map<string, string>();
  const configPath = flags.get('config');
  if (configPath?.startsWith('/')) {
    configFile = configPath;
    const text = await readText(join(env.hostRoot, configPath));
    if (text === undefined) configError = `cannot read ${configPath} under the host root`;
    else if (text.length > 1024 * 1024) configError = `${configPath} is larger than 1 MiB`;
    else {
      try {
        const parsed: unknown = parseYaml(text);
        if (typeof parsed === 'object' && parsed !== null) config = parsed as Record<string, unknown>;
      } catch (err) {
        configError = `cannot parse ${configPath}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  }
  for (const [name, def] of Object.entries(KUBELET_SETTINGS) as [KubeletSettingName, (typeof KUBELET_SETTINGS)[KubeletSettingName]][]) {
    const flag = flags.get(def.flag);
    if (flag !== undefined) {
      const n = Number(flag);
      settings[name] = { value: flag !== '' && Number.isFinite(n) ? n : flag, source: 'flag' };
      continue;
    }
    const fromConfig = def.field ? coerce(config[def.field]) : undefined;
    settings[name] = fromConfig !== undefined ? { value: fromConfig, source: 'config' } : { source: 'unset' };
  }

  return {
    kernel: kernel?.trim() || undefined,
    os: pretty ?? redhat?.trim() ?? undefined,
    dockerService: docker ? { unitFile: docker.file, mountFlags: docker.service.MountFlags, dropIns: docker.dropIns } : undefined,
    kubelet: {
      pid: kubelet?.pid,
      command: kubelet ? redactArgs(kubelet.argv).join(' ').slice(0, 2000) : undefined,
      configFile,
      configError,
      settings,
    },
  };
}

export const probe = defineProbe({
  name: 'host',
  description: 'Kernel version, docker.service MountFlags, and kubelet settings (--max-pods, --kube-api-qps, --registry-qps, --pod-infra-container-image) from its command line or --config file.',
  params,
  result,
  timeoutMs: 3000,
  run: inspectHost,
});
