// deploy/: every YAML file parses; every object has what Kubernetes requires and no unknown
// fields; workloads have selectors, images, resources, probes and security contexts; the
// environment the manifests set is exactly what the config schema knows and each role needs.
// Overlays are rendered with kubectl when it can (kustomize.test.ts), else locally.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, SETTINGS } from '../../src/config/schema.js';
import { RULES } from '../../src/diagnosis/rules/index.js';
import { type ShutdownRole, shutdownDeadlineMs } from '../../src/shutdown.js';
import {
  type Container,
  containersOf,
  DEPLOY,
  detectKubectl,
  isKustomizeFile,
  isWorkload,
  type KubeObject,
  kustomizationDirs,
  kustomizationRefs,
  kustomizeTreeFiles,
  NAMESPACE,
  named,
  OVERLAYS,
  objectsOfKind,
  parseYamlFile,
  podSpecOf,
  REPO,
  renderLocal,
  renderVariant,
  rolesOf,
  secretTemplate,
  VARIANTS,
  type Variant,
  type Workload,
  yamlFiles,
} from '../helpers/deploy.js';
import {
  agentProblems,
  CONFIG_KEY,
  configMapProblems,
  configMountProblems,
  containerEnv,
  envProblems,
  requiredFieldProblems,
  resolveConfigFile,
  restrictedProblems,
  schemaProblems,
  workloadProblems,
} from './checks.js';

const kubectl = detectKubectl();
const render = (v: Variant): KubeObject[] => (kubectl.usable ? renderVariant(v).objects : renderLocal(v));
const template = secretTemplate();
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
const RULE_IDS = RULES.map((r) => r.meta.id);

/** What a container's process loads: its environment over its config file, as `pod-doctor` does. */
function containerConfig(w: Workload, c: Container, objects: readonly KubeObject[]) {
  const { vars } = containerEnv(c, objects, template);
  const env = Object.fromEntries([...vars].filter(([, v]) => v.value !== undefined).map(([k, v]) => [k, v.value]));
  const { file } = resolveConfigFile(w, c, objects, template);
  return loadConfig(env, RULE_IDS, file ? { file } : {});
}

describe('YAML under deploy/', () => {
  const files = yamlFiles();

  it('exists', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [relative(DEPLOY, f)]))('%s parses', (rel) => {
    const parsed = parseYamlFile(join(DEPLOY, rel));
    expect(parsed.errors).toEqual([]);
    expect(parsed.docs.length).toBeGreaterThan(0);
  });
});

describe('the kustomize tree, file by file', () => {
  const files = kustomizeTreeFiles();
  const dirs = kustomizationDirs();
  const refs = dirs.map((d) => ({ dir: d, ...kustomizationRefs(d) }));
  const patchFiles = new Set(refs.flatMap((r) => r.patches));
  const resourceFiles = new Set(refs.flatMap((r) => r.files));

  it('every path a kustomization names exists', () => {
    const known = new Set([...yamlFiles(), ...dirs]);
    const missing = refs.flatMap((r) =>
      [...r.files, ...r.dirs, ...r.patches].filter((p) => !known.has(p)).map((p) => `${relative(DEPLOY, r.dir)} → ${relative(DEPLOY, p)}`),
    );
    expect(missing).toEqual([]);
  });

  it("every manifest is used by a kustomization, except the Secret template and the alerts' unit tests", () => {
    const unused = files.filter((f) => !f.rel.endsWith('kustomization.yaml') && !patchFiles.has(f.file) && !resourceFiles.has(f.file)).map((f) => f.rel);
    // promtool's unit tests of the PrometheusRule (test/deploy/monitoring.test.ts runs them).
    expect(unused).toEqual(['base/secrets.example.yaml', 'components/monitoring/tests/alerts.test.yaml']);
  });

  it('has the two overlays', () => {
    expect(
      dirs
        .map((d) => relative(DEPLOY, d))
        .filter((d) => d.startsWith('overlays/'))
        .sort(),
    ).toEqual(['overlays/single-process', 'overlays/split']);
  });

  it('resource files have apiVersion, kind, metadata.name and namespace, and only fields the API knows', () => {
    const problems = files
      .filter((f) => resourceFiles.has(f.file))
      .flatMap((f) =>
        f.docs.flatMap((o) => {
          const where = `${f.rel} ${o.kind ?? '?'}/${o.metadata?.name ?? '?'}`;
          const namespaced = !['Namespace', 'ClusterRole', 'ClusterRoleBinding'].includes(o.kind ?? '');
          return [
            ...requiredFieldProblems(o),
            ...schemaProblems(o),
            ...(namespaced && o.metadata?.namespace !== NAMESPACE ? [`namespace is ${o.metadata?.namespace ?? 'unset'}, not ${NAMESPACE}`] : []),
            ...(isWorkload(o) ? workloadProblems(o) : []),
          ].map((p) => `${where}: ${p}`);
        }),
      );
    expect(problems).toEqual([]);
  });

  it('patches name their target (apiVersion, kind, metadata.name)', () => {
    const problems = files.filter((f) => patchFiles.has(f.file)).flatMap((f) => f.docs.flatMap((o) => requiredFieldProblems(o).map((p) => `${f.rel}: ${p}`)));
    expect(problems).toEqual([]);
  });

  it('kustomization files are kustomizations (overlays) or components', () => {
    for (const d of dirs) {
      const k = parseYamlFile(join(d, 'kustomization.yaml')).docs[0]!;
      expect(isKustomizeFile(k), relative(DEPLOY, d)).toBe(true);
      expect(k.kind, relative(DEPLOY, d)).toBe(relative(DEPLOY, d).startsWith('components/') ? 'Component' : 'Kustomization');
    }
  });

  it('each overlay tags the image with the package version (release.test.ts checks the renders)', () => {
    for (const overlay of OVERLAYS) {
      const k = parseYamlFile(join(DEPLOY, 'overlays', overlay, 'kustomization.yaml')).docs[0] as { images?: { name: string; newTag?: string }[] };
      expect(k.images?.find((i) => i.name === 'pod-doctor')?.newTag, overlay).toBe(pkg.version);
    }
  });
});

describe('the Secret template', () => {
  it('holds only secret settings', () => {
    const secretEnvs = new Set(
      Object.values(SETTINGS)
        .filter((s) => 'secret' in s && s.secret)
        .map((s) => s.env as string),
    );
    expect(Object.keys(template).filter((k) => !secretEnvs.has(k))).toEqual([]);
  });

  it('is valid configuration as shipped, with the config file (placeholders included)', () => {
    const cm = parseYamlFile(join(DEPLOY, 'base/config.yaml')).docs.find((d) => d.metadata?.name === 'pod-doctor-config') as { data: Record<string, string> };
    expect(() => loadConfig(template, RULE_IDS, { file: { path: 'base/config.yaml', text: cm.data[CONFIG_KEY]! } })).not.toThrow();
  });

  it('is not applied by any kustomization', () => {
    const refs = kustomizationDirs().flatMap((d) => {
      const r = kustomizationRefs(d);
      return [...r.files, ...r.patches];
    });
    expect(refs.filter((p) => p.endsWith('secrets.example.yaml'))).toEqual([]);
  });
});

describe.each(VARIANTS.map((v) => [v.name, v] as const))(`rendered %s (${kubectl.usable ? kubectl.reason : 'local renderer'})`, (_, variant) => {
  const objects = render(variant);
  const workloads = objects.filter(isWorkload);
  const podDoctor = (w: Workload) => containersOf(w).filter((c) => c.image?.includes('pod-doctor'));
  const byName = (name: string) => named(workloads, name);
  const bot = () => byName('pod-doctor-bot')!;
  const botContainer = (): Container => podSpecOf(bot()).containers![0]!;

  it('every object has the required fields, a namespace if namespaced, and only known fields', () => {
    const problems = objects.flatMap((o) => [...requiredFieldProblems(o), ...schemaProblems(o)].map((p) => `${o.kind}/${o.metadata?.name}: ${p}`));
    expect(problems).toEqual([]);
    const names = objects.map((o) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('workloads have selectors matching their pods, images, resources, probes and security contexts', () => {
    expect(workloads.flatMap((w) => workloadProblems(w).map((p) => `${w.kind}/${w.metadata?.name}: ${p}`))).toEqual([]);
  });

  it('everything but the node agent meets the Pod Security restricted profile', () => {
    const problems = workloads
      .filter((w) => w.metadata?.name !== 'pod-doctor-agent')
      .flatMap((w) => restrictedProblems(w).map((p) => `${w.kind}/${w.metadata?.name}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('the node agent: hostPID, read-only host paths, no API token, root only where documented', () => {
    const agent = byName('pod-doctor-agent');
    expect(agent?.kind).toBe('DaemonSet');
    expect(agentProblems(agent!)).toEqual([]);
    const c = podSpecOf(agent!).containers![0]!;
    const actions = variant.components.includes('agent-actions');
    expect(c.args?.includes('--actions')).toBe(actions);
    expect(c.securityContext?.capabilities?.add?.includes('SYS_ADMIN') ?? false).toBe(actions);
  });

  it('every variable is a setting of the role the container runs, and every required one is set', () => {
    const problems = workloads
      .flatMap((w) => podDoctor(w).map((c) => [w, c] as const))
      .flatMap(([w, c]) =>
        envProblems(c, objects, template, resolveConfigFile(w, c, objects, template).file).map((p) => `${w.metadata?.name}/${c.name}: ${p}`),
      );
    expect(problems).toEqual([]);
    expect(configMapProblems(objects)).toEqual([]);
  });

  it('the bot and the workers read the config file of ConfigMap pod-doctor-config, mounted read-only where POD_DOCTOR_CONFIG says', () => {
    const problems = workloads
      .flatMap((w) => podDoctor(w).map((c) => [w, c] as const))
      .flatMap(([w, c]) => configMountProblems(w, c, objects, template).map((p) => `${w.metadata?.name}/${c.name}: ${p}`));
    expect(problems).toEqual([]);
    const readers = workloads.flatMap((w) =>
      podDoctor(w)
        .filter((c) => resolveConfigFile(w, c, objects, template).file)
        .map(() => w.metadata?.name),
    );
    expect(readers.sort()).toEqual(variant.overlay === 'split' ? ['pod-doctor-bot', 'pod-doctor-worker'] : ['pod-doctor-bot']);
    // A component's switch is an environment override, and wins over the file.
    const checks = workloads.flatMap((w) =>
      podDoctor(w)
        .filter((c) => resolveConfigFile(w, c, objects, template).file)
        .map((c) => containerConfig(w, c, objects).checkSecrets),
    );
    expect(new Set(checks)).toEqual(new Set([variant.components.includes('check-secrets')]));
  });

  it('each process stops (POD_DOCTOR_SHUTDOWN_SECONDS, else its role default) a few seconds before its grace period ends', () => {
    const late = workloads.flatMap((w) =>
      podDoctor(w).flatMap((c) => {
        const role = c.args?.[0] as ShutdownRole;
        const set = containerEnv(c, objects, template).vars.get('POD_DOCTOR_SHUTDOWN_SECONDS')?.value;
        const deadlineMs = shutdownDeadlineMs(role, set ? Number(set) : undefined);
        // Kubernetes' default is 30 s; the hard stops and the exit need a moment after the deadline.
        const graceMs = (podSpecOf(w).terminationGracePeriodSeconds ?? 30) * 1000;
        return deadlineMs + 2000 <= graceMs ? [] : [`${w.metadata?.name}/${c.name}: stops by ${deadlineMs} ms, killed at ${graceMs} ms`];
      }),
    );
    expect(late).toEqual([]);
  });

  it('each container gets a configuration loadConfig accepts (its environment over its config file)', () => {
    for (const w of workloads) {
      for (const c of podDoctor(w)) expect(() => containerConfig(w, c, objects), `${w.metadata?.name}/${c.name}`).not.toThrow();
    }
  });

  it('ports agree: containers, settings (as each process loads them), Services, probes, NetworkPolicies', () => {
    const { port: httpPort, metricsPort: botMetricsPort } = containerConfig(bot(), botContainer(), objects);
    expect(botContainer().ports?.find((p) => p.name === 'http')?.containerPort).toBe(httpPort);
    // The bot's /metrics on its own port; the Service an Ingress sends Slack to carries only the public one.
    expect(botContainer().ports?.find((p) => p.name === 'metrics')?.containerPort).toBe(botMetricsPort);
    expect(botMetricsPort).not.toBe(httpPort);
    const svc = named(objectsOfKind<KubeObject & { spec: { ports: { targetPort: string }[] } }>(objects, 'Service'), 'pod-doctor-bot')!;
    expect(svc.spec.ports.map((p) => p.targetPort)).toEqual(['http']);
    const worker = byName('pod-doctor-worker');
    // The agents are called by whatever runs the jobs: the workers, or the bot's own worker.
    const jobs = worker ? containerConfig(worker, podSpecOf(worker).containers![0]!, objects) : containerConfig(bot(), botContainer(), objects);
    if (worker) expect(podSpecOf(worker).containers![0]!.ports?.find((p) => p.name === 'metrics')?.containerPort).toBe(jobs.metricsPort);
    const agent = podSpecOf(byName('pod-doctor-agent')!).containers![0]!;
    const port = agent.ports?.find((p) => p.name === 'agent');
    expect(port?.hostPort).toBe(port?.containerPort);
    expect(agent.args).toContain(`--port=${port?.containerPort}`);
    expect(jobs.agentUrlTemplate).toBe(`https://{hostIP}:${port?.containerPort}`);
    const policies = objectsOfKind<KubeObject & { spec: { ingress?: { ports?: { port: number }[] }[] } }>(objects, 'NetworkPolicy');
    const allowed = (name: string) => named(policies, name)?.spec.ingress?.flatMap((i) => i.ports?.map((p) => p.port) ?? []);
    expect(allowed('pod-doctor-agent')).toEqual([port?.containerPort]);
    expect(allowed('pod-doctor-bot')).toEqual([httpPort, botMetricsPort]);
    if (worker) expect(allowed('pod-doctor-worker')).toEqual([jobs.metricsPort]);
    // Prometheus scrapes /metrics where the process serves it.
    expect(bot().spec.template?.metadata?.annotations?.['prometheus.io/port']).toBe(String(botMetricsPort));
    if (worker) expect(worker.spec.template?.metadata?.annotations?.['prometheus.io/port']).toBe(String(jobs.metricsPort));
  });

  it('probes: liveness on /healthz; readiness on /readyz where the process serves it', () => {
    for (const w of workloads) {
      for (const c of podDoctor(w)) {
        const _role = rolesOf(c).command;
        expect(c.livenessProbe?.httpGet?.path, `${w.metadata?.name} liveness`).toBe('/healthz');
        const ready = '/readyz';
        expect(c.readinessProbe?.httpGet?.path, `${w.metadata?.name} readiness`).toBe(ready);
      }
    }
  });

  it(`runs ${variant.overlay === 'split' ? 'the bot with --no-worker and a worker Deployment' : 'the jobs inside the bot'}`, () => {
    const worker = byName('pod-doctor-worker');
    const agentClients = workloads.filter((w) => w.spec.template?.metadata?.labels?.['pod-doctor/agent-client'] === 'true').map((w) => w.metadata?.name);
    if (variant.overlay === 'split') {
      expect(botContainer().args).toEqual(['bot', '--no-worker']);
      // The split bot never calls the API: its own identity, no token mounted.
      expect(podSpecOf(bot()).serviceAccountName).toBe('pod-doctor-bot');
      expect(podSpecOf(bot()).automountServiceAccountToken).toBe(false);
      expect(worker?.kind).toBe('Deployment');
      expect(podSpecOf(worker!).containers![0]!.args).toEqual(['worker']);
      expect(podSpecOf(worker!).serviceAccountName).toBe('pod-doctor-remediate');
      expect(agentClients).toEqual(['pod-doctor-worker']);
      expect(named(objectsOfKind(objects, 'PodDisruptionBudget'), 'pod-doctor-worker')).toBeDefined();
    } else {
      expect(botContainer().args).toEqual(['bot']);
      expect(podSpecOf(bot()).serviceAccountName).toBe('pod-doctor-remediate');
      expect(worker).toBeUndefined();
      expect(agentClients).toEqual(['pod-doctor-bot']);
    }
    expect(named(objectsOfKind(objects, 'PodDisruptionBudget'), 'pod-doctor-bot')).toBeDefined();
  });

  it('PodDisruptionBudgets and the Services select pods that exist', () => {
    const selects = (selector: Record<string, string>) =>
      workloads.filter((w) => Object.entries(selector).every(([k, v]) => w.spec.template?.metadata?.labels?.[k] === v));
    for (const pdb of objectsOfKind<KubeObject & { spec: { selector: { matchLabels: Record<string, string> } } }>(objects, 'PodDisruptionBudget')) {
      expect(selects(pdb.spec.selector.matchLabels).length, pdb.metadata?.name).toBe(1);
    }
    for (const svc of objectsOfKind<KubeObject & { spec: { selector: Record<string, string> } }>(objects, 'Service')) {
      expect(selects(svc.spec.selector).length, svc.metadata?.name).toBe(1);
    }
  });

  it('Redis: AOF everysec, noeviction, maxmemory under the limit, on a volume; reached only by bot and workers', () => {
    const redis = byName('pod-doctor-redis');
    if (variant.components.includes('external-redis')) {
      expect(redis).toBeUndefined();
      expect(objects.filter((o) => o.metadata?.name === 'pod-doctor-redis')).toEqual([]);
      return;
    }
    expect(redis?.kind).toBe('StatefulSet');
    const conf = named(objectsOfKind<KubeObject & { data: Record<string, string> }>(objects, 'ConfigMap'), 'pod-doctor-redis')!.data['redis.conf']!;
    const setting = (key: string) =>
      conf
        .split('\n')
        .find((l) => l.startsWith(`${key} `))
        ?.slice(key.length + 1)
        .trim();
    expect(setting('appendonly')).toBe('yes');
    expect(setting('appendfsync')).toBe('everysec');
    expect(setting('maxmemory-policy')).toBe('noeviction');
    const mib = (q: string) =>
      q.endsWith('Mi') ? Number.parseInt(q, 10) : q.endsWith('Gi') ? Number.parseInt(q, 10) * 1024 : q.endsWith('mb') ? Number.parseInt(q, 10) : Number.NaN;
    const c = podSpecOf(redis!).containers![0]!;
    expect(mib(setting('maxmemory') ?? '')).toBeLessThan(mib(c.resources!.limits!.memory!));
    expect(setting('dir')).toBe('/data');
    const claims = (redis!.spec as { volumeClaimTemplates?: { metadata: { name: string } }[] }).volumeClaimTemplates ?? [];
    expect(c.volumeMounts?.find((m) => m.mountPath === '/data')?.name).toBe(claims[0]?.metadata.name);
    expect(template.REDIS_URL).toBe(`redis://pod-doctor-redis:${c.ports?.[0]?.containerPort}`);
    const policy = named(
      objectsOfKind<KubeObject & { spec: { ingress: { from: { podSelector: { matchExpressions: { key: string; values: string[] }[] } }[] }[] } }>(
        objects,
        'NetworkPolicy',
      ),
      'pod-doctor-redis',
    );
    const components = policy?.spec.ingress[0]?.from[0]?.podSelector.matchExpressions.find((e) => e.key === 'app.kubernetes.io/component')?.values;
    expect(components).toEqual(['bot', 'worker']);
  });

  it('the worker autoscaler owns the replica count when present', () => {
    const hpa = named(
      objectsOfKind<KubeObject & { spec: { scaleTargetRef: { kind: string; name: string } } }>(objects, 'HorizontalPodAutoscaler'),
      'pod-doctor-worker',
    );
    const worker = byName('pod-doctor-worker');
    expect(Boolean(hpa)).toBe(variant.components.includes('worker-hpa'));
    if (hpa) {
      expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'pod-doctor-worker' });
      expect(worker?.spec.replicas).toBeUndefined();
    }
  });
});

describe('the checks themselves fail on broken manifests', () => {
  const v = VARIANTS[1]!;
  const objects = renderLocal(v);
  const worker = () => structuredClone(named(objects.filter(isWorkload), 'pod-doctor-worker')!);

  it('a selector that does not match, a missing probe, a writable root filesystem', () => {
    const w = worker();
    w.spec.selector = { matchLabels: { app: 'other' } };
    const c = podSpecOf(w).containers![0]!;
    delete c.readinessProbe;
    c.securityContext = { ...c.securityContext, readOnlyRootFilesystem: false };
    const problems = workloadProblems(w).join('\n');
    expect(problems).toMatch(/does not match the template labels/);
    expect(problems).toMatch(/no readinessProbe/);
    expect(problems).toMatch(/readOnlyRootFilesystem is not true/);
  });

  it('a misspelt field and a boolean label value', () => {
    const w = worker();
    const c = podSpecOf(w).containers![0]!;
    c.securityContext = { ...c.securityContext, readonlyRootFilesystem: true };
    // A YAML `flag: true` label: a boolean where the API wants a string.
    Object.assign(w.spec.template!.metadata!.labels!, { flag: true });
    const problems = schemaProblems(w).join('\n');
    expect(problems).toMatch(/readonlyRootFilesystem: unknown field/);
    expect(problems).toMatch(/labels\.flag: expected a string/);
  });

  it('an unknown variable, a secret from a plain value, a missing required one', () => {
    const c = podSpecOf(worker()).containers![0]!;
    c.env = [
      ...(c.env ?? []).filter((e) => e.name !== 'POD_DOCTOR_AGENT_TOKEN'),
      { name: 'POD_DOCTOR_NO_SUCH', value: '1' },
      { name: 'REDIS_URL', value: 'redis://x:6379' },
    ];
    const problems = envProblems(c, objects, template).join('\n');
    expect(problems).toMatch(/POD_DOCTOR_NO_SUCH is not a setting/);
    expect(problems).toMatch(/REDIS_URL is secret but comes from a value/);
    expect(problems).toMatch(/POD_DOCTOR_AGENT_TOKEN is required for the worker role/);
  });

  it('a config file not mounted, mounted writable, or from another ConfigMap', () => {
    const w = worker();
    const c = podSpecOf(w).containers![0]!;
    c.volumeMounts = (c.volumeMounts ?? []).filter((m) => m.name !== 'config');
    expect(configMountProblems(w, c, objects, template)).toEqual(['POD_DOCTOR_CONFIG=/etc/pod-doctor/config.yaml is under no volume mount']);
    c.volumeMounts.push({ name: 'config', mountPath: '/etc/pod-doctor' });
    expect(configMountProblems(w, c, objects, template)).toEqual(['the config volume config is mounted writable']);
    const volume = podSpecOf(w).volumes!.find((v) => v.name === 'config')!;
    volume.configMap = { name: 'pod-doctor-env' };
    expect(configMountProblems(w, c, objects, template).join('\n')).toMatch(/ConfigMap pod-doctor-env has no key for \/etc\/pod-doctor\/config\.yaml/);
    c.env = (c.env ?? []).filter((e) => e.name !== 'POD_DOCTOR_CONFIG');
    c.envFrom = [];
    expect(configMountProblems(w, c, objects, template)).toEqual([
      'reads no config file (POD_DOCTOR_CONFIG unset)',
      'does not load the environment overrides of ConfigMap pod-doctor-env',
    ]);
  });

  it('a bad config file, a setting nobody mounting it reads, a secret among the environment overrides', () => {
    const broken = structuredClone(objects);
    const maps = objectsOfKind<KubeObject & { data?: Record<string, string> }>(broken, 'ConfigMap');
    const cm = named(maps, 'pod-doctor-config')!;
    cm.data = { [CONFIG_KEY]: `${cm.data![CONFIG_KEY]}polcy: {}\nconsoleUser: me\n`, LOG_LEVEL: 'debug' };
    named(maps, 'pod-doctor-env')!.data = { REDIS_URL: 'redis://r:6379', POD_DOCTOR_NOPE: '1' };
    const problems = configMapProblems(broken);
    expect(problems[0]).toBe('pod-doctor-config has keys config.yaml, LOG_LEVEL; expected config.yaml alone');
    expect(problems).toContainEqual(expect.stringMatching(/^pod-doctor-config\/config\.yaml: polcy: unknown key; did you mean "policy"\? \(line \d+\)$/));
    expect(problems).toContain('pod-doctor-config sets consoleUser, read by cli, and no container mounting it runs those');
    expect(problems).toContain('pod-doctor-env.REDIS_URL is a secret: it belongs in the Secret pod-doctor');
    expect(problems).toContain('pod-doctor-env.POD_DOCTOR_NOPE is not a setting');
  });

  it('a setting of another role, set explicitly', () => {
    const c = podSpecOf(worker()).containers![0]!;
    c.env = [...(c.env ?? []), { name: 'SLACK_API_URL', value: 'https://slack.example/api/' }];
    expect(envProblems(c, objects, template).join('\n')).toMatch(/SLACK_API_URL is a setting of bot, not of worker/);
  });

  it('a root container outside the agent, and a writable host path in the agent', () => {
    const w = worker();
    podSpecOf(w).containers![0]!.securityContext = { runAsUser: 0, allowPrivilegeEscalation: true, capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } };
    expect(restrictedProblems(w).join('\n')).toMatch(/runs as uid 0[\s\S]*allowPrivilegeEscalation[\s\S]*NET_ADMIN/);
    const agent = structuredClone(named(objects.filter(isWorkload), 'pod-doctor-agent')!);
    podSpecOf(agent).containers![0]!.volumeMounts![1]!.readOnly = false;
    expect(agentProblems(agent).join('\n')).toMatch(/mounted writable/);
  });
});
