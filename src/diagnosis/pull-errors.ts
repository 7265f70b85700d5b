// Image pull failures: one pure classifier for every wording era (dockershim/cri-dockerd,
// containerd CRI, CRI-O; kubelet with and without the gRPC prefix, the v1.32+ back-off
// message that carries the last error), and one helper the thin `image.*` rules share.

import { containerStatuses, eventCount, eventEvidence, eventTime, type NamedStatus, newestFirst, secondsSince, statusEvidence } from './facts.js';
import type { RuleContext } from './rule.js';
import type { Event, Evidence, FindingDraft, Pod, Severity, Snapshot } from './types.js';

export type PullErrorClass =
  | 'not-found'
  | 'platform'
  | 'short-name'
  | 'forbidden'
  | 'disk-full'
  | 'transfer'
  | 'signature'
  | 'auth'
  | 'insecure-registry'
  | 'untrusted-ca'
  | 'registry-unreachable'
  | 'corrupt-blob'
  | 'throttled'
  | 'timeout'
  | 'unknown';

export type PullRuntime = 'containerd' | 'docker' | 'cri-o';

export interface ImageRef {
  /** Registry host as containerd names it: `docker.io`, `ghcr.io`, `10.0.0.5:5000`. */
  registry: string;
  /** Repository path inside the registry: `library/nginx`. */
  repository: string;
  tag?: string;
  digest?: string;
  /** Fully qualified reference: `docker.io/library/nginx:latest`. */
  ref: string;
}

export interface PullError {
  class: PullErrorClass;
  /**
   * Which pattern decided, so rules can word advice precisely: `manifest-unknown`,
   * `pull-access-denied` (ambiguous: private or missing), `kubelet-qps`, `registry-rate-limit`,
   * `x509-unknown-authority`, `x509-name-mismatch`, `dns`, `dial-timeout`...
   */
  hint: string;
  /** The phrase that matched, quoted in findings. Empty for `unknown`. */
  phrase: string;
  /** The image as the kubelet (or the runtime) quoted it, or the fallback. */
  image?: string;
  registry?: string;
  /** Normalised reference (`nginx` → `docker.io/library/nginx:latest`). */
  ref?: string;
  repository?: string;
  tag?: string;
  /** gRPC code when the kubelet kept the prefix: `NotFound`, `Unknown`, `2`, `Canceled`. */
  grpcCode?: string;
  runtime?: PullRuntime;
  /** The runtime's own error with the kubelet's wrappers removed. */
  detail: string;
}

interface Pattern {
  cls: Exclude<PullErrorClass, 'unknown'>;
  hint: string;
  re: RegExp;
}

// First match wins, so the order encodes the decisions:
// 1. Rate limits before everything: a 429 body also says "failed to copy"/"manifests".
// 2. TLS and plain-HTTP before network: both quote a URL and sometimes `dial tcp`.
// 3. Network before auth: `failed to authorize: failed to fetch anonymous token: Get ...:
//    dial tcp ...: i/o timeout` is the token endpoint being unreachable, not bad credentials.
// 4. Auth before not-found: "pull access denied, repository does not exist or may require
//    authorization" (containerd) and docker's "... may require 'docker login'" are ambiguous;
//    registries answer the same for a private repo and a missing one, so we call it auth
//    (the likelier fix in a cluster) and the advice also says to check the name.
// 5. Blob errors before not-found: containerd reports a missing blob as `content at
//    .../blobs/sha256:... not found: not found`, a missing manifest as `.../manifests/...`.
// 6. Cancellation last among the specific classes: `context canceled` also ends many
//    network errors that were already classified above.
// 7. Platform and short-name before not-found: containerd ends "no match for platform in
//    manifest: not found" with the same words as a missing tag, and CRI-O's short-name refusal is
//    about the name's form, not the registry.
const PATTERNS: Pattern[] = [
  {
    cls: 'short-name',
    hint: 'short-name',
    re: /short-name "[^"]+" did not resolve to an alias|short-name resolution enforced but cannot prompt without a TTY|short-name "[^"]+" is ambiguous/i,
  },
  {
    cls: 'platform',
    hint: 'no-matching-platform',
    re: new RegExp(
      [
        'no match for platform in manifest',
        String.raw`no matching manifest for \S+ in the manifest list entries`,
        String.raw`image with reference \S+ was found but does not match the specified platform`,
        'no image found in (?:manifest list|image index) for architecture[^,]*',
      ].join('|'),
      'i',
    ),
  },
  // 11. A signature policy refusal (CRI-O policy.json, sigstore): the registry served the image, the node refuses it.
  {
    cls: 'signature',
    hint: 'policy',
    re: new RegExp(
      [
        'SignatureValidationFailed',
        'Source image rejected: [^"]*',
        'is rejected by policy',
        'signature verification failed[^"]*',
        'no matching signatures',
        'A signature was required, but no signature exists',
      ].join('|'),
      'i',
    ),
  },
  // 8. The node's own disk, before anything the registry says: the download worked, unpacking did not.
  { cls: 'disk-full', hint: 'no-space', re: /no space left on device/i },
  { cls: 'throttled', hint: 'kubelet-qps', re: /pull QPS exceeded/i },
  // containers/image (CRI-O) says `too many requests to registry` for a 429 on the ping or the token endpoint.
  { cls: 'throttled', hint: 'registry-rate-limit', re: /toomanyrequests|429 Too Many Requests|pull rate limit|too many requests to registry/i },
  { cls: 'untrusted-ca', hint: 'x509-unknown-authority', re: /x509: certificate signed by unknown authority/i },
  { cls: 'untrusted-ca', hint: 'x509-name-mismatch', re: /x509: certificate is (?:valid for [^,]+, not [^\s:]+|not valid for any names)/i },
  { cls: 'untrusted-ca', hint: 'x509-expired', re: /x509: certificate has expired or is not yet valid/i },
  { cls: 'untrusted-ca', hint: 'tls-verify', re: /tls: failed to verify certificate(?:: x509: [^:]+)?/i },
  { cls: 'insecure-registry', hint: 'http-registry', re: /server gave HTTP response to HTTPS client/i },
  {
    cls: 'registry-unreachable',
    hint: 'dns',
    re: /lookup \S+(?: on \S+)?: (?:no such host|server misbehaving)|dial tcp: lookup \S+[^"]*|read udp \S+:53: i\/o timeout/i,
  },
  // The runtime's proxy: `proxyconnect tcp: tls: first record does not look like a TLS handshake` (an https:// proxy URL for an HTTP proxy).
  { cls: 'registry-unreachable', hint: 'proxy', re: /proxyconnect tcp: [^"]+?(?=$|")/i },
  { cls: 'registry-unreachable', hint: 'connection-refused', re: /dial tcp \S+: (?:connect|getsockopt): connection refused/i },
  { cls: 'registry-unreachable', hint: 'no-route', re: /no route to host|network is unreachable/i },
  { cls: 'registry-unreachable', hint: 'dial-timeout', re: /dial tcp \S+: i\/o timeout|i\/o timeout/i },
  {
    cls: 'registry-unreachable',
    hint: 'connect-timeout',
    re: new RegExp(
      [
        String.raw`request canceled while waiting for connection(?: \(Client\.Timeout exceeded while awaiting headers\))?`,
        String.raw`Client\.Timeout exceeded while awaiting headers`,
        'TLS handshake timeout',
      ].join('|'),
      'i',
    ),
  },
  { cls: 'registry-unreachable', hint: 'connection-reset', re: /connection reset by peer/i },
  { cls: 'registry-unreachable', hint: 'registry-unavailable', re: /because the registry is unavailable|no available registry endpoint/i },
  // 9. A layer that arrived short (a proxy or registry cut the stream): the image is fine, the transfer was not.
  { cls: 'transfer', hint: 'short-read', re: /failed size validation: \d+ != \d+|unexpected EOF|stream error: stream ID \d+; INTERNAL_ERROR/i },
  // 10. A plain 403 is a refusal that credentials do not fix (an IP block, a policy); with token or
  //     credential words it is auth (an expired ECR token answers 403 too): see classifyPullError.
  { cls: 'forbidden', hint: 'http-403', re: /(?:unexpected status(?: code)?(?: from \w+ request to \S+)?:? ?|status code |: )403 Forbidden/i },
  // CRI-O (containers/image docker/errors.go) drops the code of a registry error whose message is the code's
  // default: Docker Hub's DENIED for a missing or private repository reads `reading manifest latest in
  // docker.io/library/x: requested access to the resource is denied`, as ambiguous as docker's pull access denied.
  {
    cls: 'auth',
    hint: 'pull-access-denied',
    re: /pull access denied(?: for \S+?)?, repository does not exist or may require (?:authorization|'docker login')|does not exist or no pull access|requested access to the resource is denied/i,
  },
  { cls: 'auth', hint: 'no-credentials', re: /no basic auth credentials/i },
  // containers/image: the token endpoint refused the credentials (or their scope) for this repository.
  { cls: 'auth', hint: 'token-refused', re: /Requesting bearer token: invalid status code from registry 403 \(Forbidden\)/i },
  { cls: 'auth', hint: 'unauthorized', re: /unauthorized: [^:]+|401 Unauthorized|authentication required|failed to authorize/i },
  { cls: 'auth', hint: 'denied', re: /(?<!permission )denied: [^:]+|403 Forbidden|insufficient_scope/i },
  { cls: 'corrupt-blob', hint: 'unknown-blob', re: /(?:error pulling image configuration: )?unknown blob|blob unknown(?: to registry)?/i },
  { cls: 'corrupt-blob', hint: 'blob-missing', re: /\/blobs\/\S+ not found/i },
  {
    cls: 'corrupt-blob',
    hint: 'digest-mismatch',
    re: /unexpected commit digest \S+ expected \S+|filesystem layer verification failed|digest (?:did not match|mismatch)/i,
  },
  {
    cls: 'not-found',
    hint: 'manifest-unknown',
    re: /manifest for \S+ not found(?:: manifest unknown)?|manifest unknown|reading manifest \S+ in \S+: manifest unknown/i,
  },
  { cls: 'not-found', hint: 'name-unknown', re: /name unknown(?:: [^:]+)?|repository name not known to registry/i },
  // containers/image: a 404 whose body is not a registry error (an HTML page): nothing at that manifest path.
  { cls: 'not-found', hint: 'http-404', re: /reading manifest \S+ in \S+: StatusCode: 404\b/i },
  { cls: 'not-found', hint: 'not-found', re: /\/manifests\/\S+ not found|: not found\b|repository \S+ not found|image not known|not found: not found/i },
  { cls: 'corrupt-blob', hint: 'image-configuration', re: /error pulling image configuration/i },
  { cls: 'timeout', hint: 'deadline', re: /code = DeadlineExceeded|context deadline exceeded/i },
  {
    cls: 'timeout',
    hint: 'canceled',
    re: /code = Canceled|context canceled|request canceled|Cancel(?:l?ing)? (?:pulling|request for) image|no progress for \S+/i,
  },
];

// Wrappers the kubelet and runtimes put around the runtime's own text, outer first.
const WRAPPERS: RegExp[] = [
  /^spec\.(?:init)?[cC]ontainers\{[^}]*\}: /,
  /^Back-off pulling image "[^"]*"(?:: (?:ErrImagePull: )?)?/,
  /^Failed to pull image "[^"]*": /,
  /^rpc error: code = \w+ desc = /,
  /^Error response from daemon: /,
  /^failed to pull and unpack image "[^"]*": /,
  /^unable to pull image or OCI artifact: (?:pull image err: )?/,
  /^image pull failed for \S+ because /,
];

function stripWrappers(text: string): string {
  let out = text.trim();
  for (let changed = true; changed; ) {
    changed = false;
    for (const re of WRAPPERS) {
      const next = out.replace(re, '');
      if (next !== out && next.length > 0) {
        out = next;
        changed = true;
      }
    }
  }
  return out;
}

// Where an image reference appears, most authoritative first: the kubelet quotes the
// image as written in the pod spec; runtimes quote their normalised reference.
const IMAGE_SOURCES: RegExp[] = [
  /Failed to pull image "([^"]+)"/,
  /Back-off pulling image "([^"]+)"/,
  /[pP]ulling image "([^"]+)"/,
  /failed to pull and unpack image "([^"]+)"/,
  /failed to resolve reference "([^"]+)"/,
  /failed to resolve image "([^"]+)"/,
  // Up to the `: ` that ends it, so a registry port (`docker://registry.local:5000/app:1`) stays in.
  /initializing source docker:\/\/(\S+?)(?=:\s|$)/,
  /manifest for (\S+) not found/,
  /pull access denied for ([^\s,]+),/,
  /repository (\S+) not found/,
  /image pull failed for (\S+) because/,
];

const DOCKER_HUB_HOSTS = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io', 'auth.docker.io', 'registry.hub.docker.com']);

/** Normalise a reference the way containerd does: `nginx` → `docker.io/library/nginx:latest`. */
export function parseImageRef(image: string): ImageRef | undefined {
  const text = image.trim();
  if (!text || /\s/.test(text)) return undefined;
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const parts = rest.split('/');
  const first = parts[0] ?? '';
  let registry = 'docker.io';
  if (parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    registry = DOCKER_HUB_HOSTS.has(first) ? 'docker.io' : first;
    parts.shift();
  }
  // Distribution grammar: lower-case components joined by `.`, `_`, `__` or dashes.
  if (parts.length === 0 || !parts.every((p) => /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/.test(p))) return undefined;
  if (registry !== 'docker.io' && !/^[a-zA-Z0-9](?:[a-zA-Z0-9.-]*[a-zA-Z0-9])?(?::\d+)?$/.test(registry)) return undefined;
  if (registry === 'docker.io' && parts.length === 1) parts.unshift('library');
  const repository = parts.join('/');
  if (!tag && !digest) tag = 'latest';
  const ref = `${registry}/${repository}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
  return { registry, repository, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}), ref };
}

function registryFromUrl(text: string): string | undefined {
  const m = /https?:\/\/([a-zA-Z0-9][a-zA-Z0-9.-]*(?::\d+)?)[/\s"?:]/.exec(text);
  if (!m?.[1]) return undefined;
  return DOCKER_HUB_HOSTS.has(m[1]) ? 'docker.io' : m[1];
}

/** `https://ghcr.io/v2/org/repo/manifests/<ref>` → `ghcr.io/org/repo@<ref>` (or `:<tag>`). */
function imageFromUrl(text: string): string | undefined {
  const m = /https?:\/\/([^/\s"]+)\/v2\/(\S+?)\/manifests\/([^\s":]+(?::[0-9a-f.]+)?)/.exec(text);
  if (!m?.[1] || !m[2] || !m[3]) return undefined;
  const host = DOCKER_HUB_HOSTS.has(m[1]) ? 'docker.io' : m[1];
  return m[3].startsWith('sha256:') ? `${host}/${m[2]}@${m[3]}` : `${host}/${m[2]}:${m[3]}`;
}

function runtimeOfText(text: string): PullRuntime | undefined {
  if (/Error response from daemon|API error \(\d+\)|docker login/.test(text)) return 'docker';
  // containerd 2.1+ pulls through the transfer service: `failed to resolve image: ...` instead of `failed to resolve reference "x"`.
  if (/failed to pull and unpack image|failed to resolve reference|httpReadSeeker|failed to do request|failed to resolve image/.test(text)) return 'containerd';
  if (/initializing source docker:|reading manifest \S+ in|unable to pull image or OCI artifact|error pinging |pinging container registry /.test(text))
    return 'cri-o';
  return undefined;
}

/**
 * Classify the text of a pull failure: a container's waiting message (ErrImagePull,
 * ImagePullBackOff in its v1.32+ form) or a `Failed to pull image "x": ...` event.
 * `fallbackImage` (the spec's image) names the image when the text does not.
 */
export function classifyPullError(text: string, fallbackImage?: string): PullError {
  const detail = stripWrappers(text);
  let cls: PullErrorClass = 'unknown';
  let hint = 'unknown';
  let phrase = '';
  // The runtime's own socket refusing or timing out is a node problem, not the registry's.
  const runtimeSocket = /dial unix \S+\.sock/.test(text);
  for (const p of runtimeSocket ? [] : PATTERNS) {
    const m = p.re.exec(text);
    if (!m) continue;
    // A 403 that talks of tokens or credentials is an auth problem after all.
    if (p.cls === 'forbidden' && /authorization token|credential|expired|authenticat|login|unauthorized/i.test(text)) continue;
    cls = p.cls;
    hint = p.hint;
    phrase = m[0];
    break;
  }

  // The first quoted reference that parses; `"..."`/`"X"` elisions do not.
  const candidates: string[] = [];
  for (const re of IMAGE_SOURCES) {
    const m = re.exec(text);
    if (m?.[1]) candidates.push(m[1]);
  }
  // CRI-O: `reading manifest v9 in quay.io/acme/api: manifest unknown`.
  const crio = /reading manifest (\S+) in ([^\s:]+)/.exec(text);
  if (crio?.[1] && crio[2]) candidates.push(`${crio[2]}:${crio[1]}`);
  if (fallbackImage) candidates.push(fallbackImage);
  const fromUrl = imageFromUrl(text);
  if (fromUrl) candidates.push(fromUrl);
  let image: string | undefined;
  let parsed: ImageRef | undefined;
  for (const c of candidates) {
    parsed = parseImageRef(c);
    if (parsed) {
      image = c;
      break;
    }
  }

  const registry = parsed?.registry ?? registryFromUrl(text);
  const grpcCode = /rpc error: code = (\w+) desc =/.exec(text)?.[1];
  const runtime = runtimeOfText(text);
  return {
    class: cls,
    hint,
    phrase,
    detail,
    ...(image ? { image } : {}),
    ...(registry ? { registry } : {}),
    ...(parsed ? { ref: parsed.ref, repository: parsed.repository } : {}),
    ...(parsed?.tag ? { tag: parsed.tag } : {}),
    ...(grpcCode ? { grpcCode } : {}),
    ...(runtime ? { runtime } : {}),
  };
}

/** Classes whose cause is the whole registry (all its images fail), not one image. */
export const REGISTRY_WIDE: ReadonlySet<PullErrorClass> = new Set(['insecure-registry', 'untrusted-ca', 'registry-unreachable']);

/** Classes that may clear by themselves; the first failure within the grace is only info. */
const TRANSIENT: ReadonlySet<PullErrorClass> = new Set(['registry-unreachable', 'throttled', 'timeout']);

/** Waiting reasons that mean "the last pull failed". */
export const PULL_WAITING_REASONS: ReadonlySet<string> = new Set(['ErrImagePull', 'ImagePullBackOff', 'RegistryUnavailable', 'SignatureValidationFailed']);

export interface PullFailure {
  status: NamedStatus;
  container: string;
  /** The image in the pod spec (or the status when the spec lacks it). */
  specImage: string;
  error: PullError;
  /** The status line and the `Failed to pull image` event that classified it. */
  evidence: Evidence[];
  /** Seconds since the first failure we can see (events), if known. */
  failingFor?: number;
  /** How many pull failures the events count. */
  failures: number;
}

function specImageOf(pod: Pod, s: NamedStatus): string {
  const list = s.init ? pod.spec?.initContainers : pod.spec?.containers;
  return list?.find((c) => c.name === s.status.name)?.image ?? s.status.image;
}

/** Events about one container: by fieldPath when the kubelet set it, else by quoted image. */
function eventsOfContainer(events: readonly Event[], s: NamedStatus, image: string): Event[] {
  const path = `spec.${s.init ? 'initContainers' : 'containers'}{${s.status.name}}`;
  return events.filter((e) => {
    const fp = e.involvedObject?.fieldPath;
    if (fp) return fp === path;
    return (e.message ?? '').includes(`"${image}"`);
  });
}

/** Per snapshot: every image.* rule asks, and classifying means a dozen regexes per message. */
const failuresOf = new WeakMap<Snapshot, readonly PullFailure[]>();

/** Every container whose last pull failed, classified with the best text available. */
export function pullFailures(snapshot: Snapshot): readonly PullFailure[] {
  let failures = failuresOf.get(snapshot);
  if (!failures) failuresOf.set(snapshot, (failures = classifyPullFailures(snapshot)));
  return failures;
}

function classifyPullFailures(snapshot: Snapshot): PullFailure[] {
  const pod = snapshot.pod;
  if (!pod) return [];
  const out: PullFailure[] = [];
  for (const s of containerStatuses(pod)) {
    const waiting = s.status.state?.waiting;
    if (!waiting?.reason || !PULL_WAITING_REASONS.has(waiting.reason)) continue;
    const specImage = specImageOf(pod, s);
    const events = eventsOfContainer(snapshot.events, s, specImage);
    const failed = newestFirst(events.filter((e) => e.reason === 'Failed' && /Failed to pull image|rpc error|pull QPS exceeded/.test(e.message ?? '')));

    // The waiting message is the current truth; pre-1.32 back-off messages carry no error,
    // so fall back to the newest `Failed to pull image` event for this container.
    const statusLine = `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
    let error = classifyPullError(waiting.message ?? '', specImage);
    let fromEvent: Event | undefined;
    if (error.class === 'unknown') {
      for (const e of failed) {
        const c = classifyPullError(e.message ?? '', specImage);
        if (c.class !== 'unknown') {
          error = c;
          fromEvent = e;
          break;
        }
      }
    } else {
      fromEvent = failed.find((e) => classifyPullError(e.message ?? '', specImage).class === error.class);
    }
    // Keep the spec's image as the subject even when the runtime quoted a normalised one.
    const parsed = parseImageRef(specImage);
    if (parsed)
      error = {
        ...error,
        image: specImage,
        registry: parsed.registry,
        ref: parsed.ref,
        repository: parsed.repository,
        ...(parsed.tag ? { tag: parsed.tag } : {}),
      };

    const evidence: Evidence[] = [statusEvidence(s, 'state', statusLine)];
    if (fromEvent) evidence.push(eventEvidence(fromEvent));
    const oldest = failed.reduce<number | undefined>((acc, e) => {
      const since = secondsSince(snapshot, e.firstTimestamp ?? eventTime(e));
      return since === undefined ? acc : Math.max(acc ?? 0, since);
    }, undefined);
    const failures = failed.reduce((n, e) => n + eventCount(e), 0);
    out.push({ status: s, container: s.status.name, specImage, error, evidence, ...(oldest !== undefined ? { failingFor: oldest } : {}), failures });
  }
  return out;
}

/** `image/<registry>/<repo>:<tag>:<class>` or `registry/<host>:<class>` for registry-wide causes. */
export function pullCauseKey(f: PullFailure, snapshot: Snapshot): string {
  const e = f.error;
  if (e.class === 'throttled' && e.hint === 'kubelet-qps') return `node/${snapshot.pod?.spec?.nodeName ?? 'unknown'}:registry-qps`;
  if (e.class === 'throttled' || REGISTRY_WIDE.has(e.class)) return `registry/${e.registry ?? 'unknown'}:${e.class}`;
  return `image/${e.ref ?? e.image ?? f.specImage}:${e.class}`;
}

/** What an `image.*` rule says about one failure: its own message ids, as in any draft. */
export interface PullWording<M extends string = string> {
  title: FindingDraft<M>['title'];
  cause: FindingDraft<M>['cause'];
  advice: FindingDraft<M>['advice'];
  prevent: NonNullable<FindingDraft<M>['prevent']>;
  severity?: Severity;
  causeKey?: string;
  evidence?: Evidence[];
  params?: FindingDraft['params'];
}

/**
 * The body of every `image.*` rule: select the failures it owns, let the rule word them,
 * add evidence, params and the cause key. Pods sharing one cause key (an alert storm
 * behind one registry) become one incident.
 */
export function pullFindings<M extends string>(
  snapshot: Snapshot,
  ctx: RuleContext,
  select: (f: PullFailure) => boolean,
  word: (f: PullFailure) => PullWording<M>,
): FindingDraft<M>[] {
  const drafts = new Map<string, FindingDraft<M>>();
  for (const f of pullFailures(snapshot)) {
    if (!select(f)) continue;
    const w = word(f);
    const causeKey = w.causeKey ?? pullCauseKey(f, snapshot);
    const seen = drafts.get(causeKey);
    if (seen) {
      // Two containers with one cause: one finding naming both.
      const containers = seen.params?.container;
      if (seen.params && typeof containers === 'string') seen.params.containers = [containers, f.container];
      seen.evidence.push(...f.evidence.filter((e) => !seen.evidence.some((x) => x.text === e.text)));
      continue;
    }
    // Without events (expired after an hour) the pod's age bounds how long it has been failing.
    const failingFor = f.failingFor ?? secondsSince(snapshot, snapshot.pod?.metadata?.creationTimestamp) ?? Number.POSITIVE_INFINITY;
    const brief = TRANSIENT.has(f.error.class) && f.failures <= 1 && failingFor < ctx.pendingGraceSeconds;
    const severity: Severity | undefined = brief ? 'info' : w.severity;
    drafts.set(causeKey, {
      ...(severity ? { severity } : {}),
      title: w.title,
      cause: w.cause,
      evidence: [...f.evidence, ...(w.evidence ?? [])],
      advice: w.advice,
      prevent: w.prevent,
      causeKey,
      params: {
        container: f.container,
        image: f.specImage,
        ...(f.error.registry ? { registry: f.error.registry } : {}),
        ...(snapshot.pod?.spec?.nodeName ? { node: snapshot.pod.spec.nodeName } : {}),
        ...w.params,
      },
    });
  }
  return [...drafts.values()];
}

/** `"<phrase>"` as quoted in a cause, or the detail when nothing matched. */
export function quotePhrase(e: PullError): string {
  return `"${e.phrase || e.detail}"`;
}

/** `containerd`/`docker`/`CRI-O` for advice that differs by runtime; node info first. */
export function runtimeName(snapshot: Snapshot, e: PullError): PullRuntime | undefined {
  const v = snapshot.node?.status?.nodeInfo?.containerRuntimeVersion?.split(':')[0];
  if (v === 'docker' || v === 'containerd') return v;
  if (v === 'cri-o') return 'cri-o';
  return e.runtime;
}
