// The vocabulary of the mechanism catalogue. A *signature* recognises a line (an operating-system
// error as a C library, Go, the JVM, Python or Node prints it; a server's start-up check; a TLS,
// DNS or API refusal); a *mechanism* is what that line means inside a pod: the resource it exhausts
// or the permission it lacks, and the knobs that set it. A mechanism has *variants*, chosen by the
// pod's own spec and node (the same EROFS line means one thing under readOnlyRootFilesystem and
// another under a ConfigMap volume). Everything here is data plus small pure predicates.
import type { Container, ContainerStatus, Evidence, MessageData, Node, Pod, Snapshot } from '../types.js';

/** What a mechanism is about: a permission it lacks, a resource it exhausts, a setting, a dependency, a defect. */
export type MechanismKind = 'permission' | 'resource' | 'setting' | 'dependency' | 'defect';

/** Where a knob lives: the pod spec, the node (kernel, kubelet), the container runtime, the cluster, the image, the app's own config. */
export type KnobPlace = 'pod' | 'node' | 'runtime' | 'cluster' | 'image' | 'app';

/** A setting that changes the outcome: its path (a field path, a sysctl, a flag) and what to set. */
export interface Knob {
  place: KnobPlace;
  /** Template: `spec.securityContext.fsGroup`, `sysctl vm.max_map_count`, `kubelet podPidsLimit`. */
  path: string;
  /** Template: what to do with it, in the engine's own words. */
  change: string;
}

/** What a variant's predicate sees: the line, its captures and the pod around it. */
export interface ReadingContext {
  snapshot?: Snapshot;
  pod?: Pod;
  /** The container the line came from (its spec) and whether it is an init container. */
  container?: Container;
  status?: ContainerStatus;
  init: boolean;
  node?: Node;
  /** The decisive line and the lines around it (a stack trace after an exception head). */
  line: string;
  around: readonly string[];
  /** Named groups of the signature's pattern: path, port, host, limit, want, user, verb, resource... */
  groups: Readonly<Record<string, string>>;
}

/** A variant applies when its predicate returns data (placeholders) or true; the last one always applies. */
export type VariantTest = (ctx: ReadingContext) => MessageData | boolean;

export interface Variant {
  id: string;
  when?: VariantTest;
  /** Title fragment in the engine's words: `writes {{path}} on a read-only root filesystem`. */
  summary: string;
  /** The mechanism, explained: which limit, permission or setting the line points at. */
  explain: string;
  knobs: readonly Knob[];
  /** Spec or node facts that back this variant, quoted as evidence. */
  facts?: (ctx: ReadingContext, data: MessageData) => Evidence[];
}

export interface Mechanism {
  id: string;
  kind: MechanismKind;
  /** What it exhausts or lacks, for docs and the "why?" text. */
  resource: string;
  doc: string;
  /** Tried in order; the last has no `when` (the general case). */
  variants: readonly Variant[];
}

/**
 * How widely a signature's wording is shared: a server's own sentence beats a bare errno text on the same line. A `banner`
 * (a server saying where it listens) is not an error at all: any failure line beats it.
 */
export type Family = 'errno' | 'signal' | 'runtime' | 'server' | 'tls' | 'dns' | 'kube-api' | 'banner';

export interface Signature {
  id: string;
  family: Family;
  mechanism: string;
  /**
   * Lower-case substrings, one of which must occur in the lower-cased line before the patterns run:
   * the cheap pass that keeps thousands of log lines fast.
   */
  needles: readonly string[];
  /** Any of them matches; named groups become the reading's captures. */
  patterns: readonly RegExp[];
  /** A bare errno reading: a signature that reads the same line more specifically is tried first. */
  generic?: boolean;
  /** Read only when one of the few lines before it matches (a Python traceback frame such as `sock.bind(`). */
  preceded?: RegExp;
  /** A line that also matches this is someone else's (a runtime's mount error that quotes EROFS): not read. */
  unless?: RegExp;
  /**
   * Read only when the pod around the line lets it mean a failure (a start-up banner that says where the app listens
   * matters only while the container is not Ready). Asked with the line, its captures and, as `around`, the few lines before it.
   */
  applies?: (ctx: ReadingContext) => boolean;
  /** Where the wording comes from: upstream source or the public report that quotes it. */
  source: string;
  /** Real lines (from `source`); the coverage test reads each and expects this signature and mechanism. */
  examples: readonly string[];
  /**
   * Real lines that look alike (they carry one of the needles) but mean something else: an SSH key
   * refused, an inotify EMFILE, a probe's refusal, a benign warning. The coverage test reads each and
   * expects any mechanism but this signature's.
   */
  nearMisses?: readonly string[];
}

/** A line read as a mechanism, rendered in the engine's own words. */
export interface Reading {
  mechanism: string;
  variant: string;
  signature: string;
  family: Family;
  kind: MechanismKind;
  /** The decisive line as found (clipped), and where it came from. */
  line: string;
  source: string;
  summary: string;
  explanation: string;
  /** `<path>: <change>`, in the order the variant lists them. */
  knobs: string[];
  /** The knobs' paths alone (for JSON output and tests). */
  knobPaths: string[];
  /** What the variant found (the path written, the port bound, the sysctl...), for rules that build on it. */
  data: MessageData;
  evidence: Evidence[];
}

/** A text to read, with the evidence source it is quoted under. */
export interface Text {
  /** One text, split at line breaks; or `lines` when the text already comes as lines (a log tail). */
  text?: string;
  lines?: readonly string[];
  source: string;
}
