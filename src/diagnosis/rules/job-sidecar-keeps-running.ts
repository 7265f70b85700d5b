// job.sidecar-keeps-running: A Job's work is done but its pod keeps running: a sidecar does not exit.

import { logEvidence } from '../crashes.js';
import { clip, eventEvidence, eventTime, formatDuration, isDeleting, ms, namespaceOf, newestFirst, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { ownerConditions, ownerCounts } from '../owners.js';
import { defineRule } from '../rule.js';
import type { Container, ContainerStatus, Evidence, FindingDraft, OwnerFact, Pod, Snapshot } from '../types.js';

// A pod is done only when all its regular containers have exited. A helper in spec.containers (an
// injected istio-proxy or linkerd-proxy, a cloud-sql-proxy, a log shipper) serves until something
// stops it, so once the Job's own container exits 0 the pod stays Running, the Job stays active and
// never completes, and a CronJob with concurrencyPolicy Forbid skips every later schedule
// ("Not starting job because prior execution is running and concurrency policy is Forbid").
// A native sidecar (an init container with restartPolicy Always, Kubernetes 1.29+) is stopped by the
// kubelet once the main containers have exited, so it never shows here.
//
// Which container is the work and which the helper is read from the mechanism: the ones that exited
// versus the ones still running. Something must also say the running one is a helper (an injection
// annotation, a well-known name or image, a helper's word in its name, or the pod's default-container
// annotation naming the exited one); otherwise it may be a second worker still busy.

/** The main container exited this long ago: a helper that stops on its own (a quitquitquit call) has done so by now. */
const GRACE_SECONDS = 120;

type Family = 'istio' | 'linkerd' | 'cloudsql' | 'vault' | 'other';

interface Product {
  family: Family;
  product: string;
  name: RegExp;
  image?: RegExp;
  /** The annotation its injector writes on the pod. */
  annotation?: string;
}

const PRODUCTS: readonly Product[] = [
  { family: 'istio', product: 'Istio', name: /^istio-proxy$/, image: /\/proxyv2[:@]/, annotation: 'sidecar.istio.io/status' },
  { family: 'linkerd', product: 'Linkerd', name: /^linkerd-proxy$/, image: /linkerd\/proxy[:@]/, annotation: 'linkerd.io/proxy-version' },
  { family: 'cloudsql', product: 'Cloud SQL Auth Proxy', name: /^cloud-?sql-proxy$/, image: /cloud-sql-proxy|cloudsql-docker\/gce-proxy/ },
  { family: 'vault', product: 'Vault Agent', name: /^vault-agent$/, annotation: 'vault.hashicorp.com/agent-inject-status' },
  {
    family: 'other',
    product: 'Consul',
    name: /^(consul-dataplane|envoy-sidecar|consul-connect-envoy-sidecar)$/,
    annotation: 'consul.hashicorp.com/connect-inject-status',
  },
  { family: 'other', product: 'Dapr', name: /^daprd$/, annotation: 'dapr.io/enabled' },
  { family: 'other', product: 'Kuma', name: /^kuma-sidecar$/, annotation: 'kuma.io/sidecar-injected' },
];

/** Words of a helper's name or image (split on - _ . /): proxies, meshes, log shippers, collectors. */
const HELPER_WORDS = new Set([
  'proxy',
  'sidecar',
  'envoy',
  'agent',
  'fluent',
  'fluentd',
  'fluentbit',
  'filebeat',
  'promtail',
  'vector',
  'otel',
  'opentelemetry',
  'collector',
  'logs',
  'logger',
  'logging',
  'shipper',
  'forwarder',
  'exporter',
  'tunnel',
]);

const DEFAULT_CONTAINER = 'kubectl.kubernetes.io/default-container';

interface Helper {
  status: ContainerStatus;
  image: string;
  family: Family;
  product?: string;
  /** The injection annotation that names or implies it. */
  annotation?: string;
  by: 'annotation' | 'known' | 'word' | 'defaultContainer';
}

/** The repository's last path element without tag or digest: `docker.io/istio/proxyv2:1.23.2` → `proxyv2`. */
function imageBase(image: string): string {
  const path = image.split('@')[0] ?? '';
  const last = path.split('/').pop() ?? '';
  return last.split(':')[0] ?? '';
}

function helperWord(name: string, image: string): boolean {
  return [...name.split(/[-_.]/), ...imageBase(image).split(/[-_.]/)].some((w) => HELPER_WORDS.has(w.toLowerCase()));
}

/** Container names an Istio sidecar.istio.io/status annotation lists as injected. */
function istioInjected(pod: Pod): string[] | undefined {
  const raw = pod.metadata?.annotations?.['sidecar.istio.io/status'];
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as { containers?: unknown };
    return Array.isArray(parsed.containers) ? parsed.containers.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** A helper by its injector or by a well-known name or image (istio-proxy, linkerd-proxy, cloud-sql-proxy...). */
function knownHelper(pod: Pod, status: ContainerStatus, image: string): Helper | undefined {
  const annotations = pod.metadata?.annotations ?? {};
  if (istioInjected(pod)?.includes(status.name))
    return { status, image, family: 'istio', product: 'Istio', annotation: 'sidecar.istio.io/status', by: 'annotation' };
  const p = PRODUCTS.find((x) => x.name.test(status.name) || x.image?.test(image));
  if (!p) return undefined;
  const injected = p.annotation !== undefined && annotations[p.annotation] !== undefined;
  return { status, image, family: p.family, product: p.product, ...(injected ? { annotation: p.annotation } : {}), by: injected ? 'annotation' : 'known' };
}

/** What says a running container is a helper beside the exited `mains`, or undefined when nothing does. */
function helperOf(pod: Pod, status: ContainerStatus, spec: Container | undefined, mains: readonly string[]): Helper | undefined {
  const image = spec?.image ?? status.image ?? '';
  const known = knownHelper(pod, status, image);
  if (known) return known;
  if (helperWord(status.name, image)) return { status, image, family: 'other', by: 'word' };
  const preferred = pod.metadata?.annotations?.[DEFAULT_CONTAINER];
  if (preferred && mains.includes(preferred)) return { status, image, family: 'other', by: 'defaultContainer' };
  return undefined;
}

function jobOf(snapshot: Snapshot, pod: Pod): { job: OwnerFact; cronJob?: OwnerFact } | undefined {
  const owners = snapshot.owners ?? [];
  const job = owners.find((o) => o.kind === 'Job');
  const cronJob = owners.find((o) => o.kind === 'CronJob');
  if (job) return { job, ...(cronJob ? { cronJob } : {}) };
  // The owner could not be read: the pod's own reference still says it belongs to a Job.
  const ref = pod.metadata?.ownerReferences?.find((r) => r.kind === 'Job');
  return ref ? { job: { kind: 'Job', name: ref.name, events: [] } } : undefined;
}

const finishedJob = (job: OwnerFact['object']) =>
  ownerConditions(job).some((c) => ['Complete', 'Failed', 'FailureTarget', 'SuccessCriteriaMet'].includes(c.type ?? '') && c.status === 'True');

const messages = {
  title: 'Job {{job}} cannot complete: {{main}} finished {{ago}} ago, sidecar {{sidecars}} still runs',
  titleFailed: 'Job {{job}} cannot count its failure or retry: {{main}} exited {{code}} {{ago}} ago, sidecar {{sidecars}} still runs',
  failed: 'Container {{main}} exited {{code}} ({{reason}}) {{ago}} ago: this run of the work failed (its own finding says why).',
  stillRunsFailed:
    'But the pod still has {{sidecars}} running, so it stays Running: Job {{job}} neither counts the failure nor starts a retry ' +
    '(backoffLimit), and nothing reports that the run failed.',
  finished: 'Container {{main}} exited 0 ({{reason}}) {{ago}} ago: the work is done.',
  finishedMany: 'Containers {{main}} exited 0 {{ago}} ago: the work is done.',
  stillRuns: 'But the pod still has {{sidecars}} running, so it stays Running and Job {{job}} never sees it succeed.',
  stillRunsCounts: 'But the pod still has {{sidecars}} running, so it stays Running and Job {{job}} never sees it succeed ({{counts}}).',
  regular:
    "A sidecar in spec.containers is a regular container, not a native one: nothing stops it when the work exits, and a Job's pod succeeds " +
    'only once every container has exited.',
  injected: '{{sidecar}} was injected by {{product}} (annotation {{annotation}}).',
  known: '{{sidecar}} is the {{product}} sidecar, which serves until it is told to stop.',
  word: '{{sidecar}} ({{image}}) is a helper by its name or image; it does not exit when the work does.',
  defaultContainer: 'The pod names {{main}} its default container ({{annotation}}): {{sidecar}} is the helper beside it.',
  forbidSkipped:
    'CronJob {{cronJob}} has concurrencyPolicy Forbid, so it starts no new Job while this one is active: ' +
    'JobAlreadyActive {{count}} times so far, last {{last}} ago.',
  forbid: 'CronJob {{cronJob}} has concurrencyPolicy Forbid, so it starts no new Job while this one is active.',
  allow: 'CronJob {{cronJob}} starts its next Jobs anyway (concurrencyPolicy Allow); each leaves a pod like this one behind.',
  replace: 'CronJob {{cronJob}} has concurrencyPolicy Replace: its next schedule deletes this Job, and the finished work is never recorded as a success.',
  deadline: 'Job {{job}} has activeDeadlineSeconds {{deadline}}: in {{left}} it is marked Failed (DeadlineExceeded) although its work succeeded.',
  stopIstio:
    'Let it finish now: ask pilot-agent to exit, ' +
    '`kubectl exec -n {{namespace}} {{pod}} -c {{sidecar}} -- curl -sf -XPOST http://127.0.0.1:15020/quitquitquit` ' +
    "(15020 is pilot-agent; quitquitquit on Envoy's 15000 stops Envoy but leaves pilot-agent running; a distroless proxy has no curl: " +
    'run it from `kubectl debug -n {{namespace}} {{pod}} -it --image=curlimages/curl`).',
  thenSucceeds: 'The pod then succeeds and the Job completes.',
  thenFails: 'The pod then fails, and Job {{job}} counts the failure and retries up to its backoffLimit: fix why {{main}} failed first.',
  stopLinkerd:
    "Let it finish now: POST to the proxy's shutdown endpoint from inside the pod, " +
    '`kubectl debug -n {{namespace}} {{pod}} -it --image=curlimages/curl -- curl -X POST http://localhost:4191/shutdown` ' +
    '(recent Linkerd versions serve it only with the annotation config.linkerd.io/proxy-admin-shutdown: enabled).',
  stopCloudSql:
    'Let it finish now: if the proxy runs with --quitquitquit (admin port 9091 by default), ' +
    '`kubectl debug -n {{namespace}} {{pod}} -it --image=curlimages/curl -- curl -X POST http://localhost:9091/quitquitquit`.',
  stopGeneric:
    'Let it finish now: make {{sidecar}} exit 0 through its own shutdown endpoint or command (`kubectl exec -n {{namespace}} {{pod}} -c {{sidecar}} -- ...`, ' +
    'or from `kubectl debug -n {{namespace}} {{pod}} -it --image=curlimages/curl`, which shares the pod network).',
  noKill:
    'Do not kill the sidecar or delete the pod to get there: a non-zero exit fails the pod and a deleted pod is replaced, ' +
    'so the Job runs the work again (up to its backoffLimit).',
  deleteJob:
    'If this run need not be recorded, delete the hung Job (`kubectl delete job -n {{namespace}} {{job}}`): ' +
    'CronJob {{cronJob}} starts again at its next schedule.',
  nativeIstio:
    'Run the proxy as a native sidecar, which the kubelet stops once the main containers have exited: Kubernetes 1.29+ ' +
    'with ENABLE_NATIVE_SIDECARS=true on istiod, or the annotation sidecar.istio.io/nativeSidecar: "true" in the Job\'s pod template.',
  nativeLinkerd:
    'Run the proxy as a native sidecar, which the kubelet stops once the main containers have exited: ' +
    'the annotation config.beta.linkerd.io/proxy-enable-native-sidecar: "true" in the Job\'s pod template (Kubernetes 1.29+).',
  nativeGeneric:
    'Run {{sidecar}} as a native sidecar: move it to initContainers with restartPolicy: Always (Kubernetes 1.29+); ' +
    'the kubelet stops it once the main containers have exited.',
  injectOffIstio: 'Or keep the Job out of the mesh if it does not need it: the label sidecar.istio.io/inject: "false" on its pod template.',
  injectOffLinkerd: 'Or keep the Job out of the mesh if it does not need it: the annotation linkerd.io/inject: disabled on its pod template.',
  vaultPrePopulate: 'Or render the secrets once and run no agent beside the work: vault.hashicorp.com/agent-pre-populate-only: "true".',
  commandIstio: "Or end the job's command with `curl -sf -XPOST http://127.0.0.1:15020/quitquitquit`, so the proxy exits with it.",
  commandLinkerd: "Or wrap the job's command in `linkerd-await --shutdown -- <command>`, which shuts the proxy down when the command exits.",
  commandCloudSql:
    "Or start the proxy with --quitquitquit and end the job's command with `curl -X POST http://localhost:9091/quitquitquit` " +
    '(add --exit-zero-on-sigterm so a stop by signal is not a failure).',
  commandGeneric: "Or end the job's command by telling {{sidecar}} to exit (a shutdown endpoint, or a file on a shared volume it watches).",
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'job.sidecar-keeps-running',
    title: "A Job's work is done but its pod keeps running: a sidecar does not exit",
    category: 'job',
    severity: 'error',
    needs: ['pod', 'events', 'owners', 'logs'],
    // With the Job rules: the Job's state (never complete) is the failure; no container crashed.
    priority: 52,
    doc:
      'A pod of a Job (often through a CronJob) whose own container exited 0 while a regular sidecar in spec.containers ' +
      '(istio-proxy, linkerd-proxy, cloud-sql-proxy, a log shipper) still runs: the pod stays Running, the Job stays active, ' +
      'a Forbid CronJob records JobAlreadyActive on every schedule. Names the sidecar and how it is known (injection annotation, ' +
      'name or image), how long the pod has hung, and how to stop it (pilot-agent quitquitquit, Linkerd shutdown) and prevent it ' +
      '(native sidecar, Kubernetes 1.29+; no injection for the Job). When the work failed instead (restartPolicy Never), the same sidecar keeps ' +
      'the Job from counting the failure or retrying: the finding says so beside the crash finding that says why.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod || isDeleting(pod) || pod.status?.phase !== 'Running') return null;
    const owner = jobOf(snapshot, pod);
    if (!owner || finishedJob(owner.job.object)) return null;
    const specs = pod.spec?.containers ?? [];
    const imageOf = (s: ContainerStatus) => specs.find((c) => c.name === s.name)?.image ?? s.image ?? '';
    const statuses = pod.status?.containerStatuses ?? [];
    const running = statuses.filter((s) => s.state?.running);
    // The work is what exited; an exited helper (a log shipper that stopped on its own) is not.
    const mains = statuses.filter((s) => s.state?.terminated && !knownHelper(pod, s, imageOf(s)) && !helperWord(s.name, imageOf(s)));
    if (mains.length === 0 || running.length === 0) return null;
    // The pod's default container still runs: that is the work, still in progress.
    const preferred = pod.metadata?.annotations?.[DEFAULT_CONTAINER];
    if (preferred && running.some((s) => s.name === preferred)) return null;
    const helpers: Helper[] = [];
    for (const s of running) {
      const h = helperOf(
        pod,
        s,
        specs.find((c) => c.name === s.name),
        mains.map((m) => m.name),
      );
      // A running container nothing marks as a helper may be a second worker, still busy.
      if (!h) return null;
      helpers.push(h);
    }
    // A main container that failed: the crash rules say why; this says the Job cannot even count it (restartPolicy Never).
    const ends = mains.map((s) => ms(s.state?.terminated?.finishedAt)).filter((t): t is number => t !== undefined);
    const now = ms(snapshot.now);
    if (ends.length === 0 || now === undefined) return null;
    const hung = (now - Math.max(...ends)) / 1000;
    if (hung < GRACE_SECONDS) return null;
    return finding(snapshot, pod, owner, mains, helpers, hung);
  },
});

function finding(
  snapshot: Snapshot,
  pod: Pod,
  owner: NonNullable<ReturnType<typeof jobOf>>,
  mains: ContainerStatus[],
  helpers: Helper[],
  hung: number,
): FindingDraft<Id> {
  const ns = namespaceOf(snapshot);
  const podName = pod.metadata?.name ?? '';
  const { job, cronJob } = owner;
  const ago = formatDuration(hung);
  const main = mains.map((s) => s.name).join(', ');
  const sidecars = helpers.map((h) => h.status.name).join(', ');
  const first = helpers.find((h) => h.family !== 'other') ?? helpers[0]!;
  const sidecar = first.status.name;
  const counts = ownerCounts(job.object);
  const evidence: Evidence[] = [
    ...mains.map((s) => {
      const t = s.state?.terminated;
      return {
        source: `pod.status.containerStatuses[${s.name}].state`,
        text: `terminated: ${t?.reason ?? 'Completed'}, exit code ${t?.exitCode}, finished ${t?.finishedAt}`,
      };
    }),
    ...helpers.map((h) => ({
      source: `pod.status.containerStatuses[${h.status.name}].state`,
      text: `running since ${h.status.state?.running?.startedAt ?? '?'}`,
    })),
  ];
  for (const a of new Set(helpers.flatMap((h) => (h.annotation ? [h.annotation] : [])))) {
    evidence.push({ source: `pod annotation ${a}`, text: clip(pod.metadata?.annotations?.[a] ?? '', 300) });
  }
  const tail = (snapshot.logs ?? []).find((l) => !l.previous && mains.some((s) => s.name === l.container) && l.lines.length > 0);
  if (tail) evidence.push(logEvidence(tail, 3, 2));
  if (counts) evidence.push({ source: `Job ${job.name} status`, text: counts });
  const cronSpec = (cronJob?.object?.spec ?? {}) as { concurrencyPolicy?: string };
  const policy = cronSpec.concurrencyPolicy ?? 'Allow';
  const finishedAt = Math.max(...mains.map((s) => ms(s.state?.terminated?.finishedAt) ?? 0));
  // Skipped schedules since the work ended: the aggregated event's latest occurrence is after it.
  const skipped = newestFirst(cronJob?.events ?? []).find((e) => e.reason === 'JobAlreadyActive' && (ms(eventTime(e)) ?? 0) > finishedAt);
  if (skipped) evidence.push({ ...eventEvidence(skipped), source: `${eventEvidence(skipped).source} on CronJob ${cronJob?.name}` });
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'False');
  if (ready?.message) evidence.push({ source: 'pod.status.conditions[Ready]', text: [ready.reason, ready.message].filter(Boolean).join(': ') });

  const deadline = (job.object?.spec as { activeDeadlineSeconds?: number } | undefined)?.activeDeadlineSeconds;
  const started = secondsSince(snapshot, (job.object?.status as { startTime?: string } | undefined)?.startTime);
  const left = deadline !== undefined && started !== undefined ? deadline - started : undefined;
  const mainOne = mains.find((s) => s.state?.terminated?.exitCode !== 0) ?? mains[0]!;
  const code = mainOne.state?.terminated?.exitCode ?? 0;
  const failed = code !== 0;
  const why = (h: Helper) =>
    h.by === 'annotation' && h.annotation
      ? msg('injected', { sidecar: h.status.name, product: h.product ?? h.family, annotation: h.annotation })
      : h.by === 'known'
        ? msg('known', { sidecar: h.status.name, product: h.product ?? h.family })
        : h.by === 'word'
          ? msg('word', { sidecar: h.status.name, image: h.image || h.status.name })
          : msg('defaultContainer', { main, sidecar: h.status.name, annotation: DEFAULT_CONTAINER });
  const cron = cronJob?.name;
  return {
    title: failed ? msg('titleFailed', { job: job.name, main: mainOne.name, code, ago, sidecars }) : msg('title', { job: job.name, main, ago, sidecars }),
    cause: [
      failed
        ? msg('failed', { main: mainOne.name, code, reason: mainOne.state?.terminated?.reason ?? 'Error', ago })
        : mains.length === 1
          ? msg('finished', { main, reason: mainOne.state?.terminated?.reason ?? 'Completed', ago })
          : msg('finishedMany', { main, ago }),
      failed
        ? msg('stillRunsFailed', { sidecars, job: job.name })
        : counts
          ? msg('stillRunsCounts', { sidecars, job: job.name, counts })
          : msg('stillRuns', { sidecars, job: job.name }),
      msg('regular'),
      ...helpers.map(why),
      cron !== undefined &&
        (policy === 'Forbid'
          ? skipped
            ? msg('forbidSkipped', {
                cronJob: cron,
                count: skipped.series?.count ?? skipped.count ?? 1,
                last: formatDuration(secondsSince(snapshot, eventTime(skipped)) ?? 0),
              })
            : msg('forbid', { cronJob: cron })
          : policy === 'Replace'
            ? msg('replace', { cronJob: cron })
            : msg('allow', { cronJob: cron })),
      !failed && left !== undefined && left > 0 && msg('deadline', { job: job.name, deadline: deadline ?? 0, left: formatDuration(left) }),
    ],
    evidence,
    advice: [
      first.family === 'istio'
        ? msg('stopIstio', { namespace: ns, pod: podName, sidecar })
        : first.family === 'linkerd'
          ? msg('stopLinkerd', { namespace: ns, pod: podName })
          : first.family === 'cloudsql'
            ? msg('stopCloudSql', { namespace: ns, pod: podName })
            : msg('stopGeneric', { namespace: ns, pod: podName, sidecar }),
      failed ? msg('thenFails', { job: job.name, main: mainOne.name }) : msg('thenSucceeds'),
      !failed && msg('noKill'),
      cron !== undefined && msg('deleteJob', { namespace: ns, job: job.name, cronJob: cron }),
    ],
    prevent: [
      first.family === 'istio' ? msg('nativeIstio') : first.family === 'linkerd' ? msg('nativeLinkerd') : msg('nativeGeneric', { sidecar }),
      first.family === 'istio' && msg('injectOffIstio'),
      first.family === 'linkerd' && msg('injectOffLinkerd'),
      first.family === 'vault' && msg('vaultPrePopulate'),
      first.family === 'istio'
        ? msg('commandIstio')
        : first.family === 'linkerd'
          ? msg('commandLinkerd')
          : first.family === 'cloudsql'
            ? msg('commandCloudSql')
            : msg('commandGeneric', { sidecar }),
    ],
    causeKey: `job/${ns}/${cron !== undefined ? `cronjob/${cron}` : job.name}:sidecar/${helpers.map((h) => h.status.name).join(',')}`,
    params: {
      job: job.name,
      ...(cron !== undefined ? { cronJob: cron, concurrencyPolicy: policy } : {}),
      main: mains.map((s) => s.name),
      sidecars: helpers.map((h) => h.status.name),
      hangingSeconds: Math.round(hung),
      ...(failed ? { failedExitCode: code } : {}),
      ...(skipped ? { skippedSchedules: skipped.series?.count ?? skipped.count ?? 1 } : {}),
    },
  };
}
