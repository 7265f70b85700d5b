// The real host operations: commands through execFile (no shell, fixed argv, arguments already
// validated by the action schemas) and Docker Engine API calls on the runtime's unix socket.
// In the DaemonSet the agent runs in its own mount namespace with hostPID, so commands enter
// the host's namespaces through nsenter on pid 1.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { imageRefSchema, mountPathSchema, unitSchema, type ExecResult, type HostContainer, type HostExec } from './types.js';

export interface HostExecOptions {
  /** The host's root as the agent sees it; not `/` means "enter pid 1's namespaces". */
  hostRoot: string;
  /** Docker API sockets tried in order (default `<hostRoot>/var/run/docker.sock`, `<hostRoot>/run/docker.sock`). */
  dockerSockets?: string[];
  /** Time limit of one command or docker call (ms, default 60 s). */
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

type DockerReply = { status: number; body: string } | { status: 0; body: string; error: string };

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
      done({ status: 0, body: '', error: `docker ${method} ${path.split('?')[0]} did not answer within ${timeoutMs}ms` });
    }, timeoutMs);
    req.on('error', (err) => done({ status: 0, body: '', error: err.message }));
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

export function createHostExec(options: HostExecOptions): HostExec {
  const root = options.hostRoot.replace(/\/+$/, '');
  const enter = options.enterHost ?? root !== '';
  const prefix = enter ? NSENTER : [];
  const timeoutMs = options.timeoutMs ?? 60_000;
  const pullTimeoutMs = options.pullTimeoutMs ?? 600_000;
  const sockets = options.dockerSockets ?? [`${root}/var/run/docker.sock`, `${root}/run/docker.sock`];

  const call = async (method: string, path: string, limit = timeoutMs): Promise<DockerReply> => {
    let last: DockerReply = { status: 0, body: '', error: 'no docker socket configured' };
    for (const socket of sockets) {
      last = await docker(socket, method, path, limit);
      // Try the next socket only when this one is not there at all.
      if (!('error' in last) || !/ENOENT|ECONNREFUSED/.test(last.error)) return last;
    }
    return last;
  };

  return {
    async restartUnit(unit) {
      unitSchema.parse(unit);
      return run([...prefix, 'systemctl', 'restart', unit], timeoutMs);
    },
    async lazyUnmount(path) {
      mountPathSchema.parse(path);
      return run([...prefix, 'umount', '-l', path], timeoutMs);
    },
    async listPodContainers(podUid) {
      if (!/^[0-9a-f-]{36}$/i.test(podUid)) throw new Error('bad pod uid');
      const filters = encodeURIComponent(JSON.stringify({ label: [`io.kubernetes.pod.uid=${podUid}`] }));
      const reply = await call('GET', `/containers/json?all=1&filters=${filters}`);
      if (reply.status !== 200) throw new Error(`docker: cannot list containers: ${dockerMessage(reply)}`);
      const list = JSON.parse(reply.body) as { Id: string; Names?: string[]; Image?: string; ImageID?: string; State?: string; Labels?: Record<string, string> }[];
      return list.map(
        (c): HostContainer => ({ id: c.Id, name: c.Names?.[0]?.replace(/^\//, ''), image: c.Image ?? '', imageId: c.ImageID, state: c.State ?? '', labels: c.Labels ?? {} }),
      );
    },
    async removeContainer(id) {
      if (!/^[0-9a-f]{12,64}$/.test(id)) throw new Error('bad container id');
      const reply = await call('DELETE', `/containers/${id}?force=1&v=0`);
      return reply.status === 204 || reply.status === 200 ? { ok: true, detail: '', code: reply.status } : { ok: false, detail: dockerMessage(reply), code: reply.status };
    },
    async removeImage(ref) {
      imageRefSchema.parse(ref);
      const reply = await call('DELETE', `/images/${encodeURIComponent(ref)}`);
      return reply.status === 200 ? { ok: true, detail: '', code: 200 } : { ok: false, detail: dockerMessage(reply), code: reply.status };
    },
    async pullImage(ref) {
      imageRefSchema.parse(ref);
      const { fromImage, tag } = splitImageRef(ref);
      const reply = await call('POST', `/images/create?fromImage=${encodeURIComponent(fromImage)}${tag ? `&tag=${encodeURIComponent(tag)}` : ''}`, pullTimeoutMs);
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
