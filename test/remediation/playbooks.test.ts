// Each catalogue playbook against the simulated cluster (and, for node actions, the real node
// agent over a fixture proc tree with a recording HostExec): the plan is proposed from a real
// diagnosis, the state really changes, and the verifying diagnosis no longer reports the rule.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PatchStrategy } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { patchAs } from '../../src/remediation/kube.js';
import { renderPlanText } from '../../src/remediation/plan.js';
import { ago, node } from '../helpers/factories.js';
import {
  type Cluster,
  type FixtureAgent,
  fixtureAgent,
  HANGING_GLUSTER_STAT,
  harness,
  kubeletStandIn,
  lostNodeCluster,
  objectsCluster,
  propose,
  relabel,
  scenarioCluster,
  targetPod,
} from '../helpers/remediation.js';

let cluster: Cluster | undefined;
let agent: FixtureAgent | undefined;
let standIn: { stop(): void } | undefined;
afterEach(async () => {
  standIn?.stop();
  await agent?.close();
  await cluster?.close();
  cluster = agent = standIn = undefined;
});

const NOW = '2026-11-21T10:00:00Z';

describe('remove-finalizers (seed 003)', () => {
  it('removes exactly the approved finalizers; the pod goes; terminating.finalizers is gone', async () => {
    cluster = await scenarioCluster('seed-003-finalizers');
    standIn = kubeletStandIn(cluster.kube);
    const h = harness(cluster);
    const { plan } = await propose(h, 'terminating.finalizers', 'remove-finalizers');
    expect(plan.approvals).toBe(1);
    const p = targetPod(cluster);
    expect(plan.dryRun[0]).toBe(`1. PATCH pod ${p.metadata?.namespace}/${p.metadata?.name}: remove finalizers [${(p.metadata?.finalizers ?? []).join(', ')}]`);
    expect(renderPlanText(plan)).toContain('Re-checked right before the first step');

    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(result.verification).toMatchObject({ outcome: 'fixed', remaining: [], targetGone: true });
    expect(await cluster.kube.getPod(cluster.target.kind === 'pod' ? cluster.target.namespace : '', cluster.target.name)).toBeNull();
    expect(h.events.map((e) => e.type)).toEqual(['run-started', 'step-started', 'step-finished', 'step-started', 'step-finished', 'verified', 'run-finished']);
  });
});

describe('force-delete-pod', () => {
  it('StatefulSet pod on a lost node: two approvers, a split-brain warning, then the pod is gone', async () => {
    cluster = await scenarioCluster('node-lost-statefulset');
    const h = harness(cluster);
    const { plan } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
    expect(plan.approvals).toBe(2);
    expect(plan.warnings.join(' ')).toMatch(/split-brain/);
    const p = targetPod(cluster);
    expect(plan.dryRun[0]).toBe(
      `1. DELETE pod ${p.metadata?.namespace}/${p.metadata?.name} with gracePeriodSeconds=0 (force), precondition uid=${p.metadata?.uid}`,
    );

    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? '')).toBeNull();
    expect(result.verification).toMatchObject({ outcome: 'fixed', targetGone: true });
  });

  it('Deployment pod: one approver, no warning', async () => {
    cluster = await lostNodeCluster();
    const h = harness(cluster);
    const { plan } = await propose(h, 'terminating.node-lost', 'force-delete-pod');
    expect(plan).toMatchObject({ approvals: 1, warnings: [] });
    const result = await h.runner.runPlan(plan.id);
    expect(result.verification?.outcome).toBe('fixed');
    expect(await cluster.kube.getPod('shop', 'web-1')).toBeNull();
  });
});

describe('release-mount-holder (seed 001, node agent)', () => {
  it('restarts the unit that holds the mount; the kubelet then finishes the deletion', async () => {
    cluster = await scenarioCluster('seed-001-ntpd-mount-busy');
    const p = targetPod(cluster);
    const node = p.spec?.nodeName ?? '';
    const ref = `${p.metadata?.namespace}/${p.metadata?.name}`;
    // A restarted ntpd leaves its private mount namespace behind: the holder process is gone.
    agent = await fixtureAgent('001', node, {
      on: ({ procRoot }) => ({ restartUnit: (unit) => (unit === 'ntpd.service' ? rmSync(join(procRoot, '2725007'), { recursive: true }) : undefined) }),
    });
    const holderGone = () => !existsSync(join(agent!.procRoot, '2725007'));
    standIn = kubeletStandIn(cluster.kube, holderGone);
    const h = harness(cluster, { agent });
    const { plan, finding } = await propose(h, 'terminating.mount-busy', 'release-mount-holder');
    expect(finding.params).toMatchObject({ unit: 'ntpd.service', pid: 2725007 });
    expect(plan.dryRun[0]).toBe(`1. node agent on ${node}: systemctl restart ntpd.service (only if it still holds a mount of pod ${ref})`);
    expect(await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? '')).not.toBeNull();

    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(agent.exec.calls).toEqual([{ op: 'restartUnit', arg: 'ntpd.service' }]);
    expect(result.steps[0]?.detail).toMatch(/restarted ntpd\.service \(pid 2725007 held \/var\/lib\/docker\/overlay\/98a56d/);
    expect(result.verification).toMatchObject({ outcome: 'fixed', targetGone: true });
  });
});

describe('stop-mount-holder (seed 001 with the holder a plain process, node agent)', () => {
  /** Seed 001's holder as a process in no systemd service: an ssh session's `unshare -m … sleep`. */
  const asPlainProcess = (procRoot: string) => {
    const dir = join(procRoot, '2725007');
    writeFileSync(join(dir, 'cgroup'), '11:memory:/user.slice\n10:cpu,cpuacct:/user.slice\n1:name=systemd:/user.slice/user-0.slice/session-3.scope\n');
    writeFileSync(join(dir, 'cmdline'), 'sleep\u0000100000\u0000');
    writeFileSync(join(dir, 'comm'), 'sleep\n');
    writeFileSync(join(dir, 'stat'), readFileSync(join(dir, 'stat'), 'utf8').replace('(ntpd)', '(sleep)'));
  };

  it('stops the process that holds the mount (SIGTERM); the kubelet then finishes the deletion; release-mount-holder is refused', async () => {
    cluster = await scenarioCluster('seed-001-ntpd-mount-busy');
    const p = targetPod(cluster);
    const node = p.spec?.nodeName ?? '';
    const ref = `${p.metadata?.namespace}/${p.metadata?.name}`;
    // The process exits on SIGTERM: it leaves the proc tree.
    agent = await fixtureAgent('001', node, {
      on: ({ procRoot }) => ({ signalProcess: (arg) => (arg === 'SIGTERM 2725007' ? rmSync(join(procRoot, '2725007'), { recursive: true }) : undefined) }),
    });
    asPlainProcess(agent.procRoot);
    const holderGone = () => !existsSync(join(agent!.procRoot, '2725007'));
    standIn = kubeletStandIn(cluster.kube, holderGone);
    const h = harness(cluster, { agent });

    // The finding names the process and this playbook; the service playbook refuses it.
    await expect(propose(h, 'terminating.mount-busy', 'release-mount-holder')).rejects.toThrow(
      /release-mount-holder refused: pid 2725007 is part of no systemd service \(session-3\.scope\): use stop-mount-holder/,
    );
    const { plan, finding } = await propose(h, 'terminating.mount-busy', 'stop-mount-holder');
    expect(finding.playbook).toBe('stop-mount-holder');
    expect(finding.params).toMatchObject({ pid: 2725007, holderKind: 'process', unit: 'session-3.scope' });
    expect(plan).toMatchObject({ risk: 'high', approvals: 1 });
    expect(plan.dryRun[0]).toBe(
      `1. node agent on ${node}: kill -TERM 2725007, then -KILL if it is still there after 10s (only if pid 2725007 still holds a mount of pod ${ref} and is no service, pod process or node daemon)`,
    );
    expect(agent.exec.calls).toEqual([]);

    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(agent.exec.calls).toEqual([{ op: 'signalProcess', arg: 'SIGTERM 2725007' }]);
    expect(result.steps[0]?.detail).toMatch(
      /stopped pid 2725007 \(sleep 100000\), which held \/var\/lib\/docker\/overlay\/98a56d.*: it exited [0-9.]+s after SIGTERM/,
    );
    expect(result.verification).toMatchObject({ outcome: 'fixed', targetGone: true });
  });

  it('is not offered for a systemd service (seed 001 as it was: ntpd.service)', async () => {
    cluster = await scenarioCluster('seed-001-ntpd-mount-busy');
    agent = await fixtureAgent('001', targetPod(cluster).spec?.nodeName ?? '');
    const h = harness(cluster, { agent });
    await expect(propose(h, 'terminating.mount-busy', 'stop-mount-holder')).rejects.toThrow(
      /stop-mount-holder refused: pid 2725007 runs in the systemd service ntpd\.service: use release-mount-holder/,
    );
    expect(agent.exec.calls).toEqual([]);
  });
});

describe('unhang-fuse-mount (seed 000, node agent)', () => {
  it('lazy-unmounts the hung glusterfs mount, removes the containers, force deletes the pod', async () => {
    cluster = await scenarioCluster('seed-000-glusterfs-runtime-hung');
    const p = targetPod(cluster);
    const uid = p.metadata?.uid ?? '';
    agent = await fixtureAgent('000', p.spec?.nodeName ?? '', {
      statCommand: HANGING_GLUSTER_STAT,
      editSpec: (spec) => {
        spec.routes['/containers/json'] = [
          { Id: 'c1'.repeat(32), Image: 'index-task:1', State: 'running', Labels: { 'io.kubernetes.pod.uid': uid } },
          { Id: 'c2'.repeat(32), Image: 'pause:3.1', State: 'running', Labels: { 'io.kubernetes.pod.uid': uid } },
          { Id: 'c3'.repeat(32), Image: 'other:1', State: 'running', Labels: { 'io.kubernetes.pod.uid': '00000000-0000-4000-8000-00000000abcd' } },
        ];
      },
      // Once the FUSE mount is released, dockerd answers again.
      on: ({ spec }) => ({ lazyUnmount: () => void (spec.hang = []) }),
    });
    const h = harness(cluster, { agent });
    const { plan, finding } = await propose(h, 'terminating.runtime-hung', 'unhang-fuse-mount');
    expect(finding.params.mount).toMatch(/kubernetes\.io~glusterfs/);
    expect(plan.steps.map((s) => s.action)).toEqual(['lazy-unmount', 'remove-pod-containers', 'force-delete', 'wait']);

    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(agent.exec.calls).toEqual([
      { op: 'lazyUnmount', arg: finding.params.mount },
      { op: 'removeContainer', arg: 'c1'.repeat(32) },
      { op: 'removeContainer', arg: 'c2'.repeat(32) },
    ]);
    expect(await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? '')).toBeNull();
    expect(result.verification?.outcome).toBe('fixed');
  });
});

describe('remove-stuck-containers (seed 002, node agent)', () => {
  it("removes only the pod's containers, then force deletes it", async () => {
    cluster = await scenarioCluster('seed-002-poststart-exec-hang');
    const p = targetPod(cluster);
    agent = await fixtureAgent('002', p.spec?.nodeName ?? '', { editSpec: relabel(p.metadata?.uid ?? '') });
    const h = harness(cluster, { agent });
    const { plan } = await propose(h, 'terminating.exec-hang', 'remove-stuck-containers');
    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(agent.exec.calls.map((c) => `${c.op} ${c.arg.slice(0, 12)}`)).toEqual(['removeContainer a3c9e1f7b5d2', 'removeContainer 8e2f6a1c9d3b']);
    expect(await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? '')).toBeNull();
    expect(result.verification?.outcome).toBe('fixed');
  });
});

describe('recreate-pod (seed 003 subPath)', () => {
  it('deletes the pod gracefully (uid precondition); crash.subpath-missing is gone', async () => {
    cluster = await scenarioCluster('seed-003-subpath-missing');
    standIn = kubeletStandIn(cluster.kube);
    const h = harness(cluster);
    const { plan } = await propose(h, 'crash.subpath-missing', 'recreate-pod');
    const p = targetPod(cluster);
    expect(plan.dryRun[0]).toBe(`1. DELETE pod ${p.metadata?.namespace}/${p.metadata?.name} (its own grace period), precondition uid=${p.metadata?.uid}`);
    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(await cluster.kube.getPod(p.metadata?.namespace ?? '', p.metadata?.name ?? '')).toBeNull();
    expect(result.verification?.outcome).toBe('fixed');
  });
});

describe('repull-image (seed 003 ImageInspectError, node agent)', () => {
  it('removes the image and the containers using it, pulls it again; the container starts', async () => {
    cluster = await scenarioCluster('seed-003-image-inspect-error');
    const p = targetPod(cluster);
    const image = p.spec?.containers[0]?.image ?? '';
    const node = p.spec?.nodeName ?? '';
    agent = await fixtureAgent('001', node, {
      editSpec: (spec) => {
        spec.routes['/containers/json'] = [{ Id: 'ab'.repeat(32), Image: image, State: 'created', Labels: { 'io.kubernetes.pod.uid': p.metadata?.uid ?? '' } }];
      },
      // The kubelet starts the container from the fresh copy once it is pulled.
      on: () => ({
        pullImage: async () => {
          // Written to the store directly: the sim's status PATCH currently refuses pods loaded
          // without API defaults (validateUpdate defaults only the old object).
          const store = cluster!.sim.store;
          const def = store.table.lookup('', 'v1', 'pods')!;
          const live = structuredClone(store.get(def, p.metadata?.namespace, p.metadata?.name ?? '')!);
          const statuses = ((live.status?.containerStatuses ?? []) as Record<string, unknown>[]).map((s) => ({
            ...s,
            ready: true,
            state: { running: { startedAt: NOW } },
          }));
          live.status = { ...live.status, containerStatuses: statuses };
          store.update(def, live);
        },
      }),
    });
    const h = harness(cluster, { agent });
    const { plan } = await propose(h, 'image.corrupt-local', 'repull-image');
    expect(plan.dryRun[1]).toBe(`2. node agent on ${node}: pull image ${image}`);
    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(agent.exec.calls).toEqual([
      { op: 'removeContainer', arg: 'ab'.repeat(32) },
      { op: 'removeImage', arg: image },
      { op: 'pullImage', arg: image },
    ]);
    expect(result.verification?.outcome).toBe('fixed');
  });
});

describe('contain-cascade (seed 000 cascade)', () => {
  it('needs two approvers; cordons the nodes and scales the Deployment to zero', async () => {
    cluster = await scenarioCluster('seed-000-notready-cascade');
    const h = harness(cluster);
    const { plan, finding } = await propose(h, 'node.notready-cascade', 'contain-cascade');
    expect(plan.approvals).toBe(2);
    const nodes = finding.params.nodes as string[];
    const { namespace: ns, kind, name } = finding.params as { namespace: string; kind: string; name: string };
    expect(nodes.length).toBeGreaterThanOrEqual(2);
    expect(kind).toBe('Deployment');
    const before = (await cluster.kube.getOwner(ns, 'Deployment', name))?.spec?.replicas;
    expect(before).toBeGreaterThan(0);
    expect(plan.dryRun).toEqual([
      ...nodes.map((n, i) => `${i === 0 ? '1.' : '  '} PATCH node ${n}: set spec.unschedulable=true (cordon)`),
      `2. PATCH Deployment ${ns}/${name} (scale subresource): set spec.replicas=0`,
    ]);
    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    for (const n of nodes) expect((await cluster.kube.getNode(n))?.spec?.unschedulable).toBe(true);
    expect((await cluster.kube.getOwner(ns, 'Deployment', name))?.spec?.replicas).toBe(0);
    expect(result.steps[1]?.detail).toBe(`Deployment ${ns}/${name} scaled from ${before} to 0 replicas`);
    // Contained, not repaired: the expectations hold while the rule still sees the NotReady nodes.
    expect(result.verification).toMatchObject({ outcome: 'fixed', expect: [{ ok: true }, { ok: true }] });
  });
});

describe('clear-namespace-finalizers (seed 003 namespace)', () => {
  it('needs two approvers; PUT finalize with no finalizers deletes the namespace', async () => {
    cluster = await scenarioCluster('seed-003-namespace-terminating');
    const h = harness(cluster);
    const { plan } = await propose(h, 'namespace.terminating', 'clear-namespace-finalizers');
    expect(plan.approvals).toBe(2);
    const ns = cluster.target.name;
    expect(plan.dryRun[0]).toBe(`1. PUT /api/v1/namespaces/${ns}/finalize with spec.finalizers: []`);
    expect(plan.summary).toMatch(/Still left in it: \[Pod\]/);
    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(await cluster.kube.getNamespace(ns)).toBeNull();
    expect(result.verification).toMatchObject({ outcome: 'fixed', targetGone: true });
  });
});

describe('restart-kubelet (PLEG, node agent)', () => {
  it('restarts the kubelet; the node is Ready again; node.runtime-unresponsive is gone', async () => {
    const pleg = node({
      metadata: { name: 'node-3' },
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'KubeletNotReady',
            message: 'PLEG is not healthy: pleg was last seen active 3m12s ago; threshold is 3m0s',
            lastHeartbeatTime: ago(5),
            lastTransitionTime: ago(300),
          },
        ],
      },
    });
    cluster = await objectsCluster([pleg as KubeObject], 'node/node-3', NOW);
    const kube = cluster.kube;
    agent = await fixtureAgent('001', 'node-3', {
      on: () => ({
        restartUnit: async (unit) => {
          if (unit !== 'kubelet.service') return;
          await kube.core.patchNodeStatus(
            {
              name: 'node-3',
              body: [
                {
                  op: 'replace',
                  path: '/status/conditions/0',
                  value: {
                    type: 'Ready',
                    status: 'True',
                    reason: 'KubeletReady',
                    message: 'kubelet is posting ready status',
                    lastHeartbeatTime: NOW,
                    lastTransitionTime: NOW,
                  },
                },
              ],
            },
            patchAs(PatchStrategy.JsonPatch),
          );
        },
      }),
    });
    const h = harness(cluster, { agent });
    const { plan } = await propose(h, 'node.runtime-unresponsive', 'restart-kubelet');
    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(agent.exec.calls).toEqual([{ op: 'restartUnit', arg: 'kubelet.service' }]);
    expect(result.verification?.outcome).toBe('fixed');
  });
});

describe('rollback-to-revision (a new image rolled out 6 minutes before the crash loop)', () => {
  const ns = 'checkout';
  /** The Deployment controller's part of a rollback: the old ReplicaSet becomes the newest revision, the broken pod goes. */
  function deploymentControllerStandIn(c: Cluster): { stop(): void } {
    let stopped = false;
    const loop = async () => {
      while (!stopped) {
        try {
          const d = await c.kube.getOwner(ns, 'Deployment', 'web');
          const image = (d?.spec as { template?: { spec?: { containers?: { image?: string }[] } } } | undefined)?.template?.spec?.containers?.[0]?.image;
          if (image === 'registry.example.com/shop/web:2.3.1') {
            // The pod goes first: the broken revision's pod is what the runner's wait (rule-gone) and
            // verification (targetGone) look at, so neither can see a renumbered history with the pod still there.
            await c.kube.core.deleteNamespacedPod({ name: 'web-7d9f8c6b5-x2k4q', namespace: ns, gracePeriodSeconds: 0 }).catch(() => undefined);
            await c.kube.apps.patchNamespacedReplicaSet(
              { name: 'web-6b5d8c7f9', namespace: ns, body: { metadata: { annotations: { 'deployment.kubernetes.io/revision': '3' } } } },
              patchAs(PatchStrategy.MergePatch),
            );
            return;
          }
        } catch {
          // the sim is closing
        }
        await new Promise((r) => setTimeout(r, 40));
      }
    };
    void loop();
    return { stop: () => (stopped = true) };
  }

  it('re-checks the history, puts revision 1 back, and the broken revision is gone', async () => {
    cluster = await scenarioCluster('rollout-new-image-crashloop');
    standIn = deploymentControllerStandIn(cluster);
    const h = harness(cluster);
    const { plan } = await propose(h, 'rollout.regression', 'rollback-to-revision');
    expect(plan.approvals).toBe(1);
    expect(plan.params).toMatchObject({ namespace: ns, kind: 'Deployment', name: 'web', revision: 1, fromRevision: 2 });
    expect(plan.dryRun[0]).toBe(
      "1. PATCH Deployment checkout/web: spec.template := revision 1's (kubectl rollout undo --to-revision=1), only if the Deployment did not change since (test metadata.generation)",
    );
    const result = await h.runner.runPlan(plan.id);
    expect(result.status, JSON.stringify(result)).toBe('completed');
    expect(result.verification).toMatchObject({ outcome: 'fixed', remaining: [], targetGone: true, expect: [{ check: 'workload-at-revision', ok: true }] });
    const d = await cluster.kube.getOwner(ns, 'Deployment', 'web');
    const template = ((d?.spec ?? {}) as { template: { metadata?: { labels?: Record<string, string> }; spec: { containers: { image: string }[] } } }).template;
    expect(template.spec.containers[0]?.image).toBe('registry.example.com/shop/web:2.3.1');
    expect(template.metadata?.labels).toEqual({ app: 'web' });
  });

  it('is refused when something newer was rolled out after the plan was made', async () => {
    cluster = await scenarioCluster('rollout-new-image-crashloop');
    const h = harness(cluster);
    const { plan } = await propose(h, 'rollout.regression', 'rollback-to-revision');
    // Someone rolls out 2.4.1 while the approval waits: revision 3.
    const rs = (await cluster.kube.getOwner(ns, 'ReplicaSet', 'web-7d9f8c6b5')) as KubeObject;
    const next = structuredClone(rs);
    next.metadata = {
      ...next.metadata,
      name: 'web-8c4f7b2d6',
      uid: undefined,
      resourceVersion: undefined,
      annotations: { 'deployment.kubernetes.io/revision': '3' },
      labels: { app: 'web', 'pod-template-hash': '8c4f7b2d6' },
    };
    await cluster.kube.apps.createNamespacedReplicaSet({ namespace: ns, body: next as never });
    const result = await h.runner.runPlan(plan.id);
    expect(result.status).toBe('refused');
    expect(h.events.find((e) => e.type === 'refused')).toMatchObject({ check: 'revision-is-newest' });
    expect(result.reason).toContain('its newest revision is 3, not 2');
    const d = await cluster.kube.getOwner(ns, 'Deployment', 'web');
    expect(JSON.stringify(d?.spec)).toContain('web:2.4.0');
  });
});
