// Process mechanisms: threads and processes, memory inside the limit, CPU features, kernel
// parameters servers check at start, privileges (capabilities, no_new_privs, seccomp), the user
// the image knows, the environment, and the signals a process dies of.
import { capabilities, drops, envValue, memoryLimit, seccompProfile } from '../context.js';
import { data, mechanisms, re, signatures, specFact } from '../define.js';
import { errnoNeedles, errnoSource } from '../errno.js';
import type { ReadingContext } from '../types.js';

const EAGAIN = errnoSource('EAGAIN');
const ENOMEM = errnoSource('ENOMEM');
const EPERM = errnoSource('EPERM');
const ENOSYS = errnoSource('ENOSYS');
const E2BIG = errnoSource('E2BIG');
const EACCES = errnoSource('EACCES');

function limitData(ctx: ReadingContext) {
  return data({ limit: memoryLimit(ctx) ?? 'no limit set' });
}

/** JVM heap options the container sets (JAVA_TOOL_OPTIONS, JAVA_OPTS, JDK_JAVA_OPTIONS or args). */
function jvmHeap(ctx: ReadingContext): string | undefined {
  const texts = [
    envValue(ctx, 'JAVA_TOOL_OPTIONS'),
    envValue(ctx, 'JAVA_OPTS'),
    envValue(ctx, 'JDK_JAVA_OPTIONS'),
    ...(ctx.container?.args ?? []),
    ...(ctx.container?.command ?? []),
  ];
  for (const t of texts) {
    const m = t && /-Xmx\S+|-XX:MaxRAMPercentage=\S+/.exec(t);
    if (m) return m[0];
  }
  return undefined;
}

export const MECHANISMS = mechanisms([
  {
    id: 'pids-limit',
    kind: 'resource',
    resource: 'processes and threads (pids.max, RLIMIT_NPROC)',
    doc: "Creating a thread or process fails with EAGAIN: the pod's pids cgroup (the kubelet's podPidsLimit) or the node's kernel.pid_max/threads-max is used up, or a thread leak.",
    variants: [
      {
        id: 'pids',
        summary: 'cannot create another thread or process (EAGAIN)',
        explain:
          'Creating a thread or process failed with EAGAIN: the pod reached its process limit, the pids cgroup the kubelet sizes with podPidsLimit (node-wide), ' +
          "or the node's kernel.pid_max / threads-max; a thread pool that only grows reaches any limit.",
        knobs: [
          { place: 'node', path: 'kubelet podPidsLimit (--pod-max-pids) on {{node}}', change: "raise it if the app's thread count is legitimate" },
          {
            place: 'app',
            path: "the app's thread pools",
            change: 'count threads (ls /proc/1/task | wc -l) and bound the pools; a count that only grows is a leak',
          },
        ],
      },
    ],
  },
  {
    id: 'memory-limit',
    kind: 'resource',
    resource: 'memory inside the container limit',
    doc: "The process ran out of memory it may use: the runtime's own heap cap (JVM -Xmx, Node's --max-old-space-size) or the container's memory limit.",
    variants: [
      {
        id: 'jvm-heap-reserve',
        when: (ctx) =>
          /Could not reserve enough space for (?:object heap|\d+KB object heap)/i.test([ctx.line, ...ctx.around].join('\n')) && {
            ...limitData(ctx),
            heap: jvmHeap(ctx) ?? 'its -Xmx',
          },
        summary: 'the JVM cannot reserve its heap ({{heap}}) within the container',
        explain: 'The JVM asks for a heap ({{heap}}) larger than it can reserve in this container (memory limit {{limit}}), so it stops before the app starts.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env JAVA_TOOL_OPTIONS',
            change: 'size the heap below the limit: -XX:MaxRAMPercentage=75 instead of a fixed -Xmx',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: "or raise the limit to fit the heap plus the JVM's native memory" },
        ],
      },
      {
        id: 'jvm-heap',
        when: (ctx) =>
          /OutOfMemoryError: (?:Java heap space|GC overhead limit exceeded|Metaspace)/i.test(ctx.line) && {
            ...limitData(ctx),
            heap: jvmHeap(ctx) ?? 'the JVM default (1/4 of the limit)',
          },
        summary: 'the JVM heap is full',
        explain:
          "The JVM's heap is full: the app needs more than its heap cap ({{heap}}) or holds on to objects. The JVM sizes its heap from the container limit ({{limit}}) " +
          'unless options fix it.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env JAVA_TOOL_OPTIONS', change: 'raise -Xmx or -XX:MaxRAMPercentage (with limits.memory to match)' },
          { place: 'app', path: 'a heap dump (-XX:+HeapDumpOnOutOfMemoryError)', change: 'find what fills it if the need should not grow' },
        ],
      },
      {
        id: 'node-heap',
        when: (ctx) => /JavaScript heap out of memory|Reached heap limit/i.test(ctx.line) && limitData(ctx),
        summary: 'Node.js reached its V8 heap limit',
        explain: 'Node.js reached its V8 heap limit (--max-old-space-size, by default sized from the memory it sees; container limit {{limit}}) and aborts.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env NODE_OPTIONS', change: 'set --max-old-space-size (MiB) to about 75% of limits.memory' },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'raise it with the heap if the app needs the memory' },
        ],
      },
      {
        id: 'limit',
        when: (ctx) => limitData(ctx),
        summary: 'the process cannot allocate memory',
        explain:
          'A memory allocation failed inside the container: the process reached the memory it may use (container limit {{limit}}) or the node is out of memory.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.resources.limits.memory',
            change: "raise it to the app's real peak, or lower the app's own caches and heaps",
          },
        ],
      },
    ],
  },
  {
    id: 'cpu-instruction-set',
    kind: 'setting',
    resource: 'CPU instructions the binary needs',
    doc: "The binary uses CPU instructions the node's CPU (or the VM's CPU model) lacks: AVX for MongoDB 5+, x86-64-v2 for glibc builds of RHEL 9 and newer. SIGILL, exit 132.",
    variants: [
      {
        id: 'node-cpu',
        when: (ctx) => {
          const feature = /\bAVX2?\b|x86-64-v[234]|SSE4\.2|instruction set/i.exec([ctx.line, ...ctx.around].join('\n'))?.[0];
          return { feature: feature ?? 'an instruction the node lacks' };
        },
        summary: "the binary needs {{feature}}, which {{node}}'s CPU does not offer",
        explain:
          "The binary was built for CPU instructions ({{feature}}) that {{node}}'s processor, or the CPU model its hypervisor exposes, does not have, so it dies with SIGILL.",
        knobs: [
          {
            place: 'pod',
            path: 'spec.affinity.nodeAffinity',
            change: 'schedule it only on nodes with the feature (node-feature-discovery labels such as feature.node.kubernetes.io/cpu-cpuid.AVX)',
          },
          { place: 'node', path: "the VM's CPU model", change: 'or expose the host CPU (host-passthrough) to the node VMs' },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or use a build for the baseline CPU (an older major version)' },
        ],
      },
    ],
  },
  {
    id: 'max-map-count',
    kind: 'resource',
    resource: 'memory map areas (vm.max_map_count)',
    doc: "Elasticsearch and OpenSearch refuse to start when the node's vm.max_map_count is below 262144: a node-wide sysctl a pod cannot set for itself.",
    variants: [
      {
        id: 'node',
        when: (ctx) => data({ limit: ctx.groups.limit, want: ctx.groups.want ?? '262144' }),
        summary: "{{node}}'s vm.max_map_count ({{limit}}) is below {{want}}",
        explain:
          "The server's start-up check requires vm.max_map_count of at least {{want}}, and {{node}} has {{limit}}. The parameter is node-wide (not namespaced), " +
          'so the pod spec cannot set it for the container.',
        knobs: [
          {
            place: 'node',
            path: 'sysctl vm.max_map_count on {{node}}',
            change: 'set it to {{want}} in /etc/sysctl.d or the node image, for every node of the pool',
          },
          {
            place: 'pod',
            path: 'spec.initContainers',
            change: 'or a privileged init container running sysctl -w vm.max_map_count={{want}} (what the Helm charts offer)',
          },
        ],
      },
    ],
  },
  {
    id: 'memlock-limit',
    kind: 'resource',
    resource: 'locked memory (RLIMIT_MEMLOCK)',
    doc: "The server asked to lock its memory and the container's RLIMIT_MEMLOCK (from the runtime) does not allow it.",
    variants: [
      {
        id: 'runtime',
        summary: 'memory locking is not allowed in the container',
        explain:
          "The server asked to lock its memory (mlockall) and the container's locked-memory limit, which comes from the container runtime on {{node}}, does not allow it.",
        knobs: [
          {
            place: 'app',
            path: "the server's memory-lock setting (bootstrap.memory_lock)",
            change: 'turn it off in containers, and disable swap on the node instead',
          },
          { place: 'runtime', path: 'LimitMEMLOCK of the runtime service on {{node}}', change: 'or raise it to infinity (with the IPC_LOCK capability)' },
        ],
      },
    ],
  },
  {
    id: 'capability-missing',
    kind: 'permission',
    resource: 'a Linux capability',
    doc: "An operation that needs a capability fails with EPERM: raw sockets (NET_RAW), network configuration (NET_ADMIN), mounts (SYS_ADMIN), switching user (SETUID/SETGID), which the runtime's default set or drop: [ALL] leaves out.",
    variants: [
      {
        id: 'switch-user',
        when: (ctx) =>
          /setgroups|setgid|setuid|failed switching to|su-exec|gosu|cannot set groups|initgroups/i.test(ctx.line) && {
            cap: 'SETUID and SETGID',
            dropped: drops(ctx, 'SETUID') ? 'drops them' : 'does not have them',
          },
        summary: 'cannot switch user: the container lacks SETUID/SETGID',
        explain:
          'The entrypoint starts as root and switches to a service user (gosu, su-exec, setgroups), which needs the SETUID and SETGID capabilities; the container {{dropped}}.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.runAsUser',
            change: 'run as the service user from the start, so the entrypoint does not switch',
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add', change: 'or add SETUID and SETGID' },
        ],
        facts: (ctx) => (capabilities(ctx).drop.length > 0 ? [specFact(ctx, 'securityContext.capabilities.drop', capabilities(ctx).drop.join(', '))] : []),
      },
      {
        id: 'raw-socket',
        when: (ctx) => /\bping\b|raw socket|SOCK_RAW|icmp/i.test(ctx.line),
        summary: 'cannot open a raw socket: the container lacks NET_RAW',
        explain: "Raw sockets (ping, ICMP health checks) need NET_RAW, which the container does not have (dropped, or not in the runtime's default set).",
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.sysctls net.ipv4.ping_group_range',
            change: 'allow unprivileged ICMP sockets for the pod\'s group ("0 2147483647"), a safe sysctl',
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add', change: 'or add NET_RAW' },
        ],
      },
      {
        id: 'net-admin',
        when: (ctx) => /iptables|ip6tables|nft\b|\bip (?:link|route|addr)|RTNETLINK|netlink|tc qdisc/i.test(ctx.line),
        summary: 'cannot change the network configuration: the container lacks NET_ADMIN',
        explain: "Changing iptables rules, routes or links inside the pod's network namespace needs NET_ADMIN, which the container does not have.",
        knobs: [{ place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add', change: 'add NET_ADMIN (and NET_RAW for iptables)' }],
      },
      {
        id: 'mount',
        when: (ctx) => /\bmount\b|unshare|fusermount|\/dev\/fuse/i.test(ctx.line),
        summary: 'cannot mount or create namespaces: the container lacks SYS_ADMIN',
        explain:
          'Mounting filesystems (FUSE included) or creating namespaces inside a container needs SYS_ADMIN (and often /dev/fuse), which an unprivileged container does not have.',
        knobs: [
          { place: 'pod', path: 'spec.volumes', change: 'let Kubernetes mount the storage as a volume instead of mounting it from the app' },
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add / privileged', change: 'or add SYS_ADMIN (a large privilege; review it)' },
        ],
      },
      {
        id: 'general',
        summary: 'the kernel refuses a privileged operation (EPERM)',
        explain:
          "The kernel refused an operation with EPERM: the container lacks the capability it needs (capabilities drop, or the runtime's default set), " +
          'or seccomp or an LSM blocks it.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities', change: 'compare with what the operation needs (man 7 capabilities)' },
          { place: 'pod', path: '{{containerPath}}.securityContext.seccompProfile', change: 'and whether the syscall is blocked' },
        ],
      },
    ],
  },
  {
    id: 'no-new-privileges',
    kind: 'permission',
    resource: 'gaining privileges (setuid binaries)',
    doc: 'allowPrivilegeEscalation: false sets no_new_privs: setuid binaries such as sudo cannot raise privileges.',
    variants: [
      {
        id: 'sudo',
        when: (ctx) => ({
          ape: ctx.container?.securityContext?.allowPrivilegeEscalation === false ? 'sets allowPrivilegeEscalation: false' : 'runs with no_new_privs',
        }),
        summary: 'sudo cannot raise privileges: no_new_privs is set',
        explain: 'The {{kind}} {{ape}}, so the kernel ignores the setuid bit: sudo and other setuid binaries cannot become root.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.runAsUser',
            change: 'run the step that needs root as root (an init container), instead of sudo',
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.allowPrivilegeEscalation', change: "or allow escalation (weakens the pod's isolation)" },
        ],
      },
    ],
  },
  {
    id: 'seccomp-blocked',
    kind: 'permission',
    resource: 'a system call seccomp allows',
    doc: "A system call fails with EPERM or ENOSYS because the container's seccomp profile (RuntimeDefault, or an old runtime's default) blocks it: io_uring, clone3, userfaultfd, perf_event_open.",
    variants: [
      {
        id: 'profile',
        when: (ctx) => ({
          syscall: /io_uring\w*|clone3|userfaultfd|perf_event_open|bpf|keyctl|add_key|unshare|personality/i.exec(ctx.line)?.[0] ?? 'the system call',
          profile: seccompProfile(ctx) ?? "the runtime's default",
        }),
        summary: '{{syscall}} is blocked by the seccomp profile',
        explain:
          "The kernel refused {{syscall}} for this container: its seccomp profile ({{profile}}) does not allow it (runtimes' defaults block io_uring; " +
          'old runtimes block clone3, which new glibc uses for every thread).',
        knobs: [
          { place: 'app', path: "the app's io_uring / syscall option", change: 'turn the feature off (most runtimes fall back to epoll)' },
          { place: 'runtime', path: 'containerd / runc / libseccomp on {{node}}', change: 'update them if the call is clone3 (newer defaults allow it)' },
          { place: 'pod', path: '{{containerPath}}.securityContext.seccompProfile', change: 'or a Localhost profile that allows the call' },
        ],
      },
    ],
  },
  {
    id: 'user-unknown',
    kind: 'setting',
    resource: "a user entry in the image's /etc/passwd",
    doc: 'The pod runs as a UID the image has no /etc/passwd entry for (runAsUser, or an arbitrary UID on OpenShift-style platforms), and the app looks its name up.',
    variants: [
      {
        id: 'run-as-user',
        when: (ctx) =>
          data({ uid: ctx.groups.uid ?? String(ctx.container?.securityContext?.runAsUser ?? ctx.pod?.spec?.securityContext?.runAsUser ?? 'the UID') }),
        summary: "UID {{uid}} has no entry in the image's /etc/passwd",
        explain:
          "The container runs as UID {{uid}}, which the image's /etc/passwd does not list, and the app (or a library it uses) needs the user's name or home.",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: 'use a UID the image defines (its USER)' },
          { place: 'image', path: 'the Dockerfile', change: 'or add the user to /etc/passwd (or use nss_wrapper for arbitrary UIDs)' },
        ],
      },
    ],
  },
  {
    id: 'env-too-large',
    kind: 'resource',
    resource: 'the size of the environment and arguments (ARG_MAX)',
    doc: "exec fails with E2BIG: the environment plus the arguments exceed the kernel's limit, typically from the service links of a namespace with thousands of Services.",
    variants: [
      {
        id: 'service-links',
        when: (ctx) => ({ links: ctx.pod?.spec?.enableServiceLinks === false ? 'are already off' : 'are on (the default)' }),
        summary: 'the environment is too large to start the process',
        explain:
          "Starting the process failed with E2BIG: its environment and arguments exceed the kernel's limit. Service links {{links}}: the kubelet adds " +
          'seven variables per Service of the namespace, which grows without bound in a busy namespace.',
        knobs: [
          { place: 'pod', path: 'spec.enableServiceLinks', change: 'set false (use DNS names for Services)' },
          { place: 'pod', path: '{{containerPath}}.env / envFrom', change: 'and trim large values (pass big configs as files)' },
        ],
      },
    ],
  },
  {
    id: 'exec-permission',
    kind: 'permission',
    resource: 'execute permission on the program',
    doc: 'exec of the entrypoint or a script fails with EACCES: the file lacks the execute bit, or lies on a noexec mount.',
    variants: [
      {
        id: 'mode',
        summary: 'the program is not executable',
        explain:
          'The runtime found the program but may not execute it (EACCES, exit code 126): the file lacks the execute bit, or lies on a volume mounted noexec.',
        knobs: [
          { place: 'image', path: 'the Dockerfile', change: 'chmod +x the entrypoint (or run it through its interpreter: sh script.sh)' },
          { place: 'pod', path: 'spec.volumes[].configMap.defaultMode', change: 'for a script from a ConfigMap, set defaultMode: 0755' },
        ],
      },
    ],
  },
  {
    id: 'required-setting',
    kind: 'setting',
    resource: 'a setting the image requires',
    doc: "The image's entrypoint refuses to start without a setting it requires (a password, a mode) that the pod does not pass.",
    variants: [
      {
        id: 'env',
        when: (ctx) => {
          const names = [...new Set([ctx.line, ...ctx.around].join('\n').match(/\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_?)+\b/g) ?? [])].slice(0, 4);
          return { names: names.length > 0 ? names.join(', ') : 'the variable the log names' };
        },
        summary: 'the image requires {{names}}, which the pod does not set',
        explain: "The image's entrypoint stops because a required setting is missing: it asks for {{names}}, and the container's env does not provide it.",
        knobs: [{ place: 'pod', path: '{{containerPath}}.env[].valueFrom.secretKeyRef', change: 'pass {{names}} from a Secret' }],
      },
    ],
  },
  {
    id: 'locale',
    kind: 'setting',
    resource: 'a UTF-8 locale',
    doc: 'The process writes non-ASCII text under the C/POSIX locale (no LANG in the image): Python encodes as ASCII and fails.',
    variants: [
      {
        id: 'lang',
        summary: 'the process runs in the ASCII (C/POSIX) locale',
        explain: 'The process encodes text as ASCII because the container sets no UTF-8 locale (LANG/LC_ALL), and the data holds non-ASCII characters.',
        knobs: [{ place: 'pod', path: '{{containerPath}}.env LANG and PYTHONIOENCODING', change: 'set LANG=C.UTF-8 (and PYTHONIOENCODING=utf-8)' }],
      },
    ],
  },
  {
    id: 'bus-error',
    kind: 'resource',
    resource: 'memory-mapped files with backing space',
    doc: 'SIGBUS: a memory-mapped file could not be backed, typically /dev/shm (64 MiB by default in a container) or a file on a full filesystem.',
    variants: [
      {
        id: 'shm',
        summary: 'a memory-mapped file lost its backing (SIGBUS)',
        explain:
          "The process died of SIGBUS: a page of a memory-mapped file could not be backed, which in a container is most often /dev/shm (the runtime's 64 MiB) filling up.",
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes + {{containerPath}}.volumeMounts',
            change: 'mount an emptyDir with medium: Memory and a sizeLimit at /dev/shm',
          },
        ],
      },
    ],
  },
  {
    id: 'native-crash',
    kind: 'defect',
    resource: 'valid memory accesses',
    doc: 'SIGSEGV or SIGABRT: the process crashed in native code: a bug, a native library built for another libc (musl vs glibc) or CPU, or a corrupt input.',
    variants: [
      {
        id: 'native',
        when: (ctx) => ({ signal: /abort|SIGABRT|double free|corrupted/i.test(ctx.line) ? 'SIGABRT' : 'SIGSEGV' }),
        summary: 'the process crashed in native code ({{signal}})',
        explain:
          "The process died of {{signal}} in native code: a bug, a native extension built for another C library (musl vs glibc) or CPU than the image's, or corrupt input it reads.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.image',
            change: 'roll back to the last image that ran, then rebuild native dependencies for this base image',
          },
          { place: 'app', path: 'a core dump or the native stack', change: 'read which library crashed' },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'runtime.thread-eagain',
    family: 'runtime',
    mechanism: 'pids-limit',
    needles: ['native thread', 'new os thread', 'pthread_create', 'fork', "can't start new thread", 'errno=11'],
    patterns: [
      re('unable to create (?:new )?native thread'),
      re('failed to create new OS thread \\(have \\d+ already; errno=11\\)'),
      re('pthread_create failed: ', EAGAIN),
      re('fork: (?:retry: )?', EAGAIN),
      re("can't start new thread"),
    ],
    source: 'OpenJDK os_linux.cpp / JVM_StartThread; Go runtime/os_linux.go newosproc; runtime/cgo gcc_libinit.c; bash jobs.c; CPython _threadmodule.c',
    examples: [
      'java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached',
      'runtime: failed to create new OS thread (have 12 already; errno=11)',
      'bash: fork: retry: Resource temporarily unavailable',
    ],
  },
  {
    id: 'runtime.heap',
    family: 'runtime',
    mechanism: 'memory-limit',
    needles: [
      'outofmemoryerror',
      'heap out of memory',
      'reached heap limit',
      'object heap',
      'memoryerror',
      'runtime: out of memory',
      'insufficient memory for the java runtime',
    ],
    patterns: [
      re('java\\.lang\\.OutOfMemoryError: (?:Java heap space|GC overhead limit exceeded|Metaspace|Direct buffer memory)'),
      re('JavaScript heap out of memory'),
      re('Could not reserve enough space for (?:\\d+KB )?object heap'),
      re('There is insufficient memory for the Java Runtime Environment to continue'),
      re('fatal error: runtime: out of memory'),
      re('^MemoryError\\b'),
    ],
    source: 'OpenJDK (universe.cpp, arguments.cpp), V8 (heap.cc FatalProcessOutOfMemory), Go runtime/malloc.go, CPython',
    examples: [
      'java.lang.OutOfMemoryError: Java heap space',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      'Could not reserve enough space for 4194304KB object heap',
    ],
  },
  {
    id: 'errno.enomem',
    family: 'errno',
    generic: true,
    mechanism: 'memory-limit',
    needles: errnoNeedles('ENOMEM'),
    patterns: [re('(?:malloc|mmap|alloc|fork|clone|create|start|spawn)[^\\n]*', ENOMEM), re(ENOMEM, '$')],
    source: 'ENOMEM texts of glibc ("Cannot allocate memory"), musl ("Out of memory"), Go and libuv (upstream.json)',
    examples: ['mmap failed: Cannot allocate memory', 'fork/exec /usr/bin/git: cannot allocate memory'],
  },
  {
    id: 'server.cpu-feature',
    family: 'server',
    mechanism: 'cpu-instruction-set',
    needles: ['avx', 'x86-64-v', 'illegal instruction', 'instruction set'],
    patterns: [
      re('requires a CPU with AVX support'),
      re('CPU does not support x86-64-v[234]'),
      re("compiled to use AVX instructions, but these aren't available"),
      re('Illegal instruction'),
    ],
    source:
      'mongo mongod startup warning (5.0+); glibc dl-hwcaps "Fatal glibc error: CPU does not support x86-64-v%d"; TensorFlow cpu_feature_guard.cc; glibc strsignal(SIGILL)',
    examples: [
      'WARNING: MongoDB 5.0+ requires a CPU with AVX support, and your current system does not appear to have that!',
      'Fatal glibc error: CPU does not support x86-64-v2',
      '/entrypoint.sh: line 8:     7 Illegal instruction     (core dumped) "$@"',
    ],
  },
  {
    id: 'server.max-map-count',
    family: 'server',
    mechanism: 'max-map-count',
    needles: ['max_map_count'],
    patterns: [re('max virtual memory areas vm\\.max_map_count \\[(?<limit>\\d+)\\] is too low, increase to at least \\[(?<want>\\d+)\\]')],
    source: 'elasticsearch BootstrapChecks.java (MaxMapCountCheck)',
    examples: ['max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]'],
  },
  {
    id: 'server.memlock',
    family: 'server',
    mechanism: 'memlock-limit',
    needles: ['memory locking', 'mlockall', 'memory is not locked'],
    patterns: [re('memory locking requested for \\w+ process but memory is not locked'), re('Unable to lock JVM Memory')],
    source: 'elasticsearch BootstrapChecks.java (MlockallCheck), JNANatives.java',
    examples: ['memory locking requested for elasticsearch process but memory is not locked'],
  },
  {
    id: 'errno.eperm-switch-user',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['setgroups', 'setgid', 'setuid', 'failed switching', 'cannot set groups', 'initgroups'],
    patterns: [re('(?:setgroups|setgid|setuid|initgroups|failed switching to|cannot set groups)[^\\n]*', EPERM)],
    source: 'gosu setup-user.go ("failed switching to %q: %v"), su-exec, util-linux su; EPERM texts (upstream.json)',
    examples: ['error: failed switching to "postgres": operation not permitted', 'setgroups: Operation not permitted'],
  },
  {
    id: 'errno.eperm-raw-socket',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['ping', 'raw socket', 'icmp'],
    patterns: [re('ping: (?:socket: )?', EPERM), re('ping: permission denied \\(are you root\\?\\)')],
    source: 'iputils ping.c; busybox ping',
    examples: ['ping: socket: Operation not permitted', 'ping: permission denied (are you root?)'],
  },
  {
    id: 'errno.eperm-net-admin',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['iptables', 'rtnetlink', 'netlink', 'ip6tables'],
    patterns: [
      re("(?:iptables|ip6tables)[^\\n]*(?:Permission denied \\(you must be root\\)|can't initialize (?:ip6?tables|iptables) table)"),
      re('RTNETLINK answers: ', EPERM),
    ],
    source: 'iptables libxtables / iptables-standalone.c; iproute2',
    examples: [
      "iptables v1.8.7 (legacy): can't initialize iptables table `nat': Permission denied (you must be root)",
      'RTNETLINK answers: Operation not permitted',
    ],
  },
  {
    id: 'errno.eperm-mount',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['mount', 'unshare', 'fuse'],
    patterns: [re('(?:mount|unshare|fusermount)[^\\n]*(?:', EPERM, '|must be superuser|permission denied)')],
    unless: /MountVolume|kubelet|failed to mount volume|Unable to attach or mount/i,
    source: 'util-linux mount, unshare; fuse fusermount; EPERM texts (upstream.json)',
    examples: ['unshare: unshare failed: Operation not permitted', 'mount: /mnt: permission denied.'],
  },
  {
    id: 'runtime.no-new-privs',
    family: 'runtime',
    mechanism: 'no-new-privileges',
    needles: ['sudo', 'no new privileges'],
    patterns: [re('sudo: effective uid is not 0'), re('The "no new privileges" flag is set'), re('sudo: unable to change to root gid')],
    source: 'sudo src/sudo.c (sudo_check_suid)',
    examples: [
      "sudo: effective uid is not 0, is /usr/bin/sudo on a file system with the 'nosuid' option set or an NFS file system without root privileges?",
      'sudo: The "no new privileges" flag is set, which prevents sudo from running as root.',
    ],
  },
  {
    id: 'errno.seccomp',
    family: 'errno',
    mechanism: 'seccomp-blocked',
    needles: ['io_uring', 'clone3', 'userfaultfd', 'perf_event_open', 'function not implemented', 'enosys', 'pthread_create'],
    patterns: [re('(?:io_uring\\w*|clone3|userfaultfd|perf_event_open)[^\\n]*(?:', EPERM, '|', ENOSYS, ')'), re('pthread_create failed: ', EPERM), re(ENOSYS)],
    source: 'EPERM/ENOSYS texts (upstream.json); moby/moby#42680 (clone3 and the old default profile)',
    examples: ['io_uring_setup: Operation not permitted', 'runtime/cgo: pthread_create failed: Operation not permitted'],
  },
  {
    id: 'runtime.user-unknown',
    family: 'runtime',
    mechanism: 'user-unknown',
    needles: ['user id', 'getpwuid', 'user does not exist', 'i have no name', 'no matching entries in passwd'],
    patterns: [
      re('cannot find name for user ID (?<uid>\\d+)'),
      re('getpwuid\\(\\): uid not found: (?<uid>\\d+)'),
      re('could not look up effective user ID (?<uid>\\d+): user does not exist'),
      re('I have no name!'),
      re('no matching entries in passwd file'),
    ],
    source: 'coreutils whoami/id; CPython pwdmodule.c; postgres src/common/username.c',
    examples: ['whoami: cannot find name for user ID 1000680000', "KeyError: 'getpwuid(): uid not found: 1000'"],
  },
  {
    id: 'errno.e2big',
    family: 'errno',
    mechanism: 'env-too-large',
    needles: errnoNeedles('E2BIG'),
    patterns: [re(E2BIG)],
    source: 'E2BIG texts (upstream.json); runc "exec user process caused: argument list too long"',
    examples: ['standard_init_linux.go:228: exec user process caused: argument list too long'],
  },
  {
    id: 'errno.eacces-exec',
    family: 'errno',
    mechanism: 'exec-permission',
    needles: errnoNeedles('EACCES'),
    patterns: [re('exec(?:ve)?[(: ][^\\n]*', EACCES), re('exec user process caused: ', EACCES)],
    source: 'runc libcontainer/standard_init_linux.go ("exec user process caused: %w"); EACCES texts (upstream.json)',
    examples: ['exec /docker-entrypoint.sh: permission denied'],
  },
  {
    id: 'server.required-env',
    family: 'server',
    mechanism: 'required-setting',
    needles: ['is uninitialized', 'you need to specify', 'must specify', 'is not set', 'is required', 'must be set', 'must be specified'],
    patterns: [
      re('Database is uninitialized and (?:password option|superuser password) is not specified'),
      re('You need to specify one of (?:the following|[A-Z_, ]+)'),
      re('\\b[A-Z][A-Z0-9_]{2,}\\b (?:environment variable )?(?:is not set|is required|must be set|must be specified)'),
      re('(?:environment variable|env var)\\S* [A-Z][A-Z0-9_]+ (?:is not set|is required)'),
    ],
    source: 'docker-library mysql/mariadb/postgres docker-entrypoint.sh',
    examples: [
      'error: database is uninitialized and password option is not specified',
      'Error: Database is uninitialized and superuser password is not specified.',
    ],
  },
  {
    id: 'runtime.ascii-locale',
    family: 'runtime',
    mechanism: 'locale',
    needles: ['ascii', 'locale'],
    patterns: [re("UnicodeEncodeError: 'ascii' codec can't encode"), re("UnicodeDecodeError: 'ascii' codec can't decode")],
    source: 'CPython codecs (UnicodeEncodeError message)',
    examples: ["UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 5: ordinal not in range(128)"],
  },
  {
    id: 'signal.sigbus',
    family: 'signal',
    mechanism: 'bus-error',
    needles: ['bus error', 'sigbus'],
    patterns: [re('\\bBus error\\b'), re('\\bSIGBUS\\b')],
    unless: /insufficient shared memory/i,
    source: 'glibc/musl strsignal(SIGBUS) "Bus error", Go runtime "SIGBUS: bus error"',
    examples: ['/usr/local/bin/entrypoint.sh: line 3:    10 Bus error               (core dumped) python train.py'],
  },
  {
    id: 'signal.native-crash',
    family: 'signal',
    mechanism: 'native-crash',
    needles: ['segmentation fault', 'sigsegv', 'double free', 'aborted', 'segmentation violation'],
    patterns: [re('Segmentation fault'), re('SIGSEGV: segmentation violation'), re('double free or corruption'), re('\\bAborted\\s+\\(core dumped\\)')],
    unless: /nil pointer dereference/i,
    source: 'glibc/musl strsignal(SIGSEGV, SIGABRT); Go runtime/signal_unix.go ("SIGSEGV: segmentation violation"); glibc malloc',
    examples: ['Segmentation fault (core dumped)', 'free(): double free or corruption (out)'],
  },
]);

// Exported for tests that need the SIGILL / JVM helpers' behaviour.
export const testing = { jvmHeap };
