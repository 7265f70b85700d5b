import { describe, expect, it } from 'vitest';
import { classifyPullError, type PullErrorClass, parseImageRef } from './pull-errors.js';

interface Row {
  text: string;
  cls: PullErrorClass;
  registry?: string;
  image?: string;
  ref?: string;
  hint?: string;
  runtime?: string;
}

// Every real string of kubernetes-facts.md section 4 (and the pull strings of 1.4, 1.8,
// Appendix A and seed 003), verbatim, including their `...` elisions.
const TABLE: Row[] = [
  // tag / manifest missing
  {
    text: 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/cvisionai/tator_online:b51d...": failed to resolve reference "docker.io/cvisionai/tator_online:b51d...": docker.io/cvisionai/tator_online:b51d...: not found',
    cls: 'not-found',
    registry: 'docker.io',
    ref: 'docker.io/cvisionai/tator_online:b51d...',
    runtime: 'containerd',
  },
  {
    text: 'failed to copy: httpReadSeeker: failed open: content at https://ghcr.io/v2/cloudnative-pg/cloudnative-pg/manifests/sha256:8274... not found: not found',
    cls: 'not-found',
    registry: 'ghcr.io',
    image: 'ghcr.io/cloudnative-pg/cloudnative-pg@sha256:8274...',
  },
  {
    text: 'rpc error: code = Unknown desc = Error response from daemon: manifest for lachlanevenson/k8s-kubectl:v1.18.20 not found: manifest unknown: manifest unknown',
    cls: 'not-found',
    hint: 'manifest-unknown',
    registry: 'docker.io',
    ref: 'docker.io/lachlanevenson/k8s-kubectl:v1.18.20',
    runtime: 'docker',
  },
  { text: 'rpc error: code = 2 desc = manifest unknown: manifest unknown', cls: 'not-found', hint: 'manifest-unknown' },
  {
    text: 'Back-off pulling image "ghcr.io/acme/api:v9": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/acme/api:v9": failed to resolve reference "ghcr.io/acme/api:v9": ghcr.io/acme/api:v9: not found',
    cls: 'not-found',
    registry: 'ghcr.io',
    image: 'ghcr.io/acme/api:v9',
  },
  {
    text: 'failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found',
    cls: 'not-found',
    ref: 'docker.io/library/nginx:doesnotexist',
  },
  // CRI-O
  {
    text: 'rpc error: code = Unknown desc = reading manifest v9 in quay.io/acme/api: manifest unknown',
    cls: 'not-found',
    image: 'quay.io/acme/api:v9',
    registry: 'quay.io',
    runtime: 'cri-o',
  },
  {
    text: 'Failed to pull image "quay.io/acme/api:v9": initializing source docker://quay.io/acme/api:v9: reading manifest v9 in quay.io/acme/api: manifest unknown',
    cls: 'not-found',
    image: 'quay.io/acme/api:v9',
    runtime: 'cri-o',
  },
  {
    text: 'Failed to pull image "quay.io/acme/private:1.0": unable to pull image or OCI artifact: pull image err: initializing source docker://quay.io/acme/private:1.0: reading manifest 1.0 in quay.io/acme/private: unauthorized: access to the requested resource is not authorized',
    cls: 'auth',
    registry: 'quay.io',
    runtime: 'cri-o',
  },
  // repo missing / private without credentials: ambiguous, decided as auth
  {
    text: 'failed to resolve reference "docker.io/hystax/deactivatorg:2025051201-public": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed',
    cls: 'auth',
    hint: 'pull-access-denied',
    ref: 'docker.io/hystax/deactivatorg:2025051201-public',
  },
  {
    text: 'pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials',
    cls: 'auth',
    hint: 'pull-access-denied',
  },
  {
    text: "Error response from daemon: pull access denied for suedostcargo-web, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
    cls: 'auth',
    hint: 'pull-access-denied',
    ref: 'docker.io/library/suedostcargo-web:latest',
    runtime: 'docker',
  },
  // auth failure
  {
    text: 'failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://auth.docker.io/token?scope=repository%3A...%3Apull&service=registry.docker.io: 401 Unauthorized',
    cls: 'auth',
    registry: 'docker.io',
  },
  { text: 'failed to authorize: failed to fetch anonymous token: unexpected status: 401 Unauthorized', cls: 'auth' },
  { text: 'unexpected status code https://<reg>/v2/<repo>/manifests/<tag>: 401 Unauthorized', cls: 'auth' },
  {
    text: 'Error response from daemon: Get "https://gcr.io/v2/...": unauthorized: authentication required',
    cls: 'auth',
    registry: 'gcr.io',
    runtime: 'docker',
  },
  { text: 'no basic auth credentials', cls: 'auth', hint: 'no-credentials' },
  // plain-HTTP registry
  {
    text: 'failed to resolve reference "localhost:7439/...:2023.1.2": failed to do request: Head "https://localhost:7439/v2/.../manifests/2023.1.2": http: server gave HTTP response to HTTPS client',
    cls: 'insecure-registry',
    registry: 'localhost:7439',
  },
  {
    text: 'Head https://registry:5000/v2/hello-app/manifests/1.0: http: server gave HTTP response to HTTPS client',
    cls: 'insecure-registry',
    registry: 'registry:5000',
    image: 'registry:5000/hello-app:1.0',
  },
  {
    text: 'Error response from daemon: Get "https://192.168.1.10:1234/v2/": http: server gave HTTP response to HTTPS client',
    cls: 'insecure-registry',
    registry: '192.168.1.10:1234',
  },
  {
    text: 'error pinging local-repo:4000: Get "https://local-repo:4000/v2/": http: server gave HTTP response to HTTPS client',
    cls: 'insecure-registry',
    registry: 'local-repo:4000',
    runtime: 'cri-o',
  },
  // TLS / private CA
  {
    text: 'failed to do request: Head "https://registry.k8s.io/v2/coredns/coredns/manifests/v1.11.1": tls: failed to verify certificate: x509: certificate signed by unknown authority',
    cls: 'untrusted-ca',
    hint: 'x509-unknown-authority',
    registry: 'registry.k8s.io',
    image: 'registry.k8s.io/coredns/coredns:v1.11.1',
  },
  {
    text: '... tls: failed to verify certificate: x509: certificate is valid for a.example, not cr.strrl.dev',
    cls: 'untrusted-ca',
    hint: 'x509-name-mismatch',
  },
  { text: '... x509: certificate signed by unknown authority', cls: 'untrusted-ca' },
  {
    text: 'Error response from daemon: Get https://10.78.0.228:5000/v1/_ping: x509: certificate signed by unknown authority',
    cls: 'untrusted-ca',
    registry: '10.78.0.228:5000',
  },
  {
    text: 'Failed to pull image "X": failed to pull and unpack image "X": failed to resolve reference "X": failed to do request: Head "https://.../v2/.../manifests/0.0.18": tls: failed to verify certificate: x509: ...',
    cls: 'untrusted-ca',
    hint: 'tls-verify',
  },
  // network timeout
  {
    text: 'failed to resolve image "...": no available registry endpoint: failed to do request: Head https://image-registry.canonical.com:5000/v2/.../manifests/1.4.0: dial tcp 162.213.33.199:5000: i/o timeout',
    cls: 'registry-unreachable',
    registry: 'image-registry.canonical.com:5000',
  },
  { text: 'failed to do request: Head "https://...": dial tcp 10.0.0.5:443: i/o timeout', cls: 'registry-unreachable', hint: 'dial-timeout' },
  {
    text: 'failed to authorize: failed to fetch anonymous token: Get "https://auth.docker.io/token?...": dial tcp 199.59.148.222:443: i/o timeout',
    cls: 'registry-unreachable',
    registry: 'docker.io',
  },
  {
    text: 'Error response from daemon: Get https://registry-1.docker.io/v2/: net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)',
    cls: 'registry-unreachable',
    hint: 'connect-timeout',
    registry: 'docker.io',
  },
  {
    text: 'API error (500): ... v2 ping attempt failed with error: Get https://10.101.100.100:30000/v2/: dial tcp 10.101.100.100:30000: i/o timeout',
    cls: 'registry-unreachable',
    registry: '10.101.100.100:30000',
    runtime: 'docker',
  },
  // DNS
  {
    text: 'failed to do request: Head "https://registry.example.com/v2/app/manifests/1.0": dial tcp: lookup registry.example.com on 127.0.0.53:53: no such host',
    cls: 'registry-unreachable',
    hint: 'dns',
    registry: 'registry.example.com',
  },
  {
    text: 'Error response from daemon: Get https://registry-1.docker.io/v2/: dial tcp: lookup registry-1.docker.io on 127.0.0.53:53: server misbehaving',
    cls: 'registry-unreachable',
    hint: 'dns',
    registry: 'docker.io',
  },
  {
    text: 'Error response from daemon: Get https://registry-1.docker.io/v2/: dial tcp: lookup registry-1.docker.io on 127.0.0.53:53: no such host',
    cls: 'registry-unreachable',
    hint: 'dns',
  },
  { text: '... read udp 192.168.49.2:48049->192.168.49.1:53: i/o timeout', cls: 'registry-unreachable', hint: 'dns' },
  {
    text: 'image pull failed for registry.example.com/app:1.0 because the registry is unavailable: connection timed out',
    cls: 'registry-unreachable',
    registry: 'registry.example.com',
  },
  // rate limits
  {
    text: 'rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/busybox:latest": failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/busybox/manifests/sha256:50aa...: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
    cls: 'throttled',
    hint: 'registry-rate-limit',
    ref: 'docker.io/library/busybox:latest',
  },
  {
    text: 'Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
    cls: 'throttled',
    hint: 'registry-rate-limit',
  },
  // blob missing
  {
    text: 'failed to copy: httpReadSeeker: failed open: content at https://<reg>/v2/<repo>/blobs/sha256:<d> not found: not found',
    cls: 'corrupt-blob',
    hint: 'blob-missing',
  },
  { text: 'error pulling image configuration: unknown blob', cls: 'corrupt-blob', hint: 'unknown-blob' },
  { text: 'blob unknown: blob unknown to registry', cls: 'corrupt-blob' },
  {
    text: 'Failed to pull image "docker02:35000/env/release/3.2.0/prophet/app/executor-service-kube.tar:release-3.2.0-8": rpc error: code = Unknown desc = error pulling image configuration: unknown blob',
    cls: 'corrupt-blob',
    registry: 'docker02:35000',
    ref: 'docker02:35000/env/release/3.2.0/prophet/app/executor-service-kube.tar:release-3.2.0-8',
  },
  // kubelet throttle
  { text: 'pull QPS exceeded', cls: 'throttled', hint: 'kubelet-qps' },
  { text: 'Failed to pull image "a.b.c/image:0.1": pull QPS exceeded', cls: 'throttled', hint: 'kubelet-qps', registry: 'a.b.c' },
  { text: 'Failed to pull image "172.27.129.211:35000/filebeat-with-module:6.0.0": pull QPS exceeded.', cls: 'throttled', registry: '172.27.129.211:35000' },
  // cancellation / slow pull
  { text: '... failed to do request: Get "https://.../blobs/sha256:...": context canceled', cls: 'timeout', hint: 'canceled' },
  {
    text: 'rpc error: code = Canceled desc = failed to pull and unpack image "...": failed to copy: httpReadSeeker: failed open: failed to do request: Get "https://.../blobs/sha256:...": context canceled',
    cls: 'timeout',
  },
  { text: 'rpc error: code = DeadlineExceeded desc = ...', cls: 'timeout', hint: 'deadline' },
  { text: 'net/http: request canceled', cls: 'timeout' },
  // disk full: the node's disk (image.node-disk-full), never another class
  {
    text: 'failed to pull and unpack image "...": failed to extract layer sha256:...: write /var/lib/containerd/...: no space left on device: unknown',
    cls: 'disk-full',
  },
  { text: 'failed to register layer: ... no space left on device', cls: 'disk-full' },
  // a layer cut short on the way (image.transfer-interrupted), not a corrupt image in the registry
  {
    text: 'failed to pull and unpack image "docker.io/jupyter/datascience-notebook:2024-01-15": failed to copy: failed commit on ref "layer-sha256:769439b1": "layer-sha256:769439b1" failed size validation: 2150392 != 2167557: failed precondition',
    cls: 'transfer',
  },
  // 403: refused whatever the credentials (image.forbidden), unless it speaks of tokens (auth)
  {
    text: 'failed to resolve reference "registry.k8s.io/pause:3.9": unexpected status from HEAD request to https://registry.k8s.io/v2/pause/manifests/3.9: 403 Forbidden',
    cls: 'forbidden',
  },
  { text: 'Error response from daemon: denied: Your authorization token has expired. Reauthenticate and try again. 403 Forbidden', cls: 'auth' },
  // kubelet text without the runtime error (pre-1.32 back-off, pre-2018 FailedSync)
  { text: 'Back-off pulling image "registry.example.com/shop/web:1.4.2"', cls: 'unknown', registry: 'registry.example.com' },
  { text: 'image pull failed for unknown error', cls: 'unknown' },
  { text: 'Error syncing pod, skipping: failed to "StartContainer" for "web" with ErrImagePull: "image pull failed for unknown error"', cls: 'unknown' },
  // kubectl >= PR #133627 prefixes container-scoped messages with the fieldPath in describe
  {
    text: 'spec.containers{nginx}: Failed to pull image "nginx:nope": failed to pull and unpack image "docker.io/library/nginx:nope": failed to resolve reference "docker.io/library/nginx:nope": docker.io/library/nginx:nope: not found',
    cls: 'not-found',
    image: 'nginx:nope',
    ref: 'docker.io/library/nginx:nope',
  },
  // the runtime's own socket: not a registry problem
  {
    text: 'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing dial unix /run/containerd/containerd.sock: connect: connection refused"',
    cls: 'unknown',
  },
];

// CRI-O 1.27–1.32 (containers/image v5.25–v5.33, vendored as github.com/containers/image/v5) and containerd
// 2.0/2.1 (2.1 pulls through the transfer service). Quoted from the issue or page named, or the source's own
// format (file named) with the values of a real pull.
const OTHER_RUNTIMES: Row[] = [
  // Docker Hub's DENIED without its code (docker/errors.go registryHTTPResponseToError): missing or private, as ambiguous as docker's
  {
    text: 'Failed to pull image "nonexistent:image": initializing source docker://nonexistent:image: reading manifest image in docker.io/library/nonexistent: requested access to the resource is denied',
    cls: 'auth',
    hint: 'pull-access-denied',
    ref: 'docker.io/library/nonexistent:image',
    runtime: 'cri-o',
  },
  // containers/image before it kept only the first error (labring/laf#390)
  {
    text: 'initializing source docker://labring/user-controller:dev: reading manifest dev in docker.io/labring/user-controller: errors:\ndenied: requested access to the resource is denied\nunauthorized: authentication required',
    cls: 'auth',
    hint: 'pull-access-denied',
    registry: 'docker.io',
  },
  // docker/docker_client.go getBearerToken → errors.go httpResponseToError("Requesting bearer token")
  {
    text: 'initializing source docker://quay.io/acme/private:1.0: Requesting bearer token: invalid status code from registry 403 (Forbidden)',
    cls: 'auth',
    hint: 'token-refused',
    ref: 'quay.io/acme/private:1.0',
  },
  // errors.go ErrTooManyRequests: a 429 on the ping or the token endpoint
  {
    text: 'initializing source docker://docker.io/library/nginx:1.27: pinging container registry registry-1.docker.io: too many requests to registry',
    cls: 'throttled',
    hint: 'registry-rate-limit',
  },
  // docker_client.go detectPropertiesHelper: a registry on a port keeps its port in the reference
  {
    text: 'initializing source docker://registry.local:5000/team/app:1: pinging container registry registry.local:5000: Get "https://registry.local:5000/v2/": http: server gave HTTP response to HTTPS client',
    cls: 'insecure-registry',
    registry: 'registry.local:5000',
    ref: 'registry.local:5000/team/app:1',
    runtime: 'cri-o',
  },
  // errors.go unexpectedHTTPResponseError: a 404 with an HTML body (a proxy in front of the registry)
  {
    text: 'initializing source docker://registry.example.com/shop/web:1.4.2: reading manifest 1.4.2 in registry.example.com/shop/web: StatusCode: 404, "<html>\\r\\n<head><title>404 Not Found</title></head>..."',
    cls: 'not-found',
    hint: 'http-404',
  },
  // copy/digesting_reader.go and copy/blob.go errorAnnotationReader
  {
    text: 'writing blob: storing blob to file "/var/tmp/container_images_storage1794393263/1": happened during read: Digest did not match, expected sha256:2d5a, got sha256:7f1c',
    cls: 'corrupt-blob',
    hint: 'digest-mismatch',
  },
  {
    text: 'copying system image from manifest list: writing blob: storing blob to file "/var/tmp/container_images_storage1794393263/2": happened during read: unexpected EOF',
    cls: 'transfer',
  },
  // CRI-O 1.31+: architecture and OS quoted (internal/manifest/docker_schema2_list.go)
  {
    text: 'choosing an image from manifest list docker://quay.io/acme/tool:2.1: no image found in manifest list for architecture "arm64", variant "v8", OS "linux"',
    cls: 'platform',
  },
  // containerd 2.1 (core/transfer/local/pull.go): kubectl describe output quoted on public pages
  {
    text: 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:9.9": failed to resolve image: docker.io/library/nginx:9.9: not found',
    cls: 'not-found',
    ref: 'docker.io/library/nginx:9.9',
    runtime: 'containerd',
  },
  {
    text: 'failed to pull and unpack image "acrlaba1e1193.azurecr.io/labs/payments-api@sha256:d2315b567c8d8497b90ec0ce3607b64c91491bf4e29ed54932a42c7e76d4e49d": failed to resolve image: failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://acrlaba1e1193.azurecr.io/oauth2/token?scope=repository%3Alabs%2Fpayments-api%3Apull&service=acrlaba1e1193.azurecr.io: 401 Unauthorized',
    cls: 'auth',
    registry: 'acrlaba1e1193.azurecr.io',
    runtime: 'containerd',
  },
  {
    text: 'failed to pull and unpack image "docker.io/calico/cni:v3.30.4": failed to resolve image: failed to do request: Head "https://registry-1.docker.io/v2/calico/cni/manifests/v3.30.4": net/http: TLS handshake timeout',
    cls: 'registry-unreachable',
    runtime: 'containerd',
  },
  {
    text: 'failed to pull and unpack image "941141115079.dkr.ecr.ap-northeast-2.amazonaws.com/notification-service:v0.1.2": failed to resolve image: unexpected status from HEAD request to https://941141115079.dkr.ecr.ap-northeast-2.amazonaws.com/v2/notification-service/manifests/v0.1.2: 403 Forbidden',
    cls: 'forbidden',
    registry: '941141115079.dkr.ecr.ap-northeast-2.amazonaws.com',
  },
  // near misses: a 400 from the token endpoint says nothing about credentials, nor does a wrapper alone
  { text: 'initializing source docker://quay.io/acme/api:v1: Requesting bearer token: invalid status code from registry 400 (Bad Request)', cls: 'unknown' },
  {
    text: 'failed to pull and unpack image "registry.k8s.io/pause:3.10": unable to initialize unpacker: no unpack platforms defined: invalid argument',
    cls: 'unknown',
  },
];

describe('classifyPullError', () => {
  it.each([...TABLE, ...OTHER_RUNTIMES])('$cls: $text', (row) => {
    const got = classifyPullError(row.text);
    expect(got.class).toBe(row.cls);
    if (row.cls !== 'unknown') expect(got.phrase.length).toBeGreaterThan(0);
    if (row.registry) expect(got.registry).toBe(row.registry);
    if (row.image) expect(got.image).toBe(row.image);
    if (row.ref) expect(got.ref).toBe(row.ref);
    if (row.hint) expect(got.hint).toBe(row.hint);
    if (row.runtime) expect(got.runtime).toBe(row.runtime);
  });

  it('strips every kubelet and runtime wrapper from the detail', () => {
    const got = classifyPullError(
      'Failed to pull image "nginx:nope": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:nope": failed to resolve reference "docker.io/library/nginx:nope": docker.io/library/nginx:nope: not found',
    );
    expect(got.detail).toBe('failed to resolve reference "docker.io/library/nginx:nope": docker.io/library/nginx:nope: not found');
    expect(got.grpcCode).toBe('NotFound');
    expect(got.image).toBe('nginx:nope');
    expect(got.ref).toBe('docker.io/library/nginx:nope');
  });

  it('uses the fallback image when the text names none', () => {
    const got = classifyPullError('pull QPS exceeded', '10.0.0.9:5000/team/app:2');
    expect(got).toMatchObject({ class: 'throttled', registry: '10.0.0.9:5000', ref: '10.0.0.9:5000/team/app:2' });
  });
});

describe('parseImageRef', () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['bitnami/redis:7', 'docker.io/bitnami/redis:7'],
    ['registry-1.docker.io/bitnami/redis:7', 'docker.io/bitnami/redis:7'],
    ['localhost/app', 'localhost/app:latest'],
    ['localhost:5000/app:1', 'localhost:5000/app:1'],
    ['ghcr.io/acme/api@sha256:abc', 'ghcr.io/acme/api@sha256:abc'],
    ['172.27.129.211:35000/metricbeat-prophet:6.0.1', '172.27.129.211:35000/metricbeat-prophet:6.0.1'],
  ])('%s → %s', (image, ref) => {
    expect(parseImageRef(image)?.ref).toBe(ref);
  });
  it('rejects text that is not a reference', () => {
    expect(parseImageRef('not an image')).toBeUndefined();
    expect(parseImageRef('')).toBeUndefined();
  });
});
