// Integration scenarios on a real control plane: each catalogue failure the control plane can
// produce for real is built through the API (the real scheduler's FailedScheduling, a stopped
// kube-scheduler and its stale lease, the real node lifecycle controller and taint manager, real
// finalizer and namespace semantics, real Deployment→ReplicaSet→Pod chains, the ReplicaSet
// controller's FailedCreate) and the kubelet stand-in writes what only a kubelet can (image pull,
// config, probe, mount, sandbox and crash states, evictions under node pressure, deletions it
// never confirms, container logs through the pods/log proxy). `pod-doctor diagnose` must rank the
// expected rule first, and `pod-doctor playbook run` must change the real cluster as the playbook says.
//
// Diagnoses are evaluated ten minutes ahead (`--now`): the rules stay silent while a pod has only
// just become Pending or Terminating, and waiting that long for real is not a test.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeSource, loadKubeConfig } from '../../src/collect/kube-source.js';
import { collectSnapshot } from '../../src/collect/snapshot.js';
import { startSim } from '../../src/sim/server.js';
import { cli, type DiagnosisJson, type FindingJson, runPlaybook } from '../helpers/cli.js';
import { applyRbac, PRODUCT_ACCOUNTS, PRODUCT_SERVICE_ACCOUNTS } from './backends.js';
import { type ControlPlane, findBinaries, type KubeObject, sleep, startControlPlane } from './harness.js';
import { KubeletLogServer } from './kubelet-logs.js';
import { KubeletStandIn, podPath } from './kubelet-standin.js';

const bins = findBinaries();
const missing = 'missing' in bins ? bins.missing : undefined;
if (missing) console.warn(`[envtest] SKIPPED: control-plane binaries absent (${missing})`);

const AHEAD_MS = 10 * 60_000;

/** What the product reads, copied from the real cluster into the simulated API. */
const EXPORTED: Array<[string, string, string]> = [
  ['/api/v1/namespaces', 'v1', 'Namespace'],
  ['/api/v1/nodes', 'v1', 'Node'],
  ['/api/v1/pods', 'v1', 'Pod'],
  ['/api/v1/events', 'v1', 'Event'],
  ['/api/v1/persistentvolumeclaims', 'v1', 'PersistentVolumeClaim'],
  ['/api/v1/services', 'v1', 'Service'],
  ['/api/v1/configmaps', 'v1', 'ConfigMap'],
  ['/api/v1/secrets', 'v1', 'Secret'],
  ['/apis/apps/v1/deployments', 'apps/v1', 'Deployment'],
  ['/apis/apps/v1/replicasets', 'apps/v1', 'ReplicaSet'],
  ['/apis/apps/v1/statefulsets', 'apps/v1', 'StatefulSet'],
  ['/apis/apps/v1/daemonsets', 'apps/v1', 'DaemonSet'],
  ['/apis/batch/v1/jobs', 'batch/v1', 'Job'],
  ['/apis/coordination.k8s.io/v1/leases', 'coordination.k8s.io/v1', 'Lease'],
  // What the collector reads for claims, refusals and components (src/collect/storage.ts, admission.ts).
  ['/api/v1/persistentvolumes', 'v1', 'PersistentVolume'],
  ['/api/v1/endpoints', 'v1', 'Endpoints'],
  ['/api/v1/serviceaccounts', 'v1', 'ServiceAccount'],
  ['/apis/storage.k8s.io/v1/storageclasses', 'storage.k8s.io/v1', 'StorageClass'],
  ['/apis/storage.k8s.io/v1/volumeattachments', 'storage.k8s.io/v1', 'VolumeAttachment'],
  ['/apis/storage.k8s.io/v1/csinodes', 'storage.k8s.io/v1', 'CSINode'],
  ['/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', 'admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration'],
  ['/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', 'admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration'],
];
const log = (label: string, value: unknown) => console.log(`[envtest] ${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);

const ahead = () => new Date(Date.now() + AHEAD_MS).toISOString();

describe.skipIf(missing !== undefined)('scenarios on a real control plane: diagnose ranks the expected rule first, playbooks change the cluster', () => {
  let cp: ControlPlane;
  let kubelet: KubeletStandIn;
  /** Same nodes' kubelet, today's wording (v1.33) instead of 1.20's. */
  let kubeletNow: KubeletStandIn;
  let logs: KubeletLogServer;
  /** Kubeconfigs of the deployment's identities under its RBAC (admin before deploy/ has RBAC manifests). */
  let diagnoseKubeconfig: string;
  let remediateKubeconfig: string;
  const timings: Record<string, number> = {};

  const client = () => cp.client;

  /** As the bot diagnoses: its read-only identity, no Secret checks (deploy/base/serviceaccounts.yaml). */
  async function diagnose(target: string, kubeconfig: string, at: string): Promise<DiagnosisJson> {
    const res = await cli(['diagnose', target, '--kubeconfig', kubeconfig, '--json', '--now', at, '--cluster', 'envtest'], {
      POD_DOCTOR_CHECK_SECRETS: 'false',
    });
    if (res.code !== 0) throw new Error(`pod-doctor diagnose ${target} exited ${res.code}: ${res.stderr}`);
    return JSON.parse(res.stdout) as DiagnosisJson;
  }

  /**
   * The same diagnosis through the simulated API serving a copy of the real cluster's objects
   * (and the kubelet's logs): what `diagnose --from` a dump, or the demo, would say.
   */
  async function diagnoseThroughSim(target: string, at: string): Promise<DiagnosisJson> {
    const objects: KubeObject[] = [];
    for (const [path, apiVersion, kind] of EXPORTED) {
      const list = await client().list(path);
      for (const item of list.items) {
        const { managedFields: _m, ...metadata } = item.metadata ?? {};
        objects.push({ ...item, apiVersion, kind, metadata });
      }
    }
    const sim = await startSim({ objects });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pod-doctor-scenario-'));
    try {
      for (const l of logs.entries()) sim.logs.add(l);
      const kubeconfig = path.join(dir, 'sim.kubeconfig');
      await sim.writeKubeconfig(kubeconfig);
      return await diagnose(target, kubeconfig, at);
    } finally {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * Diagnoses `target` and checks `rule` comes first; returns that finding. The simulated API
   * fed the same objects must come to the same findings, word for word.
   */
  async function expectFirst(target: string, rule: string, aheadMs = AHEAD_MS): Promise<FindingJson> {
    const d = await diagnoseChecked(target, aheadMs);
    const ranked = d.findings.map((f) => `${f.rule} (${f.severity})`);
    expect(d.findings[0]?.rule, `findings for ${target}: ${ranked.join(', ') || 'none'}; gaps: ${JSON.stringify(d.skipped)}`).toBe(rule);
    return d.findings[0]!;
  }

  /** Diagnoses `target` as the bot does, with no RBAC gaps and the same words through the simulated API. */
  async function diagnoseChecked(target: string, aheadMs = AHEAD_MS): Promise<DiagnosisJson> {
    const words = (x: DiagnosisJson) => x.findings.map((f) => ({ rule: f.rule, severity: f.severity, title: f.title, cause: f.cause, evidence: f.evidence }));
    // Controllers keep writing (a ReplicaSet retrying against a quota adds an event every few
    // seconds), so the objects copied to the simulated API may be newer than the ones the first
    // diagnosis read: a difference is only a fidelity bug if it survives a second look.
    for (let attempt = 1; ; attempt++) {
      const at = new Date(Date.now() + aheadMs).toISOString();
      const d = await diagnose(target, diagnoseKubeconfig, at);
      log(
        `diagnose ${target}`,
        d.findings.map((f) => `${f.rule} (${f.severity})`),
      );
      // A permission the deployed RBAC lacks is not an error but a gap in the facts: none allowed.
      expect(
        d.skipped.filter((g) => g.kind === 'forbidden' || g.kind === 'unauthorized'),
        'facts the diagnose identity may not read',
      ).toEqual([]);
      const viaSim = await diagnoseThroughSim(target, at);
      if (attempt < 3 && JSON.stringify(words(viaSim)) !== JSON.stringify(words(d))) continue;
      expect(words(viaSim), `the simulated API serving the same objects diagnoses ${target} differently`).toEqual(words(d));
      return d;
    }
  }

  function playbook(id: string, target: string) {
    // As the worker runs approved plans: its identity, Secret checks on (the opt-in RBAC is installed).
    return runPlaybook(id, target, ['--kubeconfig', remediateKubeconfig, '--now', ahead(), '--cluster', 'envtest'], { POD_DOCTOR_CHECK_SECRETS: 'true' }, log);
  }

  function pod(
    name: string,
    namespace: string,
    o: { pool?: string; spec?: Record<string, unknown>; metadata?: Record<string, unknown>; image?: string; container?: Record<string, unknown> } = {},
  ): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace, ...o.metadata },
      spec: {
        containers: [{ name: 'app', image: o.image ?? 'registry.example.com/shop/app:1.0', ...o.container }],
        terminationGracePeriodSeconds: 30,
        ...(o.pool ? { nodeSelector: { 'pod-doctor.test/pool': o.pool } } : {}),
        ...o.spec,
      },
    };
  }

  async function createPod(p: KubeObject): Promise<KubeObject> {
    return client().create(`/api/v1/namespaces/${p.metadata.namespace}/pods`, p);
  }

  /** The scheduler's current word on a pod (PodScheduled=False message), once it matches. */
  async function unschedulable(namespace: string, name: string, expected: RegExp): Promise<string> {
    const p = await client().waitFor(
      `pod ${namespace}/${name} unschedulable with ${expected}`,
      () => client().get(podPath(namespace, name)),
      (x) => expected.test((x.status?.conditions ?? []).find((c: any) => c.type === 'PodScheduled' && c.status === 'False')?.message ?? ''),
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    const message = p.status.conditions.find((c: any) => c.type === 'PodScheduled').message as string;
    log(`FailedScheduling ${namespace}/${name}`, message);
    return message;
  }

  async function bound(namespace: string, name: string): Promise<KubeObject> {
    return client().waitFor(
      `pod ${namespace}/${name} bound`,
      () => client().get(podPath(namespace, name)),
      (p) => Boolean(p.spec?.nodeName),
      { timeoutMs: 60_000 },
    );
  }

  beforeAll(async () => {
    const t0 = Date.now();
    cp = await startControlPlane({
      serviceAccounts: PRODUCT_SERVICE_ACCOUNTS,
      // As kubeadm runs it: leader election on a Lease (kube-system/kube-scheduler), renewed every
      // 2 s, which pending.scheduler-down reads. The rule calls a lease stale after 4 lease
      // durations; diagnoses here look AHEAD_MS (10 min) into the future, so with the default 15 s
      // lease a renewing scheduler would look dead in every pending scenario. 180 s (stale after
      // 12 min) keeps a live one alive from there; the scheduler-down scenario looks further ahead.
      extraSchedulerArgs: ['--leader-elect=true', '--leader-elect-resource-lock=leases', '--leader-elect-lease-duration=180s'],
    });
    timings['control plane start'] = cp.startMs;
    log('control plane started in ms', cp.startMs);
    const rbac = await applyRbac(cp);
    diagnoseKubeconfig = rbac.length ? cp.kubeconfigFor(PRODUCT_ACCOUNTS.diagnose) : cp.kubeconfigPath;
    remediateKubeconfig = rbac.length ? cp.kubeconfigFor(PRODUCT_ACCOUNTS.remediate) : cp.kubeconfigPath;
    log(
      'product identities',
      rbac.length
        ? `diagnose as ${PRODUCT_ACCOUNTS.diagnose}, playbooks as ${PRODUCT_ACCOUNTS.remediate}, under ${rbac.join(', ')}`
        : 'admin (no RBAC manifests in deploy/)',
    );
    logs = await KubeletLogServer.start(cp);
    kubelet = KubeletStandIn.for(cp, { style: 'v1.20', kubeletPort: logs.port });
    kubeletNow = KubeletStandIn.for(cp, { style: 'current', kubeletPort: logs.port });
    await Promise.all([
      kubelet.registerNode({ name: 'node-a', labels: { 'pod-doctor.test/pool': 'a' } }),
      kubelet.registerNode({ name: 'node-b', labels: { 'pod-doctor.test/pool': 'b' } }),
      kubeletNow.registerNode({ name: 'node-now', labels: { 'pod-doctor.test/pool': 'now' } }),
    ]);
    timings['setup (control plane + 3 nodes)'] = Date.now() - t0;
  });

  afterAll(async () => {
    if (kubelet?.errors.length || kubeletNow?.errors.length) log('kubelet stand-in background errors', [...kubelet.errors, ...kubeletNow.errors]);
    log('timings (ms)', timings);
    await cp?.stop();
  });

  // ------------------------------------------------------------------ Pending: the real scheduler

  describe('Pending pods: FailedScheduling from the real kube-scheduler', () => {
    it('pending.unschedulable-selector: a nodeSelector no node matches', async () => {
      await cp.createNamespace('sel');
      await createPod(pod('web', 'sel', { pool: 'gpu-large' }));
      await unschedulable('sel', 'web', /didn't match Pod's node affinity/);
      const f = await expectFirst('sel/web', 'pending.unschedulable-selector');
      expect(f.title).toContain('pod-doctor.test/pool=gpu-large');
    });

    it('pending.insufficient-resources: the only matching node has too little allocatable cpu', async () => {
      await kubelet.registerNode({ name: 'node-small', labels: { 'pod-doctor.test/pool': 'small' }, capacity: { cpu: '2' }, reserved: { cpu: '500m' } });
      await cp.createNamespace('cpu');
      await createPod(pod('batch', 'cpu', { pool: 'small', container: { resources: { requests: { cpu: '2', memory: '1Gi' } } } }));
      await unschedulable('cpu', 'batch', /Insufficient cpu/);
      const f = await expectFirst('cpu/batch', 'pending.insufficient-resources');
      expect(f.cause).toContain('node-small');
      expect(f.cause).toMatch(/1500m|1\.5/);
    });

    it('pending.too-many-pods: the node runs its maximum number of pods (allocatable pods 1)', async () => {
      await kubelet.registerNode({ name: 'node-tiny', labels: { 'pod-doctor.test/pool': 'tiny' }, capacity: { pods: '1' } });
      await cp.createNamespace('full');
      await createPod(pod('first', 'full', { pool: 'tiny' }));
      await bound('full', 'first');
      await kubelet.podRunning('full', 'first');
      await createPod(pod('second', 'full', { pool: 'tiny' }));
      await unschedulable('full', 'second', /Too many pods/);
      const f = await expectFirst('full/second', 'pending.too-many-pods');
      expect(f.cause).toContain('node-tiny');
    });

    it('pending.hostport-conflict: host port 9100 is held by another pod on the only matching node', async () => {
      await cp.createNamespace('ports');
      const exporter = (name: string) =>
        pod(name, 'ports', { pool: 'a', image: 'quay.io/prometheus/node-exporter:v1.0.1', container: { ports: [{ containerPort: 9100, hostPort: 9100 }] } });
      await createPod(exporter('exporter-old'));
      await bound('ports', 'exporter-old');
      await kubelet.podRunning('ports', 'exporter-old');
      await createPod(exporter('exporter-new'));
      await unschedulable('ports', 'exporter-new', /didn't have free ports/);
      const f = await expectFirst('ports/exporter-new', 'pending.hostport-conflict');
      expect(f.cause).toContain('ports/exporter-old');
    });

    it('volume.provisioner-missing: an immediate claim whose storage class names a provisioner nobody runs stays unbound', async () => {
      await cp.createNamespace('claims');
      await client().create('/apis/storage.k8s.io/v1/storageclasses', {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'nowhere' },
        provisioner: 'example.com/nowhere',
        volumeBindingMode: 'Immediate',
      });
      await client().create('/api/v1/namespaces/claims/persistentvolumeclaims', {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data', namespace: 'claims' },
        spec: { storageClassName: 'nowhere', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      });
      await createPod(pod('db', 'claims', { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] } }));
      await unschedulable('claims', 'db', /unbound immediate PersistentVolumeClaims/);
      const pvc = await client().waitFor(
        'the PV controller hands the claim to the external provisioner',
        () => client().get('/api/v1/namespaces/claims/persistentvolumeclaims/data'),
        (c) => Boolean(c.metadata?.annotations?.['volume.beta.kubernetes.io/storage-provisioner']),
      );
      log('pvc data', { phase: pvc.status?.phase, annotations: pvc.metadata?.annotations });
      // The real PV controller's ExternalProvisioning event, and no event from any provisioner.
      const f = await expectFirst('claims/db', 'volume.provisioner-missing');
      expect(f.cause).toContain('data');
      expect(f.cause).toContain('example.com/nowhere');
      expect(f.merged).toContain('pending.pvc');
    });

    it('pending.taint: the only matching node has a taint the pod does not tolerate', async () => {
      await kubelet.registerNode({
        name: 'node-gpu',
        labels: { 'pod-doctor.test/pool': 'gpu' },
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      });
      await cp.createNamespace('taint');
      await createPod(pod('trainer', 'taint', { pool: 'gpu' }));
      await unschedulable('taint', 'trainer', /taint \{dedicated: gpu\}/);
      const f = await expectFirst('taint/trainer', 'pending.taint');
      expect(f.title).toContain('dedicated');
      expect(f.cause).toContain('node-gpu');
    });

    it('pending.scheduler-down: kube-scheduler stopped, a new pod gets no FailedScheduling and the scheduler lease goes stale; a restarted scheduler places it', async () => {
      const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler';
      const held = await client().waitFor(
        'kube-scheduler holds its lease',
        () => client().get(leasePath),
        (l) => Boolean(l.spec?.holderIdentity && l.spec?.renewTime),
      );
      log('kube-scheduler lease before the stop', held.spec);
      await cp.stopComponent('kube-scheduler');
      await cp.createNamespace('nosched');
      await createPod(pod('web', 'nosched', { pool: 'a' }));
      const frozen = (await client().get(leasePath)).spec.renewTime as string;
      // Two renewal periods of a live leader (2 s each): nothing renews, nothing tries the pod.
      await sleep(4500);
      expect((await client().get(leasePath)).spec.renewTime).toBe(frozen);
      const waiting = await client().get(podPath('nosched', 'web'));
      expect(waiting.spec.nodeName).toBeUndefined();
      expect(waiting.status.conditions ?? []).toEqual([]);
      expect((await client().list('/api/v1/namespaces/nosched/events')).items).toEqual([]);

      // 20 minutes on: past the 12 minutes (4 × 180 s lease) after which the rule calls the lease stale.
      const f = await expectFirst('nosched/web', 'pending.scheduler-down', 20 * 60_000);
      log('pending.scheduler-down cause', f.cause);
      expect(f.severity).toBe('critical');
      expect(f.title).toBe('No kube-scheduler is running: pods stay Pending without a node');
      expect(f.cause).toContain('its leader lease kube-system/kube-scheduler was last renewed');

      // Back up: the dead holder's lease would keep the new instance waiting for its 180 s, so the
      // stale lease goes first (what an operator in a hurry does too).
      await client().delete(leasePath);
      await cp.startComponent('kube-scheduler');
      const placed = await bound('nosched', 'web');
      expect(placed.spec.nodeName).toBe('node-a');
    });
  });

  // ------------------------------------------------------------------ finalizers and namespaces

  describe('deletion blocked by finalizers', () => {
    it('terminating.finalizers: diagnosed, then playbook remove-finalizers removes them and the pod goes', async () => {
      await cp.createNamespace('fin');
      await createPod(pod('held', 'fin', { pool: 'a', metadata: { finalizers: ['example.com/backup-hook'] } }));
      await kubelet.podRunning('fin', 'held');
      await client().delete(podPath('fin', 'held'));
      // The stand-in confirms the kill (grace 0) like a kubelet; the finalizer keeps the object.
      const held = await client().waitFor(
        'kubelet confirmed the deletion',
        () => client().get(podPath('fin', 'held')),
        (p) => p.metadata?.deletionGracePeriodSeconds === 0,
      );
      expect(held.metadata.finalizers).toEqual(['example.com/backup-hook']);
      const f = await expectFirst('fin/held', 'terminating.finalizers');
      expect(f.playbook).toBe('remove-finalizers');
      expect(f.cause).toContain('example.com/backup-hook');

      const run = await playbook('remove-finalizers', 'fin/held');
      expect(run.result.steps.map((s: any) => `${s.action}:${s.state}`)).toEqual(['remove-finalizers:done', 'wait:done']);
      expect(run.result.verification.outcome).toBe('fixed');
      expect(run.code).toBe(0);
      expect(await client().find(podPath('fin', 'held'))).toBeNull();
    });

    it('namespace.terminating: content with a finalizer keeps it Terminating; clear-namespace-finalizers deletes it', async () => {
      await cp.createNamespace('doomed');
      await createPod(pod('keeper', 'doomed', { pool: 'a', metadata: { finalizers: ['example.com/archive'] } }));
      await createPod(pod('plain', 'doomed', { pool: 'a' }));
      await Promise.all([kubelet.podRunning('doomed', 'keeper'), kubelet.podRunning('doomed', 'plain')]);
      await client().delete('/api/v1/namespaces/doomed');
      const ns = await client().waitFor(
        'namespace controller reports the finalizer left',
        () => client().get('/api/v1/namespaces/doomed'),
        (n) => (n.status?.conditions ?? []).some((c: any) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True'),
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      log(
        'namespace doomed conditions',
        ns.status.conditions.filter((c: any) => c.status === 'True').map((c: any) => `${c.type}: ${c.message}`),
      );
      const f = await expectFirst('ns/doomed', 'namespace.terminating');
      expect(f.cause).toContain('example.com/archive');

      const run = await playbook('clear-namespace-finalizers', 'ns/doomed');
      expect(run.result.steps.map((s: any) => `${s.action}:${s.state}`)).toEqual(['clear-namespace-finalizers:done', 'wait:done']);
      expect(run.result.verification.outcome).toBe('fixed');
      expect(await client().find('/api/v1/namespaces/doomed')).toBeNull();
      // What the playbook warns about: the object that held the namespace is orphaned in storage.
      const orphan = await client().find(podPath('doomed', 'keeper'));
      log(
        'pod left behind by the cleared namespace',
        orphan ? { finalizers: orphan.metadata.finalizers, deleting: Boolean(orphan.metadata.deletionTimestamp) } : 'gone',
      );
      expect(orphan?.metadata?.finalizers).toEqual(['example.com/archive']);
    });
  });

  // ------------------------------------------------------------------ admission and owner chains

  it('admission.rejected: a ResourceQuota makes the ReplicaSet controller fail to create the second pod; owners are Deployment→ReplicaSet', async () => {
    await cp.createNamespace('quota');
    await client().create('/api/v1/namespaces/quota/resourcequotas', {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'pods-quota', namespace: 'quota' },
      spec: { hard: { pods: '1' } },
    });
    // Admission refuses everything ("status unknown for quota") until the quota controller has counted.
    await client().waitFor(
      'quota status computed',
      () => client().get('/api/v1/namespaces/quota/resourcequotas/pods-quota'),
      (q) => q.status?.hard?.pods === '1',
    );
    await client().create('/apis/apps/v1/namespaces/quota/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'shop', namespace: 'quota' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'shop' } },
        template: {
          metadata: { labels: { app: 'shop' } },
          spec: { nodeSelector: { 'pod-doctor.test/pool': 'a' }, containers: [{ name: 'shop', image: 'registry.example.com/shop/web:2.1' }] },
        },
      },
    });
    const pods = await client().waitFor(
      'one pod of shop',
      () => client().list('/api/v1/namespaces/quota/pods', { labelSelector: 'app=shop' }),
      (l) => l.items.length === 1,
    );
    const name = pods.items[0]!.metadata.name as string;
    await kubelet.podRunning('quota', name);
    const rs = pods.items[0]!.metadata.ownerReferences[0].name as string;
    const failed = await client().waitFor(
      'FailedCreate on the ReplicaSet',
      () => client().list('/api/v1/namespaces/quota/events', { fieldSelector: `involvedObject.kind=ReplicaSet,involvedObject.name=${rs}` }),
      (l) => l.items.some((e) => e.reason === 'FailedCreate'),
    );
    log('FailedCreate', failed.items.find((e) => e.reason === 'FailedCreate')!.message);
    const f = await expectFirst(`quota/${name}`, 'admission.rejected');
    expect(f.cause).toContain('pods=1');

    // The owner chain the collector builds through the real API: ReplicaSet, then its Deployment.
    const source = new KubeSource(loadKubeConfig({ kubeconfig: cp.kubeconfigPath }));
    const snap = await collectSnapshot(source, { kind: 'pod', namespace: 'quota', name }, { cluster: 'envtest', needs: new Set(['pod', 'events', 'owners']) });
    expect(snap.owners?.map((o) => `${o.kind}/${o.name}`)).toEqual([`ReplicaSet/${rs}`, 'Deployment/shop']);
    expect(snap.owners?.[0]?.events.some((e) => e.reason === 'FailedCreate')).toBe(true);
  });

  // ------------------------------------------------------------------ what only a kubelet writes (stand-in)

  describe('image pulls and crashes written by the kubelet stand-in through the status subresource', () => {
    const IMAGE_CASES: Array<{ rule: string; image: string; error: string; style?: 'current' }> = [
      {
        rule: 'image.not-found',
        image: 'registry.example.com/shop/api:v9',
        error:
          'rpc error: code = Unknown desc = Error response from daemon: manifest for registry.example.com/shop/api:v9 not found: manifest unknown: manifest unknown',
      },
      { rule: 'image.not-found', image: 'ghcr.io/acme/api:v9', error: '', style: 'current' },
      {
        rule: 'image.auth',
        image: 'registry.example.com/private/api:1.0',
        error:
          'rpc error: code = Unknown desc = Error response from daemon: Get https://registry.example.com/v2/private/api/manifests/1.0: unauthorized: authentication required',
      },
      {
        rule: 'image.insecure-registry',
        image: '10.0.0.50:5000/shop/api:1.0',
        error: 'rpc error: code = Unknown desc = Error response from daemon: Get https://10.0.0.50:5000/v2/: http: server gave HTTP response to HTTPS client',
      },
      {
        rule: 'image.untrusted-ca',
        image: 'registry.corp.example/shop/api:1.0',
        error:
          'rpc error: code = Unknown desc = Error response from daemon: Get https://registry.corp.example/v2/: x509: certificate signed by unknown authority',
      },
      {
        rule: 'image.registry-unreachable',
        image: 'registry.gone.example/shop/api:1.0',
        error:
          'rpc error: code = Unknown desc = Error response from daemon: Get https://registry.gone.example/v2/: dial tcp: lookup registry.gone.example on 10.0.0.10:53: no such host',
      },
      {
        rule: 'image.corrupt-blob',
        image: 'registry.example.com/shop/broken:1.0',
        error: 'rpc error: code = Unknown desc = error pulling image configuration: unknown blob',
      },
      // The kubelet's own pull limiter (registryPullQPS 5 / registryBurst 10), seed 003: the same words in every era.
      { rule: 'image.pull-throttled', image: '172.27.129.211:35000/filebeat-with-module:6.0.0', error: 'pull QPS exceeded' },
      // Docker Hub's rate limit through containerd; a current kubelet drops the `rpc error: code = Unknown` prefix.
      {
        rule: 'image.pull-throttled',
        image: 'busybox:1.36',
        error:
          'failed to pull and unpack image "docker.io/library/busybox:1.36": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/busybox/manifests/sha256:50aa4698fa6262977cff89181b2664b99d8a56dbca847bf62f2ef04854597cf8: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
        style: 'current',
      },
      // dockershim cancels a pull without progress for --image-pull-progress-deadline (1m).
      { rule: 'image.pull-timeout', image: 'registry.example.com/ml/trainer:2.3', error: 'rpc error: code = Unknown desc = context canceled' },
      // containerd: the kubelet's CRI call is cancelled mid-download (a non-Unknown code keeps its prefix).
      {
        rule: 'image.pull-timeout',
        image: 'registry.example.com/ml/trainer:2.4',
        error:
          'rpc error: code = Canceled desc = failed to pull and unpack image "registry.example.com/ml/trainer:2.4": failed to copy: httpReadSeeker: failed open: failed to do request: Get "https://registry.example.com/v2/ml/trainer/blobs/sha256:9b1e2f4c0d7a4b6f8e3c5a1d2b9f0e7c6a5d4b3c2e1f0a9b8c7d6e5f4a3b2c1d": context canceled',
        style: 'current',
      },
    ];

    it.each(IMAGE_CASES.map((c, i) => ({ ...c, style: c.style ?? 'v1.20', i })))(
      '$rule ($style wording): ImagePullBackOff with the kubelet events',
      async ({ rule, image, error, style, i }) => {
        const ns = `img-${i}`;
        await cp.createNamespace(ns);
        const k = style === 'current' ? kubeletNow : kubelet;
        await createPod(pod('api', ns, { pool: style === 'current' ? 'now' : 'a', image }));
        await k.podImagePullBackOff(ns, 'api', error ? { error } : {});
        const f = await expectFirst(`${ns}/api`, rule);
        // The finding names the image, or for registry-wide causes the registry.
        expect(f.title + f.cause).toContain(rule === 'image.insecure-registry' ? image.split('/')[0]! : image);
      },
    );

    it('crash.oomkilled: CrashLoopBackOff after OOMKilled (exit 137) with a memory limit', async () => {
      await cp.createNamespace('oom');
      await createPod(pod('worker', 'oom', { pool: 'a', container: { resources: { limits: { memory: '128Mi' }, requests: { memory: '128Mi' } } } }));
      await kubelet.podCrashLoopOOMKilled('oom', 'worker', { restartCount: 6 });
      const f = await expectFirst('oom/worker', 'crash.oomkilled');
      expect(f.cause).toContain('128Mi');
    });

    it('crash.app-exit: exit code 1, the last lines of the previous run read through the pods/log proxy', async () => {
      await cp.createNamespace('exit');
      await createPod(pod('api', 'exit', { pool: 'a' }));
      logs.setLog('exit', 'api', 'app', ['listening on :8080', 'connecting to postgres at db:5432', 'Error: connect ECONNREFUSED 10.0.0.7:5432'], {
        previous: true,
      });
      await kubelet.podCrashLoopOOMKilled('exit', 'api', { restartCount: 4, exitCode: 1, reason: 'Error' });
      const f = await expectFirst('exit/api', 'crash.app-exit');
      expect(f.cause).toContain('ECONNREFUSED');
      expect(f.evidence.some((e) => e.source.startsWith('logs app (previous)'))).toBe(true);
      expect(logs.requests.some((r) => r.startsWith('/containerLogs/exit/api/app?') && r.includes('previous=true'))).toBe(true);
    });
  });

  describe('other kubelet states written by the stand-in: configuration, probes, mounts, logs, sandboxes, evictions, stuck kills', () => {
    /** Both wording eras: the v1.20 kubelet on docker (node-a) and a current one on containerd (node-now). */
    const ERAS = [
      { style: 'v1.20' as const, pool: 'a', node: 'node-a' },
      { style: 'current' as const, pool: 'now', node: 'node-now' },
    ];
    const standIn = (style: 'v1.20' | 'current') => (style === 'current' ? kubeletNow : kubelet);

    it('config.missing-reference: CreateContainerConfigError `configmap "app-config" not found`, confirmed by a lookup through the real API; gone once the ConfigMap exists', async () => {
      await cp.createNamespace('cfg');
      await createPod(
        pod('api', 'cfg', {
          pool: 'a',
          container: { env: [{ name: 'DB_HOST', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'DB_HOST' } } }] },
        }),
      );
      await kubelet.podCreateContainerConfigError('cfg', 'api', { error: 'configmap "app-config" not found' });
      const f = await expectFirst('cfg/api', 'config.missing-reference');
      expect(f.title).toBe('Missing ConfigMap app-config for container app');
      expect(f.cause).toContain('ConfigMap cfg/app-config (used by env DB_HOST of container app)');
      // The diagnose identity looked the ConfigMap up itself (metadata only) and found nothing.
      expect(f.evidence).toContainEqual({ source: 'ConfigMap cfg/app-config (configMaps lookup)', text: 'does not exist' });

      // Created now: the kubelet's message is stale until its next sync, and the lookup says so.
      await client().create('/api/v1/namespaces/cfg/configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'app-config', namespace: 'cfg' },
        data: { DB_HOST: 'db.cfg.svc' },
      });
      const after = await diagnoseChecked('cfg/api');
      expect(after.findings.map((x) => x.rule)).not.toContain('config.missing-reference');
    });

    it('image.corrupt-local: ImageInspectError / InspectFailed "readlink ... invalid argument" from dockerd (seed 003)', async () => {
      await cp.createNamespace('inspect');
      const image = 'docker02:35000/env/develop/prophet/app/pms.tar:develop-175';
      await createPod(pod('pms', 'inspect', { pool: 'a', image }));
      await kubelet.podImageInspectError('inspect', 'pms', {
        error: 'rpc error: code = Unknown desc = Error response from daemon: readlink /mnt/disk0/docker/data/overlay2: invalid argument',
      });
      const f = await expectFirst('inspect/pms', 'image.corrupt-local');
      expect(f.severity).toBe('error');
      expect(f.title).toBe(`Local copy of image ${image} on node node-a is corrupt`);
      expect(f.playbook).toBe('repull-image');
      expect(f.evidence.some((e) => e.text.includes('readlink /mnt/disk0/docker/data/overlay2: invalid argument'))).toBe(true);
    });

    it.each(ERAS)('crash.probe-failing ($style): Unhealthy "Liveness probe failed" then Killing, restarts and back-off', async ({ style, pool }) => {
      const ns = `probe-${pool}`;
      await cp.createNamespace(ns);
      await createPod(
        pod('web', ns, {
          pool,
          container: {
            ports: [{ containerPort: 8080 }],
            livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 10, failureThreshold: 3 },
          },
        }),
      );
      await standIn(style).podLivenessProbeFailing(ns, 'web', { output: 'HTTP probe failed with statuscode: 404', restartCount: 4 });
      const f = await expectFirst(`${ns}/web`, 'crash.probe-failing');
      expect(f.title).toBe('Liveness probe keeps killing container app (HTTP GET http://:8080/healthz)');
      expect(f.cause).toContain('"HTTP probe failed with statuscode: 404"');
      expect(f.cause).toContain('restarted "app" 4 times');
    });

    it.each(ERAS)(
      'crash.subpath-missing ($style): the subPath source under volume-subpaths/ is gone, every start fails mounting it; recreate-pod replaces the pod',
      async ({ style, pool }) => {
        const ns = `subpath-${pool}`;
        await cp.createNamespace(ns);
        await client().create(`/api/v1/namespaces/${ns}/configmaps`, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'metricbeat-config', namespace: ns },
          data: { 'metricbeat.yml': 'metricbeat.modules: []\n' },
        });
        await client().create(`/apis/apps/v1/namespaces/${ns}/deployments`, {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'metricbeat', namespace: ns },
          spec: {
            replicas: 1,
            selector: { matchLabels: { app: 'metricbeat' } },
            template: {
              metadata: { labels: { app: 'metricbeat' } },
              spec: {
                nodeSelector: { 'pod-doctor.test/pool': pool },
                containers: [
                  {
                    name: 'metricbeat',
                    image: 'docker.elastic.co/beats/metricbeat:7.17.0',
                    volumeMounts: [{ name: 'config', mountPath: '/etc/metricbeat.yml', subPath: 'metricbeat.yml' }],
                  },
                ],
                volumes: [{ name: 'config', configMap: { name: 'metricbeat-config' } }],
              },
            },
          },
        });
        const placed = await client().waitFor(
          'the metricbeat pod bound',
          () => client().list(`/api/v1/namespaces/${ns}/pods`, { labelSelector: 'app=metricbeat' }),
          (l) => l.items.length === 1 && Boolean(l.items[0]!.spec?.nodeName),
        );
        const name = placed.items[0]!.metadata.name as string;
        const p = await standIn(style).podSubPathMissing(ns, name, { restartCount: 3 });
        log(`subPath failure (${style})`, p.status.containerStatuses[0].lastState.terminated);
        const f = await expectFirst(`${ns}/${name}`, 'crash.subpath-missing');
        expect(f.title).toBe('Container metricbeat cannot start: subPath of volume config is gone');
        expect(f.cause).toContain('volume-subpaths/config/metricbeat/0');
        expect(f.playbook).toBe('recreate-pod');

        // The kubelet (stand-in) confirms the graceful delete; the ReplicaSet controller creates a fresh pod.
        const run = await playbook('recreate-pod', `${ns}/${name}`);
        expect(run.result.steps.map((x: any) => `${x.action}:${x.state}`)).toEqual(['delete:done', 'wait:done']);
        expect(run.result.verification.outcome).toBe('fixed');
        expect(await client().find(podPath(ns, name))).toBeNull();
        const replaced = await client().waitFor(
          'a replacement pod from the ReplicaSet',
          () => client().list(`/api/v1/namespaces/${ns}/pods`, { labelSelector: 'app=metricbeat' }),
          (l) => l.items.length === 1 && l.items[0]!.metadata.name !== name,
        );
        log(`recreate-pod (${style})`, `${name} → ${replaced.items[0]!.metadata.name}`);
      },
    );

    it.each(ERAS)(
      'crash.ipv6-disabled ($style): nginx exits on `listen [::]:8000`, read from the previous log through the pods/log proxy',
      async ({ style, pool }) => {
        const ns = `ipv6-${pool}`;
        await cp.createNamespace(ns);
        await createPod(pod('nginx', ns, { pool, image: 'nginx:1.25.3' }));
        logs.setLog(
          ns,
          'nginx',
          'app',
          [
            '/docker-entrypoint.sh: Configuration complete; ready for start up',
            '2024/05/01 10:15:30 [emerg] 1#1: socket() [::]:8000 failed (97: Address family not supported by protocol)',
            'nginx: [emerg] socket() [::]:8000 failed (97: Address family not supported by protocol)',
          ],
          { previous: true },
        );
        await standIn(style).podCrashLoop(ns, 'nginx', { restartCount: 5, terminated: { exitCode: 1, reason: 'Error' }, ranSeconds: 1 });
        const f = await expectFirst(`${ns}/nginx`, 'crash.ipv6-disabled');
        expect(f.title).toContain('fails to listen on [::]:8000');
        expect(f.evidence[0]).toEqual({
          source: 'logs app (previous)',
          text: '2024/05/01 10:15:30 [emerg] 1#1: socket() [::]:8000 failed (97: Address family not supported by protocol)',
        });
        expect(logs.requests.some((r) => r.startsWith(`/containerLogs/${ns}/nginx/app?`) && r.includes('previous=true'))).toBe(true);
      },
    );

    it.each(ERAS)(
      'evicted.node-pressure ($style): MemoryPressure on the node, the pod Failed/Evicted for using 1.4Gi over a 128Mi request',
      async ({ style, pool }) => {
        const k = standIn(style);
        const node = `pressure-${pool}`;
        await k.registerNode({ name: node, labels: { 'pod-doctor.test/pool': node } });
        const ns = `evict-${pool}`;
        await cp.createNamespace(ns);
        await createPod(pod('worker', ns, { pool: node, container: { resources: { requests: { memory: '128Mi', cpu: '100m' } } } }));
        await k.podRunning(ns, 'worker');
        await k.setNodePressure(node, 'MemoryPressure');
        // The real node lifecycle controller taints the node for the condition (TaintNodesByCondition).
        const tainted = await client().waitFor(
          `${node} tainted memory-pressure`,
          () => client().get(`/api/v1/nodes/${node}`),
          (n) => (n.spec?.taints ?? []).some((t: any) => t.key === 'node.kubernetes.io/memory-pressure'),
          { timeoutMs: 30_000, intervalMs: 250 },
        );
        log(`${node} taints`, tainted.spec.taints);
        const evicted = await k.podEvicted(ns, 'worker', { usage: '1502208Ki' });
        log(`evicted (${style})`, evicted.status.message);
        const f = await expectFirst(`${ns}/worker`, 'evicted.node-pressure');
        expect(f.severity).toBe('error');
        expect(f.title).toBe(`Pod evicted: node ${node} was low on memory`);
        expect(f.cause).toContain('MemoryPressure is still True');
        expect(f.evidence.map((e) => e.source)).toContain(`node ${node} taints`);
      },
    );

    it.each(ERAS)(
      'sandbox.create-failed ($style): FailedCreatePodSandBox, the pause image is missing and its pull is refused',
      async ({ style, pool, node }) => {
        const ns = `sandbox-${pool}`;
        await cp.createNamespace(ns);
        await createPod(pod('dnsutils', ns, { pool }));
        const pause = style === 'current' ? 'registry.corp.example/k8s/pause:3.9' : 'docker02:35000/rhel7/pod-infrastructure:latest';
        await standIn(style).podSandboxCreateFailed(ns, 'dnsutils', { pauseImage: pause });
        const f = await expectFirst(`${ns}/dnsutils`, 'sandbox.create-failed');
        expect(f.title).toBe(`Sandbox image cannot be pulled on ${node}`);
        expect(f.cause).toContain(pause);
      },
    );

    it.each(ERAS)(
      'resources.memory-units ($style): `memory: 1024m` accepted by the real API, the sandbox is killed at start and re-created',
      async ({ style, pool }) => {
        const ns = `units-${pool}`;
        await cp.createNamespace(ns);
        const created = await createPod(pod('web', ns, { pool, container: { resources: { limits: { memory: '1024m' } } } }));
        // Stored as written (requests defaulted from the limit): 1.024 bytes.
        expect(created.spec.containers[0].resources).toEqual({ limits: { memory: '1024m' }, requests: { memory: '1024m' } });
        await standIn(style).podSandboxKilledAtStart(ns, 'web');
        const f = await expectFirst(`${ns}/web`, 'resources.memory-units');
        expect(f.title).toContain('meant 1024Mi?');
        expect(f.cause).toContain('Pod sandbox changed, it will be killed and re-created.');
      },
    );

    it('terminating.stuck: deleted on a Ready node, no finalizer; the kubelet starts the kill and never confirms it', async () => {
      await cp.createNamespace('stuck');
      await createPod(pod('api', 'stuck', { pool: 'a' }));
      await kubelet.podRunning('stuck', 'api');
      kubelet.hangDeletion('stuck', 'api');
      await client().delete(podPath('stuck', 'api'));
      await client().waitFor(
        'Killing event from the stand-in',
        () => client().list('/api/v1/namespaces/stuck/events', { fieldSelector: 'involvedObject.name=api,reason=Killing' }),
        (l) => l.items.length > 0,
      );
      const p = await client().get(podPath('stuck', 'api'));
      expect(p.metadata.deletionGracePeriodSeconds).toBe(30);
      expect(p.metadata.finalizers ?? []).toEqual([]);
      const f = await expectFirst('stuck/api', 'terminating.stuck');
      expect(f.title).toMatch(/^Pod deletion stuck for .+ on node-a; the blocker is on the node$/);
    });

    it('terminating.exec-hang: hostPID + postStart exec on docker; stuck ContainerCreating, then deleted and never gone', async () => {
      await cp.createNamespace('exechang');
      await createPod(
        pod('agent', 'exechang', {
          pool: 'a',
          spec: {
            hostPID: true,
            containers: [
              {
                name: 'agent',
                image: 'registry.example.com/ops/node-agent:4.2',
                lifecycle: { postStart: { exec: { command: ['/bin/sh', '-c', '/opt/agent/register.sh'] } } },
              },
              // The container the hook blocks: the kubelet never gets to start it.
              { name: 'shipper', image: 'registry.example.com/ops/log-shipper:1.9' },
            ],
          },
        }),
      );
      await kubelet.podPostStartHung('exechang', 'agent');
      await client().delete(podPath('exechang', 'agent'));
      const p = await client().get(podPath('exechang', 'agent'));
      expect(p.metadata.deletionTimestamp).toBeTruthy();
      const f = await expectFirst('exechang/agent', 'terminating.exec-hang');
      expect(f.title).toBe('Pod stuck: postStart exec hung in docker (hostPID: true, kubernetes#92214)');
      expect(f.playbook).toBe('remove-stuck-containers');
      // Still there a heartbeat later: the stand-in never confirms it.
      await sleep(2500);
      expect((await client().get(podPath('exechang', 'agent'))).metadata.deletionTimestamp).toBeTruthy();
    });
  });

  // ------------------------------------------------------------------ the real node lifecycle controller

  describe('nodes that stop posting status: the real node lifecycle controller and taint manager', () => {
    const workloadLabels = { app: 'gluster-reader' };

    beforeAll(async () => {
      const t0 = Date.now();
      await Promise.all([
        kubelet.registerNode({ name: 'lost-1', labels: { 'pod-doctor.test/pool': 'lost' } }),
        kubelet.registerNode({ name: 'cascade-1', labels: { 'pod-doctor.test/pool': 'cascade' } }),
        kubelet.registerNode({ name: 'cascade-2', labels: { 'pod-doctor.test/pool': 'cascade' } }),
      ]);
      await Promise.all([cp.createNamespace('lost'), cp.createNamespace('cascade')]);
      // A bare pod that tolerates the unreachable taint for 5 s (the default 300 s is too long to wait).
      await createPod(
        pod('orders', 'lost', {
          pool: 'lost',
          spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] },
        }),
      );
      // A Deployment mounting glusterfs, one pod per node (seed 000).
      await client().create('/apis/apps/v1/namespaces/cascade/deployments', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'gluster-reader', namespace: 'cascade' },
        spec: {
          replicas: 2,
          selector: { matchLabels: workloadLabels },
          template: {
            metadata: { labels: workloadLabels },
            spec: {
              nodeSelector: { 'pod-doctor.test/pool': 'cascade' },
              affinity: {
                podAntiAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: workloadLabels }, topologyKey: 'kubernetes.io/hostname' }],
                },
              },
              containers: [{ name: 'reader', image: 'registry.example.com/shop/reader:3', volumeMounts: [{ name: 'shared', mountPath: '/data' }] }],
              volumes: [{ name: 'shared', glusterfs: { endpoints: 'glusterfs-cluster', path: 'shared-vol' } }],
            },
          },
        },
      });
      const placed = await client().waitFor(
        'gluster-reader pods on cascade-1 and cascade-2',
        () => client().list('/api/v1/namespaces/cascade/pods', { labelSelector: 'app=gluster-reader' }),
        (l) => l.items.length === 2 && l.items.every((p) => p.spec?.nodeName),
      );
      await kubelet.podRunning('lost', 'orders');
      for (const p of placed.items) await kubelet.podRunning('cascade', p.metadata.name);
      // All three die together; node-a, node-b, node-now and the pending scenarios' nodes stay up.
      for (const n of ['lost-1', 'cascade-1', 'cascade-2']) kubelet.stopHeartbeat(n);
      timings['node failures: setup'] = Date.now() - t0;
    });

    it('terminating.node-lost: the taint manager evicts the pod, it stays Terminating; force-delete-pod removes it', async () => {
      const t0 = Date.now();
      const evicted = await client().waitFor(
        'pod orders marked for deletion by the taint manager',
        () => client().get(podPath('lost', 'orders')),
        (p) => Boolean(p.metadata?.deletionTimestamp),
        {
          timeoutMs: 90_000,
          intervalMs: 500,
        },
      );
      timings['heartbeat stop → taint-manager eviction'] = Date.now() - t0;
      const events = await client().list('/api/v1/namespaces/lost/events', { fieldSelector: 'involvedObject.kind=Pod,involvedObject.name=orders' });
      log(
        'events of lost/orders',
        events.items.map((e) => `${e.reason} [${e.source?.component ?? ''}] ${e.message}`),
      );
      expect(evicted.metadata.deletionGracePeriodSeconds).toBe(30);
      const f = await expectFirst('lost/orders', 'terminating.node-lost');
      expect(f.playbook).toBe('force-delete-pod');
      expect(f.cause).toContain('lost-1');

      const run = await playbook('force-delete-pod', 'lost/orders');
      expect(run.result.steps.map((s: any) => `${s.action}:${s.state}`)).toEqual(['force-delete:done', 'wait:done']);
      expect(run.result.verification.outcome).toBe('fixed');
      expect(run.code).toBe(0);
      expect(await client().find(podPath('lost', 'orders'))).toBeNull();
    });

    it('node.notready-cascade: two nodes NotReady right after the glusterfs workload landed; contain-cascade cordons them and scales the Deployment to zero', async () => {
      for (const n of ['cascade-1', 'cascade-2']) {
        await client().waitFor(
          `${n} Ready=Unknown`,
          () => client().get(`/api/v1/nodes/${n}`),
          (node) => node.status.conditions.find((c: any) => c.type === 'Ready')?.status === 'Unknown',
          { timeoutMs: 60_000, intervalMs: 500 },
        );
      }
      const onDead = await client().list('/api/v1/namespaces/cascade/pods', { fieldSelector: 'spec.nodeName=cascade-1' });
      const target = `cascade/${onDead.items[0]!.metadata.name}`;
      const f = await expectFirst(target, 'node.notready-cascade');
      expect(f.title).toContain('Deployment cascade/gluster-reader');
      expect(f.cause).toMatch(/cascade-1, cascade-2|cascade-2, cascade-1/);

      const run = await playbook('contain-cascade', target);
      expect(run.result.steps.map((s: any) => `${s.action}:${s.state}`)).toEqual(['cordon:done', 'scale:done']);
      expect(run.result.verification.outcome).toBe('fixed');
      for (const n of ['cascade-1', 'cascade-2']) expect((await client().get(`/api/v1/nodes/${n}`)).spec.unschedulable).toBe(true);
      expect((await client().get('/apis/apps/v1/namespaces/cascade/deployments/gluster-reader/scale')).spec.replicas ?? 0).toBe(0);
      // The Deployment controller scales the ReplicaSet; the ReplicaSet controller deletes the
      // pods, which stay Terminating on the dead nodes (no kubelet confirms).
      const rsList = await client().waitFor(
        'ReplicaSet scaled to 0 by the Deployment controller',
        () => client().list('/apis/apps/v1/namespaces/cascade/replicasets', { labelSelector: 'app=gluster-reader' }),
        (l) => l.items.length > 0 && l.items.every((rs) => rs.spec.replicas === 0),
      );
      expect(rsList.items.length).toBe(1);
      const left = await client().waitFor(
        'workload pods deleted',
        () => client().list('/api/v1/namespaces/cascade/pods', { labelSelector: 'app=gluster-reader' }),
        (l) => l.items.every((p) => p.metadata.deletionTimestamp),
      );
      log(
        'gluster-reader pods after contain-cascade',
        left.items.map((p) => `${p.metadata.name} on ${p.spec.nodeName}: deleting`),
      );
    });
  });
});
