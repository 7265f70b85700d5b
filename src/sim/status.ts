// metav1.Status bodies exactly as k8s.io/apimachinery/pkg/api/errors builds them. Key order
// and omitted-when-empty fields follow the Go struct tags, so a JSON diff against a real
// kube-apiserver shows no noise.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** Group + resource (plural), e.g. `{ group: 'apps', resource: 'deployments' }`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** Group + kind, used by Invalid errors (`Deployment.apps "x" is invalid`). */
export interface GroupKind {
  group: string;
  kind: string;
}

/** schema.GroupResource.String(): `pods`, `deployments.apps`. */
export function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function qualifiedKind(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

function details(d: StatusDetails): StatusDetails {
  // Go's omitempty: drop empty strings, zero numbers and empty lists, keep field order.
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes?.length) out.causes = d.causes.map(cause);
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

function cause(c: StatusCause): StatusCause {
  const out: StatusCause = {};
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.field) out.field = c.field;
  return out;
}

export function failure(code: number, reason: string, message: string, d?: StatusDetails): StatusBody {
  const body: StatusBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  if (message) body.message = message;
  if (reason) body.reason = reason;
  if (d) body.details = details(d);
  body.code = code;
  return body;
}

/** A request that failed with a Kubernetes Status; the server writes `status` with `code`. */
export class ApiError extends Error {
  readonly code: number;
  readonly status: StatusBody;
  constructor(status: StatusBody, options?: { cause?: unknown }) {
    super(status.message ?? status.reason ?? 'error', options);
    this.name = 'ApiError';
    this.code = status.code ?? 500;
    this.status = status;
  }
}

// --- field errors (k8s.io/apimachinery/pkg/util/validation/field) ---

export type FieldErrorType = 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueNotSupported' | 'FieldValueDuplicate';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail?: string;
}

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueForbidden: 'Forbidden',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
};

/** field.Error.ErrorBody(): strings are %q-quoted, simple values printed bare. */
export function fieldErrorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  if (e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden') {
    const v = e.value;
    if (v === null || v === undefined) s += ': "null"';
    else if (typeof v === 'string') s += `: ${JSON.stringify(v)}`;
    else if (typeof v === 'number' || typeof v === 'boolean') s += `: ${String(v)}`;
    else s += `: ${JSON.stringify(v)}`;
  }
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

export function fieldErrorText(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

export const required = (field: string, detail?: string): FieldError => ({ type: 'FieldValueRequired', field, ...(detail ? { detail } : {}) });
export const invalidValue = (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail });
export const notSupported = (field: string, value: unknown, supported: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  value,
  detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

// --- constructors mirroring apimachinery/pkg/api/errors ---

export const errors = {
  notFound(gr: GroupResource, name: string): ApiError {
    return new ApiError(failure(404, 'NotFound', `${qualified(gr)} ${JSON.stringify(name)} not found`, { name, group: gr.group, kind: gr.resource }));
  },
  alreadyExists(gr: GroupResource, name: string): ApiError {
    return new ApiError(failure(409, 'AlreadyExists', `${qualified(gr)} ${JSON.stringify(name)} already exists`, { name, group: gr.group, kind: gr.resource }));
  },
  conflict(gr: GroupResource, name: string, why: string): ApiError {
    return new ApiError(
      failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} ${JSON.stringify(name)}: ${why}`, {
        name,
        group: gr.group,
        kind: gr.resource,
      }),
    );
  },
  /** The optimistic-concurrency failure of an update with a stale resourceVersion. */
  modified(gr: GroupResource, name: string): ApiError {
    return errors.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  invalid(gk: GroupKind, name: string, errs: FieldError[]): ApiError {
    const texts = errs.map(fieldErrorText);
    const agg = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
    return new ApiError(
      failure(422, 'Invalid', `${qualifiedKind(gk)} ${JSON.stringify(name)} is invalid: ${agg}`, {
        name,
        group: gk.group,
        kind: gk.kind,
        causes: errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
      }),
    );
  },
  badRequest(message: string): ApiError {
    return new ApiError(failure(400, 'BadRequest', message));
  },
  forbidden(gr: GroupResource, name: string, why: string, causes?: StatusCause[]): ApiError {
    const what = name ? `${qualified(gr)} ${JSON.stringify(name)}` : qualified(gr);
    return new ApiError(failure(403, 'Forbidden', `${what} is forbidden: ${why}`, { name, group: gr.group, kind: gr.resource, ...(causes ? { causes } : {}) }));
  },
  /** go-restful's answer for a method the route does not serve. */
  methodNotAllowed(): ApiError {
    return new ApiError(failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}));
  },
  /** Unknown resource or subresource under a served group/version. */
  notFoundGeneric(): ApiError {
    return new ApiError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
  },
  unauthorized(): ApiError {
    return new ApiError(failure(401, 'Unauthorized', 'Unauthorized'));
  },
  tooManyRequests(message: string, retryAfterSeconds: number, causes?: StatusCause[]): ApiError {
    return new ApiError(failure(429, 'TooManyRequests', message, { retryAfterSeconds, ...(causes ? { causes } : {}) }));
  },
  internal(message: string): ApiError {
    return new ApiError(failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }));
  },
  unsupportedMediaType(accepted: string[]): ApiError {
    return new ApiError(
      failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`),
    );
  },
  notAcceptable(): ApiError {
    return new ApiError(
      failure(406, 'NotAcceptable', 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf'),
    );
  },
  /** 410 for a watch/list resourceVersion older than the retained history. */
  expired(message: string): ApiError {
    return new ApiError(failure(410, 'Expired', message));
  },
  /**
   * NewGenericServerResponse(422): what a failed JSON patch operation returns. The real
   * server says only this generic sentence, with empty details (checked against 1.20 by
   * test/envtest/fidelity.test.ts); the patch error itself is kept on the ApiError's cause.
   */
  patchRejected(why: string): ApiError {
    return new ApiError(failure(422, 'Invalid', 'the server rejected our request due to an error in our request', {}), { cause: new Error(why) });
  },
};

/** The Status a successful DELETE returns for stores that do not return the object. */
export function deletedStatus(gr: GroupResource, name: string, uid: string | undefined): StatusBody {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: details({ name, group: gr.group, kind: gr.resource, ...(uid ? { uid } : {}) }),
  };
}

export function successStatus(code?: number): StatusBody {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', ...(code ? { code } : {}) };
}
