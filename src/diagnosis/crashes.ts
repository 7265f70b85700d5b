import { decisiveLines } from './decisive.js';
import {
  clip,
  containerStatuses,
  eventEvidence,
  formatDuration,
  isDeleting,
  ms,
  type NamedStatus,
  newestFirst,
  secondsSince,
  statusEvidence,
} from './facts.js';
import { type Reading, readExit, readTexts, type Text } from './mechanisms/index.js';
import type { Container, ContainerStatus, Event, Evidence, LogTail, MechanismRef, Pod, Snapshot } from './types.js';

// The crash rules share one answer to "which containers crashed?", with the texts, logs and
// evidence of each crash: crash.app-exit is the catch-all, and the specific rules (OOM, probe,
// subPath, ports, runtime errors...) that supersede it ask the same questions.

export type Terminated = NonNullable<NonNullable<ContainerStatus['lastState']>['terminated']>;

export interface Crash {
  s: NamedStatus;
  name: string;
  spec?: Container;
  /** The termination that explains the crash: the current one when it stays terminated, else the last. */
  term?: Terminated;
  termField: 'state' | 'lastState';
  /** CrashLoopBackOff / RunContainerError while the kubelet waits to restart it. */
  waiting?: { reason: string; message?: string };
  restarts: number;
  /** Nobody restarts it: restartPolicy Never, or the pod already Failed. */
  final: boolean;
  /** Running again, but it crashed repeatedly in the last minutes. */
  flapping: boolean;
}

/** Within this many seconds a crash of a container that is Running again still counts. */
export const RECENT_CRASH_SECONDS = 900;

// Well-known legacy sidecars (regular containers injected beside the app) that are
// stopped with SIGTERM/SIGKILL once the main container of a Job finished.
const SIDECAR_NAMES =
  /^(istio-proxy|linkerd-proxy|envoy(-sidecar)?|cloud-sql-proxy|cloudsql-proxy|vault-agent|consul-(connect-)?(envoy|dataplane)|daprd|kuma-sidecar|otel-collector|fluent-bit)$/;

const CRASH_WAITING = new Set(['CrashLoopBackOff', 'RunContainerError']);

export function containerSpec(pod: Pod | undefined, name: string, init: boolean): Container | undefined {
  const list = init ? pod?.spec?.initContainers : pod?.spec?.containers;
  return list?.find((c) => c.name === name);
}

function abnormal(t: Terminated | undefined): t is Terminated {
  return t !== undefined && (t.exitCode !== 0 || t.reason === 'OOMKilled') && t.reason !== 'ContainerStatusUnknown';
}

// The kubelet's kill after a failed liveness/startup probe (current and <= 1.13 wording).
const PROBE_KILL = /failed (?:liveness|startup) probe/i;

/**
 * A graceful app exits 0 on the SIGTERM of a probe kill: that restart is a crash all the same.
 * Told apart from a normal exit by the kubelet's Killing event for this container.
 */
function killedByProbe(snapshot: Snapshot, s: NamedStatus, t: Terminated | undefined): t is Terminated {
  if (t?.exitCode !== 0) return false;
  const path = `spec.${s.init ? 'initContainers' : 'containers'}{${s.status.name}}`;
  return snapshot.events.some(
    (e) =>
      e.reason === 'Killing' &&
      PROBE_KILL.test(e.message ?? '') &&
      (e.involvedObject?.fieldPath ? e.involvedObject.fieldPath === path : new RegExp(`\\b${escapeRe(s.status.name)}\\b`).test(e.message ?? '')),
  );
}

/** Native sidecar (init container with restartPolicy Always) or a well-known injected proxy. */
function sidecarLike(s: NamedStatus, spec: Container | undefined): boolean {
  if (s.init) return spec?.restartPolicy === 'Always';
  return SIDECAR_NAMES.test(s.status.name);
}

/**
 * A sidecar stopped because the work finished is not a crash: every main (regular,
 * non-sidecar) container has terminated and this one ended no earlier than they did,
 * killed by a signal (137/143) or being a known sidecar. Known false positive of other tools.
 */
function stoppedAfterMain(pod: Pod, s: NamedStatus, spec: Container | undefined, term: Terminated, all: NamedStatus[]): boolean {
  if (term.reason === 'OOMKilled') return false;
  const signalled = term.exitCode === 137 || term.exitCode === 143;
  if (!sidecarLike(s, spec) && !signalled) return false;
  const mains = all.filter((o) => !o.init && o !== s && !sidecarLike(o, containerSpec(pod, o.status.name, false)));
  if (mains.length === 0) return false;
  const mainEnds: number[] = [];
  for (const m of mains) {
    const t = m.status.state?.terminated;
    if (!t) return false;
    const end = ms(t.finishedAt);
    if (end !== undefined) mainEnds.push(end);
  }
  const mine = ms(term.finishedAt);
  if (mine === undefined || mainEnds.length === 0) return true;
  return mine + 5000 >= Math.max(...mainEnds);
}

/** Per snapshot: a dozen crash rules ask, and the answer walks every container status. */
const crashesOf = new WeakMap<Snapshot, Crash[]>();

/** Crashes a diagnosis explains at most: a pod of thousands of containers stays one bounded answer. */
export const MAX_CRASHES = 32;

/** Containers that crashed and still matter now; silent on healthy and finished pods. */
export function crashes(snapshot: Snapshot): Crash[] {
  let found = crashesOf.get(snapshot);
  if (!found) crashesOf.set(snapshot, (found = findCrashes(snapshot).slice(0, MAX_CRASHES)));
  return found;
}

function findCrashes(snapshot: Snapshot): Crash[] {
  const pod = snapshot.pod;
  if (!pod?.status) return [];
  // Succeeded: the kubelet judged the pod complete (native sidecars' exit codes do not count).
  if (pod.status.phase === 'Succeeded') return [];
  // Evicted, DeadlineExceeded, OutOf*, NodeAffinity, Shutdown: the pod was stopped, not crashed.
  if (pod.status.reason) return [];
  const all = containerStatuses(pod);
  const deleting = isDeleting(pod);
  const out: Crash[] = [];
  for (const s of all) {
    const st = s.status;
    const spec = containerSpec(pod, st.name, s.init);
    const waiting = st.state?.waiting;
    const current = st.state?.terminated;
    const last = st.lastState?.terminated;
    const base = { s, name: st.name, ...(spec ? { spec } : {}), restarts: st.restartCount ?? 0 };
    if (waiting?.reason && CRASH_WAITING.has(waiting.reason)) {
      if (deleting && waiting.reason !== 'CrashLoopBackOff') continue;
      out.push({
        ...base,
        ...(last ? { term: last } : {}),
        termField: 'lastState',
        waiting: { reason: waiting.reason, ...(waiting.message ? { message: waiting.message } : {}) },
        final: false,
        flapping: false,
      });
      continue;
    }
    if (abnormal(current) || killedByProbe(snapshot, s, current)) {
      // Killed on the way out of a deleted pod, or a sidecar stopped after the work was done.
      if (deleting || stoppedAfterMain(pod, s, spec, current, all)) continue;
      // With restartPolicy Always/OnFailure this state is the moment before the restart.
      const final = pod.spec?.restartPolicy === 'Never' || pod.status.phase === 'Failed';
      out.push({ ...base, term: current, termField: 'state', final, flapping: false });
      continue;
    }
    if (st.state?.running && (abnormal(last) || killedByProbe(snapshot, s, last))) {
      const since = secondsSince(snapshot, last.finishedAt);
      if (since !== undefined && since <= RECENT_CRASH_SECONDS && base.restarts >= 2) {
        out.push({ ...base, term: last, termField: 'lastState', final: false, flapping: true });
      }
    }
  }
  return out;
}

/** `<ns>/<Kind>/<name>` of the pod's controller (pods of one workload share a cause), else the pod. */
export function workloadKey(pod: Pod | undefined): string {
  const ns = pod?.metadata?.namespace ?? '';
  const owner = pod?.metadata?.ownerReferences?.find((o) => o.controller) ?? pod?.metadata?.ownerReferences?.[0];
  return owner ? `${ns}/${owner.kind}/${owner.name}` : `${ns}/Pod/${pod?.metadata?.name ?? ''}`;
}

/** Cause key for a crash: `workload/<ns>/<Kind>/<name>/<container>:<what>`. */
export function crashKey(pod: Pod | undefined, c: Crash, what: string): string {
  return `workload/${workloadKey(pod)}/${c.name}:${what}`;
}

/** Events about this container: by fieldPath, by its quoted name, or the pod's only container. */
export function containerEvents(snapshot: Snapshot, c: Crash, reasons?: string[]): Event[] {
  const path = `spec.${c.s.init ? 'initContainers' : 'containers'}{${c.name}}`;
  const single = (snapshot.pod?.spec?.containers?.length ?? 0) + (snapshot.pod?.spec?.initContainers?.length ?? 0) === 1;
  const named = new RegExp(`"${escapeRe(c.name)}"|[Cc]ontainer[ =]${escapeRe(c.name)}\\b|docker://${escapeRe(c.name)}:`);
  return newestFirst(
    snapshot.events.filter((e) => {
      if (reasons && !reasons.includes(e.reason ?? '')) return false;
      const fp = e.involvedObject?.fieldPath;
      if (fp) return fp === path;
      return single || named.test(e.message ?? '');
    }),
  );
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `exitCode=1 reason=Error, ran 5s, finished 2m ago` for evidence. */
export function describeTermination(snapshot: Snapshot, t: Terminated): string {
  const parts = [`exitCode=${t.exitCode}`];
  if (t.reason) parts.push(`reason=${t.reason}`);
  if (t.signal) parts.push(`signal=${t.signal}`);
  const start = ms(t.startedAt);
  const end = ms(t.finishedAt);
  if (start !== undefined && end !== undefined) parts.push(`ran ${formatDuration((end - start) / 1000)}`);
  const since = secondsSince(snapshot, t.finishedAt);
  if (since !== undefined) parts.push(`finished ${formatDuration(since)} ago`);
  if (t.message) parts.push(`message: ${clip(t.message, 400)}`);
  return parts.join(', ');
}

/** The status lines that prove the crash: the termination and, if any, the back-off. */
export function crashEvidence(snapshot: Snapshot, c: Crash): Evidence[] {
  const out: Evidence[] = [];
  if (c.term) out.push(statusEvidence(c.s, c.termField, describeTermination(snapshot, c.term)));
  if (c.waiting) out.push(statusEvidence(c.s, 'state', `${c.waiting.reason}${c.waiting.message ? `: ${c.waiting.message}` : ''}`));
  if (c.restarts > 0)
    out.push({ source: `pod.status.${c.s.init ? 'initContainerStatuses' : 'containerStatuses'}[${c.name}].restartCount`, text: String(c.restarts) });
  return out;
}

/** Per crash (crashes are memoized per snapshot): several rules read the same texts. */
const textsOf = new WeakMap<Crash, { evidence: Evidence; text: string }[]>();

/** Every text the runtime and kubelet wrote about this crash: messages and Failed events. */
export function crashTexts(snapshot: Snapshot, c: Crash): { evidence: Evidence; text: string }[] {
  let texts = textsOf.get(c);
  if (!texts) textsOf.set(c, (texts = findCrashTexts(snapshot, c)));
  return texts;
}

function findCrashTexts(snapshot: Snapshot, c: Crash): { evidence: Evidence; text: string }[] {
  const out: { evidence: Evidence; text: string }[] = [];
  if (c.waiting?.message) out.push({ text: c.waiting.message, evidence: statusEvidence(c.s, 'state', `${c.waiting.reason}: ${c.waiting.message}`) });
  if (c.term?.message)
    out.push({ text: c.term.message, evidence: statusEvidence(c.s, c.termField, `${c.term.reason ?? 'terminated'}: ${clip(c.term.message)}`) });
  for (const e of containerEvents(snapshot, c, ['Failed', 'FailedStart', 'BackOff'])) {
    if (e.message) out.push({ text: e.message, evidence: eventEvidence(e) });
  }
  return out;
}

/** The crashed run's log tail: previous logs after a restart, current ones when it stays terminated. */
export function crashLogs(snapshot: Snapshot, c: Crash): LogTail | undefined {
  const logs = (snapshot.logs ?? []).filter((l) => l.container === c.name && l.lines.length > 0);
  const wantPrevious = c.termField === 'lastState';
  return logs.find((l) => l.previous === wantPrevious) ?? logs[0];
}

/** The log tail's decisive lines: the last ones and every line that carries the error, the middle elided. */
export function logEvidence(tail: LogTail, lines = 10, last = 3): Evidence {
  return {
    source: logSource(tail),
    text: decisiveLines(tail.lines, { maxLines: lines, tail: last }).join('\n'),
  };
}

/** `logs web (previous)`: where a log tail's quotes come from. */
export function logSource(tail: LogTail): string {
  return `logs ${tail.container}${tail.previous ? ' (previous)' : ''}`;
}

/** What an exit code means: the catalogue's table (src/diagnosis/mechanisms/signals.ts), re-exported for the crash rules. */
export { exitMeaning } from './mechanisms/index.js';

/** Per crash: the decisive line of everything the crash left, read as a mechanism (several rules ask). */
const readingOf = new WeakMap<Crash, Reading | null>();

/**
 * What the crash's texts mean in this pod: the decisive line anywhere in its termination message,
 * waiting message and log tail, read by the mechanism catalogue; else, when the exit code is a
 * signal that is a mechanism by itself (SIGILL, SIGBUS, SIGSEGV), that. Undefined when neither.
 */
export function crashReading(snapshot: Snapshot, c: Crash): Reading | undefined {
  let r = readingOf.get(c);
  if (r === undefined) readingOf.set(c, (r = readCrash(snapshot, c) ?? null));
  return r ?? undefined;
}

/**
 * The decisive line of the crash among the lines these mechanisms read: the crash's own reading when it
 * is one of them, else the best such line of the same texts (another line may read as something more
 * specific and still leave this one true). For the rules that own a mechanism of the catalogue.
 */
export function crashReadingOf(snapshot: Snapshot, c: Crash, mechanisms: ReadonlySet<string>): Reading | undefined {
  const r = crashReading(snapshot, c);
  if (r && mechanisms.has(r.mechanism)) return r;
  const { texts, scope } = crashInput(snapshot, c);
  return readTexts(texts, scope, mechanisms);
}

function readCrash(snapshot: Snapshot, c: Crash): Reading | undefined {
  const { texts, scope, field } = crashInput(snapshot, c);
  return readTexts(texts, scope) ?? readExit(c.term?.exitCode, scope, `pod.status.${field}[${c.name}].${c.termField}.terminated`);
}

/** What the catalogue reads of a crash: its messages, Failed events and log tail, and the pod around them. */
function crashInput(snapshot: Snapshot, c: Crash) {
  const field = c.s.init ? 'initContainerStatuses' : 'containerStatuses';
  const texts: Text[] = [];
  if (c.waiting?.message) texts.push({ text: c.waiting.message, source: `pod.status.${field}[${c.name}].state.waiting.message` });
  for (const e of containerEvents(snapshot, c, ['Failed'])) if (e.message) texts.push({ text: e.message, source: eventEvidence(e).source });
  if (c.term?.message) texts.push({ text: c.term.message, source: `pod.status.${field}[${c.name}].${c.termField}.terminated.message` });
  const tail = crashLogs(snapshot, c);
  if (tail) texts.push({ lines: tail.lines, source: logSource(tail) });
  const scope = {
    snapshot,
    ...(snapshot.pod ? { pod: snapshot.pod } : {}),
    ...(c.spec ? { container: c.spec } : {}),
    status: c.s.status,
    init: c.s.init,
    ...(snapshot.node ? { node: snapshot.node } : {}),
  };
  return { texts, scope, field };
}

/** The reading as a finding's mechanism reference. */
export function mechanismRef(r: Reading): MechanismRef {
  return { id: r.mechanism, variant: r.variant, signature: r.signature, knobs: r.knobPaths };
}

// What the last log lines usually mean, so the advice follows the log (catalogue: "advise by the log").
const LOG_HINTS: [RegExp, string][] = [
  [
    /no such host|Name or service not known|Temporary failure in name resolution|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|UnknownHostException/i,
    "A host name does not resolve: check the dependency's Service name and namespace, and cluster DNS (CoreDNS).",
  ],
  [
    /connection refused|ECONNREFUSED|Connection refused/i,
    'A dependency refused the connection: check that it runs and that host and port are right; add retries so start order does not matter.',
  ],
  [
    /(?:password authentication failed|Access denied for user|authentication failed|invalid credentials|401 Unauthorized)/i,
    'Credentials are rejected: check the Secret the app reads and that it matches the dependency.',
  ],
  [
    /permission denied|EACCES|Operation not permitted/i,
    'A permission is missing: check runAsUser/fsGroup, file modes in the image and readOnlyRootFilesystem.',
  ],
  [/exec format error/i, 'The image was built for another CPU architecture than the node: publish a multi-arch image.'],
  [
    /executable file not found|no such file or directory/i,
    'A file or command the container needs is missing: check command/args, the entrypoint and mounted paths.',
  ],
  [/address already in use|EADDRINUSE/i, 'The port is already in use: two processes (or hostNetwork pods) listen on it.'],
  [
    /OutOfMemoryError|JavaScript heap out of memory|Cannot allocate memory/i,
    "The runtime's own heap limit was reached: raise -Xmx/MaxRAMPercentage or --max-old-space-size with the container limit.",
  ],
  [
    /panic:|Traceback \(most recent call last\)|Exception in thread|Unhandled exception|FATAL/i,
    'The application crashed with a stack trace: fix the bug or the input it names, or roll back to the last good version.',
  ],
  [
    /(?:environment variable|env var)\S* \S+ (?:is )?(?:not set|required)|missing required (?:env|environment|config)/i,
    'A required setting is missing: check env, envFrom and the ConfigMap/Secret the app expects.',
  ],
];

/** Advice for the decisive lines, the hint of the latest matching line first: the end of a log explains it. */
export function logAdvice(lines: string[]): string[] {
  const picked = decisiveLines(
    lines.flatMap((l) => l.split('\n')),
    { maxLines: 6, tail: 2 },
  );
  const lastMatch = (re: RegExp) => picked.findLastIndex((l) => re.test(l));
  return LOG_HINTS.map(([re, advice]) => ({ at: lastMatch(re), advice }))
    .filter((h) => h.at >= 0)
    .sort((a, b) => b.at - a.at)
    .map((h) => h.advice)
    .slice(0, 2);
}
