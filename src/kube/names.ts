// Kubernetes name and label syntax (k8s.io/apimachinery/pkg/util/validation), with its exact
// messages: shared by label selectors (src/kube/selectors.ts), targets (src/kube/target.ts),
// remediation step parameters and the simulated API's validation.
import { z } from 'zod';

export const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
export const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';
/** validation.DNS1123LabelMaxLength and DNS1123SubdomainMaxLength. */
export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;
export const LABEL_RE = new RegExp(`^${DNS1123_LABEL}$`);
export const SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME}$`);
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE}$`);

/** validation.RegexError, including its odd "',  or '" spacing. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

export const SUBDOMAIN_MSG = regexError(
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  DNS1123_SUBDOMAIN,
  'example.com',
);
export const LABEL_MSG = regexError(
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  DNS1123_LABEL,
  'my-name',
  '123-abc',
);
const QUALIFIED_NAME_MSG = regexError(
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  QUALIFIED_NAME,
  'MyName',
  'my.name',
  '123-abc',
);

/** validation.IsQualifiedName: `[prefix/]name` as label keys and finalizers use. */
export function isQualifiedName(value: string): string[] {
  const parts = value.split('/');
  const errs: string[] = [];
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (!prefix) errs.push('prefix part must be non-empty');
    else {
      if (prefix.length > DNS1123_SUBDOMAIN_MAX) errs.push('prefix part must be no more than 253 characters');
      if (!SUBDOMAIN_RE.test(prefix)) errs.push(`prefix part ${SUBDOMAIN_MSG}`);
    }
  } else {
    return [`a qualified name ${QUALIFIED_NAME_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (!name) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME_RE.test(name)) errs.push(`name part ${QUALIFIED_NAME_MSG}`);
  return errs;
}

/** validation.IsValidLabelValue. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}

/** A DNS-1123 label (namespace, cluster name…): the one schema every input that takes one uses. */
export function labelSchema(message = 'expected a DNS-1123 label'): z.ZodString {
  return z.string().max(DNS1123_LABEL_MAX).regex(LABEL_RE, message);
}

/** A DNS-1123 subdomain (pod, node, DNS name). */
export function subdomainSchema(message = 'expected a DNS-1123 subdomain'): z.ZodString {
  return z.string().max(DNS1123_SUBDOMAIN_MAX).regex(SUBDOMAIN_RE, message);
}
