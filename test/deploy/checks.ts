import { dirname, posix } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { type ConfigFileSource, parseConfigFile } from '../../src/config/file.js';
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
  // The Prometheus Operator's custom resources have no model here: monitoring.test.ts checks them.
  if ((o.apiVersion ?? '').startsWith('monitoring.coreos.com/')) return [];
  // Nor cert-manager's (components/agent-tls-cert-manager): agent-cert.test.ts checks what they name.
  if ((o.apiVersion ?? '').startsWith('cert-manager.io/')) return [];
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
      else if (!(m.key in (cm.data ?? {})) && !m.optional) problems.push(`${e.name}: ConfigMap ${m.name} has no key ${m.key}`);
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
 * need is set, by a variable or by its config file.
 */
export function envProblems(c: Container, objects: readonly KubeObject[], template: Record<string, string>, file?: ConfigFileSource): string[] {
  const { command, roles } = rolesOf(c);
  if (roles.length === 0) return [`runs "${command ?? '(no args)'}", not bot, worker or agent`];
  const { vars, problems } = containerEnv(c, objects, template);
  const inFile = file ? parseConfigFile(file, SETTINGS).values : {};
  const fromFile = (name: string) => {
    const key = Object.entries(SETTINGS).find(([, s]) => s.env === name)?.[0];
    return key === undefined ? undefined : inFile[key];
  };
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
      if (!v && fromFile(name) !== undefined) continue;
      if (!v) out.push(`${name} is required for the ${role} role but not set`);
      else if (v.source !== 'field' && !v.value) out.push(`${name} is required for the ${role} role but its value is empty`);
      else if (v.optional) out.push(`${name} is required for the ${role} role but referenced as optional`);
    }
  }
  if (roles.includes('bot')) {
    // The surfaces served decide the credentials `pod-doctor bot` refuses to start without.
    const surfaces = (vars.get(SETTINGS.chatSurfaces.env)?.value || String(fromFile(SETTINGS.chatSurfaces.env) ?? 'slack')).split(',').map((x) => x.trim());
    const needs = (name: string, why: string) => {
      const v = vars.get(name);
      if (!v || v.optional || (v.source !== 'secret' && !v.value)) out.push(`${name} is required ${why} but not set (or optional)`);
    };
    if (surfaces.includes('slack')) {
      needs('SLACK_BOT_TOKEN', 'to serve Slack');
      // The Slack mode decides which second credential the bot needs.
      const mode = vars.get(SETTINGS.slackMode.env)?.value || String(fromFile(SETTINGS.slackMode.env) ?? 'http');
      const needed = mode === 'socket' ? 'SLACK_APP_TOKEN' : 'SLACK_SIGNING_SECRET';
      if (!vars.get(needed)?.value) out.push(`${needed} is required in Slack ${mode} mode but not set`);
    }
    if (surfaces.includes('mattermost'))
      for (const name of ['MATTERMOST_URL', 'MATTERMOST_BOT_TOKEN', 'MATTERMOST_COMMAND_TOKEN', 'MATTERMOST_ACTION_SECRET', 'POD_DOCTOR_PUBLIC_URL'])
        if (fromFile(name) === undefined) needs(name, 'to serve Mattermost');
  }
  return out;
}

// ---- the config file

/** The ConfigMap of environment overrides the bot and workers load (envFrom). */
export const ENV_MAP = 'pod-doctor-env';
/** The config file's key in the ConfigMap pod-doctor-config. */
export const CONFIG_KEY = 'config.yaml';

type ConfigMapObject = KubeObject & { data?: Record<string, string> };
type ConfigMapVolume = { name: string; configMap?: { name?: string; items?: { key: string; path: string }[] } };

/**
 * The config file a container reads: POD_DOCTOR_CONFIG, through the volume mounted over it, to
 * a ConfigMap key. `file` is undefined when it reads none; `problems` say why it cannot be read.
 */
export function resolveConfigFile(
  w: Workload,
  c: Container,
  objects: readonly KubeObject[],
  template: Record<string, string>,
): { file?: ConfigFileSource; configMap?: string; problems: string[] } {
  const path = containerEnv(c, objects, template).vars.get(SETTINGS.configFile.env)?.value;
  if (!path) return { problems: [] };
  const mount = (c.volumeMounts ?? [])
    .filter((m) => path.startsWith(`${m.mountPath.replace(/\/$/, '')}/`))
    .sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
  if (!mount) return { problems: [`${SETTINGS.configFile.env}=${path} is under no volume mount`] };
  const problems = mount.readOnly === true ? [] : [`the config volume ${mount.name} is mounted writable`];
  const volume = (podSpecOf(w).volumes ?? []).find((v) => v.name === mount.name) as ConfigMapVolume | undefined;
  const cmName = volume?.configMap?.name;
  if (!cmName) return { problems: [...problems, `volume ${mount.name} (mounted over ${path}) is not a ConfigMap`] };
  const rel = posix.relative(mount.mountPath, path);
  const key = volume.configMap?.items ? volume.configMap.items.find((i) => i.path === rel)?.key : rel;
  const cm = objectsOfKind<ConfigMapObject>(objects, 'ConfigMap').find((m) => m.metadata?.name === cmName);
  const text = key === undefined ? undefined : cm?.data?.[key];
  if (text === undefined) return { configMap: cmName, problems: [...problems, `ConfigMap ${cmName} has no key for ${path} (${key ?? rel})`] };
  return { file: { path, text }, configMap: cmName, problems };
}

/**
 * The bot and the workers read the config file from pod-doctor-config, mounted read-only in
 * the directory POD_DOCTOR_CONFIG names, and load the overrides of pod-doctor-env.
 */
export function configMountProblems(w: Workload, c: Container, objects: readonly KubeObject[], template: Record<string, string>): string[] {
  const { roles } = rolesOf(c);
  if (!roles.includes('bot') && !roles.includes('worker')) return [];
  const { file, configMap, problems } = resolveConfigFile(w, c, objects, template);
  const out = [...problems];
  if (!file && problems.length === 0) out.push(`reads no config file (${SETTINGS.configFile.env} unset)`);
  if (configMap && configMap !== CONFIG_MAP) out.push(`reads its config file from ConfigMap ${configMap}, not ${CONFIG_MAP}`);
  if (file && dirname(file.path) === '/') out.push(`the config file ${file.path} is not in a directory of its own`);
  if (!(c.envFrom ?? []).some((f) => f.configMapRef?.name === ENV_MAP)) out.push(`does not load the environment overrides of ConfigMap ${ENV_MAP}`);
  return out;
}

/** Roles of the containers that mount ConfigMap `name` as a volume, and of those that load it as environment. */
function consumerRoles(objects: readonly KubeObject[], name: string): { mounted: Set<Role>; env: Set<Role> } {
  const mounted = new Set<Role>();
  const env = new Set<Role>();
  for (const w of objects.filter(isWorkload)) {
    const volumes = new Set((podSpecOf(w).volumes as ConfigMapVolume[] | undefined)?.filter((v) => v.configMap?.name === name).map((v) => v.name));
    for (const c of containersOf(w)) {
      const roles = rolesOf(c).roles;
      if ((c.volumeMounts ?? []).some((m) => volumes.has(m.name))) for (const r of roles) mounted.add(r);
      if ((c.envFrom ?? []).some((f) => f.configMapRef?.name === name)) for (const r of roles) env.add(r);
    }
  }
  return { mounted, env };
}

/**
 * pod-doctor-config holds the config file alone, valid, each of its settings read by a role of
 * some container that mounts it; pod-doctor-env holds settings (not secrets), each read by a
 * role of some container that loads it.
 */
export function configMapProblems(objects: readonly KubeObject[]): string[] {
  const maps = objectsOfKind<ConfigMapObject>(objects, 'ConfigMap');
  const cm = maps.find((m) => m.metadata?.name === CONFIG_MAP);
  if (!cm) return [`no ConfigMap ${CONFIG_MAP}`];
  const out: string[] = [];
  const keys = Object.keys(cm.data ?? {});
  if (keys.join() !== CONFIG_KEY) out.push(`${CONFIG_MAP} has keys ${keys.join(', ') || '(none)'}; expected ${CONFIG_KEY} alone`);
  const parsed = parseConfigFile({ path: `${CONFIG_MAP}/${CONFIG_KEY}`, text: cm.data?.[CONFIG_KEY] ?? '' }, SETTINGS);
  out.push(...parsed.problems);
  const readers = consumerRoles(objects, CONFIG_MAP).mounted;
  if (readers.size === 0) out.push(`${CONFIG_MAP} is mounted by no container`);
  for (const key of Object.keys(parsed.raw)) {
    const roles = SETTINGS[key as keyof typeof SETTINGS].roles as readonly Role[];
    if (!roles.some((r) => readers.has(r))) out.push(`${CONFIG_MAP} sets ${key}, read by ${roles.join(', ')}, and no container mounting it runs those`);
  }
  const env = maps.find((m) => m.metadata?.name === ENV_MAP);
  if (!env) return [...out, `no ConfigMap ${ENV_MAP}`];
  const loaders = consumerRoles(objects, ENV_MAP).env;
  for (const key of Object.keys(env.data ?? {})) {
    const setting = SETTING_BY_ENV.get(key);
    if (!setting) out.push(`${ENV_MAP}.${key} is not a setting`);
    else if ('secret' in setting && setting.secret) out.push(`${ENV_MAP}.${key} is a secret: it belongs in the Secret ${SECRET_NAME}`);
    else if (!(setting.roles as readonly string[]).some((r) => loaders.has(r as Role)))
      out.push(`${ENV_MAP}.${key} is read by ${setting.roles.join(', ')}, and no container loading it runs those`);
  }
  return out;
}
