// deploy/components/monitoring: the monitors scrape ports the processes serve, the PrometheusRule
// passes `promtool check rules` and its unit tests (tests/alerts.test.yaml), every alert says
// how bad it is and where its runbook is, and every metric the alerts and the dashboard query is
// one the code exports. promtool comes with Debian's `prometheus` package; without it these
// checks are skipped, saying so, except in CI (CI=true), where they must run.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { SETTINGS } from '../../src/config/schema.js';
import {
  type Container,
  containersOf,
  DEPLOY,
  detectKubectl,
  isWorkload,
  type KubeObject,
  named,
  normalizeRender,
  type OverlayName,
  objectsOfKind,
  parseYamlFile,
  podSpecOf,
  REPO,
  renderDir,
  renderLocal,
  renderVariant,
  type Variant,
  type Workload,
} from '../helpers/deploy.js';

const COMPONENT = join(DEPLOY, 'components/monitoring');
const UNIT_TESTS = join(COMPONENT, 'tests/alerts.test.yaml');
const RUNBOOK = 'docs/monitoring.md';
/** The PrometheusRule's annotation every runbook_url starts with (the component's replacement). */
const RUNBOOK_BASE = 'pod-doctor/runbook-base';
/** Grafana's reference to the dashboard's data source variable. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template literal.
const DATASOURCE_VAR = '${datasource}';
const SEVERITIES = ['critical', 'warning', 'info'];

// ---- rendering

const kubectl = detectKubectl();
const variant = (overlay: OverlayName): Variant => ({ name: `${overlay}+monitoring`, overlay, components: ['monitoring'] });

interface Generator {
  name: string;
  namespace?: string;
  files?: string[];
  options?: { labels?: Record<string, string>; disableNameSuffixHash?: boolean };
}

/** The component's configMapGenerator, for a local renderer that does not make them. */
function generatedConfigMaps(): KubeObject[] {
  const k = parseYamlFile(join(COMPONENT, 'kustomization.yaml')).docs[0] as { configMapGenerator?: Generator[] };
  return (k.configMapGenerator ?? []).map((g) => {
    if (!g.options?.disableNameSuffixHash) throw new Error(`configMapGenerator ${g.name}: the local rendering needs disableNameSuffixHash`);
    const data = Object.fromEntries(
      (g.files ?? []).map((f) => {
        // `key=path`, or a path whose file name is the key (as kustomize reads them).
        const [key, path] = f.includes('=') ? (f.split('=', 2) as [string, string]) : [basename(f), f];
        return [key, readFileSync(join(COMPONENT, path), 'utf8')];
      }),
    );
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: g.name, namespace: g.namespace, labels: g.options.labels }, data };
  });
}

/** The local renderer, plus the generated ConfigMaps if it does not make them itself. */
function renderLocally(v: Variant): KubeObject[] {
  const local = renderLocal(v);
  const made = (o: KubeObject) =>
    local.some((l) => l.kind === o.kind && l.metadata?.name === o.metadata?.name && l.metadata?.namespace === o.metadata?.namespace);
  return [...local, ...generatedConfigMaps().filter((o) => !made(o))];
}
const render = (v: Variant): KubeObject[] => (kubectl.usable ? renderVariant(v).objects : renderLocally(v));

// ---- the objects' shapes (only what the checks read)

type Selector = { matchLabels?: Record<string, string> };
type ServiceObject = KubeObject & {
  spec: { selector?: Record<string, string>; clusterIP?: string; ports?: { name?: string; port: number; targetPort?: string | number }[] };
};
type ServiceMonitor = KubeObject & {
  spec: { selector: Selector; jobLabel?: string; namespaceSelector?: unknown; endpoints: { port?: string; path?: string }[] };
};
type Relabeling = { sourceLabels?: string[]; targetLabel?: string; replacement?: string; action?: string };
type PodMonitor = KubeObject & {
  spec: {
    selector: Selector;
    namespaceSelector?: unknown;
    podMetricsEndpoints: {
      port?: string;
      path?: string;
      scheme?: string;
      tlsConfig?: { serverName?: string; insecureSkipVerify?: boolean; ca?: unknown };
      relabelings?: Relabeling[];
    }[];
  };
};
type Rule = { alert?: string; record?: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
type PrometheusRule = KubeObject & { spec: { groups: { name: string; rules: Rule[] }[] } };
type NetworkPolicy = KubeObject & {
  spec: { podSelector: Selector; ingress?: { from?: { namespaceSelector?: Selector; podSelector?: Selector }[]; ports?: { port: number }[] }[] };
};

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  Boolean(selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v));
const podLabels = (w: Workload) => w.spec.template?.metadata?.labels;

/** The job label Prometheus gives a monitor's targets (the operator's rules, as deploy/ uses them). */
function jobOf(monitor: ServiceMonitor | PodMonitor, services: ServiceObject[]): string[] {
  if (monitor.kind === 'PodMonitor') {
    const relabeled = (monitor as PodMonitor).spec.podMetricsEndpoints.flatMap((e) => e.relabelings ?? []).filter((r) => r.targetLabel === 'job');
    return relabeled.length ? relabeled.map((r) => r.replacement ?? '') : [`${monitor.metadata?.namespace}/${monitor.metadata?.name}`];
  }
  // The Prometheus Operator names the job after the Service, or after its label `jobLabel` names.
  const jobLabel = (monitor as ServiceMonitor).spec.jobLabel;
  return services
    .filter((s) => selects(monitor.spec.selector.matchLabels, s.metadata?.labels))
    .map((s) => (jobLabel ? s.metadata?.labels?.[jobLabel] : undefined) ?? s.metadata?.name ?? '');
}

// ---- PromQL: the metric names an expression reads

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/**
 * Metric names in a PromQL expression (with Grafana's `$variables`): what is left once strings,
 * label matchers, ranges, grouping clauses and variables are taken out, and is neither a function
 * (followed by `(`), a keyword nor a number or duration.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{[^}]*\}|\$\w+/g, ' ');
  const names = [...bare.matchAll(/(?<![\w:.])([a-zA-Z_:][\w:]*)(?![\w:])(?!\s*\()/g)].map((m) => m[1]!);
  return [...new Set(names.filter((n) => !KEYWORDS.has(n.toLowerCase())))];
}

/** Grafana's `label_values(<selector>, label)` variable queries name a metric in their first argument. */
function variableQueryExprs(query: string): string[] {
  const m = /^\s*label_values\((.*),\s*\w+\s*\)\s*$/.exec(query);
  return m ? [m[1]!] : [];
}

// ---- the names the code exports

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [p] : [];
  });
}

const SUFFIXES = ['_bucket', '_sum', '_count', '_total'];

/**
 * Metric names the processes export: every quoted `pod_doctor_…` literal in src/ (prom-client's
 * `name: '…'`, or a helper's name argument), prom-client's default metrics under the prefix
 * src/ gives collectDefaultMetrics, each with the suffixes histograms and counters are queried
 * by, and Prometheus' own `up`.
 */
async function exportedNames(): Promise<Set<string>> {
  const texts = sourceFiles(join(REPO, 'src')).map((f) => readFileSync(f, 'utf8'));
  const names = new Set(texts.flatMap((t) => [...t.matchAll(/['"`](pod_doctor_[a-z0-9_:]+)['"`]/g)].map((m) => m[1]!)));
  const prefixes = new Set(texts.flatMap((t) => [...t.matchAll(/collectDefaultMetrics\([^)]*prefix:\s*['"]([\w:]+)['"]/g)].map((m) => m[1]!)));
  for (const prefix of prefixes) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix });
    for (const m of await registry.getMetricsAsJSON()) names.add(m.name);
  }
  for (const n of [...names]) for (const s of SUFFIXES) names.add(`${n}${s}`);
  names.add('up');
  return names;
}

// ---- promtool

const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
const probe = spawnSync(PROMTOOL, ['--version'], { encoding: 'utf8', timeout: 20_000 });
const havePromtool = !probe.error && probe.status === 0;
const inCI = Boolean(process.env.CI);
if (!havePromtool && !inCI) console.warn(`promtool checks skipped: ${PROMTOOL} not found (apt-get install --no-install-recommends prometheus)`);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function promtool(args: string[], cwd: string): { status: number | null; output: string } {
  const r = spawnSync(PROMTOOL, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw new Error(`${PROMTOOL} ${args.join(' ')}: ${r.error.message} (in CI, .ci/run installs Debian's prometheus package)`);
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A directory with the rule groups as a Prometheus rules file and a copy of the unit tests. */
function rulesDir(groups: PrometheusRule['spec']['groups']): string {
  const dir = mkdtempSync(join(tmpdir(), 'pod-doctor-promtool-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'pod-doctor.rules.yaml'), stringify({ groups }));
  copyFileSync(UNIT_TESTS, join(dir, 'alerts.test.yaml'));
  return dir;
}

// Grafana variables replaced by values PromQL accepts, to check the dashboard's queries.
const asPromQL = (expr: string) => expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m').replace(/\$\{[^}]*\}|\$\w+/g, 'x');

// ---- the dashboard

interface Panel {
  id?: number;
  type?: string;
  title?: string;
  datasource?: { type?: string; uid?: string };
  gridPos?: { x: number; y: number; w: number; h: number };
  targets?: { refId?: string; expr?: string }[];
  panels?: Panel[];
}
interface Dashboard {
  uid?: string;
  title?: string;
  panels: Panel[];
  templating?: { list: { name: string; type: string; query?: string | { query?: string } }[] };
}

const dashboardText = readFileSync(join(COMPONENT, 'dashboard.json'), 'utf8');
const dashboard = JSON.parse(dashboardText) as Dashboard;
const allPanels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
const queryPanels = allPanels.filter((p) => p.type !== 'row');
const dashboardExprs = queryPanels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}" ${t.refId}`, expr: t.expr ?? '' })));
const variableExprs = (dashboard.templating?.list ?? []).flatMap((v) =>
  variableQueryExprs(typeof v.query === 'string' ? v.query : (v.query?.query ?? '')).map((expr) => ({ where: `variable $${v.name}`, expr })),
);

// ---- the tests

describe.each([['split'], ['single-process']] as const)(`monitoring with overlays/%s (${kubectl.usable ? kubectl.reason : 'local renderer'})`, (overlay) => {
  const objects = render(variant(overlay));
  const workloads = objects.filter(isWorkload);
  const services = objectsOfKind<ServiceObject>(objects, 'Service');
  const serviceMonitors = objectsOfKind<ServiceMonitor>(objects, 'ServiceMonitor');
  const podMonitors = objectsOfKind<PodMonitor>(objects, 'PodMonitor');
  const agent = named(workloads, 'pod-doctor-agent')!;
  const agentContainer = podSpecOf(agent).containers![0]!;

  it.runIf(kubectl.usable)('the local rendering (with the dashboard generator) matches kubectl', () => {
    expect(normalizeRender(renderLocally(variant(overlay)))).toEqual(normalizeRender(objects));
  });

  it('renders a ServiceMonitor for the bot and the workers, a PodMonitor for the agents, one PrometheusRule, the dashboard', () => {
    expect(serviceMonitors.map((m) => m.metadata?.name).sort()).toEqual(['pod-doctor-bot', 'pod-doctor-worker']);
    expect(podMonitors.map((m) => m.metadata?.name)).toEqual(['pod-doctor-agent']);
    expect(objectsOfKind(objects, 'PrometheusRule')).toHaveLength(1);
    expect(named(objectsOfKind(objects, 'ConfigMap'), 'pod-doctor-dashboard')).toBeDefined();
    for (const o of [...serviceMonitors, ...podMonitors, ...objectsOfKind(objects, 'PrometheusRule')]) {
      expect(o.metadata?.namespace, `${o.kind}/${o.metadata?.name}`).toBe('pod-doctor');
      expect(o.apiVersion).toBe('monitoring.coreos.com/v1');
    }
  });

  it('each ServiceMonitor scrapes /metrics on a named Service port that leads to a container port of the pods it selects', () => {
    const problems = serviceMonitors.flatMap((m) => {
      const where = `ServiceMonitor ${m.metadata?.name}`;
      if (m.spec.namespaceSelector) return [`${where}: keep to its own namespace`];
      const svc = services.filter((s) => s.metadata?.namespace === m.metadata?.namespace && selects(m.spec.selector.matchLabels, s.metadata?.labels));
      if (svc.length !== 1) return [`${where} selects ${svc.length} Services, not 1`];
      const service = svc[0]!;
      const pods = workloads.filter((w) => selects(service.spec.selector, podLabels(w)));
      return m.spec.endpoints.flatMap((e) => {
        const out: string[] = [];
        if (e.path !== '/metrics') out.push(`${where}: path ${e.path}`);
        const port = service.spec.ports?.find((p) => p.name === e.port);
        if (!port) return [...out, `${where}: Service ${service.metadata?.name} has no port named ${e.port}`];
        for (const w of pods) {
          const served = containersOf(w).some((c) => c.ports?.some((p) => p.name === port.targetPort || p.containerPort === port.targetPort));
          if (!served) out.push(`${where}: ${w.metadata?.name} has no container port ${port.targetPort}`);
        }
        return out;
      });
    });
    expect(problems).toEqual([]);
    // With overlays/split both the bot and the workers are scraped; single-process has no worker.
    const scraped = serviceMonitors.flatMap((m) =>
      services
        .filter((s) => selects(m.spec.selector.matchLabels, s.metadata?.labels))
        .flatMap((s) => workloads.filter((w) => selects(s.spec.selector, podLabels(w))).map((w) => w.metadata?.name)),
    );
    expect(scraped.sort()).toEqual(overlay === 'split' ? ['pod-doctor-bot', 'pod-doctor-worker'] : ['pod-doctor-bot']);
  });

  it("the PodMonitor scrapes the agents' named port over HTTPS, checking the name of the agents' Service", () => {
    const m = podMonitors[0]!;
    expect(selects(m.spec.selector.matchLabels, podLabels(agent))).toBe(true);
    expect(workloads.filter((w) => selects(m.spec.selector.matchLabels, podLabels(w))).map((w) => w.metadata?.name)).toEqual(['pod-doctor-agent']);
    const endpoint = m.spec.podMetricsEndpoints[0]!;
    expect(endpoint.path).toBe('/metrics');
    expect(agentContainer.ports?.map((p) => p.name)).toContain(endpoint.port);
    expect(endpoint.scheme).toBe('https');
    expect(endpoint.tlsConfig?.insecureSkipVerify).toBe(false);
    // The agents' certificate is for their Service's DNS name.
    const service = services.find((s) => selects(s.spec.selector, podLabels(agent)) && s.spec.ports?.some((p) => p.targetPort === endpoint.port));
    expect(service?.spec.clusterIP).toBe('None');
    expect(endpoint.tlsConfig?.serverName).toBe(`${service?.metadata?.name}.${service?.metadata?.namespace}.svc`);
  });

  it('the agent serves the HTTPS the PodMonitor expects, and the PodMonitor checks it as the job runners do', () => {
    const env = (c: Container, name: string) => c.env?.find((e) => e.name === name);
    const args = [...(agentContainer.command ?? []), ...(agentContainer.args ?? [])];
    const flag = (name: string) => args.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    const plain = flag('plain-http') || ['true', '1', 'yes'].includes(env(agentContainer, 'POD_DOCTOR_AGENT_PLAIN_HTTP')?.value ?? '');
    const tls =
      (flag('tls-cert') || Boolean(env(agentContainer, 'POD_DOCTOR_AGENT_TLS_CERT'))) &&
      (flag('tls-key') || Boolean(env(agentContainer, 'POD_DOCTOR_AGENT_TLS_KEY')));
    expect({ tls, plain }).toEqual({ tls: true, plain: false });
    // The name and the CA the job runners check the agents against (POD_DOCTOR_AGENT_TLS_*).
    const endpoint = podMonitors[0]!.spec.podMetricsEndpoints[0]!;
    const runners = workloads.filter((w) => podLabels(w)?.['pod-doctor/agent-client'] === 'true');
    expect(runners.length).toBeGreaterThan(0);
    for (const w of runners) {
      const c = podSpecOf(w).containers![0]!;
      const serverName = env(c, 'POD_DOCTOR_AGENT_TLS_SERVER_NAME')?.value ?? SETTINGS.agentTlsServerName.schema.parse(undefined);
      expect(endpoint.tlsConfig?.serverName, w.metadata?.name).toBe(serverName);
      const caFile = env(c, 'POD_DOCTOR_AGENT_TLS_CA')?.value;
      // The innermost mount holding the file.
      const mount = (c.volumeMounts ?? []).filter((m) => caFile?.startsWith(`${m.mountPath}/`)).sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
      const volume = podSpecOf(w).volumes?.find((v) => v.name === mount?.name) as
        | { secret?: { secretName?: string; items?: { key: string; path: string }[] } }
        | undefined;
      // Only when the runners read the CA from a mounted Secret: then it is the same Secret and key.
      if (volume?.secret && mount && caFile) {
        const path = relative(mount.mountPath, caFile);
        const key = volume.secret.items?.find((i) => i.path === path)?.key ?? path;
        expect(endpoint.tlsConfig?.ca, w.metadata?.name).toEqual({ secret: { name: volume.secret.secretName, key } });
      }
    }
  });

  it("Prometheus may reach the agents' metrics port (base lets only the job runners in)", () => {
    const port = agentContainer.ports?.find((p) => p.name === podMonitors[0]!.spec.podMetricsEndpoints[0]!.port)?.containerPort;
    const admitting = objectsOfKind<NetworkPolicy>(objects, 'NetworkPolicy')
      .filter((p) => selects(p.spec.podSelector.matchLabels, podLabels(agent)))
      .filter((p) => p.spec.ingress?.some((i) => i.ports?.some((x) => x.port === port) && i.from?.some((f) => f.namespaceSelector && f.podSelector)));
    expect(admitting.map((p) => p.metadata?.name)).toEqual(['pod-doctor-agent-metrics']);
  });

  it('the rules and the dashboard select jobs the monitors create', () => {
    const jobs = new Set([...serviceMonitors, ...podMonitors].flatMap((m) => jobOf(m, services)));
    expect([...jobs].sort()).toEqual(['pod-doctor-agent', 'pod-doctor-bot', 'pod-doctor-worker']);
    const rule = objectsOfKind<PrometheusRule>(objects, 'PrometheusRule')[0]!;
    const exprs = [...rule.spec.groups.flatMap((g) => g.rules.map((r) => r.expr)), ...dashboardExprs.map((e) => e.expr)];
    const selected = exprs.flatMap((e) => [...e.matchAll(/\bjob=~?"([^"]+)"/g)].flatMap((m) => m[1]!.split('|')));
    expect(selected.length).toBeGreaterThan(0);
    expect(selected.filter((j) => !jobs.has(j))).toEqual([]);
  });

  it('the dashboard ConfigMap carries dashboard.json for the Grafana sidecar', () => {
    const cm = named(objectsOfKind<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap'), 'pod-doctor-dashboard')!;
    expect(cm.metadata?.labels?.grafana_dashboard).toBe('1');
    expect(cm.metadata?.namespace).toBe('pod-doctor');
    expect(Object.keys(cm.data ?? {})).toEqual(['pod-doctor.json']);
    expect(cm.data?.['pod-doctor.json']).toBe(dashboardText);
  });
});

describe('the alerts', () => {
  const rule = objectsOfKind<PrometheusRule>(parseYamlFile(join(COMPONENT, 'rules.yaml')).docs, 'PrometheusRule')[0]!;
  const alerts = rule.spec.groups.flatMap((g) => g.rules).filter((r) => r.alert);
  const runbook = readFileSync(join(REPO, RUNBOOK), 'utf8');
  // GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes.
  const anchors = new Set(
    [...runbook.matchAll(/^#+\s+(.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    ),
  );

  it('cover the brief: bot, readiness, queue age, Slack 429s, unreachable agents, failed remediations, refused Alertmanager notifications', () => {
    expect(new Set(alerts.map((a) => a.alert))).toEqual(
      new Set([
        'PodDoctorBotDown',
        'PodDoctorNotReady',
        'PodDoctorRedisDown',
        'PodDoctorQueueStalled',
        'PodDoctorSlackRateLimited',
        'PodDoctorSlackAuthFailing',
        'PodDoctorAgentsUnreachable',
        'PodDoctorAgentsDown',
        'PodDoctorRemediationFailed',
        'PodDoctorAlertmanagerRefused',
      ]),
    );
  });

  it('each has a severity, a summary, a description and an absolute runbook_url: the base annotation + its section in docs/monitoring.md', () => {
    const base = rule.metadata?.annotations?.[RUNBOOK_BASE] ?? '';
    expect(base).toMatch(new RegExp(`^https://[^#\\s]+/${RUNBOOK}$`));
    const problems = alerts.flatMap((a) => {
      const out: string[] = [];
      if (!SEVERITIES.includes(a.labels?.severity ?? '')) out.push(`severity ${a.labels?.severity ?? 'unset'}`);
      if (!a.annotations?.summary) out.push('no summary');
      if (!a.annotations?.description) out.push('no description');
      const anchor = a.alert!.toLowerCase();
      if (a.annotations?.runbook_url !== `${base}#${anchor}`) out.push(`runbook_url is "${a.annotations?.runbook_url}", not ${base}#${anchor}`);
      else if (!anchors.has(anchor)) out.push(`${RUNBOOK} has no heading for #${anchor}`);
      return out.map((p) => `${a.alert}: ${p}`);
    });
    expect(problems).toEqual([]);
  });

  // docs/monitoring.md, "Runbook links": the operator's kustomization patches the annotation and
  // repeats the component's replacement; every alert then links the new base.
  it.runIf(kubectl.usable)('an operator sets the runbook base in one annotation', () => {
    const base = 'https://wiki.example.org/ops/pod-doctor-runbooks.md';
    const dir = mkdtempSync(join(tmpdir(), 'pod-doctor-runbook-base-'));
    try {
      const component = parseYamlFile(join(COMPONENT, 'kustomization.yaml')).docs[0] as { replacements: unknown[] };
      const kustomization = {
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        // kustomize refuses absolute paths; relative ones may leave the kustomization's folder.
        resources: [relative(dir, join(DEPLOY, 'overlays/split'))],
        components: [relative(dir, COMPONENT)],
        patches: [
          {
            patch: stringify({
              apiVersion: 'monitoring.coreos.com/v1',
              kind: 'PrometheusRule',
              metadata: { name: 'pod-doctor', namespace: 'pod-doctor', annotations: { [RUNBOOK_BASE]: base } },
            }),
          },
        ],
        replacements: component.replacements,
      };
      writeFileSync(join(dir, 'kustomization.yaml'), stringify(kustomization));
      const rendered = objectsOfKind<PrometheusRule>(renderDir(dir).objects, 'PrometheusRule')[0]!;
      const urls = rendered.spec.groups.flatMap((g) => g.rules).flatMap((r) => (r.alert ? [r.annotations?.runbook_url] : []));
      expect(urls.length).toBe(alerts.length);
      expect(urls.filter((u) => !u?.startsWith(`${base}#poddoctor`))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('each is unit-tested both firing and silent in tests/alerts.test.yaml', () => {
    const tests = (parseYamlFile(UNIT_TESTS).docs[0] as { tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[] }).tests;
    const cases = tests.flatMap((t) => t.alert_rule_test ?? []);
    const missing = [...new Set(alerts.map((a) => a.alert!))].flatMap((name) => {
      const mine = cases.filter((c) => c.alertname === name);
      return [
        ...(mine.some((c) => (c.exp_alerts ?? []).length > 0) ? [] : [`${name}: never expected to fire`]),
        ...(mine.some((c) => (c.exp_alerts ?? []).length === 0) ? [] : [`${name}: never expected to stay silent`]),
      ];
    });
    expect(missing).toEqual([]);
  });

  describe.skipIf(!havePromtool && !inCI)(`promtool (${havePromtool ? probe.stdout.split('\n')[0] : 'missing'})`, () => {
    it('`promtool check rules` accepts the PrometheusRule, and refuses a broken expression', () => {
      const ok = promtool(['check', 'rules', 'pod-doctor.rules.yaml'], rulesDir(rule.spec.groups));
      expect(ok.output).toContain(`SUCCESS: ${rule.spec.groups.flatMap((g) => g.rules).length} rules found`);
      expect(ok.status).toBe(0);
      const broken = structuredClone(rule.spec.groups);
      broken[0]!.rules[0]!.expr = 'sum by (namespace (pod_doctor_ready)';
      const bad = promtool(['check', 'rules', 'pod-doctor.rules.yaml'], rulesDir(broken));
      expect(bad.status).not.toBe(0);
      expect(bad.output).toMatch(/parse error/);
    });

    it('`promtool test rules`: every alert fires on its series and stays silent otherwise', () => {
      const r = promtool(['test', 'rules', 'alerts.test.yaml'], rulesDir(rule.spec.groups));
      expect(r.output).toContain('SUCCESS');
      expect(r.status).toBe(0);
    });

    it('the unit tests fail when a threshold moves, or when a first failure (a new counter series) is not counted', () => {
      const groups = structuredClone(rule.spec.groups);
      const rules = groups[0]!.rules;
      rules.find((x) => x.alert === 'PodDoctorQueueStalled' && x.labels?.severity === 'warning')!.expr = rules
        .find((x) => x.alert === 'PodDoctorQueueStalled' && x.labels?.severity === 'warning')!
        .expr.replace('> 300', '> 3000');
      rules.find((x) => x.alert === 'PodDoctorRemediationFailed')!.expr =
        'sum by (namespace, playbook, outcome) (increase(pod_doctor_remediation_runs_total{outcome=~"failed|verify_failed"}[1h])) > 0';
      const r = promtool(['test', 'rules', 'alerts.test.yaml'], rulesDir(groups));
      expect(r.status).not.toBe(0);
      expect(r.output).toContain('alertname: PodDoctorQueueStalled, time: 25m');
      expect(r.output).toContain('alertname: PodDoctorRemediationFailed, time: 35m');
      expect(r.output).not.toContain('alertname: PodDoctorBotDown');
    });

    it("the dashboard's queries are valid PromQL", () => {
      const exprs = [...dashboardExprs, ...variableExprs];
      const groups = [{ name: 'dashboard', rules: exprs.map((e, i) => ({ record: `dashboard:query_${i}`, expr: asPromQL(e.expr) })) }];
      const r = promtool(['check', 'rules', 'pod-doctor.rules.yaml'], rulesDir(groups));
      expect(r.output).toContain(`SUCCESS: ${exprs.length} rules found`);
    });
  });
});

describe('the dashboard', () => {
  it('has a uid, unique panel ids, a query in every panel, all on the chosen Prometheus data source', () => {
    expect(dashboard.uid).toBe('pod-doctor');
    const ids = allPanels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const problems = queryPanels.flatMap((p) => [
      ...(p.datasource?.uid === DATASOURCE_VAR ? [] : [`"${p.title}": data source ${JSON.stringify(p.datasource)}`]),
      ...((p.targets ?? []).length && (p.targets ?? []).every((t) => t.expr?.trim()) ? [] : [`"${p.title}": a target without a query`]),
    ]);
    expect(problems).toEqual([]);
    expect(dashboard.templating?.list.map((v) => v.name)).toEqual(['datasource', 'namespace', 'cluster']);
  });

  it('panels fit the 24 columns and do not overlap', () => {
    const boxes = allPanels.map((p) => ({ title: p.title, ...p.gridPos! }));
    expect(boxes.filter((b) => b.x < 0 || b.w < 1 || b.x + b.w > 24).map((b) => b.title)).toEqual([]);
    const overlaps = boxes.flatMap((a, i) =>
      boxes.slice(i + 1).flatMap((b) => (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h ? [`${a.title} / ${b.title}`] : [])),
    );
    expect(overlaps).toEqual([]);
  });

  it('shows queues per cluster, job duration, findings, Slack calls, agent errors per node, remediation outcomes, build info, memory', () => {
    const used = new Set([...dashboardExprs, ...variableExprs].flatMap((e) => metricNames(e.expr)));
    for (const name of [
      'pod_doctor_queue_jobs',
      'pod_doctor_queue_oldest_waiting_seconds',
      'pod_doctor_job_duration_seconds_bucket',
      'pod_doctor_findings_total',
      'pod_doctor_slack_api_calls_total',
      'pod_doctor_agent_call_errors_total',
      'pod_doctor_remediation_runs_total',
      'pod_doctor_build_info',
      'pod_doctor_process_resident_memory_bytes',
    ]) {
      expect(used, name).toContain(name);
    }
  });
});

describe('metric names', () => {
  it('reads the names out of PromQL', () => {
    expect(metricNames('histogram_quantile(0.95, sum by (queue, le) (rate(a_bucket{x="y", z=~"$v"}[$__rate_interval])))')).toEqual(['a_bucket']);
    expect(metricNames('x{o=~"failed|up"} unless x{o="b"} offset 1h')).toEqual(['x']);
    expect(metricNames('count by (namespace) (up{job="pod-doctor-agent"} == 0) >= 3')).toEqual(['up']);
    expect(metricNames('sum(a) by (le) / on (pod) group_left (node) b:rec * 1e3 and bool c')).toEqual(['a', 'b:rec', 'c']);
    expect(metricNames('absent(r{job="x"} == 1)')).toEqual(['r']);
    expect(variableQueryExprs('label_values(pod_doctor_build_info{namespace="x"}, namespace)').flatMap(metricNames)).toEqual(['pod_doctor_build_info']);
  });

  it('every metric the alerts and the dashboard query is one the code exports', async () => {
    const known = await exportedNames();
    // The check can fail: it knows the existing job metrics and nothing made up.
    expect(known).toContain('pod_doctor_job_duration_seconds_bucket');
    expect(known).toContain('pod_doctor_process_resident_memory_bytes');
    expect(metricNames('rate(pod_doctor_no_such_metric_total[5m]) / up').filter((n) => !known.has(n))).toEqual(['pod_doctor_no_such_metric_total']);
    const rule = objectsOfKind<PrometheusRule>(parseYamlFile(join(COMPONENT, 'rules.yaml')).docs, 'PrometheusRule')[0]!;
    const ruleExprs = rule.spec.groups.flatMap((g) => g.rules.map((r) => ({ where: `rule ${r.alert ?? r.record}`, expr: r.expr })));
    const recorded = new Set(rule.spec.groups.flatMap((g) => g.rules.flatMap((r) => (r.record ? [r.record] : []))));
    const unknown = [...ruleExprs, ...dashboardExprs, ...variableExprs].flatMap(({ where, expr }) =>
      metricNames(expr)
        .filter((n) => !known.has(n) && !recorded.has(n))
        .map((n) => `${n} (${relative(REPO, COMPONENT)}: ${where})`),
    );
    expect([...new Set(unknown)]).toEqual([]);
  });
});
