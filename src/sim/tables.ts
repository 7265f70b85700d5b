// Server-side printing (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`), which is
// what `kubectl get` shows: the printers of pkg/printers/internalversion for the kinds
// pod-doctor looks at most, Name/Age for other built-ins, and the default table convertor
// (Name, Created At) for custom resources.
import type { KubeObject } from '../diagnosis/types.js';
import { isObject, type JsonObject } from './json.js';
import type { ResourceDef } from './resources.js';

type Cell = string | number;

interface Column {
  name: string;
  type: 'string' | 'integer' | 'date';
  format?: string;
  priority?: number;
}

interface Printer {
  columns: Column[];
  cells(obj: KubeObject, now: Date): Cell[];
}

const NAME: Column = { name: 'Name', type: 'string', format: 'name' };
const AGE: Column = { name: 'Age', type: 'string' };
const wide = (name: string, type: Column['type'] = 'string'): Column => ({ name, type, priority: 1 });

/** duration.HumanDuration, as kubectl's AGE column renders it. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${days % 365}d`;
  return `${Math.floor(days / 365)}y`;
}

function since(ts: unknown, now: Date): string {
  if (typeof ts !== 'string' || !ts) return '<unknown>';
  return humanDuration(now.getTime() - Date.parse(ts));
}

const list = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: unknown, fallback = '<none>'): string => (typeof v === 'string' && v ? v : fallback);

/** printPod: READY, STATUS (the kubectl reason logic) and RESTARTS. */
function podCells(pod: KubeObject, now: Date): Cell[] {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const containers = list(spec.containers);
  let reason = str(status.reason, str(status.phase, ''));
  let restarts = 0;
  let ready = 0;
  let initializing = false;
  const inits = list(status.initContainerStatuses);
  for (const [i, c] of inits.entries()) {
    restarts += Number(c.restartCount ?? 0);
    const state = isObject(c.state) ? c.state : {};
    const term = isObject(state.terminated) ? state.terminated : undefined;
    const wait = isObject(state.waiting) ? state.waiting : undefined;
    if (term && Number(term.exitCode ?? 0) === 0) continue;
    if (term)
      reason = term.reason ? `Init:${String(term.reason)}` : term.signal ? `Init:Signal:${String(term.signal)}` : `Init:ExitCode:${String(term.exitCode ?? 0)}`;
    else if (wait?.reason && wait.reason !== 'PodInitializing') reason = `Init:${String(wait.reason)}`;
    else reason = `Init:${i}/${list(spec.initContainers).length}`;
    initializing = true;
    break;
  }
  if (!initializing) {
    restarts = 0;
    let hasRunning = false;
    const statuses = list(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i -= 1) {
      const c = statuses[i] ?? {};
      restarts += Number(c.restartCount ?? 0);
      const state = isObject(c.state) ? c.state : {};
      const term = isObject(state.terminated) ? state.terminated : undefined;
      const wait = isObject(state.waiting) ? state.waiting : undefined;
      if (wait?.reason) reason = String(wait.reason);
      else if (term?.reason) reason = String(term.reason);
      else if (term) reason = term.signal ? `Signal:${String(term.signal)}` : `ExitCode:${String(term.exitCode ?? 0)}`;
      else if (c.ready === true && isObject(state.running)) {
        hasRunning = true;
        ready += 1;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = list(status.conditions).some((x) => x.type === 'Ready' && x.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata?.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  const gates = list(spec.readinessGates);
  const gatesCell = gates.length
    ? `${gates.filter((g) => list(status.conditions).some((x) => x.type === g.conditionType && x.status === 'True')).length}/${gates.length}`
    : '<none>';
  return [
    pod.metadata?.name ?? '',
    `${ready}/${containers.length}`,
    reason,
    restarts,
    since(pod.metadata?.creationTimestamp, now),
    str(status.podIP),
    str(spec.nodeName),
    str(status.nominatedNodeName),
    gatesCell,
  ];
}

function nodeCells(node: KubeObject, now: Date): Cell[] {
  const status = node.status ?? {};
  const readyCond = list(status.conditions).find((x) => x.type === 'Ready');
  const states = [readyCond ? (readyCond.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable === true) states.push('SchedulingDisabled');
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  const info = isObject(status.nodeInfo) ? status.nodeInfo : {};
  const address = (type: string) => str(list(status.addresses).find((a) => a.type === type)?.address);
  return [
    node.metadata?.name ?? '',
    states.join(','),
    roles.size ? [...roles].sort().join(',') : '<none>',
    since(node.metadata?.creationTimestamp, now),
    str(info.kubeletVersion, ''),
    address('InternalIP'),
    address('ExternalIP'),
    str(info.osImage, '<unknown>'),
    str(info.kernelVersion, '<unknown>'),
    str(info.containerRuntimeVersion, '<unknown>'),
  ];
}

function eventCells(e: KubeObject, now: Date): Cell[] {
  const inv = isObject(e.involvedObject) ? e.involvedObject : {};
  const first = e.firstTimestamp ? since(e.firstTimestamp, now) : since(e.eventTime, now);
  let last = e.lastTimestamp ? since(e.lastTimestamp, now) : first;
  let count = typeof e.count === 'number' ? e.count : 0;
  if (isObject(e.series)) {
    last = since(e.series.lastObservedTime, now);
    count = Number(e.series.count ?? 0);
  } else if (count === 0) {
    count = 1;
  }
  const kind = String(inv.kind ?? '').toLowerCase();
  const source = isObject(e.source) ? [e.source.component, e.source.host].filter(Boolean).join(', ') : '';
  return [
    last,
    String(e.type ?? ''),
    String(e.reason ?? ''),
    inv.name ? `${kind}/${String(inv.name)}` : kind,
    String(inv.fieldPath ?? ''),
    source,
    String(e.message ?? '').trim(),
    first,
    count,
    e.metadata?.name ?? '',
  ];
}

const PRINTERS: Record<string, Printer> = {
  '/pods': {
    columns: [
      NAME,
      { name: 'Ready', type: 'string' },
      { name: 'Status', type: 'string' },
      { name: 'Restarts', type: 'integer' },
      AGE,
      wide('IP'),
      wide('Node'),
      wide('Nominated Node'),
      wide('Readiness Gates'),
    ],
    cells: podCells,
  },
  '/nodes': {
    columns: [
      NAME,
      { name: 'Status', type: 'string' },
      { name: 'Roles', type: 'string' },
      AGE,
      { name: 'Version', type: 'string' },
      wide('Internal-IP'),
      wide('External-IP'),
      wide('OS-Image'),
      wide('Kernel-Version'),
      wide('Container-Runtime'),
    ],
    cells: nodeCells,
  },
  '/namespaces': {
    columns: [NAME, { name: 'Status', type: 'string' }, AGE],
    cells: (o, now) => [o.metadata?.name ?? '', String(o.status?.phase ?? ''), since(o.metadata?.creationTimestamp, now)],
  },
  '/events': {
    columns: [
      { name: 'Last Seen', type: 'string' },
      { name: 'Type', type: 'string' },
      { name: 'Reason', type: 'string' },
      { name: 'Object', type: 'string' },
      wide('Subobject'),
      wide('Source'),
      { name: 'Message', type: 'string' },
      wide('First Seen'),
      wide('Count'),
      { ...wide('Name'), format: 'name' },
    ],
    cells: eventCells,
  },
  '/configmaps': {
    columns: [NAME, { name: 'Data', type: 'integer' }, AGE],
    cells: (o, now) => [
      o.metadata?.name ?? '',
      Object.keys({ ...(o.data as object), ...(o.binaryData as object) }).length,
      since(o.metadata?.creationTimestamp, now),
    ],
  },
  '/secrets': {
    columns: [NAME, { name: 'Type', type: 'string' }, { name: 'Data', type: 'integer' }, AGE],
    cells: (o, now) => [o.metadata?.name ?? '', String(o.type ?? ''), Object.keys({ ...(o.data as object) }).length, since(o.metadata?.creationTimestamp, now)],
  },
  'apps/deployments': {
    columns: [NAME, { name: 'Ready', type: 'string' }, { name: 'Up-to-date', type: 'integer' }, { name: 'Available', type: 'integer' }, AGE],
    cells: (o, now) => [
      o.metadata?.name ?? '',
      `${Number(o.status?.readyReplicas ?? 0)}/${Number(o.spec?.replicas ?? 0)}`,
      Number(o.status?.updatedReplicas ?? 0),
      Number(o.status?.availableReplicas ?? 0),
      since(o.metadata?.creationTimestamp, now),
    ],
  },
};

function printerFor(def: ResourceDef): Printer {
  const p = PRINTERS[`${def.group}/${def.resource}`];
  if (p) return p;
  // rest.NewDefaultTableConvertor for custom resources; Name/Age for other built-ins.
  if (def.custom)
    return { columns: [NAME, { name: 'Created At', type: 'date' }], cells: (o) => [o.metadata?.name ?? '', String(o.metadata?.creationTimestamp ?? '')] };
  return { columns: [NAME, AGE], cells: (o, now) => [o.metadata?.name ?? '', since(o.metadata?.creationTimestamp, now)] };
}

/** A meta.k8s.io Table of `items`; rows carry PartialObjectMetadata (includeObject=Metadata). */
export function toTable(def: ResourceDef, items: KubeObject[], now: Date, listMeta: Record<string, unknown>, tableVersion: string): unknown {
  const printer = printerFor(def);
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${tableVersion}`,
    metadata: listMeta,
    columnDefinitions: printer.columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: '', priority: c.priority ?? 0 })),
    rows: items.map((o) => ({
      cells: printer.cells(o, now),
      object: { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${tableVersion}`, metadata: o.metadata ?? {} },
    })),
  };
}
