// The Target, what a diagnosis is about (a pod, a node or a namespace), in one place: its type, its
// job schema, parsing what a user or an alert names, its display text and its structured key.
// Names are validated as Kubernetes does, with the patterns of ./names.ts.
import { z } from 'zod';
import { PodDoctorError } from '../errors.js';
import { DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_MAX, LABEL_RE, SUBDOMAIN_RE } from './names.js';

export type Target = { kind: 'pod'; namespace: string; name: string } | { kind: 'node'; name: string } | { kind: 'namespace'; name: string };

/** RFC 1123 label: namespaces. */
export function isDns1123Label(s: string): boolean {
  return s.length <= DNS1123_LABEL_MAX && LABEL_RE.test(s);
}

/** RFC 1123 subdomain: pod and node names. */
export function isDns1123Subdomain(s: string): boolean {
  return s.length <= DNS1123_SUBDOMAIN_MAX && SUBDOMAIN_RE.test(s);
}

export const Dns1123Label = z.string().refine(isDns1123Label, 'not a DNS-1123 label');
export const Dns1123Subdomain = z.string().refine(isDns1123Subdomain, 'not a DNS-1123 name');

export const TargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pod'), namespace: Dns1123Label, name: Dns1123Subdomain }),
  z.object({ kind: z.literal('node'), name: Dns1123Subdomain }),
  z.object({ kind: z.literal('namespace'), name: Dns1123Label }),
]) satisfies z.ZodType<Target>;

function bad(input: string, why: string): PodDoctorError {
  return new PodDoctorError('BAD_TARGET', `"${input}" is not a valid target: ${why}. Use <namespace>/<pod>, node/<name> or ns/<name>.`);
}

/** `ns/pod`, `pod` (with a default namespace), `node/<name>`, `ns/<name>` / `namespace/<name>`. */
export function parseTarget(input: string, defaultNamespace?: string): Target {
  const text = input.trim();
  if (!text) throw bad(input, 'it is empty');
  const parts = text.split('/');
  if (parts.length > 2) throw bad(input, 'too many "/"');
  const [first, second] = parts as [string, string | undefined];
  if (second === undefined) {
    if (!defaultNamespace) throw bad(input, 'no namespace given and no default namespace set');
    if (!isDns1123Subdomain(first)) throw bad(input, `"${first}" is not a DNS-1123 name (lower-case letters, digits, "-" and ".")`);
    return { kind: 'pod', namespace: defaultNamespace, name: first };
  }
  if (first === 'node' || first === 'nodes') {
    if (!isDns1123Subdomain(second)) throw bad(input, `"${second}" is not a valid node name`);
    return { kind: 'node', name: second };
  }
  if (first === 'ns' || first === 'namespace' || first === 'namespaces') {
    if (!isDns1123Label(second)) throw bad(input, `"${second}" is not a valid namespace name`);
    return { kind: 'namespace', name: second };
  }
  if (!isDns1123Label(first)) throw bad(input, `"${first}" is not a valid namespace name`);
  if (!isDns1123Subdomain(second)) throw bad(input, `"${second}" is not a valid pod name`);
  return { kind: 'pod', namespace: first, name: second };
}

/** What users type and read: `<namespace>/<pod>`, `node/<name>`, `ns/<name>` (parseTarget reads it back). */
export function formatTarget(t: Target): string {
  switch (t.kind) {
    case 'pod':
      return `${t.namespace}/${t.name}`;
    case 'node':
      return `node/${t.name}`;
    case 'namespace':
      return `ns/${t.name}`;
  }
}

/**
 * Structured key of a target (never rendered text): `pod/ns/name`, `node/name`, `namespace/name`.
 * Stored and compared across releases (Redis dedup keys, finding subjects and fingerprints): keep its format.
 */
export function targetKey(t: Target): string {
  return t.kind === 'pod' ? `pod/${t.namespace}/${t.name}` : `${t.kind}/${t.name}`;
}
