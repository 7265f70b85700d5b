// The incidents on a real node: a kubelet and containerd + runc make each failure happen for real,
// the node agent runs on the node (real /proc, the containerd socket, the kubelet's and
// containerd's logs), `pod-doctor diagnose` must rank the expected rule first quoting what the
// real kubelet/containerd said, and approved playbooks must leave the pod gone or Running.
//
// Diagnoses look ten minutes ahead (`--now`), past the rules' grace periods.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRbac, PRODUCT_ACCOUNTS, PRODUCT_SERVICE_ACCOUNTS } from '../envtest/backends.js';
import { type KubeObject, sleep } from '../envtest/harness.js';
import { cli, type DiagnosisJson, type FindingJson, runPlaybook } from '../helpers/cli.js';
import { BUSYBOX, findRealNode, NODE_NAME, type RealNode, startRealNode } from './node.js';

const found = findRealNode();
const missing = 'missing' in found ? found.missing : undefined;
if (missing) console.warn(`[realnode] SKIPPED: ${missing}`);

const AHEAD_MS = 10 * 60_000;
const ahead = (ms = AHEAD_MS) => new Date(Date.now() + ms).toISOString();
const log = (label: string, value: unknown) => console.log(`[realnode] ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

describe.skipIf(missing !== undefined)('a real node: kubelet + containerd + runc make the incidents, diagnose and playbooks handle them', () => {
  let node: RealNode;
  let agentEnv: Record<string, string>;
  let diagnoseKubeconfig: string;
  let remediateKubeconfig: string;
  const client = () => node.cp.client;

  beforeAll(async () => {
    node = await startRealNode({
      controlPlane: {
        serviceAccounts: PRODUCT_SERVICE_ACCOUNTS,
        nodeMonitorGracePeriod: '16s',
        extraSchedulerArgs: ['--leader-elect=true', '--leader-elect-resource-lock=leases', '--leader-elect-lease-duration=180s'],
      },
    });
    log('node started (ms)', { total: node.startMs, ...node.timings });
    await applyRbac(node.cp);
    diagnoseKubeconfig = node.cp.kubeconfigFor(PRODUCT_ACCOUNTS.diagnose);
    remediateKubeconfig = node.cp.kubeconfigFor(PRODUCT_ACCOUNTS.remediate);
    const agent = await node.startAgent();
    agentEnv = { POD_DOCTOR_AGENT_URLS: JSON.stringify({ [NODE_NAME]: agent.url }), POD_DOCTOR_AGENT_TOKEN: agent.token, ...agent.env };
  });

  afterAll(async () => {
    await node?.stop();
  });

  async function diagnose(target: string, at = ahead()): Promise<DiagnosisJson> {
    const res = await cli(['diagnose', target, '--kubeconfig', diagnoseKubeconfig, '--json', '--now', at, '--cluster', 'realnode'], {
      POD_DOCTOR_CHECK_SECRETS: 'false',
      ...agentEnv,
    });
    if (res.code !== 0) throw new Error(`pod-doctor diagnose ${target} exited ${res.code}: ${res.stderr}`);
    const d = JSON.parse(res.stdout) as DiagnosisJson;
    log(
      `diagnose ${target}`,
      d.findings.map((f) => `${f.rule} (${f.severity})`),
    );
    return d;
  }

  /** Diagnoses until `rule` ranks first (the kubelet and the agent need a moment), then returns it. */
  async function expectFirst(target: string, rule: string, o: { timeoutMs?: number; at?: () => string } = {}): Promise<FindingJson> {
    const deadline = Date.now() + (o.timeoutMs ?? 60_000);
    let last: DiagnosisJson | undefined;
    for (;;) {
      last = await diagnose(target, (o.at ?? ahead)());
      if (last.findings[0]?.rule === rule) break;
      if (Date.now() > deadline) break;
      await sleep(2000);
    }
    if (last.findings[0]?.rule !== rule) log(`diagnosis of ${target} (expected ${rule} first)`, last);
    expect(
      last.findings.map((f) => f.rule),
      `findings of ${target}`,
    ).toContain(rule);
    expect(last.findings[0]?.rule, `first finding of ${target}`).toBe(rule);
    expect(
      last.skipped.filter((g) => g.kind === 'forbidden' || g.kind === 'unauthorized'),
      'facts the diagnose identity may not read',
    ).toEqual([]);
    const f = last.findings[0]!;
    log(
      `${rule} evidence`,
      f.evidence.map((e) => `${e.source}: ${e.text}`.slice(0, 240)),
    );
    return f;
  }

  function playbook(id: string, target: string) {
    return runPlaybook(
      id,
      target,
      ['--kubeconfig', remediateKubeconfig, '--now', ahead(), '--cluster', 'realnode'],
      { POD_DOCTOR_CHECK_SECRETS: 'true', ...agentEnv },
      log,
    );
  }

  function pod(
    name: string,
    namespace: string,
    container: Record<string, unknown>,
    spec: Record<string, unknown> = {},
    metadata: Record<string, unknown> = {},
  ): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace, ...metadata },
      spec: {
        containers: [{ name: 'app', image: BUSYBOX, imagePullPolicy: 'Never', ...container }],
        terminationGracePeriodSeconds: 5,
        automountServiceAccountToken: false,
        ...spec,
      },
    };
  }
  const podPath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/pods/${name}`;
  const createPod = (p: KubeObject) => client().create(`/api/v1/namespaces/${p.metadata.namespace}/pods`, p);
  const getPod = (ns: string, name: string) => client().get(podPath(ns, name));
  const waitPod = (ns: string, name: string, what: string, ok: (p: KubeObject) => boolean, timeoutMs = 90_000) =>
    client().waitFor(`pod ${ns}/${name} ${what}`, () => getPod(ns, name), ok, { timeoutMs, intervalMs: 500 });
  const gone = (ns: string, name: string, timeoutMs = 60_000) =>
    client().waitFor(
      `pod ${ns}/${name} gone`,
      () => client().find(podPath(ns, name)),
      (x) => x === null,
      { timeoutMs, intervalMs: 500 },
    );
  const running = (ns: string, name: string) =>
    waitPod(ns, name, 'Running and Ready', (p) => (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True'));
  const waiting = (p: KubeObject, reason: RegExp) => (p.status?.containerStatuses ?? []).some((c: any) => reason.test(c.state?.waiting?.reason ?? ''));
  /** Host pids whose command line is exactly `sleep 100000` (a hung hook). */
  const hookPids = () =>
    readdirSync('/proc')
      .filter((d) => /^[0-9]+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/cmdline`, 'utf8') === 'sleep\u0000100000\u0000';
        } catch {
          return false;
        }
      });
  const evidenceText = (f: FindingJson) => f.evidence.map((e) => e.text).join('\n');

  it('the node registers and a pod runs: containerd and the kubelet as the suite uses them', async () => {
    await node.cp.createNamespace('smoke');
    await createPod(pod('hello', 'smoke', { command: ['sh', '-c', 'echo hello from a real node; exec sleep 3600'] }));
    const p = await running('smoke', 'hello');
    expect(p.status.podIP).toMatch(/^10\.244\.0\./);
    const n = await client().get(`/api/v1/nodes/${NODE_NAME}`);
    log('node', { runtime: n.status.nodeInfo.containerRuntimeVersion, kubelet: n.status.nodeInfo.kubeletVersion, arch: n.status.nodeInfo.architecture });
    expect(n.status.nodeInfo.containerRuntimeVersion).toMatch(/^containerd:\/\/1\./);
    // Through the API server's pods/log proxy to the real kubelet.
    const logs = await client().request('GET', `${podPath('smoke', 'hello')}/log`, { accept: '*/*' });
    expect(logs.status, JSON.stringify(logs.body)).toBe(200);
    expect(String(logs.body)).toContain('hello from a real node');
    // The agent's runtime probe asks containerd over CRI and lists the pod's sandbox and container.
    const agent = await node.startAgent();
    const answer = (await (
      await agent.fetch(`${agent.url}/v1/probes/runtime?podUid=${p.metadata.uid}`, { headers: { authorization: `Bearer ${agent.token}` } })
    ).json()) as any;
    const cri = answer.probes?.runtime?.containerd;
    log('agent runtime probe (containerd)', cri ?? answer);
    expect(cri).toMatchObject({ state: 'ok', runtimeName: 'containerd', apiVersion: 'v1' });
    expect(cri.containers.map((c: any) => `${c.containerName}:${c.state}`).sort()).toEqual(['POD:ready', 'app:running']);
    // The agent's pull-image over CRI for an image the pod names by a second tag: the kubelet
    // (1.20) gives containerd the image id, and the agent finds the pod's image among the id's
    // tags, so the request is not refused (403) but pulled, and fails as that registry (a
    // closed loopback port) does.
    await node.ctr('images', 'tag', BUSYBOX, '127.0.0.1:1/shop/busybox:1.35');
    await createPod(pod('tagged', 'smoke', { image: '127.0.0.1:1/shop/busybox:1.35', command: ['sleep', '3600'] }));
    const tagged = await running('smoke', 'tagged');
    const pull = await agent.fetch(`${agent.url}/v1/actions/pull-image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        node: NODE_NAME,
        pod: { uid: tagged.metadata.uid, namespace: 'smoke', name: 'tagged', containerIds: [] },
        image: '127.0.0.1:1/shop/busybox:1.35',
      }),
    });
    const pulled = (await pull.json()) as { error?: string };
    log('agent pull-image (CRI)', { status: pull.status, ...pulled });
    expect(pull.status).toBe(502);
    expect(pulled.error).toMatch(/127\.0\.0\.1:1.*connection refused/);
    // A healthy pod on a real node gets no finding.
    const d = await diagnose('smoke/hello');
    expect(d.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it('crash.app-exit: a container that exits 3 goes CrashLoopBackOff', async () => {
    await node.cp.createNamespace('crash');
    await createPod(pod('exit3', 'crash', { command: ['sh', '-c', 'echo "fatal: config /etc/app.yaml not found" >&2; exit 3'] }));
    await waitPod('crash', 'exit3', 'CrashLoopBackOff', (p) => waiting(p, /CrashLoopBackOff/));
    const f = await expectFirst('crash/exit3', 'crash.app-exit');
    expect(evidenceText(f)).toMatch(/exitCode=3/);
    expect(evidenceText(f)).toContain('fatal: config /etc/app.yaml not found');
  });

  it('crash.oomkilled: a real 32Mi memory limit kills the container', async () => {
    await node.cp.createNamespace('oom');
    await createPod(
      pod('dd', 'oom', {
        command: ['sh', '-c', 'exec dd if=/dev/zero of=/dev/null bs=256M'],
        resources: { limits: { memory: '32Mi' }, requests: { memory: '32Mi' } },
      }),
    );
    await waitPod('oom', 'dd', 'OOMKilled', (p) =>
      (p.status?.containerStatuses ?? []).some((c: any) => (c.lastState?.terminated?.reason ?? c.state?.terminated?.reason) === 'OOMKilled'),
    );
    const f = await expectFirst('oom/dd', 'crash.oomkilled');
    expect(evidenceText(f)).toMatch(/OOMKilled/);
    expect(evidenceText(f)).toMatch(/32Mi|33554432/);
  });

  it('image.registry-unreachable: a pull from a closed loopback port', async () => {
    await node.cp.createNamespace('pull');
    await createPod(pod('closed', 'pull', { image: '127.0.0.1:1/shop/app:1.0', imagePullPolicy: 'Always' }));
    await waitPod('pull', 'closed', 'ImagePullBackOff or ErrImagePull', (p) => waiting(p, /ImagePullBackOff|ErrImagePull/));
    const f = await expectFirst('pull/closed', 'image.registry-unreachable');
    expect(evidenceText(f)).toMatch(/dial tcp 127\.0\.0\.1:1: connect: connection refused/);
  });

  it('pending.unschedulable-selector: a node selector no node has', async () => {
    await node.cp.createNamespace('pending');
    await createPod(pod('nowhere', 'pending', { command: ['sleep', '3600'] }, { nodeSelector: { disktype: 'nvme' } }));
    await waitPod('pending', 'nowhere', 'unschedulable', (p) =>
      (p.status?.conditions ?? []).some((c: any) => c.type === 'PodScheduled' && c.status === 'False'),
    );
    const f = await expectFirst('pending/nowhere', 'pending.unschedulable-selector');
    expect(evidenceText(f)).toMatch(/didn't match (Pod's )?node (affinity|selector)/);
  });

  it('image.wrong-arch: an arm64 binary on this amd64 node (exec format error)', async () => {
    await node.cp.createNamespace('arch');
    await createPod(pod('arm', 'arch', { command: ['/usr/local/bin/app-arm64'] }));
    await waitPod('arch', 'arm', 'failing to start', (p) =>
      (p.status?.containerStatuses ?? []).some(
        (c: any) => c.restartCount > 0 || /exec format error/.test(JSON.stringify(c.state ?? {}) + JSON.stringify(c.lastState ?? {})),
      ),
    );
    const f = await expectFirst('arch/arm', 'image.wrong-arch');
    expect(evidenceText(f)).toMatch(/exec format error/);
  });

  it('container.start-error: a command that is not in the image', async () => {
    await node.cp.createNamespace('start');
    await createPod(pod('nocmd', 'start', { command: ['/app/server', '--port=8080'] }));
    await waitPod('start', 'nocmd', 'failing to start', (p) =>
      (p.status?.containerStatuses ?? []).some(
        (c: any) => c.restartCount > 0 || /no such file|not found/.test(JSON.stringify(c.state ?? {}) + JSON.stringify(c.lastState ?? {})),
      ),
    );
    const f = await expectFirst('start/nocmd', 'container.start-error');
    expect(evidenceText(f)).toMatch(/\/app\/server/);
  });

  it('readiness.failing: an exec readiness probe that fails', async () => {
    await node.cp.createNamespace('ready');
    await createPod(
      pod('unready', 'ready', {
        command: ['sh', '-c', 'exec sleep 3600'],
        readinessProbe: {
          exec: { command: ['sh', '-c', 'echo "db not reachable: dial tcp 10.96.0.20:5432: connection refused"; exit 1'] },
          periodSeconds: 2,
          failureThreshold: 1,
        },
      }),
    );
    await waitPod('ready', 'unready', 'Running, not Ready', (p) => p.status?.phase === 'Running');
    await sleep(6000);
    // Six minutes ahead: past the rule's 5-minute not-Ready threshold, while the last probe
    // failure is still recent (ten minutes ahead it would be too old to explain anything).
    const f = await expectFirst('ready/unready', 'readiness.failing', { at: () => ahead(6 * 60_000) });
    expect(evidenceText(f)).toMatch(/Readiness probe failed/);
  });

  it('terminating.finalizers: diagnosed for real, remove-finalizers lets the pod go', async () => {
    await node.cp.createNamespace('fin');
    await createPod(pod('held', 'fin', { command: ['sleep', '3600'] }, {}, { finalizers: ['shop.example.com/drain-sessions'] }));
    await running('fin', 'held');
    await client().delete(podPath('fin', 'held'));
    await waitPod(
      'fin',
      'held',
      'Terminating with its containers stopped',
      (p) => Boolean(p.metadata.deletionTimestamp) && (p.status?.containerStatuses ?? []).every((c: any) => !c.state?.running),
    );
    const f = await expectFirst('fin/held', 'terminating.finalizers');
    expect(evidenceText(f)).toContain('shop.example.com/drain-sessions');
    const run = await playbook('remove-finalizers', 'fin/held');
    expect(run.result.status).toBe('completed');
    expect(run.result.verification?.outcome).toBe('fixed');
    await gone('fin', 'held');
  });

  it("seed 001 for real: a process in another mount namespace pins the pod's mount; the agent names its pid, stop-mount-holder frees it", async () => {
    await node.cp.createNamespace('seed001');
    await createPod(
      pod(
        'web',
        'seed001',
        { command: ['sh', '-c', 'echo session > /cache/s1; exec sleep 3600'], volumeMounts: [{ name: 'cache', mountPath: '/cache' }] },
        { volumes: [{ name: 'cache', emptyDir: { medium: 'Memory' } }] },
      ),
    );
    const p = await running('seed001', 'web');
    const mount = `${node.dir}/kubelet/pods/${p.metadata.uid}/volumes/kubernetes.io~empty-dir/cache`;
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).toContain(mount);
    // A service-like process that entered its own mount namespace (slave: the kubelet's unmount
    // propagates to it, and fails there because the holder works inside the mount).
    const holder = spawn('unshare', ['-m', '--propagation', 'slave', '--', 'sh', '-c', `cd '${mount}' && exec sleep 100000`], {
      detached: true,
      stdio: 'ignore',
    });
    holder.unref();
    node.recordPid(holder.pid!);
    await sleep(500);
    await client().delete(podPath('seed001', 'web'));
    // The kubelet's own words (1.20): UnmountVolume.TearDown failed ... target is busy.
    await client().waitFor(
      'TearDown failure in the kubelet log',
      async () => node.tail(node.kubeletLog, 4000),
      (t) => /UnmountVolume\.TearDown failed|target is busy|device or resource busy/.test(t),
      { timeoutMs: 90_000, intervalMs: 1000 },
    );
    const f = await expectFirst('seed001/web', 'terminating.mount-busy', { timeoutMs: 90_000 });
    expect(f.title).toContain(`pid ${holder.pid}`);
    // Not a systemd service: the fix offered stops that process (the agent re-checks it first).
    expect(f.playbook).toBe('stop-mount-holder');
    const run = await playbook('stop-mount-holder', 'seed001/web');
    expect(run.result.status).toBe('completed');
    expect(run.result.verification?.outcome, 'the verification diagnosis').toBe('fixed');
    await gone('seed001', 'web', 120_000);
    expect(() => process.kill(holder.pid!, 0), 'the holder is gone').toThrow();
  });

  it('seed 002 for real: a postStart exec hook that never returns after a restart freezes the pod; deleted, it stays Terminating', async () => {
    await node.cp.createNamespace('seed002');
    // Seed 002's shape: a shared process namespace and a postStart exec. The hook returns the
    // first time and hangs from the first restart on (a marker file in an emptyDir).
    const worker = pod(
      'worker',
      'seed002',
      {
        name: 'agent',
        // The first run exits (a crash); from the restart on, the container runs and the hook hangs.
        command: ['sh', '-c', 'if [ -f /m/started ]; then exec sleep 3600; fi; sleep 6; exit 1'],
        lifecycle: { postStart: { exec: { command: ['sh', '-c', 'if [ -f /m/started ]; then exec sleep 100000; fi; touch /m/started'] } } },
        volumeMounts: [{ name: 'm', mountPath: '/m' }],
      },
      { shareProcessNamespace: true, volumes: [{ name: 'm', emptyDir: {} }] },
    );
    // The next container: the kubelet starts it only after the hook of the first returns.
    worker.spec.containers.push({ name: 'main', image: BUSYBOX, imagePullPolicy: 'Never', command: ['sleep', '3600'] });
    await createPod(worker);
    // The hook's process on the node: from here on the kubelet's pod worker waits on it.
    await client().waitFor(
      'the hung postStart hook (sleep 100000) running on the node',
      async () => hookPids(),
      (pids) => pids.length > 0,
      { timeoutMs: 120_000, intervalMs: 1000 },
    );
    await sleep(3000);
    await client().delete(podPath('seed002', 'worker'));
    await sleep(15_000);
    const p = await getPod('seed002', 'worker');
    expect(p.metadata.deletionTimestamp, 'the deletion hangs').toBeTruthy();
    const f = await expectFirst('seed002/worker', 'terminating.exec-hang');
    expect(evidenceText(f)).toMatch(/of this pod runs .* but the pod's status does not list it/);
    expect(f.playbook).toBe('remove-stuck-containers');
    // The fix for real: the agent removes the pod's containers and sandbox over CRI, then the
    // pod is force deleted; the hung hook goes with its container.
    const run = await playbook('remove-stuck-containers', 'seed002/worker');
    expect(run.result.status).toBe('completed');
    expect(run.result.verification?.outcome, 'the verification diagnosis').toBe('fixed');
    expect(JSON.stringify(run.result.steps)).toMatch(/removed \d+ container/);
    await gone('seed002', 'worker');
    await client().waitFor(
      'the hung hook process gone',
      async () => hookPids(),
      (pids) => pids.length === 0,
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const left = await node.ctr('containers', 'list', '-q', `labels."io.kubernetes.pod.uid"==${p.metadata.uid}`);
    expect(left.trim(), "the pod's containers left in containerd").toBe('');
  });

  it('terminating.node-lost: the kubelet stops, the node goes NotReady and a deleted pod stays Terminating; force-delete-pod clears it', async () => {
    await node.cp.createNamespace('lost');
    await createPod(pod('orphan', 'lost', { command: ['sleep', '3600'] }));
    await running('lost', 'orphan');
    await node.stopKubelet();
    try {
      await client().waitFor(
        `node ${NODE_NAME} NotReady`,
        () => client().get(`/api/v1/nodes/${NODE_NAME}`),
        (n) => (n.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status !== 'True'),
        { timeoutMs: 90_000, intervalMs: 1000 },
      );
      await client().delete(podPath('lost', 'orphan'));
      await sleep(2000);
      const p = await getPod('lost', 'orphan');
      expect(p.metadata.deletionTimestamp).toBeTruthy();
      const f = await expectFirst('lost/orphan', 'terminating.node-lost');
      expect(evidenceText(f)).toMatch(/Kubelet stopped posting node status|NodeStatusUnknown|not ready|NotReady/i);
      const run = await playbook('force-delete-pod', 'lost/orphan');
      expect(run.result.status).toBe('completed');
      expect(run.result.verification?.outcome, 'the verification diagnosis').toBe('fixed');
      await gone('lost', 'orphan');
    } finally {
      await node.startKubelet();
      await node.waitNodeReady();
    }
  });
});
