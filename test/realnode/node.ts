// A real Kubernetes node for the tests: the envtest control plane, Debian's containerd + runc with
// the CRI plugin (overlayfs, bridge CNI), and a kubelet built from the same Debian source, all
// inside the network namespace scripts/realnode-run.sh made (node address 10.213.0.2 on a veth
// whose both ends stay inside). Everything lives in one directory; stop() — or the watchdog, when the test process
// dies — runs teardown.sh, which kills the pods' processes, shims, containerd and the kubelet,
// unmounts, removes the pods' cgroups and network namespaces and restores the sysctls the kubelet
// changed. How to run it and what it covers: README.md beside this file.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Agent as DispatchAgent, fetch as undiciFetch } from 'undici';
import {
  type ControlPlane,
  type ControlPlaneOptions,
  envtestCacheDir,
  findBinaries,
  freePorts,
  type KubeObject,
  sleep,
  startControlPlane,
} from '../envtest/harness.js';
import { makeAgentCerts } from '../helpers/agent-tls.js';

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HERE, '../..');

export const NODE_NAME = 'pd-node';
export const BUSYBOX = 'pod-doctor.local/busybox:1.35';
export const PAUSE = 'pod-doctor.local/pause:3.2';
/** Sysctls the kubelet sets at start (kernel defaults it wants); saved and restored. */
const KUBELET_SYSCTLS = [
  'kernel.panic',
  'kernel.panic_on_oops',
  'vm.overcommit_memory',
  'vm.panic_on_oom',
  'kernel.keys.root_maxkeys',
  'kernel.keys.root_maxbytes',
];

export function realnodeCacheDir(): string {
  return process.env.POD_DOCTOR_REALNODE_CACHE ?? path.join(os.homedir(), '.cache', 'pod-doctor', 'realnode');
}

interface Paths {
  binDir: string;
  etcd: string;
  images: string;
}

/** Why a real node cannot start here, or the paths it starts from. */
export function findRealNode(): { found: Paths } | { missing: string } {
  if (process.getuid?.() !== 0) return { missing: 'not root' };
  if (!process.env.POD_DOCTOR_REALNODE_NETNS) return { missing: 'not inside the network namespace of scripts/realnode-run.sh: run `npm run test:realnode`' };
  const bins = findBinaries();
  if ('missing' in bins) return { missing: bins.missing };
  for (const b of ['kubelet', 'pause'])
    if (!existsSync(path.join(bins.found.binDir, b))) return { missing: `${b} not in ${bins.found.binDir}: run \`npm run realnode:setup\`` };
  for (const b of ['/usr/bin/containerd', '/usr/bin/ctr', '/usr/sbin/runc', '/usr/lib/cni/bridge'])
    if (!existsSync(b)) return { missing: `${b} missing: run \`npm run realnode:setup\`` };
  const images = path.join(realnodeCacheDir(), 'images');
  for (const i of ['busybox.tar', 'pause.tar'])
    if (!existsSync(path.join(images, i))) return { missing: `${i} not in ${images}: run \`npm run realnode:setup\`` };
  return { found: { binDir: bins.found.binDir, etcd: bins.found.etcd, images } };
}

export interface RealNode {
  name: string;
  ip: string;
  dir: string;
  cp: ControlPlane;
  /** containerd's CRI socket (also what the agent is given). */
  criSocket: string;
  kubeletLog: string;
  containerdLog: string;
  /** Milliseconds per phase, and from start to node Ready. */
  timings: Record<string, number>;
  startMs: number;
  ctr(...args: string[]): Promise<string>;
  /** SIGKILLs the kubelet (as when it crashes or its host hangs); containers keep running. */
  stopKubelet(): Promise<void>;
  startKubelet(): Promise<void>;
  kubeletRunning(): boolean;
  waitNodeReady(timeoutMs?: number): Promise<KubeObject>;
  /** Starts `pod-doctor agent` on this node (real /proc, containerd, kubelet dirs and logs), serving HTTPS. */
  startAgent(): Promise<RealAgent>;
  /** A host process a scenario started (a mount holder): killed at teardown. */
  recordPid(pid: number): void;
  tail(file: string, lines?: number): string;
  stop(): Promise<void>;
}

export interface RealAgent {
  url: string;
  token: string;
  /** What `pod-doctor diagnose`/`playbook` need to trust the agent: POD_DOCTOR_AGENT_TLS_CA and _SERVER_NAME. */
  env: Record<string, string>;
  /** fetch that trusts the agent's CA and checks its name (not 127.0.0.1). */
  fetch(url: string, init?: Parameters<typeof undiciFetch>[1]): ReturnType<typeof undiciFetch>;
}

function tailOf(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function readSysctl(key: string): Promise<string | undefined> {
  try {
    return readFileSync(`/proc/sys/${key.replaceAll('.', '/')}`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

export async function startRealNode(opts: { controlPlane?: ControlPlaneOptions } = {}): Promise<RealNode> {
  const t0 = Date.now();
  const timings: Record<string, number> = {};
  const mark = (name: string, since: number) => (timings[name] = Date.now() - since);
  const found = findRealNode();
  if ('missing' in found) throw new Error(`real node unavailable: ${found.missing}`);
  const { binDir, images } = found.found;
  const ip = process.env.POD_DOCTOR_REALNODE_IP ?? '10.213.0.2';

  const dir = mkdtempSync(path.join(os.tmpdir(), 'pod-doctor-realnode-'));
  const teardown = path.join(HERE, 'teardown.sh');
  // Recorded before anything starts: what teardown.sh may remove is only what came after.
  mkdirSync('/var/run/netns', { recursive: true });
  writeFileSync(
    path.join(dir, 'netns.before'),
    readdirSync('/var/run/netns')
      .map((n) => `/var/run/netns/${n}\n`)
      .join(''),
  );
  writeFileSync(
    path.join(dir, 'sysctl.saved'),
    (await Promise.all(KUBELET_SYSCTLS.map(async (k) => [k, await readSysctl(k)] as const)))
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
  // The watchdog tears the node down if the test process dies without stop().
  const watchdog = spawn('bash', ['-c', 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; bash "$2" "$3"', 'watchdog', String(process.pid), teardown, dir], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();

  const procs = new Map<string, ChildProcess>();
  const launch = (name: string, bin: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess => {
    const log = path.join(dir, `${name}.log`);
    appendFileSync(log, `${existsSync(log) ? '\n' : ''}$ ${bin} ${args.join(' ')}\n`);
    const out = openSync(log, 'a');
    const child = spawn(bin, args, { cwd: dir, detached: true, stdio: ['ignore', out, out], env });
    closeSync(out);
    writeFileSync(path.join(dir, `${name}.pid`), `${child.pid}\n`);
    child.on('exit', (code, sig) => appendFileSync(log, `\n[realnode] ${name} exited code=${code} signal=${sig}\n`));
    child.unref();
    procs.set(name, child);
    return child;
  };
  const alive = (name: string) => {
    const c = procs.get(name);
    return c !== undefined && c.exitCode === null && c.signalCode === null;
  };

  let cp: ControlPlane | undefined;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await run('bash', [teardown, dir], { timeout: 60_000 }).catch(() => undefined);
    try {
      process.kill(-watchdog.pid!, 'SIGKILL');
    } catch {
      // gone
    }
    await cp?.stop();
  };

  try {
    let s = Date.now();
    cp = await startControlPlane({
      ...opts.controlPlane,
      users: [...(opts.controlPlane?.users ?? []), { name: `system:node:${NODE_NAME}`, groups: ['system:nodes'] }],
    });
    mark('control plane', s);

    // Mount propagation as on a real host (here `/` is private): containerd's rootfs mounts and
    // the kubelet's volume mounts must reach other mount namespaces for seed 001 to happen.
    await run('mount', ['--bind', dir, dir]);
    await run('mount', ['--make-rshared', dir]);

    // containerd with the CRI plugin, all state in the node's directory.
    s = Date.now();
    const cdir = path.join(dir, 'containerd');
    const criSocket = path.join(cdir, 'containerd.sock');
    mkdirSync(path.join(dir, 'cni', 'net.d'), { recursive: true });
    writeFileSync(
      path.join(dir, 'cni', 'net.d', '10-pod-doctor.conflist'),
      JSON.stringify({
        cniVersion: '0.4.0',
        name: 'pod-doctor',
        plugins: [
          {
            type: 'bridge',
            bridge: 'pdcni0',
            isGateway: true,
            ipMasq: false,
            hairpinMode: true,
            ipam: { type: 'host-local', ranges: [[{ subnet: '10.244.0.0/24' }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: path.join(dir, 'cni', 'ipam') },
          },
        ],
      }),
    );
    const containerdConfig = path.join(dir, 'containerd.toml');
    writeFileSync(
      containerdConfig,
      `version = 2
root = "${cdir}/root"
state = "${cdir}/state"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs", "io.containerd.internal.v1.tracing", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "${criSocket}"
[ttrpc]
  address = "${criSocket}.ttrpc"
[metrics]
  address = ""
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${PAUSE}"
  # runc cannot lower oom_score_adj here (no CAP_SYS_RESOURCE).
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "/usr/sbin/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${dir}/cni/net.d"
`,
    );
    launch('containerd', '/usr/bin/containerd', ['--config', containerdConfig, '--log-level', 'info']);
    const ctr = async (...args: string[]) =>
      (await run('/usr/bin/ctr', ['--address', criSocket, '--namespace', 'k8s.io', ...args], { timeout: 120_000, maxBuffer: 8 * 1024 * 1024 })).stdout;
    for (let i = 0; ; i++) {
      if (!alive('containerd')) throw new Error(`containerd exited during start-up:\n${tailOf(path.join(dir, 'containerd.log'))}`);
      if (
        existsSync(criSocket) &&
        (await ctr('version').then(
          () => true,
          () => false,
        ))
      )
        break;
      if (i > 150) throw new Error(`containerd did not answer on ${criSocket}:\n${tailOf(path.join(dir, 'containerd.log'))}`);
      await sleep(100);
    }
    mark('containerd', s);
    s = Date.now();
    for (const image of ['pause.tar', 'busybox.tar']) await ctr('images', 'import', path.join(images, image));
    mark('image import', s);

    // The kubelet, as system:node:<name> under Node,RBAC + NodeRestriction.
    const [healthzPort] = await freePorts(1);
    const kubeletConfig = path.join(dir, 'kubelet.yaml');
    mkdirSync(path.join(dir, 'manifests'), { recursive: true });
    writeFileSync(
      kubeletConfig,
      JSON.stringify({
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        cgroupDriver: 'cgroupfs',
        failSwapOn: false,
        address: ip,
        readOnlyPort: 0,
        healthzBindAddress: '127.0.0.1',
        healthzPort,
        // The kubelet listens only inside the test's network namespace; the API server reaches
        // it for logs without client certificates.
        authentication: { anonymous: { enabled: true }, webhook: { enabled: false } },
        authorization: { mode: 'AlwaysAllow' },
        makeIPTablesUtilChains: false,
        imageGCHighThresholdPercent: 100,
        imageGCLowThresholdPercent: 99,
        serializeImagePulls: false,
        staticPodPath: path.join(dir, 'manifests'),
        clusterDomain: 'cluster.local',
        // Fast status for the tests: NotReady/Unknown transitions within seconds.
        nodeStatusUpdateFrequency: '4s',
        nodeStatusReportFrequency: '4s',
        syncFrequency: '10s',
      }),
    );
    const kubeletArgs = [
      `--config=${kubeletConfig}`,
      `--kubeconfig=${cp.kubeconfigFor(`system:node:${NODE_NAME}`)}`,
      '--container-runtime=remote',
      `--container-runtime-endpoint=unix://${criSocket}`,
      `--root-dir=${path.join(dir, 'kubelet')}`,
      `--cert-dir=${path.join(dir, 'kubelet-pki')}`,
      `--node-ip=${ip}`,
      `--hostname-override=${NODE_NAME}`,
      '--v=2',
    ];
    const startKubelet = async () => {
      launch('kubelet', path.join(binDir, 'kubelet'), kubeletArgs);
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (!alive('kubelet')) throw new Error(`kubelet exited:\n${tailOf(path.join(dir, 'kubelet.log'))}`);
        const ok = await fetch(`http://127.0.0.1:${healthzPort}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        if (Date.now() > deadline) throw new Error(`kubelet not healthy:\n${tailOf(path.join(dir, 'kubelet.log'))}`);
        await sleep(200);
      }
    };
    const waitNodeReady = async (timeoutMs = 90_000): Promise<KubeObject> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const node = await cp!.client.get(`/api/v1/nodes/${NODE_NAME}`).catch(() => undefined);
        const ready = (node?.status?.conditions ?? []).find((c: KubeObject) => c.type === 'Ready');
        if (ready?.status === 'True') return node!;
        if (Date.now() > deadline)
          throw new Error(
            `node ${NODE_NAME} not Ready (${ready ? `${ready.reason}: ${ready.message}` : 'not registered'}):\n${tailOf(path.join(dir, 'kubelet.log'))}`,
          );
        await sleep(250);
      }
    };
    s = Date.now();
    await startKubelet();
    mark('kubelet healthy', s);
    s = Date.now();
    await waitNodeReady();
    mark('node Ready', s);

    let agent: RealAgent | undefined;
    const node: RealNode = {
      name: NODE_NAME,
      ip,
      dir,
      cp,
      criSocket,
      kubeletLog: path.join(dir, 'kubelet.log'),
      containerdLog: path.join(dir, 'containerd.log'),
      timings,
      startMs: Date.now() - t0,
      ctr,
      async stopKubelet() {
        const c = procs.get('kubelet');
        if (!c?.pid) return;
        try {
          process.kill(-c.pid, 'SIGKILL');
        } catch {
          // gone
        }
        for (let i = 0; i < 100 && alive('kubelet'); i++) await sleep(50);
      },
      startKubelet,
      kubeletRunning: () => alive('kubelet'),
      waitNodeReady,
      async startAgent() {
        if (agent) return agent;
        const [port] = await freePorts(1);
        const token = `realnode-${process.pid}-${Date.now().toString(36)}`;
        const tokenFile = path.join(dir, 'agent.token');
        writeFileSync(tokenFile, token, { mode: 0o600 });
        // As in the DaemonSet: HTTPS from certificate files, made the way scripts/agent-cert.sh makes them.
        const certs = makeAgentCerts({ dir: path.join(dir, 'agent-tls') });
        launch(
          'agent',
          path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'),
          [
            path.join(REPO_ROOT, 'src', 'bin', 'pod-doctor.ts'),
            'agent',
            '--host',
            '127.0.0.1',
            '--port',
            String(port),
            '--token-file',
            tokenFile,
            '--node-name',
            NODE_NAME,
            '--actions',
            '--runtime',
            'cri',
            '--cri-socket',
            criSocket,
            '--containerd-socket',
            criSocket,
            '--log-file',
            path.join(dir, 'kubelet.log'),
            '--log-file',
            path.join(dir, 'containerd.log'),
          ],
          { ...process.env, NODE_ENV: 'production', POD_DOCTOR_AGENT_TLS_CERT: certs.certFile, POD_DOCTOR_AGENT_TLS_KEY: certs.keyFile },
        );
        const url = `https://127.0.0.1:${port}`;
        const dispatcher = new DispatchAgent({ connect: { ca: certs.ca, servername: certs.serverName } });
        const agentFetch: RealAgent['fetch'] = (u, init) => undiciFetch(u, { ...init, dispatcher });
        for (let i = 0; ; i++) {
          if (!alive('agent')) throw new Error(`agent exited:\n${tailOf(path.join(dir, 'agent.log'))}`);
          if (
            await agentFetch(`${url}/healthz`).then(
              (r) => r.ok,
              () => false,
            )
          )
            break;
          if (i > 150) throw new Error(`agent not healthy:\n${tailOf(path.join(dir, 'agent.log'))}`);
          await sleep(200);
        }
        agent = { url, token, fetch: agentFetch, env: { POD_DOCTOR_AGENT_TLS_CA: certs.caFile, POD_DOCTOR_AGENT_TLS_SERVER_NAME: certs.serverName } };
        return agent;
      },
      recordPid(pid) {
        appendFileSync(path.join(dir, 'extra.pids'), `${pid}\n`);
      },
      tail: tailOf,
      stop,
    };
    return node;
  } catch (err) {
    const logs = ['containerd', 'kubelet'].map((n) => `--- ${n}\n${tailOf(path.join(dir, `${n}.log`), 25)}`).join('\n');
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }
}

/** Where the harness's caches are, for messages. */
export const CACHES = { envtest: envtestCacheDir(), realnode: realnodeCacheDir() };
