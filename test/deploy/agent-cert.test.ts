// Agent TLS as shipped: scripts/agent-cert.sh and components/agent-tls-cert-manager make the
// Secrets deploy/base mounts (same names, same keys), the paths in the manifests and the config
// file point into those mounts, and a certificate the script made is served by the real agent
// and trusted by the worker's client for the name the config schema checks by default.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type RunningAgent, startAgent } from '../../src/agent/server.js';
import { fetchAgentFacts } from '../../src/collect/agent-client.js';
import { SETTINGS } from '../../src/config/schema.js';
import {
  type Container,
  containersOf,
  detectKubectl,
  type KubeObject,
  named,
  objectsOfKind,
  parseObjects,
  podSpecOf,
  REPO,
  renderLocal,
  renderVariant,
  rolesOf,
  VARIANTS,
  type Variant,
  type Workload,
} from '../helpers/deploy.js';
import { silent } from '../helpers/logger.js';

const SCRIPT = join(REPO, 'scripts/agent-cert.sh');
const DEFAULT_NAME = SETTINGS.agentTlsServerName.schema.parse(undefined);
const kubectl = detectKubectl();
const render = (v: Variant): KubeObject[] => (kubectl.usable ? renderVariant(v).objects : renderLocal(v));

type SecretObject = KubeObject & { type?: string; data?: Record<string, string> };
type SecretVolume = { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } };

function runScript(args: string[]): { secrets: SecretObject[]; stderr: string; status: number | null } {
  const r = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { secrets: r.status === 0 ? (parseObjects(r.stdout) as SecretObject[]) : [], stderr: r.stderr, status: r.status };
}

const decoded = (s: SecretObject | undefined, key: string) => Buffer.from(s?.data?.[key] ?? '', 'base64').toString('utf8');

/** The Secret volume a container mounts over `path`, and the file name under it. */
function secretAt(w: Workload, c: Container, path: string): { secretName?: string; key?: string } {
  const mount = (c.volumeMounts ?? []).find((m) => path.startsWith(`${m.mountPath}/`));
  const volume = (podSpecOf(w).volumes as SecretVolume[] | undefined)?.find((v) => v.name === mount?.name);
  const file = mount ? path.slice(mount.mountPath.length + 1) : undefined;
  const item = volume?.secret?.items?.find((i) => i.path === file);
  return { secretName: volume?.secret?.secretName, key: volume?.secret?.items ? item?.key : file };
}

/** The Secret keys each role needs, as the rendered manifests mount them. */
function mountedSecrets(objects: KubeObject[]): { agent: string[]; jobs: string[] } {
  const workloads = objects.filter((o): o is Workload => ['Deployment', 'DaemonSet'].includes(o.kind ?? ''));
  const agent = named(workloads, 'pod-doctor-agent')!;
  const ac = containersOf(agent)[0]!;
  const env = (c: Container, name: string) => c.env?.find((e) => e.name === name)?.value ?? '';
  const agentFiles = ['POD_DOCTOR_AGENT_TLS_CERT', 'POD_DOCTOR_AGENT_TLS_KEY'].map((n) => secretAt(agent, ac, env(ac, n)));
  // The job runners read the CA path from the config file (agentTlsCa).
  const config = named(objectsOfKind<KubeObject & { data: Record<string, string> }>(objects, 'ConfigMap'), 'pod-doctor-config')!;
  const caPath = (parse(config.data['config.yaml']!) as { agentTlsCa?: string }).agentTlsCa ?? '';
  const runners = workloads.filter((w) => containersOf(w).some((c) => rolesOf(c).roles.includes('worker')));
  const jobFiles = runners.map((w) => secretAt(w, containersOf(w).find((c) => rolesOf(c).roles.includes('worker'))!, caPath));
  return { agent: agentFiles.map((f) => `${f.secretName}/${f.key}`), jobs: jobFiles.map((f) => `${f.secretName}/${f.key}`) };
}

describe('scripts/agent-cert.sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-agent-cert-'));
  const agents: RunningAgent[] = [];
  afterAll(async () => {
    for (const a of agents) await a.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the two Secrets the manifests mount, with the keys they mount', () => {
    const { secrets, status, stderr } = runScript([]);
    expect(status, stderr).toBe(0);
    const keys = secrets.flatMap((s) => Object.keys(s.data ?? {}).map((k) => `${s.metadata?.name}/${k}`));
    for (const v of VARIANTS.filter((x) => x.components.length === 0)) {
      const mounted = mountedSecrets(render(v));
      expect(mounted.agent, v.name).toEqual(['pod-doctor-agent-tls/tls.crt', 'pod-doctor-agent-tls/tls.key']);
      expect(mounted.jobs, v.name).toEqual(['pod-doctor-agent-ca/ca.crt']);
      expect(keys).toEqual(expect.arrayContaining([...mounted.agent, ...mounted.jobs]));
    }
    expect(secrets.map((s) => [s.metadata?.name, s.metadata?.namespace, s.type])).toEqual([
      ['pod-doctor-agent-tls', 'pod-doctor', 'kubernetes.io/tls'],
      ['pod-doctor-agent-ca', 'pod-doctor', 'Opaque'],
    ]);
    // The CA-only Secret holds no key.
    expect(Object.keys(secrets[1]?.data ?? {})).toEqual(['ca.crt']);
  });

  it('its certificate, served by the agent, is trusted by the worker for the default name, and only with its CA', async () => {
    const { secrets } = runScript(['--out-dir', dir]);
    const [tls, ca] = secrets;
    expect(decoded(ca, 'ca.crt')).toBe(readFileSync(join(dir, 'ca.crt'), 'utf8'));
    const agent = await startAgent({
      port: 0,
      host: '127.0.0.1',
      token: 'agent-cert-test-token-0123456789',
      tls: { cert: decoded(tls, 'tls.crt'), key: decoded(tls, 'tls.key') },
      procRoot: join(REPO, 'test/fixtures/nodes/001/proc'),
      hostRoot: join(REPO, 'test/fixtures/nodes/001/host'),
      nodeName: 'n1',
      logger: silent,
    });
    agents.push(agent);
    const ask = (caPem: string) =>
      fetchAgentFacts({
        url: agent.url,
        token: 'agent-cert-test-token-0123456789',
        timeoutMs: 5000,
        pod: { uid: '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b', namespace: 'default', name: 'p', containerIds: [] },
        node: 'n1',
        probes: ['host'],
        transport: { ca: caPem, serverName: DEFAULT_NAME },
      });
    expect((await ask(decoded(ca, 'ca.crt'))).facts?.probes.host?.ok).toBe(true);
    // Each run makes a new CA: the previous one does not trust this certificate.
    const again = runScript([]).secrets[1];
    expect((await ask(decoded(again, 'ca.crt'))).gaps[0]?.reason).toMatch(/^https:\/\/127\.0\.0\.1:\d+ TLS: /);
  });

  it('another namespace: the Secrets there, and the name for it', () => {
    const { secrets } = runScript(['--namespace', 'ops-tools', '--out-dir', join(dir, 'ops')]);
    expect(secrets.map((s) => s.metadata?.namespace)).toEqual(['ops-tools', 'ops-tools']);
    const text = spawnSync('openssl', ['x509', '-in', join(dir, 'ops/tls.crt'), '-noout', '-ext', 'subjectAltName'], { encoding: 'utf8' }).stdout;
    expect(text).toContain('DNS:pod-doctor-agent.ops-tools.svc');
  });

  it.each([
    [['--days', 'x'], /--days "x" is not a number of days/],
    [['--namespace', 'Bad_NS'], /is not a namespace name/],
    [['--bogus'], /unknown option --bogus/],
  ])('refuses %j', (args, message) => {
    const r = runScript(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('components/agent-tls-cert-manager', () => {
  const variant = VARIANTS.find((v) => v.components.includes('agent-tls-cert-manager'));
  type Cert = KubeObject & { spec: { secretName: string; dnsNames?: string[]; isCA?: boolean; issuerRef: { name: string; kind: string } } };
  type Issuer = KubeObject & { spec: { selfSigned?: object; ca?: { secretName: string } } };

  it('is rendered by a variant', () => {
    expect(variant).toBeDefined();
  });

  it('issues, through a private CA, the certificate the agent mounts for the name workers check, and the CA Secret they mount', () => {
    const objects = render(variant!);
    const certs = objectsOfKind<Cert>(objects, 'Certificate');
    const issuers = objectsOfKind<Issuer>(objects, 'Issuer');
    const mounted = mountedSecrets(objects);
    const agentCert = certs.find((c) => !c.spec.isCA)!;
    const caCert = certs.find((c) => c.spec.isCA)!;
    expect(`${agentCert.spec.secretName}/tls.crt`).toBe(mounted.agent[0]);
    expect(agentCert.spec.dnsNames).toEqual([DEFAULT_NAME]);
    expect(mounted.jobs).toEqual([`${caCert.spec.secretName}/ca.crt`]);
    // agent certificate ← CA issuer (backed by the CA Secret) ← self-signed issuer.
    const caIssuer = named(issuers, agentCert.spec.issuerRef.name);
    expect(caIssuer?.spec.ca?.secretName).toBe(caCert.spec.secretName);
    expect(named(issuers, caCert.spec.issuerRef.name)?.spec.selfSigned).toEqual({});
    for (const o of [...certs, ...issuers]) expect(o.metadata?.namespace).toBe('pod-doctor');
  });
});
