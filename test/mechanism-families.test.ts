// The mechanism catalogue by family (issue 32). Each family is sourced from upstream text (the
// signatures name it: capabilities(7), setrlimit(2)/mlock(2), git/OpenSSH ownership checks,
// Chromium/bubblewrap sandboxes, clocks, the dynamic loader and runtimes, servers' own errors,
// .NET, TLS) and has a table here: a line, the mechanism and variant it means for a pod spec, and
// the knob (with its path) that changes it. Through the engine, a family's line decides a crash,
// and leaves quiet a pod that recovered long ago or a Ready pod that lived through it.
import { type ContainerPatch, describeFamilies, type Row } from './helpers/mechanism-table.js';

const DROP_ALL: ContainerPatch = { securityContext: { capabilities: { drop: ['ALL'] } } };
const NO_ESCALATION: ContainerPatch = { securityContext: { allowPrivilegeEscalation: false } };

const FAMILIES: Record<string, Row[]> = {
  capabilities: [
    {
      line: 'exec /usr/bin/caddy: operation not permitted',
      mechanism: 'capability-missing',
      variant: 'file-capabilities',
      knob: 'securityContext.capabilities.add',
      container: DROP_ALL,
      data: { program: '/usr/bin/caddy', held: 'the container drops them (capabilities drop)' },
    },
    {
      line: 'exec /usr/local/bin/doormouse: operation not permitted',
      mechanism: 'capability-missing',
      variant: 'file-capabilities',
      knob: 'the Dockerfile',
      container: NO_ESCALATION,
      data: { held: 'allowPrivilegeEscalation: false keeps it from gaining them' },
    },
    {
      line: '2020-12-27T09:09:51Z Fatal error : adjtimex(0x8001) failed : Operation not permitted',
      mechanism: 'capability-missing',
      variant: 'sys-time',
      knob: 'time synchronisation on node-1',
    },
    { line: 'ptrace: Operation not permitted.', mechanism: 'capability-missing', variant: 'ptrace', knob: 'sysctl kernel.yama.ptrace_scope on node-1' },
    {
      line: 'strace: attach: ptrace(PTRACE_ATTACH, 1): Operation not permitted',
      mechanism: 'capability-missing',
      variant: 'ptrace',
      knob: 'securityContext.capabilities.add',
    },
    { line: 'nice: cannot set niceness: Permission denied', mechanism: 'capability-missing', variant: 'sys-nice', knob: 'nice -n' },
    {
      line: 'dial tcp 34.210.105.16:443: setting SO_MARK bypass: operation not permitted',
      mechanism: 'capability-missing',
      variant: 'net-admin',
      knob: 'securityContext.capabilities.add',
    },
    {
      line: "chroot: cannot change root directory to '/srv': Operation not permitted",
      mechanism: 'capability-missing',
      variant: 'chroot',
      knob: 'spec.containers[app].securityContext.capabilities.add',
    },
  ],
  rlimits: [
    {
      line: '/app/start.sh: line 9: ulimit: open files: cannot modify limit: Operation not permitted',
      mechanism: 'rlimit-raise',
      variant: 'hard-limit',
      knob: 'CRI-O default_ulimits',
      data: { what: 'the open files limit' },
    },
    {
      line: '2020/05/11 09:12:01 [alert] 1#1: setrlimit(RLIMIT_NOFILE, 65535) failed (1: Operation not permitted)',
      mechanism: 'rlimit-raise',
      variant: 'hard-limit',
      knob: 'containerd base_runtime_spec rlimits',
      data: { what: 'the RLIMIT_NOFILE limit' },
    },
    {
      line: 'sh: 1: ulimit: error setting limit (Operation not permitted)',
      mechanism: 'rlimit-raise',
      variant: 'hard-limit',
      knob: "the entrypoint's ulimit line",
      data: { what: 'a resource limit' },
    },
    {
      line: 'bash: ulimit: max locked memory: cannot modify limit: Operation not permitted',
      mechanism: 'rlimit-raise',
      variant: 'memlock',
      knob: 'securityContext.capabilities.add',
    },
    {
      line: 'Error initializing core: Failed to lock memory: cannot allocate memory',
      mechanism: 'memlock-limit',
      variant: 'vault',
      knob: "Vault's disable_mlock",
    },
    { line: 'panic: io_uring_setup: cannot allocate memory', mechanism: 'memlock-limit', variant: 'io-uring', knob: 'CRI-O default_ulimits' },
    {
      line: 'map create: operation not permitted (MEMLOCK may be too low, consider rlimit.RemoveMemlock)',
      mechanism: 'memlock-limit',
      variant: 'ebpf',
      knob: 'LimitMEMLOCK of the runtime unit on node-1',
    },
    { line: 'mlockall failed: Cannot allocate memory', mechanism: 'memlock-limit', variant: 'runtime', knob: 'securityContext.capabilities.add' },
    {
      line: '[1]: memory locking requested for elasticsearch process but memory is not locked',
      mechanism: 'memlock-limit',
      variant: 'elasticsearch',
      knob: 'bootstrap.memory_lock',
    },
  ],
  ownership: [
    {
      line: "fatal: detected dubious ownership in repository at '/var/www/html'",
      mechanism: 'strict-ownership',
      variant: 'git',
      knob: 'git config --global --add safe.directory /var/www/html',
      container: { securityContext: { runAsUser: 1000 } },
      data: { path: '/var/www/html', user: 'UID 1000' },
    },
    {
      line: "Permissions 0644 for '/etc/ssh/keys/ssh_host_ed25519_key' are too open.",
      mechanism: 'strict-ownership',
      variant: 'ssh-key-mode',
      knob: 'spec.volumes[host-keys].secret.defaultMode',
      container: { volumeMounts: [{ name: 'host-keys', mountPath: '/etc/ssh/keys' }] },
      spec: { volumes: [{ name: 'host-keys', secret: { secretName: 'sftp-host-keys' } }] },
      data: { mode: '644' },
    },
    { line: 'Bad owner or permissions on /root/.ssh/config', mechanism: 'strict-ownership', variant: 'ssh-config', knob: 'configMap.defaultMode' },
    {
      line: 'Authentication refused: bad ownership or modes for directory /home/git',
      mechanism: 'strict-ownership',
      variant: 'sshd-strict-modes',
      knob: 'sshd_config StrictModes',
      spec: { securityContext: { fsGroup: 1000 } },
      data: { fsGroupNow: '1000' },
    },
    {
      line: "Error: EACCES: permission denied, mkdir '/.npm'",
      mechanism: 'fs-permission',
      variant: 'home-is-root',
      knob: 'spec.containers[app].env HOME',
      container: { securityContext: { runAsUser: 1001 } },
      data: { path: '/.npm', user: 'UID 1001' },
    },
    {
      line: 'failed to initialize build cache at /.cache/go-build: mkdir /.cache: permission denied',
      mechanism: 'fs-permission',
      variant: 'home-is-root',
      knob: 'GOCACHE',
    },
    {
      line: "npm ERR! Error: EPERM: operation not permitted, chown '/usr/local/src/node_modules/.staging/minimist-e209f42f'",
      mechanism: 'fs-ownership-change',
      variant: 'non-root-or-no-capability',
      knob: 'spec.securityContext.fsGroup',
      data: { path: '/usr/local/src/node_modules/.staging/minimist-e209f42f' },
    },
    { line: 'IOError: [Errno 37] No locks available', mechanism: 'data-dir-locked', variant: 'no-lock-support', knob: "the volume's storage (StorageClass)" },
  ],
  sandboxes: [
    {
      line: 'Failed to move to new namespace: PID namespaces supported, Network namespace supported, but failed: errno = Operation not permitted',
      mechanism: 'sandbox-namespaces',
      variant: 'chromium',
      knob: "the browser's launch arguments",
    },
    {
      line: 'bwrap: Creating new namespace failed: Operation not permitted',
      mechanism: 'sandbox-namespaces',
      variant: 'general',
      knob: 'spec.containers[app].securityContext.seccompProfile',
    },
    {
      line: 'ERROR: Cannot open TUN/TAP dev /dev/net/tun: No such device (errno=19)',
      mechanism: 'device-access',
      variant: 'tun',
      knob: 'spec.containers[app].resources.limits',
      data: { path: '/dev/net/tun' },
    },
    { line: "fuse: device not found, try 'modprobe fuse' first", mechanism: 'device-access', variant: 'fuse', knob: 'spec.volumes' },
    { line: 'hostname: you must be root to change the host name', mechanism: 'capability-missing', variant: 'hostname', knob: 'spec.hostname' },
  ],
  clock: [
    {
      line: 'InvalidSignatureException: Signature expired: 20170111T204052Z is now earlier than 20170111T225449Z (20170111T230949Z - 15 min.)',
      mechanism: 'clock-skew',
      variant: 'signed-request',
      knob: 'time synchronisation on node-1',
      data: { skew: '20170111T204052Z against 20170111T225449Z' },
    },
    { line: 'Token used before issued', mechanism: 'clock-skew', variant: 'token', knob: "the validator's clock-skew leeway" },
  ],
  image: [
    {
      line: "/opt/altv/configurator: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /opt/altv/configurator)",
      mechanism: 'image-runtime-mismatch',
      variant: 'glibc',
      knob: 'the Dockerfile',
      data: { want: 'GLIBC_2.34', program: '/opt/altv/configurator' },
    },
    {
      line: '/usr/local/bin/app: error while loading shared libraries: libssl.so.1.1: cannot open shared object file: No such file or directory',
      mechanism: 'image-runtime-mismatch',
      variant: 'shared-library',
      knob: 'the base image',
      data: { library: 'libssl.so.1.1' },
    },
    {
      line:
        'java.lang.UnsupportedClassVersionError: com/example/App has been compiled by a more recent version of the Java Runtime (class file version 61.0), ' +
        'this version of the Java Runtime only recognizes class file versions up to 55.0',
      mechanism: 'image-runtime-mismatch',
      variant: 'jvm-classfile',
      knob: 'the runtime base image (JRE)',
      data: { want: 'Java 17', have: 'Java 11' },
    },
    {
      line: 'panic: unknown time zone America/New_York',
      mechanism: 'tzdata-missing',
      variant: 'zoneinfo',
      knob: 'spec.containers[app].env TZ',
      data: { zone: 'America/New_York' },
    },
    { line: 'x509: failed to load system roots and no roots provided', mechanism: 'tls-unknown-authority', variant: 'no-ca-bundle', knob: 'the Dockerfile' },
    {
      line: "Error: Cannot find module '/app/server.js'",
      mechanism: 'fs-missing-path',
      variant: 'under-mount',
      knob: 'spec.containers[app].volumeMounts[work].mountPath',
      container: { volumeMounts: [{ name: 'work', mountPath: '/app' }] },
      spec: { volumes: [{ name: 'work', emptyDir: {} }] },
      data: { path: '/app/server.js', mountPath: '/app' },
    },
    {
      line: "Error: Cannot find module 'express'\nRequire stack:\n- /app/server.js",
      mechanism: 'module-missing',
      variant: 'under-mount',
      knob: 'spec.containers[app].volumeMounts[code].mountPath',
      container: { volumeMounts: [{ name: 'code', mountPath: '/app' }] },
      spec: { volumes: [{ name: 'code', persistentVolumeClaim: { claimName: 'code' } }] },
      data: { module: 'express', mountPath: '/app' },
    },
    { line: "ModuleNotFoundError: No module named 'flask'", mechanism: 'module-missing', variant: 'image', knob: 'the Dockerfile', data: { module: 'flask' } },
    {
      line: '[2020-09-12 05:37:52 +0000] [18] [ERROR] Worker (pid:21) was sent SIGKILL! Perhaps out of memory?',
      mechanism: 'memory-limit',
      variant: 'child-killed',
      knob: 'spec.containers[app].resources.limits.memory',
    },
    {
      line: '/entrypoint.sh: line 12:     7 Killed                  java -jar /app/app.jar',
      mechanism: 'memory-limit',
      variant: 'child-killed',
      knob: 'spec.containers[app].resources.limits.memory',
      container: { resources: { limits: { memory: '512Mi' } } },
      data: { limit: '512Mi' },
    },
  ],
  dependencies: [
    {
      line: '2025-07-02 23:09:57.285 GMT [1152835] FATAL:  sorry, too many clients already',
      mechanism: 'dependency-connection-limit',
      variant: 'slots',
      knob: "the client's connection pool size",
      data: { setting: 'PostgreSQL max_connections' },
    },
    {
      line: 'FATAL: password authentication failed for user "bn_keycloak"',
      mechanism: 'credentials-rejected',
      variant: 'password',
      knob: 'env[].valueFrom.secretKeyRef',
      data: { forUser: ' of user bn_keycloak' },
    },
    {
      line: 'Host key verification failed.',
      mechanism: 'ssh-trust',
      variant: 'host-key',
      knob: 'spec.containers[app].volumeMounts (known_hosts',
    },
    { line: 'git@gitlab.com: Permission denied (publickey).', mechanism: 'ssh-trust', variant: 'publickey', knob: 'the Secret with the SSH private key' },
    {
      line: 'java.io.IOException: Keystore was tampered with, or password was incorrect',
      mechanism: 'credentials-rejected',
      variant: 'keystore',
      knob: 'passwordSecretRef',
    },
    {
      line: 'ClusterBlockException[blocked by: [FORBIDDEN/12/index read-only / allow delete (api)];]',
      mechanism: 'disk-full',
      variant: 'elasticsearch-flood-stage',
      knob: 'the PersistentVolumeClaims of the Elasticsearch data nodes',
    },
  ],
  dotnet: [
    {
      line:
        'Unhandled exception. System.IO.IOException: The configured user limit (1024) on the number of inotify instances has been reached, ' +
        'or the per-process limit on the number of open file descriptors has been reached.',
      mechanism: 'inotify-instances',
      variant: 'dotnet',
      knob: 'DOTNET_USE_POLLING_FILE_WATCHER',
      data: { limit: '1024' },
    },
    {
      line: 'GC heap initialization failed with error 0x8007000E',
      mechanism: 'memory-limit',
      variant: 'dotnet-heap',
      knob: 'DOTNET_GCHeapHardLimitPercent',
      container: { resources: { limits: { memory: '256Mi' } } },
      data: { limit: '256Mi' },
    },
    {
      line: "Unhandled exception. System.UnauthorizedAccessException: Access to the path '/app/data' is denied.",
      mechanism: 'fs-permission',
      variant: 'image-files',
      knob: 'spec.containers[app].securityContext.runAsUser',
      container: { securityContext: { runAsUser: 1000 } },
      data: { path: '/app/data' },
    },
    {
      line: 'Unhandled exception. System.Net.Sockets.SocketException (13): Permission denied',
      mechanism: 'privileged-port',
      variant: 'non-root',
      knob: 'net.ipv4.ip_unprivileged_port_start',
      container: { securityContext: { runAsUser: 1000 } },
    },
  ],
  protocols: [
    {
      line: 'Error from server: Get https://192.168.64.1:3000/containerLogs/default/greet/greet: http: server gave HTTP response to HTTPS client',
      mechanism: 'protocol-mismatch',
      variant: 'tls-to-plain',
      knob: "the caller's URL for this port",
    },
    {
      line: 'http: TLS handshake error from 10.244.0.1:51234: tls: first record does not look like a TLS handshake',
      mechanism: 'protocol-mismatch',
      variant: 'plain-to-tls',
      knob: "a probe's httpGet.scheme",
    },
    {
      line:
        'Internal error occurred: failed calling webhook "trust.hooks.securityenforcement.admission.cloud.ibm.com": ' +
        'Post "https://portieris.portieris.svc:443/admit' +
        '?timeout=30s": x509: certificate relies on legacy Common Name field, use SANs or temporarily enable Common Name matching with GODEBUG=x509ignoreCN=0',
      mechanism: 'tls-name-mismatch',
      variant: 'legacy-cn',
      knob: 'the serving certificate of portieris.portieris.svc',
      data: { host: 'portieris.portieris.svc' },
    },
    {
      line: "1:M 10 Jan 2024 10:00:00.000 # Can't save in background: fork: Cannot allocate memory",
      mechanism: 'memory-limit',
      variant: 'redis-fork',
      knob: 'sysctl vm.overcommit_memory on node-1',
    },
    {
      line: 'FATAL:  could not map anonymous shared memory: Cannot allocate memory',
      mechanism: 'memory-limit',
      variant: 'postgres-shared-memory',
      knob: "PostgreSQL's shared_buffers",
    },
  ],
  'arguments and configuration': [
    {
      line: 'flag provided but not defined: -zap-level',
      mechanism: 'args-rejected',
      variant: 'flag',
      knob: 'spec.containers[app].args / command',
      data: { flag: '-zap-level', image: 'registry.example.com/shop/app:1' },
    },
    {
      line: '2021/05/31 12:06:23 [emerg] 1#1: unknown directive "server " in /etc/nginx/conf.d/default.conf:1',
      mechanism: 'config-invalid',
      variant: 'from-configmap',
      knob: 'configMap nginx-conf key default.conf',
      container: { volumeMounts: [{ name: 'conf', mountPath: '/etc/nginx/conf.d' }] },
      spec: { volumes: [{ name: 'conf', configMap: { name: 'nginx-conf' } }] },
      data: { path: '/etc/nginx/conf.d/default.conf', source: 'nginx-conf', key: 'default.conf' },
    },
    {
      line:
        '[1]: the default discovery settings are unsuitable for production use; at least one of [discovery.seed_hosts, discovery.seed_providers, ' +
        'cluster.initial_master_nodes] must be configured',
      mechanism: 'required-setting',
      variant: 'elasticsearch-discovery',
      knob: 'spec.containers[app].env discovery.type',
    },
    {
      line: 'error converting YAML to JSON: yaml: line 7: mapping values are not allowed in this context',
      mechanism: 'config-invalid',
      variant: 'file',
      knob: 'the ConfigMap or Secret the file comes from',
    },
  ],
  'host expectations': [
    {
      line: "System has not been booted with systemd as init system (PID 1). Can't operate.",
      mechanism: 'no-init-system',
      variant: 'systemctl',
      knob: 'spec.containers[app].command / args',
    },
    {
      line: 'sysctl: permission denied on key "vm.max_map_count", ignoring',
      mechanism: 'fs-read-only',
      variant: 'sysctl-not-root',
      knob: 'sysctl vm.max_map_count on node-1',
      container: { securityContext: { runAsUser: 1000 } },
      data: { sysctl: 'vm.max_map_count', user: 'UID 1000' },
    },
  ],
};

describeFamilies(FAMILIES);
