// The real host operations: commands through execFile (no shell, fixed argv, arguments already
// validated by the action schemas), signals through kill(2) (hostPID), and container runtime calls on the runtime's unix socket:
// Docker's Engine API, or CRI (containerd, CRI-O; host-exec-cri.ts, over the client in probes/cri.ts). In the DaemonSet the agent
// runs in its own mount namespace with hostPID, so commands enter the host's namespaces through
// nsenter on pid 1.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { CriClient, describeFailure } from '../../probes/cri.js';
import { createCriRuntime, type RuntimeOps } from './host-exec-cri.js';
import type { RuntimeChoice } from './host-exec-runtime.js';
import { type ExecResult, type HostContainer, type HostExec, imageRefSchema, mountPathSchema, pidSchema, unitSchema } from './types.js';

export { RUNTIME_CHOICES, type RuntimeChoice } from './host-exec-runtime.js';

export interface HostExecOptions {
  /** The host's root as the agent sees it; not `/` means "enter pid 1's namespaces". */
  hostRoot: string;
  /**
   * Which runtime API lists and removes containers and images. `auto` (default): Docker when a
   * Docker socket answers `/_ping`, else the first CRI socket that answers `Version`; and when
   * both answer, the one that holds the pod's containers (a node moved from Docker to containerd
   * often keeps Docker running beside the kubelet's containerd).
   */
  runtime?: RuntimeChoice;
  /** Docker API sockets tried in order (default `<hostRoot>/var/run/docker.sock`, `<hostRoot>/run/docker.sock`). */
  dockerSockets?: string[];
  /**
   * CRI sockets tried in order (default `<hostRoot>/run/containerd/containerd.sock`,
   * `<hostRoot>/var/run/containerd/containerd.sock`, `<hostRoot>/var/run/crio/crio.sock`).
   */
  criSockets?: string[];
  /** Time limit of one command or runtime call (ms, default 60 s). */
  timeoutMs?: number;
  /** Time limit of an image pull (ms, default 10 min). */
  pullTimeoutMs?: number;
  /** Override the nsenter decision. */
  enterHost?: boolean;
}

const NSENTER = ['nsenter', '--target', '1', '--mount', '--uts', '--ipc', '--net', '--pid', '--'];

function run(argv: readonly string[], timeoutMs: number): Promise<ExecResult> {
  const [cmd, ...args] = argv;
  return new Promise((resolve) => {
    execFile(cmd ?? '', args, { timeout: timeoutMs, shell: false, maxBuffer: 256 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, detail: String(stdout).trim().slice(0, 500), code: 0 });
      const e = err as NodeJS.ErrnoException & { code?: number | string; killed?: boolean };
      const why = e.killed ? `timed out after ${timeoutMs}ms` : String(stderr).trim() || e.message;
      resolve({ ok: false, detail: why.slice(0, 500), code: typeof e.code === 'number' ? e.code : undefined });
    });
  });
}

type DockerReply = { status: number; body: string } | { status: 0; body: string; error: string; errno?: string; timedOut?: boolean };

function docker(socketPath: string, method: string, path: string, timeoutMs: number): Promise<DockerReply> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: DockerReply) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(r);
      }
    };
    const req = request({ socketPath, path, method, headers: { Host: 'docker', Accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        // Pull progress streams can be long; keep the tail, which carries any error.
        chunks.push(c);
        if (size > 1024 * 1024) chunks.splice(0, chunks.length - 8);
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => done({ status: 0, body: '', error: err.message }));
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: 0, body: '', error: `docker ${method} ${path.split('?')[0]} did not answer within ${timeoutMs}ms`, timedOut: true });
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => done({ status: 0, body: '', error: err.message, ...(err.code ? { errno: err.code } : {}) }));
    req.end();
  });
}

function dockerMessage(reply: DockerReply): string {
  if ('error' in reply) return reply.error;
  try {
    return (JSON.parse(reply.body) as { message?: string }).message ?? `HTTP ${reply.status}`;
  } catch {
    return reply.body.trim().slice(0, 300) || `HTTP ${reply.status}`;
  }
}

/** Split `repo[:tag][@digest]` for /images/create (the tag must not go into fromImage twice). */
export function splitImageRef(ref: string): { fromImage: string; tag?: string } {
  const at = ref.indexOf('@');
  if (at >= 0) return { fromImage: ref.slice(0, at), tag: ref.slice(at + 1) };
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  if (colon > slash) return { fromImage: ref.slice(0, colon), tag: ref.slice(colon + 1) };
  return { fromImage: ref, tag: 'latest' };
}

const ABSENT = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR']);

function dockerRuntime(sockets: string[], timeoutMs: number, pullTimeoutMs: number): RuntimeOps {
  const call = async (method: string, path: string, limit = timeoutMs): Promise<DockerReply> => {
    let last: DockerReply = { status: 0, body: '', error: 'no docker socket configured' };
    for (const socket of sockets) {
      last = await docker(socket, method, path, limit);
      // Try the next socket only when this one is not there at all.
      if (!('error' in last) || !last.errno || !ABSENT.has(last.errno)) return last;
    }
    return last;
  };

  return {
    async listPodContainers(podUid) {
      if (!/^[0-9a-f-]{36}$/i.test(podUid)) throw new Error('bad pod uid');
      const filters = encodeURIComponent(JSON.stringify({ label: [`io.kubernetes.pod.uid=${podUid}`] }));
      const reply = await call('GET', `/containers/json?all=1&filters=${filters}`);
      if (reply.status !== 200) throw new Error(`docker: cannot list containers: ${dockerMessage(reply)}`);
      const list = JSON.parse(reply.body) as {
        Id: string;
        Names?: string[];
        Image?: string;
        ImageID?: string;
        State?: string;
        Labels?: Record<string, string>;
      }[];
      return list.map(
        (c): HostContainer => ({
          id: c.Id,
          name: c.Names?.[0]?.replace(/^\//, ''),
          image: c.Image ?? '',
          imageId: c.ImageID,
          state: c.State ?? '',
          labels: c.Labels ?? {},
        }),
      );
    },
    async removeContainer(id) {
      if (!/^[0-9a-f]{12,64}$/.test(id)) throw new Error('bad container id');
      const reply = await call('DELETE', `/containers/${id}?force=1&v=0`);
      return reply.status === 204 || reply.status === 200
        ? { ok: true, detail: '', code: reply.status }
        : { ok: false, detail: dockerMessage(reply), code: reply.status };
    },
    async removeImage(ref) {
      imageRefSchema.parse(ref);
      const reply = await call('DELETE', `/images/${encodeURIComponent(ref)}`);
      return reply.status === 200 ? { ok: true, detail: '', code: 200 } : { ok: false, detail: dockerMessage(reply), code: reply.status };
    },
    async pullImage(ref) {
      imageRefSchema.parse(ref);
      const { fromImage, tag } = splitImageRef(ref);
      const reply = await call(
        'POST',
        `/images/create?fromImage=${encodeURIComponent(fromImage)}${tag ? `&tag=${encodeURIComponent(tag)}` : ''}`,
        pullTimeoutMs,
      );
      if (reply.status !== 200) return { ok: false, detail: dockerMessage(reply), code: reply.status };
      // The API answers 200 and reports failures inside the progress stream.
      const failed = reply.body
        .split('\n')
        .map((l) => {
          try {
            return (JSON.parse(l) as { error?: string }).error;
          } catch {
            return undefined;
          }
        })
        .find(Boolean);
      return failed ? { ok: false, detail: failed, code: 200 } : { ok: true, detail: '', code: 200 };
    },
  };
}

/**
 * kill(2) from the agent itself: with hostPID its pids are the host's, and no command (nor
 * nsenter) is needed. ESRCH and EPERM become 404 and 403.
 */
export function signalHostProcess(pid: number, signal: 'SIGTERM' | 'SIGKILL'): ExecResult {
  pidSchema.parse(pid);
  if (signal !== 'SIGTERM' && signal !== 'SIGKILL') throw new Error('bad signal');
  try {
    process.kill(pid, signal);
    return { ok: true, detail: '', code: 0 };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return { ok: false, detail: `no process ${pid}`, code: 404 };
    if (code === 'EPERM') return { ok: false, detail: `not permitted to signal pid ${pid} (the agent needs CAP_KILL for processes of other users)`, code: 403 };
    return { ok: false, detail: err instanceof Error ? err.message : String(err), code: 500 };
  }
}

export function hostProcessAlive(pid: number): boolean {
  pidSchema.parse(pid);
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, we may just not signal it.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How long `auto` waits for a runtime to answer its ping or Version call. */
const DETECT_TIMEOUT_MS = 5_000;

type Detected = { ops: RuntimeOps; keep: boolean } | { error: string };

export function createHostExec(options: HostExecOptions): HostExec {
  const root = options.hostRoot.replace(/\/+$/, '');
  const enter = options.enterHost ?? root !== '';
  const prefix = enter ? NSENTER : [];
  const timeoutMs = options.timeoutMs ?? 60_000;
  const pullTimeoutMs = options.pullTimeoutMs ?? 600_000;
  const choice = options.runtime ?? 'auto';
  const dockerSockets = options.dockerSockets ?? [`${root}/var/run/docker.sock`, `${root}/run/docker.sock`];
  const criSockets = options.criSockets ?? [
    `${root}/run/containerd/containerd.sock`,
    `${root}/var/run/containerd/containerd.sock`,
    `${root}/var/run/crio/crio.sock`,
  ];
  const dockerOps = dockerRuntime(dockerSockets, timeoutMs, pullTimeoutMs);
  const detectMs = Math.min(timeoutMs, DETECT_TIMEOUT_MS);

  let criFound: Promise<Detected> | undefined;
  const findCriOnce = (): Promise<Detected> => {
    const found = criFound ?? findCri();
    criFound = found;
    void found.then((d) => {
      if ('error' in d) criFound = undefined;
    });
    return found;
  };
  const findCri = async (): Promise<Detected> => {
    const why: string[] = [];
    for (const socketPath of criSockets) {
      const client = new CriClient({ socketPath, timeoutMs: detectMs });
      const v = await client.getVersion();
      if (v.ok) {
        // The client that answered, with the call timeout of real work and the API version it found.
        const worker = new CriClient({ socketPath, timeoutMs, ...(client.apiVersion ? { apiVersion: client.apiVersion } : {}) });
        return { ops: createCriRuntime(worker, { pullTimeoutMs }), keep: true };
      }
      why.push(`${socketPath}: ${describeFailure(v)}`);
    }
    return { error: why.length > 0 ? `no CRI runtime answered (${why.join('; ')})` : 'no CRI socket configured' };
  };

  const detect = async (): Promise<Detected> => {
    if (choice === 'docker') return { ops: dockerOps, keep: true };
    if (choice === 'cri') return findCri();
    let dockerHung = false;
    for (const socket of dockerSockets) {
      const ping = await docker(socket, 'GET', '/_ping', detectMs);
      // Any HTTP/1 answer is Docker's (a CRI socket speaks HTTP/2 only).
      if (!('error' in ping)) return { ops: dockerOps, keep: true };
      if (ping.timedOut) dockerHung = true;
    }
    const cri = await findCri();
    if ('error' in cri) return { error: `${dockerHung ? 'docker did not answer /_ping in time and ' : 'no docker socket answered; '}${cri.error}` };
    // A Docker that hangs now may answer later: decide again next time.
    return { ...cri, keep: !dockerHung };
  };

  // Which runtime listed a container, and which one last held a pod's containers: removals and
  // image calls go to that one (actions list the pod's containers first).
  const owners = new Map<string, RuntimeOps>();
  let podRuntime: RuntimeOps | undefined;
  let chosen: Promise<Detected> | undefined;
  const runtime = async (): Promise<Detected> => {
    const current = chosen ?? detect();
    chosen = current;
    const d = await current;
    if ('error' in d || !d.keep) chosen = undefined;
    return d;
  };
  const withRuntime = async (f: (ops: RuntimeOps) => Promise<ExecResult>): Promise<ExecResult> => {
    const d = await runtime();
    return 'error' in d ? { ok: false, detail: d.error.slice(0, 500), code: 0 } : f(d.ops);
  };

  return {
    async restartUnit(unit) {
      unitSchema.parse(unit);
      return run([...prefix, 'systemctl', 'restart', unit], timeoutMs);
    },
    async signalProcess(pid, signal) {
      return signalHostProcess(pid, signal);
    },
    async processAlive(pid) {
      return hostProcessAlive(pid);
    },
    async lazyUnmount(path) {
      mountPathSchema.parse(path);
      return run([...prefix, 'umount', '-l', path], timeoutMs);
    },
    async listPodContainers(podUid) {
      if (!/^[0-9a-f-]{36}$/i.test(podUid)) throw new Error('bad pod uid');
      const d = await runtime();
      if ('error' in d) throw new Error(`cannot list containers: ${d.error}`);
      let ops = d.ops;
      let list = await ops.listPodContainers(podUid);
      if (list.length === 0 && choice === 'auto' && ops === dockerOps) {
        // Docker answers but holds none of the pod's containers: ask the CRI runtime beside it.
        const cri = await findCriOnce();
        const theirs = 'error' in cri ? [] : await cri.ops.listPodContainers(podUid).catch(() => []);
        if (!('error' in cri) && theirs.length > 0) [ops, list] = [cri.ops, theirs];
      }
      for (const c of list) owners.set(c.id, ops);
      if (list.length > 0) podRuntime = ops;
      return list;
    },
    async removeContainer(id) {
      if (!/^[0-9a-f]{12,64}$/.test(id)) throw new Error('bad container id');
      const ops = owners.get(id) ?? [...owners].find(([known]) => known.startsWith(id))?.[1];
      return ops ? ops.removeContainer(id) : withRuntime((o) => o.removeContainer(id));
    },
    async removeImage(ref) {
      imageRefSchema.parse(ref);
      return podRuntime ? podRuntime.removeImage(ref) : withRuntime((ops) => ops.removeImage(ref));
    },
    async pullImage(ref) {
      imageRefSchema.parse(ref);
      return podRuntime ? podRuntime.pullImage(ref) : withRuntime((ops) => ops.pullImage(ref));
    },
  };
}
