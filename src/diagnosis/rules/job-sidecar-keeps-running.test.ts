import { describe, expect, it } from 'vitest';
import { ago, containerStatus, event, logTail, ownerFact, pod, snapshot, terminated } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { KubeObject, Pod } from '../types.js';
import { RULES } from './index.js';
import { rule } from './job-sidecar-keeps-running.js';

type Spec = { name: string; image: string };
type State = 'done' | 'running' | { exit: number; doneAgo?: number } | { doneAgo: number };

const ISTIO_STATUS = '{"initContainers":["istio-init"],"containers":["istio-proxy"],"revision":"default"}';
const ISTIO: Spec = { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.23.2' };

/** A Job pod whose containers are in the given states (`done`: exited 0 an hour ago). */
function jobPod(containers: [Spec, State][], more: { annotations?: Record<string, string>; owner?: string; phase?: string; deleting?: boolean } = {}): Pod {
  const statuses = containers.map(([c, st]) => {
    const exit = typeof st === 'object' && 'exit' in st ? st.exit : 0;
    const finishedAgo = typeof st === 'object' && 'doneAgo' in st ? st.doneAgo : 3600;
    return containerStatus({
      name: c.name,
      image: c.image,
      ready: st === 'running',
      started: st === 'running',
      state: st === 'running' ? { running: { startedAt: ago(4000) } } : { terminated: terminated({ exitCode: exit, finishedAgo, ranSeconds: 300 }) },
    });
  });
  const exited = containers.filter(([, st]) => st !== 'running').map(([c]) => c.name);
  const owner = more.owner ?? 'Job';
  return pod({
    metadata: {
      name: 'backup-29890140-7hrx7',
      labels: { 'batch.kubernetes.io/job-name': 'backup-29890140' },
      ownerReferences: [{ apiVersion: owner === 'Job' ? 'batch/v1' : 'apps/v1', kind: owner, name: 'backup-29890140', uid: 'u', controller: true }],
      ...(more.annotations ? { annotations: more.annotations } : {}),
      ...(more.deleting ? { deletionTimestamp: ago(5) } : {}),
    },
    spec: { restartPolicy: owner === 'Job' ? 'Never' : 'Always', containers: containers.map(([c]) => c) },
    status: {
      phase: more.phase ?? 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Initialized', status: 'True' },
        { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${exited.join(' ')}]` },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${exited.join(' ')}]` },
      ],
      containerStatuses: statuses,
    },
  });
}

const job = (status: Record<string, unknown> = { active: 1, ready: 0, startTime: ago(4000) }, spec: Record<string, unknown> = {}) =>
  ownerFact('Job', 'backup-29890140', { apiVersion: 'batch/v1', spec: { completions: 1, parallelism: 1, backoffLimit: 2, ...spec }, status });

const cronObject = (policy?: string): Partial<KubeObject> => ({
  apiVersion: 'batch/v1',
  spec: { schedule: '0 * * * *', ...(policy ? { concurrencyPolicy: policy } : {}) },
  status: { active: [{ kind: 'Job', name: 'backup-29890140' }] },
});

const alreadyActive = (o: Partial<KubeObject>) =>
  event(
    { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'backup', namespace: 'shop', uid: 'c' }, ...o },
    {
      reason: 'JobAlreadyActive',
      message: 'Not starting job because prior execution is running and concurrency policy is Forbid',
      type: 'Normal',
      count: 3,
      firstSeenAgo: 1800,
      lastSeenAgo: 600,
      component: 'cronjob-controller',
    },
  );

const forbid = cronObject('Forbid');
const istioCron = snapshot(
  jobPod(
    [
      [{ name: 'solr-backup', image: 'eu.gcr.io/acme/solr-backup:1.6.0' }, 'done'],
      [ISTIO, 'running'],
    ],
    { annotations: { 'sidecar.istio.io/status': ISTIO_STATUS } },
  ),
  {
    owners: [job(), ownerFact('CronJob', 'backup', forbid, [alreadyActive(forbid)])],
    logs: [logTail('solr-backup', ['backup of suggest completed in 181s', 'all backups completed, exiting'], false)],
  },
);

testRule(rule, {
  valid: [
    {
      name: 'near miss (work in progress vs sidecar hang): the main container still runs beside istio-proxy',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'migrate', image: 'acme/migrate:3' }, 'running'],
            [ISTIO, 'running'],
          ],
          { annotations: { 'sidecar.istio.io/status': ISTIO_STATUS } },
        ),
        { owners: [job()] },
      ),
    },
    {
      name: 'near miss (native sidecar vs regular sidecar): the kubelet stopped the native istio-proxy with 137 and the pod Succeeded',
      snapshot: snapshot(
        pod({
          metadata: { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'export-1', uid: 'u', controller: true }] },
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'export', image: 'acme/export:2' }],
            initContainers: [{ ...ISTIO, restartPolicy: 'Always' }],
          },
          status: {
            phase: 'Succeeded',
            containerStatuses: [containerStatus({ name: 'export', ready: false, state: { terminated: terminated({ exitCode: 0, finishedAgo: 600 }) } })],
            initContainerStatuses: [
              containerStatus({ name: 'istio-proxy', ready: false, state: { terminated: terminated({ exitCode: 137, finishedAgo: 590 }) } }),
            ],
          },
        }),
        { owners: [ownerFact('Job', 'export-1', { status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } })] },
      ),
    },
    {
      name: 'near miss (just failed vs stuck): the main container exited 1 thirty seconds ago beside istio-proxy',
      snapshot: snapshot(
        jobPod(
          [
            [
              { name: 'solr-backup', image: 'acme/solr-backup:1' },
              { exit: 1, doneAgo: 30 },
            ],
            [ISTIO, 'running'],
          ],
          { annotations: { 'sidecar.istio.io/status': ISTIO_STATUS } },
        ),
        { owners: [job()] },
      ),
    },
    {
      name: 'near miss (Deployment vs Job): a Deployment pod with one container Completed and istio-proxy running',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'web', image: 'acme/web:1' }, 'done'],
            [ISTIO, 'running'],
          ],
          { owner: 'ReplicaSet', annotations: { 'sidecar.istio.io/status': ISTIO_STATUS } },
        ),
        { owners: [ownerFact('ReplicaSet', 'web-7d9f8c6b5'), ownerFact('Deployment', 'web')] },
      ),
    },
    {
      name: 'near miss (second worker vs helper): a fetch container exited 0, the trainer still runs and nothing marks it a helper',
      snapshot: snapshot(
        jobPod([
          [{ name: 'fetch', image: 'acme/fetch:1' }, 'done'],
          [{ name: 'trainer', image: 'acme/trainer:7' }, 'running'],
        ]),
        { owners: [job()] },
      ),
    },
    {
      name: 'the default container is the one still running: the work is in progress, whatever its name',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'prepare', image: 'acme/prepare:1' }, 'done'],
            [{ name: 'proxy-loader', image: 'acme/loader:1' }, 'running'],
          ],
          { annotations: { 'kubectl.kubernetes.io/default-container': 'proxy-loader' } },
        ),
        { owners: [job()] },
      ),
    },
    {
      name: 'the main container exited 30s ago: a quitquitquit at the end of the command has not been served yet',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'solr-backup', image: 'acme/solr-backup:1' }, { doneAgo: 30 }],
            [ISTIO, 'running'],
          ],
          { annotations: { 'sidecar.istio.io/status': ISTIO_STATUS } },
        ),
        { owners: [job()] },
      ),
    },
    {
      name: 'the Job is already Complete (another pod met its completions): this pod is being cleaned up',
      snapshot: snapshot(
        jobPod([
          [{ name: 'solr-backup', image: 'acme/solr-backup:1' }, 'done'],
          [ISTIO, 'running'],
        ]),
        { owners: [job({ succeeded: 1, conditions: [{ type: 'Complete', status: 'True', reason: 'CompletionsReached' }] })] },
      ),
    },
    {
      name: 'the pod is being deleted (terminating rules speak)',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'solr-backup', image: 'acme/solr-backup:1' }, 'done'],
            [ISTIO, 'running'],
          ],
          { deleting: true },
        ),
        { owners: [job()] },
      ),
    },
  ],
  invalid: [
    {
      name: 'the work failed (exit 1, restartPolicy Never) while istio-proxy runs: the Job can neither count the failure nor retry',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'solr-backup', image: 'acme/solr-backup:1' }, { exit: 1 }],
            [ISTIO, 'running'],
          ],
          { annotations: { 'sidecar.istio.io/status': ISTIO_STATUS } },
        ),
        { owners: [job()] },
      ),
      expect: {
        params: { failedExitCode: 1, sidecars: ['istio-proxy'], hangingSeconds: 3600 },
        said: [
          { id: 'titleFailed', data: { main: 'solr-backup', code: 1, sidecars: 'istio-proxy', ago: '60m' } },
          { id: 'failed', data: { main: 'solr-backup', code: 1 } },
          'stillRunsFailed',
          'regular',
          { id: 'injected', data: { sidecar: 'istio-proxy' } },
          { id: 'stopIstio', data: { sidecar: 'istio-proxy' } },
          { id: 'thenFails', data: { main: 'solr-backup' } },
          'nativeIstio',
          'injectOffIstio',
          'commandIstio',
        ],
        quotes: [/terminated: \w+, exit code 1/],
      },
    },
    {
      name: 'istio-proxy injected into a Forbid CronJob: the backup exited 0 an hour ago, JobAlreadyActive x3',
      snapshot: istioCron,
      expect: {
        severity: 'error',
        playbook: null,
        causeKey: 'job/shop/cronjob/backup:sidecar/istio-proxy',
        params: {
          job: 'backup-29890140',
          cronJob: 'backup',
          concurrencyPolicy: 'Forbid',
          sidecars: ['istio-proxy'],
          hangingSeconds: 3600,
          skippedSchedules: 3,
        },
        said: [
          { id: 'title', data: { main: 'solr-backup', sidecars: 'istio-proxy', ago: '60m' } },
          { id: 'finished', data: { main: 'solr-backup', reason: 'Completed' } },
          { id: 'stillRunsCounts', data: { counts: '1 active, 0 succeeded, 0 failed' } },
          'regular',
          { id: 'injected', data: { sidecar: 'istio-proxy', product: 'Istio', annotation: 'sidecar.istio.io/status' } },
          { id: 'forbidSkipped', data: { cronJob: 'backup', count: 3, last: '10m' } },
          { id: 'stopIstio', data: { sidecar: 'istio-proxy', pod: 'backup-29890140-7hrx7' } },
          'noKill',
          { id: 'deleteJob', data: { cronJob: 'backup' } },
          'nativeIstio',
          'injectOffIstio',
          'commandIstio',
        ],
        quotes: [
          /terminated: Completed, exit code 0/,
          /running since/,
          /"containers":\["istio-proxy"\]/,
          /all backups completed, exiting/,
          /concurrency policy is Forbid/,
        ],
      },
    },
    {
      name: 'linkerd-proxy beside a plain Job with activeDeadlineSeconds: the Job will fail although its work succeeded',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'reindex', image: 'acme/reindex:4' }, 'done'],
            [{ name: 'linkerd-proxy', image: 'cr.l5d.io/linkerd/proxy:edge-24.11.8' }, 'running'],
          ],
          { annotations: { 'linkerd.io/proxy-version': 'edge-24.11.8' } },
        ),
        { owners: [job(undefined, { activeDeadlineSeconds: 7200 })] },
      ),
      expect: {
        said: [
          { id: 'injected', data: { sidecar: 'linkerd-proxy', product: 'Linkerd', annotation: 'linkerd.io/proxy-version' } },
          { id: 'deadline', data: { deadline: 7200, left: '53m' } },
          'stopLinkerd',
          'nativeLinkerd',
          'injectOffLinkerd',
          'commandLinkerd',
        ],
        quotes: [/edge-24\.11\.8/],
      },
    },
    {
      name: 'a Cloud SQL Auth Proxy known by its image, under a CronJob that allows concurrent runs',
      snapshot: snapshot(
        jobPod([
          [{ name: 'nightly-report', image: 'acme/report:9' }, 'done'],
          [{ name: 'sql', image: 'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1' }, 'running'],
        ]),
        { owners: [job(), ownerFact('CronJob', 'backup', cronObject())] },
      ),
      expect: {
        params: { concurrencyPolicy: 'Allow' },
        said: [
          { id: 'known', data: { sidecar: 'sql', product: 'Cloud SQL Auth Proxy' } },
          { id: 'allow', data: { cronJob: 'backup' } },
          'stopCloudSql',
          'commandCloudSql',
        ],
      },
    },
    {
      name: "a custom log shipper, known by its name only; the Job could not be read, the pod's owner reference names it",
      snapshot: snapshot(
        jobPod([
          [{ name: 'etl', image: 'acme/etl:2' }, 'done'],
          [{ name: 'log-shipper', image: 'acme/shipper:1' }, 'running'],
        ]),
        { owners: [] },
      ),
      expect: {
        causeKey: 'job/shop/backup-29890140:sidecar/log-shipper',
        said: [
          { id: 'stillRuns', data: { sidecars: 'log-shipper', job: 'backup-29890140' } },
          { id: 'word', data: { sidecar: 'log-shipper', image: 'acme/shipper:1' } },
          { id: 'stopGeneric', data: { sidecar: 'log-shipper' } },
          { id: 'nativeGeneric', data: { sidecar: 'log-shipper' } },
        ],
      },
    },
    {
      name: 'a helper of any name: the default-container annotation names the container that exited',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'compact', image: 'acme/compact:1' }, 'done'],
            [{ name: 'sync', image: 'acme/sync:1' }, 'running'],
          ],
          { annotations: { 'kubectl.kubernetes.io/default-container': 'compact' } },
        ),
        { owners: [job()] },
      ),
      expect: { said: [{ id: 'defaultContainer', data: { main: 'compact', sidecar: 'sync' } }] },
    },
    {
      name: 'two workers done, istio-proxy and a Vault agent still running (an exited fluent-bit is not the work)',
      snapshot: snapshot(
        jobPod(
          [
            [{ name: 'extract', image: 'acme/extract:1' }, 'done'],
            [{ name: 'load', image: 'acme/load:1' }, { doneAgo: 1200 }],
            [{ name: 'fluent-bit', image: 'fluent/fluent-bit:3.1' }, { doneAgo: 600 }],
            [ISTIO, 'running'],
            [{ name: 'vault-agent', image: 'hashicorp/vault:1.17' }, 'running'],
          ],
          { annotations: { 'sidecar.istio.io/status': ISTIO_STATUS, 'vault.hashicorp.com/agent-inject-status': 'injected' } },
        ),
        { owners: [job()] },
      ),
      expect: {
        params: { main: ['extract', 'load'], sidecars: ['istio-proxy', 'vault-agent'], hangingSeconds: 1200 },
        said: [
          { id: 'finishedMany', data: { main: 'extract, load', ago: '20m' } },
          { id: 'injected', data: { sidecar: 'vault-agent', product: 'Vault Agent' } },
          { id: 'injected', data: { sidecar: 'istio-proxy', product: 'Istio' } },
          'stopIstio',
        ],
      },
    },
  ],
});

describe('job.sidecar-keeps-running in the engine', () => {
  it('ranks first, and the catch-all stays out', () => {
    const d = diagnose(istioCron, { rules: RULES });
    expect(d.findings[0]?.rule).toBe('job.sidecar-keeps-running');
    expect(d.findings.map((f) => f.rule)).not.toContain('pod.unexplained');
  });

  it('stands beside the crash finding when the work failed: one says why it failed, the other why the Job never notices', () => {
    const failed = snapshot(
      jobPod(
        [
          [{ name: 'solr-backup', image: 'acme/solr-backup:1' }, { exit: 1 }],
          [ISTIO, 'running'],
        ],
        { annotations: { 'sidecar.istio.io/status': ISTIO_STATUS } },
      ),
      { owners: [job()], logs: [logTail('solr-backup', ['starting backup', 'ERROR: snapshot repository [s3] is missing'], false)] },
    );
    const rules = diagnose(failed, { rules: RULES }).findings.map((f) => f.rule);
    expect(rules).toContain('job.sidecar-keeps-running');
    expect([...rules.slice(0, 2)].sort(), rules.join()).toEqual(['crash.app-exit', 'job.sidecar-keeps-running']);
  });
});
