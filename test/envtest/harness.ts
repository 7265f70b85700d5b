// A real control plane for tests ("envtest"): etcd + kube-apiserver + kube-scheduler +
// kube-controller-manager on loopback, built by scripts/envtest-setup.sh from Debian's
// Kubernetes 1.20 source. No kubelet: test/envtest/kubelet-standin.ts plays that part.
//
// Everything lives in one temp dir (certs, tokens, kubeconfigs, etcd data, logs) and is
// removed by stop(), by an exit handler, and by a watchdog process if the test process
// dies without running either (SIGKILL).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify as toYaml } from 'yaml';

const execFileP = promisify(execFile);

export type Component = 'etcd' | 'kube-apiserver' | 'kube-scheduler' | 'kube-controller-manager';

export interface TokenUser {
  name: string;
  groups?: string[];
}

export interface ControlPlaneOptions {
  /** Extra token users (RBAC subjects of kind User/Group). */
  users?: TokenUser[];
  /** Token users shaped like service accounts (`system:serviceaccount:<ns>:<name>`), so RBAC
   * bindings to ServiceAccount subjects apply to them; the ServiceAccount objects themselves are not created. */
  serviceAccounts?: Array<{ namespace: string; name: string }>;
  /** Start kube-scheduler and kube-controller-manager (default true). */
  controllers?: boolean;
  /** Keep the ServiceAccount admission plugin (default true); the token controller runs in the
   * controller-manager, and createNamespace() waits for the `default` account's token. */
  serviceAccountAdmission?: boolean;
  /** Node lifecycle timings (controller-manager). Real defaults for 1.20 are 5s / 40s / 1m. */
  nodeMonitorPeriod?: string;
  nodeMonitorGracePeriod?: string;
  nodeStartupGracePeriod?: string;
  /** DefaultTolerationSeconds admission (real default 300): tolerations added to every pod for
   * not-ready/unreachable NoExecute taints. Pods with their own toleration keep it. */
  defaultTolerationSeconds?: number;
  extraApiServerArgs?: string[];
  /**
   * Write the API server's audit log (`--audit-policy-file`, `--audit-log-path`): `true` records
   * every request at level Metadata (who, verb, object, userAgent, status), or give a policy.
   */
  audit?: boolean | { policy: Record<string, unknown> };
  extraControllerManagerArgs?: string[];
  extraSchedulerArgs?: string[];
  /** Total time allowed for start-up (default 90s). */
  startTimeoutMs?: number;
  /** Keep the temp dir after stop() (also POD_DOCTOR_ENVTEST_KEEP=1). */
  keepDir?: boolean;
}

export interface ControlPlane {
  /** https://127.0.0.1:<port> */
  url: string;
  dir: string;
  caPath: string;
  caPem: string;
  adminToken: string;
  /** Admin kubeconfig (user `admin`, group system:masters). */
  kubeconfigPath: string;
  /** Admin client. */
  client: KubeClient;
  version: string;
  binDir: string;
  /** Milliseconds from startControlPlane() to everything ready, and per phase. */
  startMs: number;
  timings: Record<string, number>;
  /** The API server's audit log, with `audit` set. */
  auditLogPath?: string;
  /** The audit log's events so far (audit.k8s.io/v1 Event objects, one JSON line each); [] without `audit`. */
  auditEvents(): KubeObject[];
  /** Token of a user given in options (name as given, or `system:serviceaccount:ns:name`). */
  tokenFor(user: string): string;
  /** Writes (once) and returns a kubeconfig for a token user. */
  kubeconfigFor(user: string): string;
  clientFor(user: string): KubeClient;
  /** Creates a namespace and, with ServiceAccount admission on, waits until pods can be created in it. */
  createNamespace(name: string, labels?: Record<string, string>): Promise<KubeObject>;
  /** Runs `fn` at the start of stop() (e.g. a kubelet stand-in's timers), latest first. */
  onStop(fn: () => void | Promise<void>): void;
  logPath(component: Component): string;
  logTail(component: Component, lines?: number): string;
  /**
   * Stops one controller process (SIGTERM to its process group, SIGKILL after 5 s), as when
   * kube-scheduler or kube-controller-manager dies on a control-plane node; the rest keeps running.
   */
  stopComponent(component: RestartableComponent): Promise<void>;
  /** Starts a stopped component again with the same flags and waits until it is healthy. */
  startComponent(component: RestartableComponent): Promise<void>;
  stop(): Promise<void>;
}

/** Components a test may stop and start again (etcd and the API server hold the cluster itself). */
export type RestartableComponent = 'kube-scheduler' | 'kube-controller-manager';

// ---------------------------------------------------------------- binaries

export const COMPONENTS = ['kube-apiserver', 'kube-scheduler', 'kube-controller-manager'] as const;

export function envtestCacheDir(): string {
  return process.env.POD_DOCTOR_ENVTEST_CACHE ?? path.join(os.homedir(), '.cache', 'pod-doctor', 'envtest');
}

export interface Binaries {
  binDir: string;
  version: string;
  etcd: string;
}

/** Where the setup script put the binaries, or null (with the reason) when they are absent. */
export function findBinaries(): { found: Binaries } | { missing: string } {
  let binDir = process.env.POD_DOCTOR_ENVTEST_BIN;
  let version = 'custom';
  if (!binDir) {
    const cache = envtestCacheDir();
    const currentFile = path.join(cache, 'current');
    if (!existsSync(currentFile)) return { missing: `no ${currentFile}: run \`npm run envtest:setup\`` };
    version = readFileSync(currentFile, 'utf8').trim();
    binDir = path.join(cache, version, 'bin');
  }
  for (const c of COMPONENTS) {
    if (!existsSync(path.join(binDir, c))) return { missing: `${c} not in ${binDir}: run \`npm run envtest:setup\`` };
  }
  const etcd = process.env.POD_DOCTOR_ENVTEST_ETCD ?? '/usr/bin/etcd';
  if (!existsSync(etcd)) return { missing: `${etcd} missing: run \`npm run envtest:setup\` (installs etcd-server)` };
  return { found: { binDir, version, etcd } };
}

// ---------------------------------------------------------------- HTTP client

/** Wire JSON; typed loosely on purpose: tests read whatever the real server returns. */
export type KubeObject = Record<string, any>;

export interface KubeResponse<T = any> {
  status: number;
  body: T;
  headers: http.IncomingHttpHeaders;
}

export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';
const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

export class KubeHttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: any,
  ) {
    super(`${method} ${path} → ${status}: ${typeof body === 'object' && body ? (body.message ?? JSON.stringify(body)) : String(body)}`);
    this.name = 'KubeHttpError';
  }
  /** `Status.reason` (NotFound, AlreadyExists, Conflict, ...). */
  get reason(): string | undefined {
    return typeof this.body === 'object' && this.body ? this.body.reason : undefined;
  }
}

export interface RequestOptions {
  body?: unknown;
  contentType?: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Accept header (default application/json), e.g. for `as=PartialObjectMetadata`. */
  accept?: string;
  timeoutMs?: number;
}

/**
 * Raw JSON client for the API server: status codes and `Status` bodies come back as they are,
 * which the fidelity tests need; convenience methods throw KubeHttpError on non-2xx.
 */
export class KubeClient {
  private readonly agent: http.Agent;
  private readonly base: URL;
  private readonly mod: typeof http | typeof https;

  /** `https://` with the cluster CA, or `http://` (the simulated API) without one. */
  constructor(
    readonly url: string,
    private readonly token: string | undefined,
    ca?: string,
  ) {
    this.base = new URL(url);
    this.mod = this.base.protocol === 'http:' ? http : https;
    this.agent =
      this.base.protocol === 'http:' ? new http.Agent({ keepAlive: true, maxSockets: 16 }) : new https.Agent({ ca, keepAlive: true, maxSockets: 16 });
  }

  /** Called before each request (the fidelity suite records which API operations ran). */
  onRequest?: (method: string, url: URL) => void;

  request<T = any>(method: string, apiPath: string, opts: RequestOptions = {}): Promise<KubeResponse<T>> {
    const u = new URL(apiPath, this.base);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    this.onRequest?.(method, u);
    const payload = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    return new Promise((resolve, reject) => {
      const req = this.mod.request(
        u,
        {
          method,
          agent: this.agent,
          headers: {
            ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
            Accept: opts.accept ?? 'application/json',
            ...(payload !== undefined ? { 'Content-Type': opts.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
          },
          timeout: opts.timeoutMs ?? 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: any = text;
            if (text && (res.headers['content-type'] ?? '').includes('json')) {
              try {
                body = JSON.parse(text);
              } catch {
                body = text;
              }
            }
            resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${u.pathname} timed out`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  private async ok<T>(method: string, apiPath: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.request<T>(method, apiPath, opts);
    if (res.status < 200 || res.status >= 300) throw new KubeHttpError(method, apiPath, res.status, res.body);
    return res.body;
  }

  get<T = KubeObject>(apiPath: string, query?: RequestOptions['query']): Promise<T> {
    return this.ok('GET', apiPath, { query });
  }
  /** GET that returns null on 404. */
  async find<T = KubeObject>(apiPath: string): Promise<T | null> {
    const res = await this.request<T>('GET', apiPath);
    if (res.status === 404) return null;
    if (res.status < 200 || res.status >= 300) throw new KubeHttpError('GET', apiPath, res.status, res.body);
    return res.body;
  }
  list<T = KubeObject>(apiPath: string, query?: RequestOptions['query']): Promise<{ items: T[]; metadata: any }> {
    return this.ok('GET', apiPath, { query });
  }
  create<T = KubeObject>(apiPath: string, body: unknown): Promise<T> {
    return this.ok('POST', apiPath, { body });
  }
  replace<T = KubeObject>(apiPath: string, body: unknown): Promise<T> {
    return this.ok('PUT', apiPath, { body });
  }
  patch<T = KubeObject>(apiPath: string, body: unknown, type: PatchType = 'merge', query?: RequestOptions['query']): Promise<T> {
    return this.ok('PATCH', apiPath, { body, contentType: PATCH_CONTENT_TYPES[type], query });
  }
  delete<T = KubeObject>(apiPath: string, body?: unknown, query?: RequestOptions['query']): Promise<T> {
    return this.ok('DELETE', apiPath, { body, query });
  }

  /** Polls `read` until `until` holds (returns that value) or the timeout expires. */
  async waitFor<T>(
    what: string,
    read: () => Promise<T>,
    until: (v: T) => boolean,
    { timeoutMs = 30_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: T | undefined;
    let lastErr: unknown;
    for (;;) {
      try {
        last = await read();
        if (until(last)) return last;
      } catch (err) {
        lastErr = err;
      }
      if (Date.now() > deadline) {
        const seen = lastErr ? String(lastErr) : JSON.stringify(last)?.slice(0, 2000);
        throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}; last seen: ${seen}`);
      }
      await sleep(intervalMs);
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

// ---------------------------------------------------------------- helpers

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Distinct free loopback ports (asked for together so one run never gets the same twice). */
export async function freePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

async function openssl(args: string[], cwd: string): Promise<void> {
  await execFileP('openssl', args, { cwd });
}

/** CA, API server serving cert (127.0.0.1/localhost + in-cluster names), service-account key pair. */
async function generateCerts(dir: string): Promise<void> {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '3650',
      '-subj',
      '/CN=pod-doctor-envtest-ca',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
    ],
    dir,
  );
  await openssl(['req', ...ec, '-keyout', 'apiserver.key', '-out', 'apiserver.csr', '-subj', '/CN=kube-apiserver'], dir);
  writeFileSync(
    path.join(dir, 'apiserver.ext'),
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      'subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local',
      '',
    ].join('\n'),
  );
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      'apiserver.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'apiserver.crt',
      '-days',
      '3650',
      '-extfile',
      'apiserver.ext',
    ],
    dir,
  );
  await openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'sa.key'], dir);
  await openssl(['pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
}

function kubeconfig(url: string, caPem: string, user: string, token: string): string {
  return toYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'envtest', cluster: { server: url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'envtest', context: { cluster: 'envtest', user, namespace: 'default' } }],
    'current-context': 'envtest',
  });
}

async function httpGetStatus(url: string, headers: Record<string, string> = {}, ca?: string): Promise<number> {
  const mod = url.startsWith('https:') ? https : http;
  return new Promise((resolve) => {
    const req = mod.get(url, { headers, ...(ca ? { ca } : {}), timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

// ---------------------------------------------------------------- processes

interface Proc {
  name: Component;
  child: ChildProcess;
  log: string;
  exited: boolean;
  /** Stopped on purpose by stopComponent() (its log says so rather than "exited"). */
  stopping?: boolean;
}

const live = new Set<{ kill: () => void }>();
let exitHandlersInstalled = false;
function installExitHandlers(): void {
  if (exitHandlersInstalled) return;
  exitHandlersInstalled = true;
  // 'exit' handlers must be synchronous: kill process groups and remove dirs right away.
  process.on('exit', () => {
    for (const cp of live) cp.kill();
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      for (const cp of live) cp.kill();
      process.kill(process.pid, sig);
    });
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------- start

export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const t0 = Date.now();
  const timings: Record<string, number> = {};
  const mark = (name: string, since: number) => (timings[name] = Date.now() - since);

  const bins = findBinaries();
  if ('missing' in bins) throw new Error(`envtest binaries missing: ${bins.missing}`);
  // Binaries: the setup script's cache, or POD_DOCTOR_ENVTEST_BIN / POD_DOCTOR_ENVTEST_ETCD.
  const { binDir, etcd: etcdBin } = bins.found;
  const withControllers = opts.controllers ?? true;
  const saAdmission = opts.serviceAccountAdmission ?? true;
  const keepDir = opts.keepDir ?? process.env.POD_DOCTOR_ENVTEST_KEEP === '1';
  const deadline = t0 + (opts.startTimeoutMs ?? 90_000);

  // tmpfs when there is one: etcd fsyncs on every write.
  const tmpBase = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const dir = mkdtempSync(path.join(tmpBase, 'pod-doctor-envtest-'));
  const procs: Proc[] = [];
  let watchdog: ChildProcess | undefined;
  let stopped = false;

  const killAllSync = () => {
    for (const p of procs) killGroup(p.child.pid, 'SIGKILL');
    killGroup(watchdog?.pid, 'SIGKILL');
    if (!keepDir) rmSync(dir, { recursive: true, force: true });
  };
  const handle = { kill: killAllSync };
  installExitHandlers();
  live.add(handle);

  // What each component was started with, so startComponent() can start it again.
  const launched = new Map<Component, { bin: string; args: string[]; healthUrl: string }>();
  const writePgids = () => writeFileSync(path.join(dir, 'pgids'), procs.map((p) => `${p.child.pid}\n`).join(''));

  const launch = (name: Component, bin: string, args: string[], healthUrl = ''): Proc => {
    launched.set(name, { bin, args, healthUrl });
    const log = path.join(dir, `${name}.log`);
    // A restarted component appends to its log: the first run's lines stay for post-mortems.
    appendFileSync(log, `${existsSync(log) ? '\n' : ''}$ ${bin} ${args.join(' ')}\n`);
    const out = openSync(log, 'a');
    // detached: own process group, so stop() can kill the component and anything it forks.
    const child = spawn(bin, args, { cwd: dir, detached: true, stdio: ['ignore', out, out] });
    closeSync(out);
    const p: Proc = { name, child, log, exited: false };
    child.on('exit', (code, sig) => {
      p.exited = true;
      if (!stopped) appendFileSync(log, `\n[harness] ${name} ${p.stopping ? 'stopped by the test' : 'exited'} code=${code} signal=${sig}\n`);
    });
    child.unref();
    procs.push(p);
    appendFileSync(path.join(dir, 'pgids'), `${child.pid}\n`);
    return p;
  };

  const assertAlive = (p: Proc) => {
    if (p.exited) throw new Error(`${p.name} exited during start-up:\n${tail(p.log, 40)}`);
  };
  const waitHealthy = async (p: Proc, url: string, headers?: Record<string, string>, ca?: string) => {
    const s = Date.now();
    for (;;) {
      assertAlive(p);
      if ((await httpGetStatus(url, headers, ca)) === 200) return mark(`${p.name} ready`, s);
      if (Date.now() > deadline) throw new Error(`${p.name} not healthy at ${url} in time:\n${tail(p.log, 40)}`);
      await sleep(100);
    }
  };

  try {
    // A watchdog outlives a SIGKILLed test process: it kills the groups and removes the dir.
    watchdog = spawn(
      'bash',
      [
        '-c',
        'while kill -0 "$1" 2>/dev/null; do sleep 1; done; [ -f "$2/pgids" ] && while read -r g; do kill -KILL -- "-$g" 2>/dev/null; done < "$2/pgids"; [ "$3" = 1 ] || rm -rf "$2"',
        'watchdog',
        String(process.pid),
        dir,
        keepDir ? '1' : '0',
      ],
      { detached: true, stdio: 'ignore' },
    );
    watchdog.unref();

    let s = Date.now();
    await generateCerts(dir);
    mark('certificates', s);
    const caPem = readFileSync(path.join(dir, 'ca.crt'), 'utf8');

    // Tokens: admin (system:masters), the control-plane components, and the requested users.
    const tokens = new Map<string, { token: string; groups: string[] }>();
    const addUser = (name: string, groups: string[]) => tokens.set(name, { token: randomBytes(24).toString('hex'), groups });
    addUser('admin', ['system:masters']);
    // The components get system:masters too: the tests are about workloads, not control-plane RBAC.
    addUser('system:kube-scheduler', ['system:masters']);
    addUser('system:kube-controller-manager', ['system:masters']);
    for (const u of opts.users ?? []) addUser(u.name, u.groups ?? []);
    for (const sa of opts.serviceAccounts ?? []) {
      addUser(`system:serviceaccount:${sa.namespace}:${sa.name}`, ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`]);
    }
    writeFileSync(
      path.join(dir, 'tokens.csv'),
      `${[...tokens].map(([name, t], i) => `${t.token},${name},uid-${i}${t.groups.length ? `,"${t.groups.join(',')}"` : ''}`).join('\n')}\n`,
      { mode: 0o600 },
    );
    const adminToken = tokens.get('admin')!.token;

    const [etcdClient, etcdPeer, apiPort, schedPort, cmPort] = await freePorts(5);
    const url = `https://127.0.0.1:${apiPort}`;
    const kubeconfigPath = path.join(dir, 'admin.kubeconfig');
    writeFileSync(kubeconfigPath, kubeconfig(url, caPem, 'admin', adminToken), { mode: 0o600 });
    for (const c of ['kube-scheduler', 'kube-controller-manager'] as const) {
      writeFileSync(path.join(dir, `${c}.kubeconfig`), kubeconfig(url, caPem, `system:${c}`, tokens.get(`system:${c}`)!.token), { mode: 0o600 });
    }

    // etcd
    s = Date.now();
    const etcd = launch('etcd', etcdBin, [
      '--name=envtest',
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=envtest=http://127.0.0.1:${etcdPeer}`,
      '--logger=zap',
      '--log-level=warn',
    ]);
    await waitHealthy(etcd, `http://127.0.0.1:${etcdClient}/health`);
    mark('etcd', s);

    const auditArgs = opts.audit ? auditFlags(dir, opts.audit === true ? DEFAULT_AUDIT_POLICY : opts.audit.policy) : [];
    const auditLogPath = opts.audit ? path.join(dir, 'audit.log') : undefined;

    // kube-apiserver
    s = Date.now();
    const apiserver = launch('kube-apiserver', path.join(binDir, 'kube-apiserver'), [
      `--etcd-servers=http://127.0.0.1:${etcdClient}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      '--insecure-port=0',
      `--tls-cert-file=${path.join(dir, 'apiserver.crt')}`,
      `--tls-private-key-file=${path.join(dir, 'apiserver.key')}`,
      `--client-ca-file=${path.join(dir, 'ca.crt')}`,
      `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
      '--authorization-mode=Node,RBAC',
      '--enable-admission-plugins=NodeRestriction',
      ...(saAdmission ? [] : ['--disable-admission-plugins=ServiceAccount']),
      `--default-not-ready-toleration-seconds=${opts.defaultTolerationSeconds ?? 300}`,
      `--default-unreachable-toleration-seconds=${opts.defaultTolerationSeconds ?? 300}`,
      `--service-account-key-file=${path.join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${path.join(dir, 'sa.key')}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      '--api-audiences=https://kubernetes.default.svc.cluster.local',
      '--service-cluster-ip-range=10.0.0.0/24',
      // The `kubernetes` Endpoints cannot hold a loopback address; nothing here needs it.
      '--endpoint-reconciler-type=none',
      '--kubelet-preferred-address-types=InternalIP',
      '--allow-privileged=true',
      '--profiling=false',
      '--v=1',
      ...auditArgs,
      ...(opts.extraApiServerArgs ?? []),
    ]);
    await waitHealthy(apiserver, `${url}/readyz`, { Authorization: `Bearer ${adminToken}` }, caPem);
    mark('kube-apiserver', s);

    const client = new KubeClient(url, adminToken, caPem);

    if (withControllers) {
      s = Date.now();
      const sched = launch(
        'kube-scheduler',
        path.join(binDir, 'kube-scheduler'),
        [
          `--kubeconfig=${path.join(dir, 'kube-scheduler.kubeconfig')}`,
          '--leader-elect=false',
          '--address=127.0.0.1',
          `--port=${schedPort}`,
          '--secure-port=0',
          '--v=1',
          ...(opts.extraSchedulerArgs ?? []),
        ],
        `http://127.0.0.1:${schedPort}/healthz`,
      );
      const cm = launch(
        'kube-controller-manager',
        path.join(binDir, 'kube-controller-manager'),
        [
          `--kubeconfig=${path.join(dir, 'kube-controller-manager.kubeconfig')}`,
          '--leader-elect=false',
          '--address=127.0.0.1',
          `--port=${cmPort}`,
          '--secure-port=0',
          '--controllers=*',
          '--use-service-account-credentials=false',
          `--service-account-private-key-file=${path.join(dir, 'sa.key')}`,
          `--root-ca-file=${path.join(dir, 'ca.crt')}`,
          `--cluster-signing-cert-file=${path.join(dir, 'ca.crt')}`,
          `--cluster-signing-key-file=${path.join(dir, 'ca.key')}`,
          '--cluster-name=envtest',
          `--node-monitor-period=${opts.nodeMonitorPeriod ?? '2s'}`,
          `--node-monitor-grace-period=${opts.nodeMonitorGracePeriod ?? '10s'}`,
          `--node-startup-grace-period=${opts.nodeStartupGracePeriod ?? '20s'}`,
          // Only used without taint-based eviction; with it, tolerationSeconds decides.
          '--pod-eviction-timeout=10s',
          '--v=1',
          ...(opts.extraControllerManagerArgs ?? []),
        ],
        `http://127.0.0.1:${cmPort}/healthz`,
      );
      await Promise.all([waitHealthy(sched, `http://127.0.0.1:${schedPort}/healthz`), waitHealthy(cm, `http://127.0.0.1:${cmPort}/healthz`)]);
      if (saAdmission) {
        // Controllers are really working once the token controller has given `default` a token.
        await waitDefaultServiceAccount(client, 'default', Math.max(1000, deadline - Date.now()));
      }
      mark('scheduler + controller-manager', s);
    }

    const startMs = Date.now() - t0;
    const extraKubeconfigs = new Map<string, string>();
    const stopHooks: Array<() => void | Promise<void>> = [];
    const clients: KubeClient[] = [client];

    const tokenFor = (user: string) => {
      const t = tokens.get(user);
      if (!t) throw new Error(`unknown envtest user ${user}: pass it in options.users or options.serviceAccounts`);
      return t.token;
    };

    const cp: ControlPlane = {
      url,
      dir,
      caPath: path.join(dir, 'ca.crt'),
      caPem,
      adminToken,
      kubeconfigPath,
      client,
      version: bins.found.version,
      binDir,
      startMs,
      timings,
      ...(auditLogPath ? { auditLogPath } : {}),
      auditEvents: () => readAuditLog(auditLogPath),
      tokenFor,
      kubeconfigFor(user) {
        const existing = extraKubeconfigs.get(user);
        if (existing) return existing;
        const file = path.join(dir, `user-${user.replace(/[^A-Za-z0-9_.-]/g, '_')}.kubeconfig`);
        writeFileSync(file, kubeconfig(url, caPem, user, tokenFor(user)), { mode: 0o600 });
        extraKubeconfigs.set(user, file);
        return file;
      },
      clientFor(user) {
        const c = new KubeClient(url, tokenFor(user), caPem);
        clients.push(c);
        return c;
      },
      async createNamespace(name, labels) {
        const ns = await client.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } });
        if (withControllers && saAdmission) await waitDefaultServiceAccount(client, name, 30_000);
        return ns;
      },
      onStop: (fn) => void stopHooks.unshift(fn),
      logPath: (c) => path.join(dir, `${c}.log`),
      logTail: (c, lines = 40) => tail(path.join(dir, `${c}.log`), lines),
      async stopComponent(component) {
        const running = procs.filter((p) => p.name === component && !p.exited);
        if (running.length === 0) throw new Error(`${component} is not running`);
        for (const p of running) {
          p.stopping = true;
          killGroup(p.child.pid, 'SIGTERM');
        }
        const deadline = Date.now() + 5000;
        while (running.some((p) => !p.exited) && Date.now() < deadline) await sleep(50);
        for (const p of running) if (!p.exited) killGroup(p.child.pid, 'SIGKILL');
        const reap = Date.now() + 3000;
        while (running.some((p) => !p.exited) && Date.now() < reap) await sleep(20);
        if (running.some((p) => !p.exited)) throw new Error(`${component} did not exit after SIGKILL`);
        // Forget the dead process group: its id may be reused by an unrelated process.
        for (const p of running) procs.splice(procs.indexOf(p), 1);
        writePgids();
      },
      async startComponent(component) {
        if (procs.some((p) => p.name === component && !p.exited)) throw new Error(`${component} is already running`);
        const spec = launched.get(component);
        if (!spec) throw new Error(`${component} was never started (controllers: false?)`);
        const p = launch(component, spec.bin, spec.args, spec.healthUrl);
        const s = Date.now();
        for (;;) {
          if (p.exited) throw new Error(`${component} exited on restart:\n${tail(p.log, 40)}`);
          if ((await httpGetStatus(spec.healthUrl)) === 200) break;
          if (Date.now() - s > 60_000) throw new Error(`${component} not healthy at ${spec.healthUrl} after restart:\n${tail(p.log, 40)}`);
          await sleep(100);
        }
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        for (const fn of stopHooks) {
          try {
            await fn();
          } catch {
            // teardown goes on regardless
          }
        }
        for (const c of clients) c.close();
        await stopProcs(procs);
        killGroup(watchdog?.pid, 'SIGKILL');
        live.delete(handle);
        if (!keepDir) rmSync(dir, { recursive: true, force: true });
      },
    };
    return cp;
  } catch (err) {
    stopped = true;
    const logs = procs.map((p) => `--- ${p.name} (last lines)\n${tail(p.log, 15)}`).join('\n');
    killAllSync();
    live.delete(handle);
    throw new Error(`envtest start-up failed: ${err instanceof Error ? err.message : String(err)}\n${logs}`, { cause: err });
  }
}

/** Every request at level Metadata, once (at ResponseComplete; panics too). */
const DEFAULT_AUDIT_POLICY = {
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  omitStages: ['RequestReceived'],
  rules: [{ level: 'Metadata' }],
};

/** Writes the policy and returns the API server's audit flags: JSON lines in <dir>/audit.log, written as requests complete. */
function auditFlags(dir: string, policy: Record<string, unknown>): string[] {
  const policyPath = path.join(dir, 'audit-policy.yaml');
  writeFileSync(policyPath, toYaml(policy));
  return [`--audit-policy-file=${policyPath}`, `--audit-log-path=${path.join(dir, 'audit.log')}`, '--audit-log-format=json', '--audit-log-mode=blocking'];
}

function readAuditLog(file: string | undefined): KubeObject[] {
  if (!file || !existsSync(file)) return [];
  // The last line may be half written: only whole lines count.
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        return l.trim() ? [JSON.parse(l) as KubeObject] : [];
      } catch {
        return [];
      }
    });
}

async function waitDefaultServiceAccount(client: KubeClient, namespace: string, timeoutMs: number): Promise<void> {
  await client.waitFor(
    `service account ${namespace}/default with a token`,
    () => client.find(`/api/v1/namespaces/${namespace}/serviceaccounts/default`),
    (sa) => Array.isArray(sa?.secrets) && sa.secrets.length > 0,
    { timeoutMs, intervalMs: 100 },
  );
}

/** SIGTERM every group (reverse start order), SIGKILL what is left after 5 s. */
async function stopProcs(procs: Proc[]): Promise<void> {
  const order = [...procs].reverse();
  for (const p of order) if (!p.exited) killGroup(p.child.pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  while (order.some((p) => !p.exited) && Date.now() < deadline) await sleep(50);
  for (const p of order) killGroup(p.child.pid, 'SIGKILL');
  // Reap: wait briefly for the exit events of SIGKILLed children.
  const reap = Date.now() + 2000;
  while (order.some((p) => !p.exited) && Date.now() < reap) await sleep(20);
}

function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
