import { describe, expect, it } from 'vitest';
import { looksRandom, REDACTED, redactDeep, redactLines, redactText, SECRET_NAMES, type SecretName, secretsIn } from './redact.js';

// Real formats with public documentation examples or obviously fake values: AWS's AKIAIOSFODNN7EXAMPLE,
// GitHub's and Slack's documented token examples, jwt.io's sample, Azurite's well-known account key.
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const FAKE_SIG = 'Qm9ndXNTaWduYXR1cmVGb3JUZXN0c09ubHlOb3RBUmVhbFNpZ25hdHVyZQ';
/** A projected service account token as the kubelet mounts it (fake signature). */
const SA_TOKEN = [
  b64url({ alg: 'RS256', kid: 'Zx4nQ1c2' }),
  b64url({
    aud: ['https://kubernetes.default.svc.cluster.local'],
    iss: 'https://kubernetes.default.svc.cluster.local',
    'kubernetes.io': { namespace: 'shop', serviceaccount: { name: 'api', uid: '0f5e8c2a-2b9e-4f7a-9a51-1c2d3e4f5a6b' } },
    sub: 'system:serviceaccount:shop:api',
  }),
  FAKE_SIG,
].join('.');
const JWT_IO =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ' +
  '.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
const GITHUB_PAT = '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Q9rS2tU5v';
const XAPP = 'xapp-1-A0123ABCDEF-4567890123456-0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
const RSA_BODY = [
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  'LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo',
];

interface Case {
  what: string;
  text: string;
  /** Substrings that must be gone. */
  secrets: string[];
  fired: SecretName;
  /** The whole redacted text, when the test says exactly what stays. */
  want?: string;
}

const POSITIVES: Case[] = [
  {
    what: 'an AWS access key id',
    text: 'INFO uploading with AKIAIOSFODNN7EXAMPLE to s3://backups',
    secrets: ['IOSFODNN7EXAMPLE'],
    fired: 'aws-access-key-id',
    want: `INFO uploading with AKIA${REDACTED} to s3://backups`,
  },
  {
    what: 'aws_secret_access_key=',
    text: `aws_secret_access_key=${AWS_SECRET}`,
    secrets: [AWS_SECRET],
    fired: 'secret-assignment',
    want: `aws_secret_access_key=${REDACTED}`,
  },
  {
    what: 'an AWS secret in a credentials file',
    text: `aws_secret_access_key = ${AWS_SECRET}`,
    secrets: [AWS_SECRET],
    fired: 'secret-assignment',
  },
  { what: 'AWS_SECRET_ACCESS_KEY in JSON', text: `{"AWS_SECRET_ACCESS_KEY":"${AWS_SECRET}"}`, secrets: [AWS_SECRET], fired: 'secret-assignment' },
  {
    what: 'a GitHub personal token (ghp_)',
    text: 'git: pushing as ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    secrets: ['16C7e42F292c6912E7710c838347Ae178B4a'],
    fired: 'github-token',
    want: `git: pushing as ghp_${REDACTED}`,
  },
  { what: 'a GitHub OAuth token (gho_)', text: 'oauth token gho_16C7e42F292c6912E7710c838347Ae178B4a expired', secrets: ['gho_16C7e'], fired: 'github-token' },
  { what: 'a GitHub fine-grained token', text: `export GH_PAT=${GITHUB_PAT}`, secrets: [GITHUB_PAT.slice(11)], fired: 'github-token' },
  {
    what: 'a token in a git remote URL',
    text: 'remote: https://x-access-token:ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/shop/api.git',
    secrets: ['ghp_16C7e42F'],
    fired: 'url-credentials',
    want: `remote: https://x-access-token:${REDACTED}@github.com/shop/api.git`,
  },
  {
    what: 'a Slack bot token',
    text: 'slack: posting with xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
    secrets: ['pdFZKVeTuE8sk7oOcBrzbqgy'],
    fired: 'slack-token',
  },
  {
    what: 'a Slack user token',
    text: 'xoxp-17653672481-19874698323-19874698324-4f6dbfa1c0b2e3d4a5b6c7d8e9f0a1b2 revoked',
    secrets: ['4f6dbfa1c0b2'],
    fired: 'slack-token',
  },
  { what: 'a Slack app token', text: `socket mode: ${XAPP}`, secrets: ['0f1e2d3c4b5a'], fired: 'slack-token' },
  {
    what: 'a Slack webhook URL',
    text: 'POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX failed',
    secrets: ['T00000000/B00000000'],
    fired: 'slack-webhook',
  },
  {
    what: 'a Google API key in a query',
    text: 'GET https://maps.googleapis.com/maps/api/geocode/json?address=x&key=AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe 403',
    secrets: ['SyDaGmWKa4JsXZ'],
    fired: 'google-api-key',
  },
  {
    what: 'a Google OAuth access token',
    text: 'gcs: token ya29.a0AfH6SMBx3kQ7vLm_2pN8rT5wY1zC4dF6 refreshed',
    secrets: ['a0AfH6SMBx3kQ7'],
    fired: 'google-oauth-token',
  },
  {
    what: 'a Stripe live key',
    text: 'Stripe error: No such customer; a similar object exists in test mode, but a live mode key sk_live_4eC39HqLyjWDarjtT1zdp7dc was used',
    secrets: ['4eC39HqLyjWDarjtT1zdp7dc'],
    fired: 'stripe-key',
  },
  { what: 'a Stripe key assigned', text: 'stripe.api_key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"', secrets: ['4eC39Hq'], fired: 'secret-assignment' },
  { what: 'a GitLab token', text: 'clone with glpat-xJ4k9Lm2Np7Qr1St6Uv3 failed', secrets: ['xJ4k9Lm2Np7Qr1St6Uv3'], fired: 'gitlab-token' },
  { what: 'an npm token', text: 'npm notice using npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', secrets: ['a1B2c3D4e5F6'], fired: 'npm-token' },
  {
    what: 'an npmrc auth line',
    text: '//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
    secrets: ['a1B2c3D4e5F6'],
    fired: 'secret-assignment',
  },
  {
    what: 'a SendGrid key',
    text: 'mailer: 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 rejected',
    secrets: ['ngeVfQFYQlKU0ufo8x5d1A'],
    fired: 'sendgrid-key',
  },
  { what: 'an OpenAI project key', text: 'openai: 401 for sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', secrets: ['Ab3dEf6hIj9kLm2n'], fired: 'ai-api-key' },
  { what: 'an Anthropic key', text: 'client init sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe', secrets: ['Zx9Yw8Vu7Ts6'], fired: 'ai-api-key' },
  {
    what: 'Authorization: Bearer',
    text: 'curl -H "Authorization: Bearer 9f86d081884c7d659a2feaa0c55ad015" https://api.shop.svc/orders',
    secrets: ['9f86d081884c7d659a2feaa0c55ad015'],
    fired: 'authorization-header',
    want: `curl -H "Authorization: Bearer ${REDACTED}" https://api.shop.svc/orders`,
  },
  {
    what: 'Authorization: Basic',
    text: 'GET /metrics Authorization: Basic YWRtaW46UzNjcjN0LVA0c3M=',
    secrets: ['YWRtaW46UzNjcjN0LVA0c3M='],
    fired: 'authorization-header',
    want: `GET /metrics Authorization: Basic ${REDACTED}`,
  },
  {
    what: 'a JSON authorization header',
    text: '{"headers":{"authorization":"Bearer abc.def-123_XYZ"}}',
    secrets: ['abc.def-123_XYZ'],
    fired: 'authorization-header',
  },
  {
    what: 'a bearer token outside a header',
    text: 'upstream rejected bearer 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
    secrets: ['9f86d081884c'],
    fired: 'bearer-token',
  },
  {
    what: 'Basic credentials outside a header',
    text: 'proxy: sending Basic YWRtaW46UzNjcjN0LVA0c3M= upstream',
    secrets: ['YWRtaW46UzNjcjN0LVA0c3M='],
    fired: 'basic-credentials',
  },
  { what: 'a cookie header', text: 'Cookie: session=s%3Aab12cd34.Xyz; csrftoken=9f86d081', secrets: ['ab12cd34', '9f86d081'], fired: 'cookie-header' },
  {
    what: 'a postgres URL',
    text: 'connecting to postgres://app:S3cr3t!@db.shop.svc:5432/orders?sslmode=require',
    secrets: ['S3cr3t!'],
    fired: 'url-credentials',
    want: `connecting to postgres://app:${REDACTED}@db.shop.svc:5432/orders?sslmode=require`,
  },
  { what: 'a mysql URL', text: 'DATABASE_URL=mysql://root:hunter2@mysql.shop:3306/shop', secrets: ['hunter2'], fired: 'url-credentials' },
  {
    what: 'a mongodb+srv URL',
    text: 'MongoServerSelectionError for mongodb+srv://admin:pa55w0rd@cluster0.ab1cd.mongodb.net/test?retryWrites=true&w=majority',
    secrets: ['pa55w0rd'],
    fired: 'url-credentials',
  },
  {
    what: 'a redis URL with only a password',
    text: 'Error connecting to redis://:r3d1sP4ss@redis-master.cache:6379/0',
    secrets: ['r3d1sP4ss'],
    fired: 'url-credentials',
    want: `Error connecting to redis://:${REDACTED}@redis-master.cache:6379/0`,
  },
  { what: 'an amqp URL', text: 'amqp: dial amqp://guest:guest@rabbitmq.queue:5672/ refused', secrets: ['guest@'], fired: 'url-credentials' },
  {
    what: "Go's MySQL DSN",
    text: 'dial app:S3cretPw@tcp(mysql.shop:3306)/shop?parseTime=true: connection refused',
    secrets: ['S3cretPw'],
    fired: 'dsn-credentials',
    want: `dial app:${REDACTED}@tcp(mysql.shop:3306)/shop?parseTime=true: connection refused`,
  },
  {
    what: 'password=',
    text: 'level=error msg="login failed" user=admin password=hunter2 attempt=3',
    secrets: ['hunter2'],
    fired: 'secret-assignment',
    want: `level=error msg="login failed" user=admin password=${REDACTED} attempt=3`,
  },
  { what: 'passwd:', text: 'ftp: user=backup passwd: Tr0ub4dor&3', secrets: ['Tr0ub4dor', '&3'], fired: 'secret-assignment' },
  {
    what: '"password": "…" with spaces',
    text: '{"level":"debug","db":{"user":"app","password":"c0rrect horse battery staple"}}',
    secrets: ['horse battery'],
    fired: 'secret-assignment',
    want: `{"level":"debug","db":{"user":"app","password":"${REDACTED}"}}`,
  },
  {
    what: 'PGPASSWORD=',
    text: '+ PGPASSWORD=Pg-S3cret-99 psql -h db -U app',
    secrets: ['Pg-S3cret-99'],
    fired: 'secret-assignment',
    want: `+ PGPASSWORD=${REDACTED} psql -h db -U app`,
  },
  {
    what: 'escaped JSON in a log string',
    text: 'msg="request body: {\\"username\\":\\"app\\",\\"password\\":\\"hunter2\\"}"',
    secrets: ['hunter2'],
    fired: 'secret-assignment',
    want: `msg="request body: {\\"username\\":\\"app\\",\\"password\\":\\"${REDACTED}\\"}"`,
  },
  {
    what: 'client_secret in a form body',
    text: 'POST /oauth/token grant_type=client_credentials&client_id=shop-api&client_secret=Zm9vYmFyYmF6cXV4&scope=read',
    secrets: ['Zm9vYmFyYmF6cXV4'],
    fired: 'secret-assignment',
    want: `POST /oauth/token grant_type=client_credentials&client_id=shop-api&client_secret=${REDACTED}&scope=read`,
  },
  { what: 'a YAML apiKey', text: 'apiKey: 3f9a8b7c6d5e4f3a2b1c', secrets: ['3f9a8b7c6d5e4f3a2b1c'], fired: 'secret-assignment' },
  {
    what: 'an Azure storage connection string',
    text: `DefaultEndpointsProtocol=https;AccountName=shopstore;AccountKey=${AZURITE_KEY};EndpointSuffix=core.windows.net`,
    secrets: [AZURITE_KEY.slice(0, 20)],
    fired: 'secret-assignment',
    want: `DefaultEndpointsProtocol=https;AccountName=shopstore;AccountKey=${REDACTED};EndpointSuffix=core.windows.net`,
  },
  {
    what: 'an Azure SAS signature',
    text: 'GET https://shopstore.blob.core.windows.net/backups/db.tar?sv=2022-11-02&ss=b&sig=AbCdEf0123456789%2BgHiJkLmNoPq%3D 403',
    secrets: ['AbCdEf0123456789'],
    fired: 'secret-assignment',
  },
  {
    what: "Calico's CNI env dump (seed 004)",
    text: `CNI_COMMAND=DEL CNI_CONTAINERID=41857f70ed13 K8S_API_TOKEN=${SA_TOKEN} KUBECONFIG=/etc/cni/net.d/calico-kubeconfig`,
    secrets: [SA_TOKEN.slice(0, 40), FAKE_SIG],
    fired: 'secret-assignment',
    want: `CNI_COMMAND=DEL CNI_CONTAINERID=41857f70ed13 K8S_API_TOKEN=${REDACTED} KUBECONFIG=/etc/cni/net.d/calico-kubeconfig`,
  },
  { what: 'a service account token on its own', text: `mounted projected token ${SA_TOKEN} for shop/api`, secrets: [FAKE_SIG], fired: 'jwt' },
  { what: "jwt.io's sample", text: `id_token=${JWT_IO}`, secrets: ['SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'], fired: 'secret-assignment' },
  { what: 'a JWT in prose', text: `verify failed for ${JWT_IO}: signature invalid`, secrets: ['SflKxwRJ'], fired: 'jwt' },
  {
    what: 'a kubeadm bootstrap token',
    text: `kubeadm join 10.0.0.10:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:${'7c'.repeat(32)}`,
    secrets: ['0123456789abcdef'],
    fired: 'kubernetes-bootstrap-token',
    want: `kubeadm join 10.0.0.10:6443 --token abcdef.${REDACTED} --discovery-token-ca-cert-hash sha256:${'7c'.repeat(32)}`,
  },
  {
    what: 'a PEM private key in one JSON line',
    text: `{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\\n${RSA_BODY[0]}\\n-----END PRIVATE KEY-----\\n"}`,
    secrets: [RSA_BODY[0]!],
    fired: 'private-key',
  },
  {
    what: 'a private key block over lines',
    text: ['starting tls', '-----BEGIN RSA PRIVATE KEY-----', ...RSA_BODY, '-----END RSA PRIVATE KEY-----', 'listening on :8443'].join('\n'),
    secrets: RSA_BODY,
    fired: 'private-key',
    want: `starting tls\n-----BEGIN RSA PRIVATE KEY-----${REDACTED}-----END RSA PRIVATE KEY-----\nlistening on :8443`,
  },
  {
    what: 'a tail that ends inside a key block',
    text: ['loaded config:', '-----BEGIN OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB', RSA_BODY[1]].join('\n'),
    secrets: ['b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB', RSA_BODY[1]!],
    fired: 'private-key',
  },
  {
    what: 'a tail that starts inside a key block',
    text: [RSA_BODY[1], RSA_BODY[2], '-----END EC PRIVATE KEY-----', 'panic: tls: failed to parse private key'].join('\n'),
    secrets: [RSA_BODY[1]!, RSA_BODY[2]!],
    fired: 'private-key-tail',
    want: `${REDACTED}-----END EC PRIVATE KEY-----\npanic: tls: failed to parse private key`,
  },
];

/** Evidence that must stay as it is: digests, ids, paths and the words of real event messages. */
const NEGATIVES: string[] = [
  'Pulled image "nginx@sha256:d59ce33d91a87db762aa0cf1f47321b5e9e8847633e0c2c02c845f42479bcee9"',
  'containerID: containerd://4f5a97d8df7ddd9a799c629c336193933fd2528313f67682c8d471f58e88cad9',
  'Back-off restarting failed container api in pod api-7d9c8b6f5-x2x4z_shop(4b543da6-619a-4298-8dfe-2031d29bcb9c)',
  'password policy updated for realm shop',
  'token bucket refilled: 5 tokens available, max_tokens=100',
  'Failed to pull image "registry.example.com/shop/api:1.2": rpc error: code = Unknown desc = failed to pull and unpack image ' +
    '"registry.example.com/shop/api:1.2": failed to resolve reference "registry.example.com/shop/api:1.2": failed to authorize: ' +
    'failed to fetch anonymous token: unexpected status from GET request to ' +
    'https://registry.example.com/token?scope=repository%3Ashop%2Fapi%3Apull&service=registry.example.com: 401 Unauthorized',
  'failed to fetch oauth token: unexpected status from POST request to https://auth.example.com/token: 400 Bad Request',
  'MountVolume.SetUp failed for volume "kube-api-access-x7k2p" : object "shop"/"kube-root-ca.crt" not registered',
  'MountVolume.SetUp failed for volume "db-secret" : secret "db-secret" not found',
  "Error: couldn't find key password in Secret shop/db-credentials",
  'open /var/run/secrets/kubernetes.io/serviceaccount/token: no such file or directory',
  'mounting /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-x7k2p',
  'FATAL:  password authentication failed for user "app"',
  'Unable to authenticate the request: invalid bearer token',
  'Basic authentication failed for user admin',
  'Authorization: denied for user bob',
  'GET https://10.96.0.1:443/api/v1/namespaces/shop/pods?limit=500 200 OK',
  'git clone ssh://git@github.com/shop/api.git',
  'Created event api-7d9c8b6f5-x2x4z.17f9a1c0a1b2c3d4 and ledger.17f9a1c0a1b2c3d4',
  'open /etc/passwd: no such file or directory',
  'PWD=/app HOME=/root PATH=/usr/local/bin:/usr/bin',
  'secretName: db-credentials automountServiceAccountToken: false tokenExpirationSeconds: 3607',
  'scheduling sk-payments-api-7f9c8d-x2x4z on node with disk-pressure in Asia/Tokyo',
  'keyring updated: key=orders:123 passwordPolicy=strict bypass=enabled',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell placeholder in a log line, not a template
  'password=${DB_PASSWORD} password=**** password=',
  'etcdKeyfile: etcdCertfile: etcdCAFile: etcdUsername: etcdPassword: version:false',
  'Readiness probe failed: HTTP probe failed with statuscode: 503',
];

describe('redactText', () => {
  it.each(POSITIVES.map((c) => [c.what, c] as const))('redacts %s', (_what, c) => {
    const out = redactText(c.text);
    for (const secret of c.secrets) expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED.slice(0, 9));
    expect(secretsIn(c.text)).toContain(c.fired);
    if (c.want !== undefined) expect(out).toBe(c.want);
  });

  it.each(NEGATIVES)('keeps %s', (text) => {
    expect(redactText(text)).toBe(text);
    expect(secretsIn(text)).toEqual([]);
  });

  it('is idempotent: what it leaves is left on a second pass, and no pattern fires again', () => {
    for (const c of POSITIVES) {
      const once = redactText(c.text);
      expect(redactText(once), c.what).toBe(once);
      expect(secretsIn(once), c.what).toEqual([]);
    }
  });

  it('has a real shape for every name it can report', () => {
    const fired = new Set(POSITIVES.flatMap((c) => secretsIn(c.text)));
    expect([...SECRET_NAMES].filter((n) => !fired.has(n))).toEqual([]);
  });

  it('redacts every secret of a line, each by its own pattern', () => {
    const line = 'retry postgres://app:S3cr3t!@db:5432/x with xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy password=hunter2';
    expect(redactText(line)).toBe(`retry postgres://app:${REDACTED}@db:5432/x with xoxb-${REDACTED} password=${REDACTED}`);
    expect(secretsIn(line)).toEqual(['url-credentials', 'secret-assignment', 'slack-token']);
  });
});

describe('redactLines', () => {
  it('redacts a key block that spans lines as a whole, and keeps the lines around it', () => {
    const tail = ['starting', '-----BEGIN PRIVATE KEY-----', ...RSA_BODY, '-----END PRIVATE KEY-----', 'exit 1'];
    expect(redactLines(tail)).toEqual(['starting', `-----BEGIN PRIVATE KEY-----${REDACTED}-----END PRIVATE KEY-----`, 'exit 1']);
  });

  it('returns the same array when there is nothing to redact', () => {
    const tail = ['a', 'b'];
    expect(redactLines(tail)).toBe(tail);
  });
});

describe('redactDeep', () => {
  it('redacts strings at any depth, credential-named fields whole, and leaves identifiers', () => {
    const value = {
      text: 'login password=hunter2',
      parts: [{ kind: 'quote', source: 'logs api (previous)', text: 'Authorization: Bearer 9f86d081884c7d659a2f' }],
      buttons: [{ action: 'approve', value: 'pl_xoxb-17653672481-1987' }],
      headers: { 'x-api-key': 'plainword', token: 42 },
    };
    expect(redactDeep(value, (k, o) => k === 'kind' || ((k === 'action' || k === 'value') && 'action' in o))).toEqual({
      text: `login password=${REDACTED}`,
      parts: [{ kind: 'quote', source: 'logs api (previous)', text: `Authorization: Bearer ${REDACTED}` }],
      buttons: [{ action: 'approve', value: 'pl_xoxb-17653672481-1987' }],
      headers: { 'x-api-key': REDACTED, token: REDACTED },
    });
  });

  it('keeps a list its items, and still sees a key block whose lines are items', () => {
    expect(redactDeep({ items: ['first password=hunter2', 'second token=ab12cd34ef'] })).toEqual({
      items: [`first password=${REDACTED}`, `second token=${REDACTED}`],
    });
    expect(redactDeep({ lines: ['key:', '-----BEGIN EC PRIVATE KEY-----', RSA_BODY[0], '-----END EC PRIVATE KEY-----'] })).toEqual({
      lines: ['key:', `-----BEGIN EC PRIVATE KEY-----${REDACTED}-----END EC PRIVATE KEY-----`],
    });
  });

  it('returns the value itself when nothing changed', () => {
    const value = { text: 'all good', list: ['a', 'b'], n: 1 };
    expect(redactDeep(value)).toBe(value);
  });
});

describe('looksRandom', () => {
  it.each([
    ['unexpected', false],
    ['Unauthorized', false],
    ['401', false],
    ['serviceaccounts', false],
    ['S3cr3tPw', true],
    ['3f9a8b7c6d5e', true],
    ['abc.def-ghi_jkl', true],
  ])('%s → %s', (value, want) => expect(looksRandom(value)).toBe(want));
});
