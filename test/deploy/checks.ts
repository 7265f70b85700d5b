import * as k8s from '@kubernetes/client-node';
import { SETTINGS } from '../../src/config/schema.js';
import {
  CONFIG_MAP,
  type Container,
  containersOf,
  isPodDoctorImage,
  isWorkload,
  type KubeObject,
  objectsOfKind,
  type Probe,
  podSpecOf,
  type Role,
  rolesOf,
  SECRET_NAME,
  type Workload,
} from '../helpers/deploy.js';

// ---- fields Kubernetes requires

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export function requiredFieldProblems(o: KubeObject): string[] {
  const out: string[] = [];
  if (typeof o.apiVersion !== 'string' || !o.apiVersion) out.push('no apiVersion');
  if (typeof o.kind !== 'string' || !o.kind) out.push('no kind');
  const name = o.metadata?.name;
  if (typeof name !== 'string' || !name) out.push('no metadata.name');
  else if (!DNS_SUBDOMAIN.test(name) || name.length > 253) out.push(`metadata.name "${name}" is not a DNS subdomain`);
  return out;
}

/** The client-node model of a kind (`apps/v1` `Deployment` → V1Deployment), if it has one. */
function modelName(o: KubeObject): string | undefined {
  const version = (o.apiVersion ?? '').split('/').pop() ?? '';
  return `${version.charAt(0).toUpperCase()}${version.slice(1)}${o.kind ?? ''}`;
}

interface Attribute {
  baseName: string;
  type: string;
}

function modelAttributes(type: string): Attribute[] | undefined {
  const model = (k8s as unknown as Record<string, { getAttributeTypeMap?: () => Attribute[] } | undefined>)[type];
  return typeof model?.getAttributeTypeMap === 'function' ? model.getAttributeTypeMap() : undefined;
}

function fieldProblems(value: unknown, type: string, path: string, out: string[]): void {
  if (value === null || value === undefined) return;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) out.push(`${path}: expected a list`);
    else for (const [i, v] of value.entries()) fieldProblems(v, array[1]!, `${path}[${i}]`, out);
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (typeof value !== 'object' || Array.isArray(value)) out.push(`${path}: expected a map`);
    else for (const [k, v] of Object.entries(value)) fieldProblems(v, map[1]!, `${path}.${k}`, out);
    return;
  }
  switch (type) {
    case 'string':
    case 'Date':
      if (typeof value !== 'string') out.push(`${path}: expected a string, got ${JSON.stringify(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number') out.push(`${path}: expected a number, got ${JSON.stringify(value)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') out.push(`${path}: expected true or false, got ${JSON.stringify(value)}`);
      return;
    case 'IntOrString':
      if (typeof value !== 'string' && typeof value !== 'number') out.push(`${path}: expected a number or a string`);
      return;
    case 'any':
    case 'object':
      return;
  }
  const attributes = modelAttributes(type);
  if (!attributes) return;
  if (typeof value !== 'object' || Array.isArray(value)) {
    out.push(`${path}: expected an object`);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const attr = attributes.find((a) => a.baseName === key);
    if (!attr) out.push(`${path}.${key}: unknown field (${type})`);
    else fieldProblems(v, attr.type, `${path}.${key}`, out);
  }
}

/**
 * Unknown or mistyped fields, against the API models of @kubernetes/client-node (the API server
 * rejects them under kubectl's default strict validation; a typo in a securityContext would
 * otherwise silently weaken it).
 */
export function schemaProblems(o: KubeObject): string[] {
  const type = modelName(o);
  if (!type || !modelAttributes(type)) return [`no API model ${type} for ${o.apiVersion} ${o.kind}`];
  const out: string[] = [];
  fieldProblems(o, type, o.kind ?? 'object', out);
  return out;
}

// ---- workloads

function matches(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

function probePort(p: Probe | undefined): string | number | undefined {
  return p?.httpGet?.port ?? p?.tcpSocket?.port;
}

/** Structure every Deployment/DaemonSet/StatefulSet must have. */
export function workloadProblems(w: Workload): string[] {
  const out: string[] = [];
  const selector = w.spec.selector?.matchLabels;
  const labels = w.spec.template?.metadata?.labels;
  if (!selector || Object.keys(selector).length === 0) out.push('no spec.selector.matchLabels');
  else if (!matches(selector, labels)) out.push(`spec.selector ${JSON.stringify(selector)} does not match the template labels ${JSON.stringify(labels ?? {})}`);
  if (w.spec.selector?.matchExpressions?.length) out.push('selector.matchExpressions: keep selectors to matchLabels');
  const containers = podSpecOf(w).containers ?? [];
  if (containers.length === 0) out.push('no containers');
  for (const c of containers) out.push(...containerProblems(c).map((p) => `container ${c.name}: ${p}`));
  const claims = (w.spec as { volumeClaimTemplates?: { metadata?: { name?: string } }[] }).volumeClaimTemplates ?? [];
  const volumes = new Set([...(podSpecOf(w).volumes ?? []).map((v) => v.name), ...claims.map((c) => c.metadata?.name)]);
  for (const c of containers) {
    for (const m of c.volumeMounts ?? []) if (!volumes.has(m.name)) out.push(`container ${c.name}: mounts volume "${m.name}" the pod does not have`);
  }
  return out;
}

export function containerProblems(c: Container): string[] {
  const out: string[] = [];
  if (!c.name) out.push('no name');
  if (!c.image) out.push('no image');
  const r = c.resources;
  for (const [kind, key] of [
    ['requests', 'cpu'],
    ['requests', 'memory'],
    ['limits', 'cpu'],
    ['limits', 'memory'],
  ] as const) {
    if (!r?.[kind]?.[key]) out.push(`no resources.${kind}.${key}`);
  }
  if (!c.livenessProbe) out.push('no livenessProbe');
  if (!c.readinessProbe) out.push('no readinessProbe');
  const ports = new Set((c.ports ?? []).flatMap((p) => [p.name, p.containerPort]));
  for (const [name, p] of [
    ['livenessProbe', c.livenessProbe],
    ['readinessProbe', c.readinessProbe],
    ['startupProbe', c.startupProbe],
  ] as const) {
    const port = probePort(p);
    if (port !== undefined && !ports.has(port)) out.push(`${name} uses port ${port}, which the container does not declare`);
  }
  const sc = c.securityContext;
  if (!sc) out.push('no securityContext');
  else {
    if (sc.readOnlyRootFilesystem !== true) out.push('securityContext.readOnlyRootFilesystem is not true');
    if (typeof sc.allowPrivilegeEscalation !== 'boolean') out.push('securityContext.allowPrivilegeEscalation not set');
    if (!sc.capabilities?.drop?.includes('ALL')) out.push('securityContext.capabilities.drop lacks ALL');
    if (sc.privileged === true) out.push('privileged');
  }
  return out;
}

/**
 * The Pod Security `restricted` profile, for everything but the node agent: non-root, no
 * escalation, only NET_BIND_SERVICE may be added, RuntimeDefault seccomp, no host namespaces or
 * host paths. pod-doctor's own containers also run as uid 10001, the image's user.
 */
export function restrictedProblems(w: Workload): string[] {
  const out: string[] = [];
  const spec = podSpecOf(w);
  const pod = spec.securityContext ?? {};
  if (spec.hostPID || spec.hostNetwork || spec.hostIPC) out.push('uses host namespaces');
  for (const v of spec.volumes ?? []) if (v.hostPath) out.push(`volume ${v.name} is a hostPath`);
  for (const c of containersOf(w)) {
    const sc = c.securityContext ?? {};
    const nonRoot = sc.runAsNonRoot ?? pod.runAsNonRoot;
    const uid = (sc.runAsUser ?? pod.runAsUser) as number | undefined;
    if (nonRoot !== true) out.push(`container ${c.name}: runAsNonRoot is not true`);
    if (uid === 0) out.push(`container ${c.name}: runs as uid 0`);
    if (isPodDoctorImage(c.image) && uid !== 10001) out.push(`container ${c.name}: runs as uid ${uid ?? '(image default)'}, not 10001`);
    if (sc.allowPrivilegeEscalation !== false) out.push(`container ${c.name}: allowPrivilegeEscalation is not false`);
    const added = (sc.capabilities?.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (added.length) out.push(`container ${c.name}: adds capabilities ${added.join(', ')}`);
    const seccomp = ((sc.seccompProfile ?? pod.seccompProfile) as { type?: string } | undefined)?.type;
    if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') out.push(`container ${c.name}: seccompProfile is ${seccomp ?? 'unset'}, not RuntimeDefault`);
  }
  return out;
}

/** The node agent: host PID namespace, every host path read-only, never privileged, no API token. */
export function agentProblems(w: Workload): string[] {
  const out: string[] = [];
  const spec = podSpecOf(w);
  if (spec.hostPID !== true) out.push('hostPID is not true (the probes read every process under /proc)');
  if (spec.hostNetwork) out.push('hostNetwork: the NetworkPolicy would not apply');
  if (spec.automountServiceAccountToken !== false) out.push('mounts a service account token it never uses');
  const hostVolumes = new Set((spec.volumes ?? []).filter((v) => v.hostPath).map((v) => v.name));
  for (const c of containersOf(w)) {
    for (const m of c.volumeMounts ?? []) {
      if (hostVolumes.has(m.name) && m.readOnly !== true) out.push(`container ${c.name}: host path volume ${m.name} is mounted writable`);
      if (hostVolumes.has(m.name) && !m.mountPath.startsWith('/host/')) out.push(`container ${c.name}: host path ${m.name} is not under --host-root=/host`);
    }
    if (c.securityContext?.privileged) out.push(`container ${c.name}: privileged`);
  }
  return out;
}

// ---- environment and configuration

const SETTING_BY_ENV = new Map(Object.values(SETTINGS).map((s) => [s.env as string, s]));

/**
 * Settings a role needs in a cluster although the schema lets them be unset (the default is
 * fine on a laptop, not in a pod). Settings the schema itself requires are added to these.
 */
export const DEPLOY_REQUIRED: Record<Exclude<Role, 'cli'>, Record<string, string>> = {
  bot: {
    REDIS_URL: 'the default, 127.0.0.1, is the pod itself',
    SLACK_BOT_TOKEN: '`pod-doctor bot` refuses to start without it',
  },
  worker: {
    REDIS_URL: 'the default, 127.0.0.1, is the pod itself',
    POD_DOCTOR_AGENT_TOKEN: 'without it every node check is skipped and the agent DaemonSet is useless',
  },
  agent: {
    POD_DOCTOR_AGENT_TOKEN: 'the agent refuses to start without a bearer token',
  },
};

/** Settings the schema cannot default (parsing "unset" fails). */
export function schemaRequired(role: Role): string[] {
  return Object.values(SETTINGS)
    .filter((s) => (s.roles as readonly string[]).includes(role) && !s.schema.safeParse(undefined).success)
    .map((s) => s.env);
}

export interface ContainerEnv {
  /** Variable → where its value comes from. */
  vars: Map<string, { source: 'value' | 'configmap' | 'secret' | 'field'; value?: string; optional?: boolean }>;
  problems: string[];
}

/** Every variable a container gets, resolved against the rendered ConfigMaps and the Secret template. */
export function containerEnv(c: Container, objects: readonly KubeObject[], template: Record<string, string>): ContainerEnv {
  const vars: ContainerEnv['vars'] = new Map();
  const problems: string[] = [];
  const configMaps = objectsOfKind<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap');
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef) {
      const cm = configMaps.find((m) => m.metadata?.name === from.configMapRef?.name);
      if (!cm) problems.push(`envFrom ConfigMap ${from.configMapRef.name} is not in the manifests`);
      for (const [k, v] of Object.entries(cm?.data ?? {})) vars.set(k, { source: 'configmap', value: v });
    }
    if (from.secretRef) {
      if (from.secretRef.name !== SECRET_NAME) problems.push(`envFrom Secret ${from.secretRef.name}: only ${SECRET_NAME} has a template`);
      for (const [k, v] of Object.entries(template)) vars.set(k, { source: 'secret', value: v, optional: from.secretRef.optional });
    }
  }
  for (const e of c.env ?? []) {
    const s = e.valueFrom?.secretKeyRef;
    const m = e.valueFrom?.configMapKeyRef;
    if (s) {
      if (s.name !== SECRET_NAME) problems.push(`${e.name}: Secret ${s.name} has no template (expected ${SECRET_NAME})`);
      else if (!(s.key in template)) problems.push(`${e.name}: key ${s.key} is not in deploy/base/secrets.example.yaml`);
      vars.set(e.name, { source: 'secret', value: template[s.key], optional: s.optional });
    } else if (m) {
      const cm = configMaps.find((x) => x.metadata?.name === m.name);
      if (!cm) problems.push(`${e.name}: ConfigMap ${m.name} is not in the manifests`);
      else if (!(m.key in (cm.data ?? {}))) problems.push(`${e.name}: ConfigMap ${m.name} has no key ${m.key}`);
      vars.set(e.name, { source: 'configmap', value: cm?.data?.[m.key], optional: m.optional });
    } else if (e.valueFrom?.fieldRef) {
      vars.set(e.name, { source: 'field' });
    } else {
      vars.set(e.name, { source: 'value', value: e.value ?? '' });
    }
  }
  return { vars, problems };
}

/**
 * Every variable a pod-doctor container gets is a setting the schema knows (for one of the
 * roles it runs, with secret settings only from the Secret), and every setting its roles
 * need is set.
 */
export function envProblems(c: Container, objects: readonly KubeObject[], template: Record<string, string>): string[] {
  const { command, roles } = rolesOf(c);
  if (roles.length === 0) return [`runs "${command ?? '(no args)'}", not bot, worker or agent`];
  const { vars, problems } = containerEnv(c, objects, template);
  const out = [...problems];
  for (const [name, from] of vars) {
    const setting = SETTING_BY_ENV.get(name);
    if (!setting) {
      out.push(`${name} is not a setting in src/config/schema.ts`);
      continue;
    }
    const settingRoles = setting.roles as readonly string[];
    const explicit = (c.env ?? []).some((e) => e.name === name);
    // A shared ConfigMap may carry another role's setting; an explicit variable may not.
    if (explicit && !roles.some((r) => settingRoles.includes(r))) out.push(`${name} is a setting of ${settingRoles.join(', ')}, not of ${roles.join(', ')}`);
    if ('secret' in setting && setting.secret && from.source !== 'secret') out.push(`${name} is secret but comes from a ${from.source}`);
  }
  for (const role of roles) {
    if (role === 'cli') continue;
    const required = new Set([...schemaRequired(role), ...Object.keys(DEPLOY_REQUIRED[role])]);
    for (const name of required) {
      const v = vars.get(name);
      if (!v) out.push(`${name} is required for the ${role} role but not set`);
      else if (v.source !== 'field' && !v.value) out.push(`${name} is required for the ${role} role but its value is empty`);
      else if (v.optional) out.push(`${name} is required for the ${role} role but referenced as optional`);
    }
  }
  if (roles.includes('bot')) {
    // The Slack mode decides which second credential the bot needs.
    const mode = vars.get('POD_DOCTOR_SLACK_MODE')?.value || 'http';
    const needed = mode === 'socket' ? 'SLACK_APP_TOKEN' : 'SLACK_SIGNING_SECRET';
    if (!vars.get(needed)?.value) out.push(`${needed} is required in Slack ${mode} mode but not set`);
  }
  return out;
}

/** ConfigMap keys are settings, each read by a role of some container that loads the ConfigMap. */
export function configMapProblems(objects: readonly KubeObject[]): string[] {
  const cm = objectsOfKind<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap').find((m) => m.metadata?.name === CONFIG_MAP);
  if (!cm) return [`no ConfigMap ${CONFIG_MAP}`];
  const consumers = objects
    .filter(isWorkload)
    .flatMap((w) => containersOf(w))
    .filter((c) => (c.envFrom ?? []).some((f) => f.configMapRef?.name === CONFIG_MAP));
  const roles = new Set(consumers.flatMap((c) => rolesOf(c).roles));
  const out: string[] = [];
  for (const key of Object.keys(cm.data ?? {})) {
    const setting = SETTING_BY_ENV.get(key);
    if (!setting) out.push(`${CONFIG_MAP}.${key} is not a setting`);
    else if (!(setting.roles as readonly string[]).some((r) => roles.has(r as Role)))
      out.push(`${CONFIG_MAP}.${key} is read by ${setting.roles.join(', ')}, and no container loading it runs those`);
  }
  return out;
}
