// Parsing what a user or an alert names: `ns/pod`, `pod` (with a default namespace),
// `node/<name>`, `ns/<name>` / `namespace/<name>`. Names are validated as Kubernetes does.
import { PodDoctorError } from '../errors.js';
import type { Target } from './types.js';

/** RFC 1123 label: namespaces. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** RFC 1123 subdomain: pod and node names. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isDns1123Label(s: string): boolean {
  return s.length <= 63 && DNS1123_LABEL.test(s);
}

export function isDns1123Subdomain(s: string): boolean {
  return s.length <= 253 && DNS1123_SUBDOMAIN.test(s);
}

function bad(input: string, why: string): PodDoctorError {
  return new PodDoctorError('BAD_TARGET', `"${input}" is not a valid target: ${why}. Use <namespace>/<pod>, node/<name> or ns/<name>.`);
}

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
