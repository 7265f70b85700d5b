// Process mechanisms: threads and processes, memory inside the limit, CPU features, kernel
// parameters servers check at start, privileges (capabilities, no_new_privs, seccomp), the user
// the image knows, the environment, and the signals a process dies of.
import { ALWAYS_READ_ONLY, capabilities, drops, envValue, hostNetwork, memoryLimit, mountOf, runAsNonRoot, runAsUser, seccompProfile } from '../context.js';
import { data, mechanisms, mountFact, re, signatures, specFact } from '../define.js';
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

/** The app's own files named around a missing-module error (Node's require stack, a Python traceback frame). */
/** containerd's default capability set (oci/spec_opts.go defaultUnixCaps); Pod Security baseline allows adding exactly these. */
const RUNTIME_DEFAULT_CAPS = new Set([
  'CHOWN',
  'DAC_OVERRIDE',
  'FSETID',
  'FOWNER',
  'MKNOD',
  'NET_RAW',
  'SETGID',
  'SETUID',
  'SETFCAP',
  'SETPCAP',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'KILL',
  'AUDIT_WRITE',
]);
/** Pod Security Standards, baseline: capabilities.add may only name these (NET_RAW is not among them). */
const BASELINE_CAPS = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

/** Who the container runs as, for the refuses-root mechanism: the spec's runAsUser or the image default. */
function asWhom(ctx: ReadingContext) {
  const uid = runAsUser(ctx);
  return { asWhom: uid === undefined ? "the image's default user" : `runAsUser: ${uid}` };
}

const APP_FILE = /(?:^\s*- |File ")(\/[^\s"]+)/;

/** A writable volume mounted over the app's directory, which hides the image's installed packages there. */
function appDirUnderMount(ctx: ReadingContext) {
  for (const l of [ctx.line, ...ctx.around]) {
    const path = APP_FILE.exec(l)?.[1];
    const m = mountOf(ctx, path);
    if (path && m?.kind && !ALWAYS_READ_ONLY.has(m.kind)) return { path, volume: m.mount.name, mountPath: m.mount.mountPath, volumeKind: m.kind };
  }
  return undefined;
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
    doc: "Creating a thread or process fails with EAGAIN: the pod's pids cgroup (the kubelet's podPidsLimit) or the node's kernel.pid_max/threads-max is used up, or a thread leak. Pod-defined PID limits are not supported: the limit is the kubelet's.",
    variants: [
      {
        id: 'nproc-check',
        when: (ctx) => ctx.groups.limit !== undefined && ctx.groups.want !== undefined && { limit: ctx.groups.limit, want: ctx.groups.want },
        summary: 'the process limit {{limit}} is below the {{want}} the server requires',
        explain:
          "The server's start-up check refuses a limit of {{limit}} processes/threads for its user (RLIMIT_NPROC) and requires {{want}}. The container inherits " +
          'RLIMIT_NPROC from the container runtime on {{node}}; the pod spec has no ulimit field.',
        knobs: [
          {
            place: 'runtime',
            path: 'containerd base_runtime_spec rlimits (RLIMIT_NPROC) / CRI-O default_ulimits / LimitNPROC of the runtime unit on {{node}}',
            change: 'raise it to at least {{want}} for every node of the pool',
          },
          { place: 'node', path: 'kubelet podPidsLimit (--pod-max-pids) on {{node}}', change: 'and keep the pod PID limit above it' },
        ],
      },
      {
        id: 'python-thread',
        when: (ctx) => /can't start new thread/i.test(ctx.line),
        summary: 'Python cannot start another thread',
        explain:
          "Python's thread start failed: most often the pod reached its process limit (the pids cgroup the kubelet sizes with podPidsLimit) or a thread leak; " +
          "the same message shows when an old runtime's seccomp profile blocks clone3, which new glibc uses for every thread.",
        knobs: [
          { place: 'node', path: 'kubelet podPidsLimit (--pod-max-pids) on {{node}}', change: "raise it if the app's thread count is legitimate" },
          { place: 'app', path: "the app's thread pools", change: 'count threads (ls /proc/1/task | wc -l) and bound the pools' },
          { place: 'runtime', path: 'containerd / runc / libseccomp on {{node}}', change: 'and check they are recent enough to allow clone3' },
        ],
      },
      {
        id: 'pids',
        summary: 'cannot create another thread or process (EAGAIN)',
        explain:
          'Creating a thread or process failed with EAGAIN: the pod reached its process limit, the pids cgroup the kubelet sizes with podPidsLimit (node-wide; ' +
          "the pod spec cannot set it), or the node's kernel.pid_max / threads-max; a thread pool that only grows reaches any limit.",
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
        id: 'jvm-native',
        when: (ctx) =>
          /os::commit_memory|Native memory allocation \(mmap\)|insufficient memory for the Java Runtime/i.test(ctx.line) && {
            ...limitData(ctx),
            heap: jvmHeap(ctx) ?? 'the JVM default (1/4 of the limit)',
          },
        summary: 'the JVM cannot commit native memory within the container',
        explain:
          'The JVM could not commit memory it had reserved (heap, metaspace, thread stacks, code cache): the container (limit {{limit}}) or the node has no more, ' +
          'so the JVM writes an hs_err file and stops. Its heap ({{heap}}) plus its native memory must fit in the limit.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env JAVA_TOOL_OPTIONS',
            change: 'leave room for native memory: -XX:MaxRAMPercentage=75 or less instead of a fixed -Xmx near the limit',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: "or raise the limit to the heap plus the JVM's native memory" },
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
        id: 'dotnet-heap',
        when: (ctx) => /GC heap initialization failed|Failed to create CoreCLR/i.test(ctx.line) && limitData(ctx),
        summary: 'the .NET runtime cannot reserve its GC heap within the container',
        explain:
          'The .NET GC could not commit its initial heap (E_OUTOFMEMORY) within the memory it may use (memory limit: {{limit}}): Server GC reserves a heap ' +
          "per CPU the node has, not per CPU the container may use, and an explicit heap limit above the container's fails the same way.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env DOTNET_GCHeapHardLimitPercent / DOTNET_GCHeapCount',
            change: 'cap the heap below the limit (a hex percentage) or the number of heaps; DOTNET_gcServer=0 uses one heap',
          },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'or raise the limit' },
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
        id: 'child-killed',
        when: (ctx) => /\bKilled\b|SIGKILL|signal 9\b/.test(ctx.line) && limitData(ctx),
        summary: 'a process in the container was killed (SIGKILL), most likely by the OOM killer',
        explain:
          "A process the container started (a shell's child, a server's worker) was killed with SIGKILL. Inside a container that is almost always the " +
          "kernel's OOM killer acting " +
          'within the container (memory limit: {{limit}}) on a process that is not PID 1, so the container itself may not be reported OOMKilled.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: "raise it to the process's real peak (builds and installs peak high)" },
          { place: 'app', path: "the process's own memory settings", change: 'or bound its heap and worker count' },
        ],
      },
      {
        id: 'redis-fork',
        when: (ctx) => /Can't (?:save|rewrite append only file) in background: fork/i.test(ctx.line) && limitData(ctx),
        summary: 'Redis cannot fork to save its data (ENOMEM)',
        explain:
          'Redis forks a child to write its snapshot or rewrite its AOF. The child shares the dataset copy-on-write, but with vm.overcommit_memory=0 the ' +
          "kernel refuses a fork it cannot cover, and pages the child copies count against the container's memory (limit: {{limit}}).",
        knobs: [
          { place: 'node', path: 'sysctl vm.overcommit_memory on {{node}}', change: 'set 1, as Redis asks at start (node-wide, not namespaced)' },
          { place: 'pod', path: '{{containerPath}}.resources.limits.memory', change: 'and leave room above maxmemory for the copy-on-write pages of a save' },
        ],
      },
      {
        id: 'postgres-shared-memory',
        when: (ctx) => /could not map anonymous shared memory/i.test(ctx.line) && limitData(ctx),
        summary: 'PostgreSQL cannot map its shared memory (shared_buffers) within the container',
        explain:
          'PostgreSQL maps its shared memory (mostly shared_buffers) at start, and the request exceeds what the container may use ' +
          '(memory limit: {{limit}}) or the ' +
          'huge pages it asked for.',
        knobs: [
          {
            place: 'app',
            path: "PostgreSQL's shared_buffers (and max_connections)",
            change: 'lower them to fit the limit (about a quarter of it for shared_buffers)',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.resources.limits.memory',
            change: 'or raise the limit; set huge_pages = off unless the pod requests hugepages',
          },
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
            change:
              'or a privileged init container running sysctl -w vm.max_map_count={{want}} (what the Helm charts offer; it runs again only when the pod ' +
              'is recreated, so a node reboot brings the error back)',
          },
          {
            place: 'app',
            path: "node.store.allow_mmap: false (Elasticsearch) / the operator's setVMMaxMapCount (OpenSearch)",
            change: 'or let the server start without memory-mapped storage, at some cost in speed',
          },
        ],
      },
    ],
  },
  {
    id: 'memlock-limit',
    kind: 'resource',
    resource: 'locked memory (RLIMIT_MEMLOCK)',
    doc:
      "The process locks memory (mlock, mlockall, io_uring rings and eBPF maps on older kernels) beyond the container's RLIMIT_MEMLOCK, which comes from the " +
      'runtime (often 64 KiB or 8 MiB); only IPC_LOCK lifts the limit, and containers do not get it by default.',
    variants: [
      {
        id: 'elasticsearch',
        when: (ctx) => /memory locking requested|lock JVM Memory|Increase RLIMIT_MEMLOCK, soft limit/i.test(ctx.line),
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
      {
        id: 'vault',
        when: (ctx) => /failed to lock memory/i.test(ctx.line),
        summary: 'Vault cannot lock its memory: the container lacks IPC_LOCK',
        explain:
          'Vault locks all its memory (mlockall) so secrets never reach swap. Locking more than RLIMIT_MEMLOCK, which the runtime on {{node}} sets low, ' +
          'needs IPC_LOCK, ' +
          'which containers do not get by default.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'add IPC_LOCK (what HashiCorp asks for on Kubernetes; Pod Security baseline refuses it)',
          },
          {
            place: 'app',
            path: "Vault's disable_mlock",
            change: 'or set disable_mlock = true, which Vault recommends with integrated storage (raft) and which is safe on nodes without swap',
          },
        ],
      },
      {
        id: 'io-uring',
        when: (ctx) => /io_uring/i.test(ctx.line),
        summary: 'io_uring cannot get its ring memory: RLIMIT_MEMLOCK is too low',
        explain:
          "io_uring's rings and registered buffers count against RLIMIT_MEMLOCK on kernels before 5.12 (registered buffers on every kernel), " +
          'and the limit the ' +
          'runtime on {{node}} gives the container is too small for them.',
        knobs: [
          {
            place: 'runtime',
            path: 'containerd base_runtime_spec rlimits (RLIMIT_MEMLOCK) / CRI-O default_ulimits / LimitMEMLOCK of the runtime unit on {{node}}',
            change: 'raise it for the pool',
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add', change: 'or add IPC_LOCK, which lifts the limit for the process' },
          { place: 'app', path: "the app's io_uring option", change: 'or fall back to epoll / AIO (most runtimes have a switch)' },
        ],
      },
      {
        id: 'ebpf',
        when: (ctx) => /MEMLOCK may be too low|RemoveMemlock|memlock rlimit|\bbpf\b/i.test(ctx.line),
        summary: 'eBPF maps exceed RLIMIT_MEMLOCK',
        explain:
          "Before kernel 5.11, eBPF maps and programs count against RLIMIT_MEMLOCK, and the container's limit from the runtime on {{node}} is too small; " +
          'the agent can lift it itself (rlimit.RemoveMemlock) only with SYS_RESOURCE.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'add SYS_RESOURCE (with the BPF capabilities the agent documents) so it can lift the limit',
          },
          { place: 'runtime', path: 'LimitMEMLOCK of the runtime unit on {{node}}', change: 'or raise the limit containers inherit' },
        ],
      },
      {
        id: 'runtime',
        summary: 'memory locking is not allowed in the container',
        explain:
          "The process locks memory (mlock or mlockall) beyond the container's RLIMIT_MEMLOCK, which comes from the container runtime on {{node}}; " +
          'only IPC_LOCK lifts it.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add', change: 'add IPC_LOCK (Pod Security baseline refuses it)' },
          { place: 'runtime', path: 'LimitMEMLOCK of the runtime service on {{node}}', change: 'or raise the limit containers inherit' },
          { place: 'app', path: "the app's memory-lock option", change: 'or turn memory locking off: nodes run without swap' },
        ],
      },
    ],
  },
  {
    id: 'rlimit-raise',
    kind: 'permission',
    resource: 'raising a hard resource limit (setrlimit, SYS_RESOURCE)',
    doc:
      'A start script raises a resource limit (ulimit -n, -l, -u) above the hard limit the container inherited from the runtime. ' +
      'Any process may lower a limit ' +
      'or raise its soft limit up to the hard one; raising the hard limit needs SYS_RESOURCE. ' +
      "The pod spec has no ulimit field: the hard limit is the runtime's.",
    variants: [
      {
        id: 'memlock',
        when: (ctx) => /locked memory|RLIMIT_MEMLOCK/i.test(ctx.line),
        summary: 'the start script cannot raise the locked-memory limit (ulimit -l)',
        explain:
          'The script raises RLIMIT_MEMLOCK above the hard limit the container got from the runtime on {{node}}, which takes SYS_RESOURCE; ' +
          'IPC_LOCK would make ' +
          'the limit irrelevant for mlock.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'add IPC_LOCK and drop the ulimit -l line (Pod Security baseline refuses IPC_LOCK)',
          },
          {
            place: 'runtime',
            path: 'containerd base_runtime_spec rlimits (RLIMIT_MEMLOCK) / CRI-O default_ulimits / LimitMEMLOCK of the runtime unit on {{node}}',
            change: 'or raise the hard limit containers inherit',
          },
        ],
      },
      {
        id: 'hard-limit',
        when: (ctx) => {
          const what = /ulimit: ([\w -]+?): cannot modify limit/i.exec(ctx.line)?.[1] ?? ctx.groups.rlimit;
          return { what: what ? `the ${what} limit` : 'a resource limit' };
        },
        summary: 'the start script cannot raise {{what}} above the hard limit',
        explain:
          'The script raises {{what}} above the hard limit the container inherited from the runtime on {{node}}; raising a hard limit needs SYS_RESOURCE, ' +
          'which containers do not get, and the pod spec cannot set limits.',
        knobs: [
          {
            place: 'runtime',
            path: 'containerd base_runtime_spec rlimits / CRI-O default_ulimits / the Limit* of the runtime unit on {{node}}',
            change: 'raise the hard limit containers inherit, for every node of the pool',
          },
          {
            place: 'app',
            path: "the entrypoint's ulimit line",
            change: 'or ask for no more than the hard limit (ulimit -n "$(ulimit -Hn)"), or raise only the soft limit (ulimit -S)',
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add', change: 'or add SYS_RESOURCE (Pod Security baseline refuses it)' },
        ],
      },
    ],
  },
  {
    id: 'capability-missing',
    kind: 'permission',
    resource: 'a Linux capability',
    doc:
      'An operation that needs a capability fails with EPERM: raw sockets (NET_RAW), network configuration and SO_MARK (NET_ADMIN), mounts and the ' +
      'hostname (SYS_ADMIN), switching user (SETUID/SETGID), the clock (SYS_TIME), tracing (SYS_PTRACE), priorities (SYS_NICE), chroot (SYS_CHROOT), ' +
      "or a binary's own file capabilities at exec, which the runtime's default set or drop: [ALL] leaves out (capabilities(7)).",
    variants: [
      {
        id: 'raw-socket',
        when: (ctx) =>
          /\bping\b|raw socket|SOCK_RAW|icmp|cap_net_raw/i.test(ctx.line) && {
            sysctlNote: hostNetwork(ctx) ? 'not with hostNetwork: true, where net.* sysctls are refused' : 'a safe sysctl since Kubernetes 1.18',
          },
        summary: 'cannot open a raw socket: the container lacks NET_RAW',
        explain:
          "Raw sockets (ping, ICMP health checks) need NET_RAW, which the container does not have (dropped, or not in the runtime's default set); " +
          'a ping binary that carries the capability as a file capability cannot even start without it.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.securityContext.sysctls net.ipv4.ping_group_range',
            change: 'allow unprivileged ICMP sockets for the pod\'s group ("0 2147483647"; {{sysctlNote}})',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'or add NET_RAW (Pod Security restricted allows adding only NET_BIND_SERVICE)',
          },
        ],
      },
      {
        id: 'switch-user',
        when: (ctx) =>
          /setgroups|setgid|setuid|failed switching to|su-exec|gosu|cannot set groups|initgroups|must be suid|assume identity/i.test(ctx.line) && {
            cap: 'SETUID and SETGID',
            dropped: runAsNonRoot(ctx)
              ? `already runs as UID ${runAsUser(ctx) ?? '(non-root)'}, which cannot switch to another user`
              : drops(ctx, 'SETUID')
                ? 'drops them'
                : 'does not have them (or runs as a non-root UID the platform assigns)',
          },
        summary: 'cannot switch user: the container lacks SETUID/SETGID',
        explain:
          'The entrypoint switches to a service user (gosu, su-exec, su, setgroups), which only root with the SETUID and SETGID capabilities may do; the container {{dropped}}.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.runAsUser',
            change: 'run as the service user from the start, so the entrypoint does not switch',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'or add SETUID and SETGID to a root container (Pod Security restricted forbids it)',
          },
        ],
        facts: (ctx) => (capabilities(ctx).drop.length > 0 ? [specFact(ctx, 'securityContext.capabilities.drop', capabilities(ctx).drop.join(', '))] : []),
      },
      {
        id: 'net-admin',
        when: (ctx) => /iptables|ip6tables|nft\b|\bip (?:link|route|addr)|RTNETLINK|netlink|tc qdisc|SO_MARK/i.test(ctx.line),
        summary: 'cannot change the network configuration: the container lacks NET_ADMIN',
        explain: "Changing iptables rules, routes or links inside the pod's network namespace needs NET_ADMIN, which the container does not have.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'add NET_ADMIN (and NET_RAW for iptables); Pod Security baseline and restricted refuse both, so such a pod needs a privileged namespace',
          },
        ],
      },
      {
        id: 'mount',
        when: (ctx) => /\bmount\b|unshare|fusermount|\/dev\/fuse/i.test(ctx.line),
        summary: 'cannot mount or create namespaces: the container lacks SYS_ADMIN',
        explain:
          'Mounting filesystems (FUSE included) or creating namespaces inside a container needs SYS_ADMIN (and often /dev/fuse), which an unprivileged container does not have; ' +
          "the runtime's default seccomp profile also refuses unshare and mount without it.",
        knobs: [
          { place: 'pod', path: 'spec.volumes', change: 'let Kubernetes mount the storage as a volume instead of mounting it from the app' },
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add / privileged', change: 'or add SYS_ADMIN (a large privilege; review it)' },
        ],
      },
      {
        id: 'hostname',
        when: (ctx) => /sethostname|change the host name/i.test(ctx.line),
        summary: "cannot change the pod's hostname from inside the container",
        explain:
          "The kubelet sets the pod's hostname (its name, or spec.hostname) in the pod's UTS namespace; changing it from inside needs SYS_ADMIN, " +
          'which containers do not get.',
        knobs: [
          { place: 'pod', path: 'spec.hostname / spec.subdomain / spec.setHostnameAsFQDN', change: 'set the name the app expects there' },
          { place: 'app', path: "the start script's hostname call", change: 'and remove it' },
        ],
      },
      {
        id: 'file-capabilities',
        when: (ctx) =>
          /^exec \S+: operation not permitted|exec container process/i.test(ctx.line.trim()) && {
            program: ctx.groups.path ?? 'the program',
            held: drops(ctx, 'NET_BIND_SERVICE')
              ? 'the container drops them (capabilities drop)'
              : ctx.container?.securityContext?.allowPrivilegeEscalation === false
                ? 'allowPrivilegeEscalation: false keeps it from gaining them'
                : "its bounding set lacks them (capabilities drop, or the runtime's default set)",
          },
        summary: 'the runtime cannot exec {{program}}: the file carries capabilities the container may not have',
        explain:
          '{{program}} carries file capabilities with the effective bit (setcap, typically cap_net_bind_service+ep). The kernel refuses to exec such a file ' +
          '(EPERM, before the app prints anything) when the process cannot receive every capability it names, and here {{held}}.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'add the capability the file carries (getcap on it in the image; NET_BIND_SERVICE, which Pod Security restricted allows)',
          },
          {
            place: 'image',
            path: 'the Dockerfile',
            change: 'or drop the setcap and listen on a port above 1023 (or set net.ipv4.ip_unprivileged_port_start in spec.securityContext.sysctls)',
          },
        ],
        facts: (ctx) => (capabilities(ctx).drop.length > 0 ? [specFact(ctx, 'securityContext.capabilities.drop', capabilities(ctx).drop.join(', '))] : []),
      },
      {
        id: 'sys-time',
        when: (ctx) => /adjtimex|ntp_adjtime|clock_adjtime|settimeofday|clock_settime|cannot set date|\bstime\b/i.test(ctx.line),
        summary: "cannot set the clock: it is {{node}}'s, and the container lacks SYS_TIME",
        explain:
          'Setting or slewing the system clock (date, chronyd, ntpd, timesyncd) needs SYS_TIME. The clock is not namespaced: it is the clock of {{node}}, ' +
          'shared by every pod there, so containers do not get the capability.',
        knobs: [
          {
            place: 'node',
            path: 'time synchronisation on {{node}} (chrony / systemd-timesyncd)',
            change: 'keep the clock there; a time daemon in a pod has nothing to do',
          },
          { place: 'app', path: "the image's time daemon or its start script", change: 'remove it from the pod (or run it in client-only mode)' },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: "add SYS_TIME only for a pod meant to set the node's clock (Pod Security baseline refuses it)",
          },
        ],
      },
      {
        id: 'ptrace',
        when: (ctx) => /ptrace|cannot attach to (?:lwp|process)|process_vm_readv/i.test(ctx.line),
        summary: 'cannot trace another process: the container lacks SYS_PTRACE',
        explain:
          'Attaching to a process (gdb, strace, a profiler or crash reporter) needs SYS_PTRACE unless the target runs as the same user and ' +
          "{{node}}'s kernel.yama.ptrace_scope allows it; containers do not get SYS_PTRACE by default.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change:
              'add SYS_PTRACE to the container that traces (Pod Security baseline refuses it; kubectl debug --profile=general adds it to a debug container)',
          },
          {
            place: 'node',
            path: 'sysctl kernel.yama.ptrace_scope on {{node}}',
            change: '1 (the usual default) lets a process trace only its descendants without the capability',
          },
        ],
      },
      {
        id: 'sys-nice',
        when: (ctx) => /niceness|set priority|setpriority|sched_setscheduler|sched_setattr|ioprio_set/i.test(ctx.line),
        summary: 'cannot raise its scheduling priority: the container lacks SYS_NICE',
        explain:
          'Raising a priority (a negative nice value, a real-time scheduling class, an I/O class) needs SYS_NICE, which containers do not get by default; ' +
          'lowering it is always allowed. GNU nice only warns and runs the command anyway, so a process that still failed may have another cause.',
        knobs: [
          {
            place: 'app',
            path: 'the priority the entrypoint asks for (nice -n, renice, chrt, ionice)',
            change: "drop it: a pod's CPU share comes from resources.requests.cpu",
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.capabilities.add', change: 'or add SYS_NICE (Pod Security baseline refuses it)' },
        ],
      },
      {
        id: 'chroot',
        when: (ctx) => /chroot/i.test(ctx.line),
        summary: 'cannot chroot: the container lacks SYS_CHROOT',
        explain:
          "chroot needs SYS_CHROOT. containerd's default set includes it, CRI-O's shorter default set does not, and capabilities drop: [ALL] removes it.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'add SYS_CHROOT (Pod Security baseline allows it, restricted does not)',
          },
          { place: 'app', path: "the server's chroot or jail option", change: 'or turn it off: the container already confines its filesystem' },
        ],
      },
      {
        // The program named the capability it lacks (libcap's cap_to_name, or its own CAP_ constant):
        // the line says which one, the spec and the runtime say why it is missing.
        id: 'named',
        when: (ctx) => {
          const cap = ctx.groups.cap?.toUpperCase().replace(/^CAP_/, '');
          if (!cap) return false;
          const held = drops(ctx, cap)
            ? 'the container drops it (capabilities.drop)'
            : RUNTIME_DEFAULT_CAPS.has(cap)
              ? "containerd's default set has it, so the node's runtime does not grant it (CRI-O's default set is shorter) or an admission policy dropped it"
              : "it is not in the container runtimes' default set, so it exists only when the pod adds it";
          return { cap, held, podSecurity: BASELINE_CAPS.has(cap) ? 'Pod Security baseline allows it' : 'Pod Security baseline refuses it' };
        },
        summary: 'the container lacks the capability {{cap}}',
        explain: 'The program needs the Linux capability {{cap}} for what it does at this point, and the container does not hold it: {{held}}.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'add {{cap}} ({{podSecurity}}; restricted allows only NET_BIND_SERVICE)',
          },
          { place: 'app', path: 'the feature that needs {{cap}}', change: 'or turn it off, when the app can run without it' },
        ],
        facts: (ctx) => (capabilities(ctx).drop.length > 0 ? [specFact(ctx, 'securityContext.capabilities.drop', capabilities(ctx).drop.join(', '))] : []),
      },
      {
        id: 'general',
        summary: 'the kernel refuses a privileged operation (EPERM)',
        explain:
          "The kernel refused an operation with EPERM: the container lacks the capability it needs (capabilities drop, or the runtime's default set), " +
          'or seccomp or an LSM blocks it.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities',
            change: 'compare with what the operation needs (man 7 capabilities); Pod Security restricted drops ALL and allows adding only NET_BIND_SERVICE',
          },
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
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.allowPrivilegeEscalation',
            change: "or allow escalation (weakens the pod's isolation; Pod Security restricted requires false)",
          },
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
        id: 'runtime-libseccomp',
        when: (ctx) => /seccomp filter rule/i.test(ctx.line) && { syscall: ctx.groups.syscall ?? 'a system call' },
        summary: "the node's runtime cannot load a seccomp profile that names {{syscall}}",
        explain:
          "The container runtime on {{node}} could not build the container's seccomp filter: its libseccomp is older than the profile and does not know {{syscall}}, " +
          'so the container does not start.',
        knobs: [
          { place: 'runtime', path: 'runc / containerd and libseccomp on {{node}}', change: 'update them together (a libseccomp that knows {{syscall}})' },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.seccompProfile',
            change: 'or a Localhost profile that does not name it, until the node is updated',
          },
        ],
      },
      {
        id: 'profile',
        when: (ctx) => ({
          syscall:
            /io_uring\w*|clone3|userfaultfd|perf_event_open|bpf|keyctl|add_key|unshare|personality/i.exec(ctx.line)?.[0] ??
            (/failed switching to/i.test(ctx.line) ? 'setuid/setgroups' : /pthread_create/i.test(ctx.line) ? 'clone3 (thread creation)' : 'the system call'),
          profile: seccompProfile(ctx) ?? "the runtime's default",
        }),
        summary: '{{syscall}} is blocked by the seccomp profile',
        explain:
          "The kernel refused {{syscall}} for this container: its seccomp profile ({{profile}}) does not allow it (runtimes' defaults block io_uring; " +
          'old runtimes block clone3, which new glibc uses for every thread).',
        knobs: [
          { place: 'app', path: "the app's io_uring / syscall option", change: 'turn the feature off (most runtimes fall back to epoll)' },
          {
            place: 'runtime',
            path: 'containerd / runc / libseccomp on {{node}}',
            change: 'update them if the call is clone3 (Docker 20.10.10 and current runtimes allow it)',
          },
          {
            place: 'node',
            path: 'sysctl kernel.io_uring_disabled on {{node}}',
            change: 'for io_uring: 0 lets processes use it (the kernel can refuse it by itself)',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.seccompProfile',
            change: 'or a Localhost profile that allows the call (Pod Security baseline and restricted refuse Unconfined)',
          },
        ],
      },
    ],
  },
  {
    id: 'sandbox-namespaces',
    kind: 'permission',
    resource: 'new namespaces for a sandbox inside the container',
    doc:
      "A program builds its own sandbox from new user, PID or network namespaces (Chromium's zygote, bubblewrap, Flatpak, opam) and the kernel refuses: " +
      "the runtime's default seccomp profile filters unshare and clone with namespace flags for a container without SYS_ADMIN, and the node may forbid " +
      'unprivileged user namespaces (user.max_user_namespaces=0, Ubuntu 23.10+ AppArmor restriction).',
    variants: [
      {
        id: 'chromium',
        when: (ctx) => /Failed to move to new namespace|No usable sandbox|zygote/i.test(ctx.line),
        summary: 'Chromium cannot build its sandbox inside the container',
        explain:
          "Chromium's sandbox needs new user, PID and network namespaces. Inside a container the runtime's seccomp profile refuses them without SYS_ADMIN, " +
          'and some nodes turn unprivileged user namespaces off, so the browser aborts before it opens a page.',
        knobs: [
          {
            place: 'app',
            path: "the browser's launch arguments (Puppeteer / Playwright args)",
            change: 'add --no-sandbox: the pod is the sandbox (the usual choice for headless Chromium in a container)',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.seccompProfile',
            change: "or a Localhost profile that allows the namespace calls (e.g. Jess Frazelle's chrome.json), to keep the browser's own sandbox",
          },
          { place: 'node', path: 'sysctl user.max_user_namespaces on {{node}}', change: 'and it must be above 0' },
        ],
      },
      {
        id: 'general',
        summary: 'cannot create the namespaces of its sandbox (bubblewrap)',
        explain:
          "The program sandboxes its work with bubblewrap, which needs new namespaces: the runtime's seccomp profile refuses them in a container without " +
          'SYS_ADMIN, and the node may forbid unprivileged user namespaces.',
        knobs: [
          { place: 'app', path: "the tool's sandbox option", change: 'turn it off in the pod (the container already isolates it), where the tool allows' },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.seccompProfile',
            change: 'or a Localhost profile that allows unshare/clone of user namespaces',
          },
          {
            place: 'node',
            path: 'sysctl user.max_user_namespaces / kernel.apparmor_restrict_unprivileged_userns on {{node}}',
            change: 'and the node must allow unprivileged user namespaces',
          },
        ],
      },
    ],
  },
  {
    id: 'device-access',
    kind: 'permission',
    resource: 'a device node in the container',
    doc:
      'The app opens a device (/dev/net/tun, /dev/fuse) the container does not have: ' +
      'runtimes create only a fixed set of devices (null, zero, random, tty...) ' +
      'and the device cgroup refuses any other, even when the node has it; privileged containers and device plugins are the ways in.',
    variants: [
      {
        id: 'tun',
        when: (ctx) => /\btun\b|TUN\/TAP|CreateTUN|tstun/i.test(ctx.line) && { path: ctx.groups.path ?? '/dev/net/tun' },
        summary: 'the container has no TUN device ({{path}})',
        explain:
          'A VPN or overlay (OpenVPN, WireGuard, Tailscale) needs {{path}} and NET_ADMIN. A container gets neither by default: the runtime does not create ' +
          'the device, and the device cgroup refuses it.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.resources.limits (a device plugin resource)',
            change: 'request the TUN device from a device plugin (e.g. generic-device-plugin), with NET_ADMIN in securityContext.capabilities.add',
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.privileged', change: 'or run privileged (every device; Pod Security baseline refuses it)' },
          { place: 'app', path: "the VPN's userspace networking mode", change: 'or use a userspace stack that needs no device (Tailscale TS_USERSPACE=true)' },
        ],
      },
      {
        id: 'fuse',
        when: (ctx) => /fuse/i.test(ctx.line),
        summary: 'the container has no FUSE device (/dev/fuse)',
        explain:
          'Mounting a FUSE filesystem from inside needs /dev/fuse and SYS_ADMIN, ' +
          'which an unprivileged container has neither of (the device cgroup refuses it).',
        knobs: [
          { place: 'pod', path: 'spec.volumes', change: 'mount the storage as a volume (a CSI driver for it) instead of from the app' },
          {
            place: 'pod',
            path: '{{containerPath}}.resources.limits (a device plugin resource) / securityContext.privileged',
            change: 'or get /dev/fuse from a device plugin (with SYS_ADMIN), or run privileged',
          },
        ],
      },
      {
        id: 'kvm',
        when: (ctx) => /\/dev\/kvm\b/.test(ctx.line),
        summary: 'the container has no KVM device (/dev/kvm)',
        explain:
          'The app runs virtual machines with KVM and opens /dev/kvm, which containers do not get: the node must have it ' +
          '(hardware virtualisation, or nested virtualisation on a cloud VM, and the kvm module loaded) and hand it to the pod.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.resources.limits devices.kubevirt.io/kvm (the KubeVirt device plugin)',
            change: 'request the device from a device plugin that offers it, or run privileged',
          },
          { place: 'node', path: 'virtualisation on {{node}} (ls /dev/kvm; nested virtualisation of the VM)', change: 'schedule on nodes that have it' },
          { place: 'app', path: "the app's software-emulation fallback", change: 'or run without KVM (much slower)' },
        ],
      },
      {
        id: 'device',
        summary: 'the container has no access to {{path}}',
        explain: 'The app opens {{path}}, a device the runtime does not give containers; the device cgroup refuses it.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.resources.limits (a device plugin resource) / securityContext.privileged',
            change: 'get the device from a device plugin, or run privileged',
          },
        ],
      },
    ],
  },
  {
    id: 'no-init-system',
    kind: 'setting',
    resource: 'an init system (systemd) as PID 1',
    doc:
      "A start script manages services through systemd (systemctl, service units, D-Bus) inside the container, where PID 1 is the image's command: " +
      'there is no service manager to ask, so each service must run as its own foreground process.',
    variants: [
      {
        id: 'systemctl',
        summary: 'the start script asks systemd, which does not run in the container',
        explain:
          "systemctl talks to systemd over D-Bus, and in a container PID 1 is the image's own command: no systemd, no bus. A pod runs each service as a " +
          'process in the foreground, one per container.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.command / args',
            change: 'start the daemon itself in the foreground (e.g. nginx -g "daemon off;") instead of through systemctl',
          },
          { place: 'pod', path: 'spec.containers', change: 'and run each further service as its own container (a sidecar) rather than a unit' },
          { place: 'image', path: 'the Dockerfile', change: 'or remove systemctl calls from the entrypoint' },
        ],
      },
    ],
  },
  {
    id: 'image-runtime-mismatch',
    kind: 'setting',
    resource: 'the libraries and runtime the program was built for',
    doc:
      'The program needs a C library, a shared library or a language runtime the image does not provide at that version: a binary built on a newer ' +
      'distribution than the runtime image (GLIBC_2.34 not found), a multi-stage build that left a library behind or switched glibc for musl, ' +
      "classes compiled for a newer Java than the image's.",
    variants: [
      {
        id: 'glibc',
        when: (ctx) => {
          const m = /version `(GLIBC[\w.]*)' not found \(required by ([^)]+)\)/.exec(ctx.line);
          return m ? { want: m[1]!, program: m[2]! } : false;
        },
        summary: '{{program}} needs {{want}}, newer than the C library in the image',
        explain:
          '{{program}} was linked on a system with a newer glibc than the runtime image carries, so the dynamic loader refuses it before it starts ' +
          '(build and run stages use different bases, or the base image was pinned to an older release).',
        knobs: [
          {
            place: 'image',
            path: 'the Dockerfile',
            change: 'build on the same base (and release) as the runtime stage, or move the runtime to a base with {{want}}',
          },
          { place: 'image', path: 'the build', change: 'or link statically (CGO_ENABLED=0 for Go) so no system library is needed' },
        ],
      },
      {
        id: 'shared-library',
        when: (ctx) => {
          const lib =
            /error while loading shared libraries: ([^:\s]+)/.exec(ctx.line)?.[1] ??
            /Error loading shared library ([^:\s]+)/.exec(ctx.line)?.[1] ??
            /(\S+\.so[.\d]*): cannot open shared object file/.exec(ctx.line)?.[1];
          return lib ? { library: lib } : false;
        },
        summary: 'the image lacks the shared library {{library}}',
        explain:
          'The dynamic loader cannot find {{library}}, which the program was linked against: the runtime image lacks the package (a multi-stage build that ' +
          'copied only the binary, a slimmer base), or the binary was built for glibc and runs on a musl (Alpine) image, or the reverse.',
        knobs: [
          {
            place: 'image',
            path: 'the Dockerfile',
            change: 'install the package that provides {{library}} in the runtime stage (or copy it from the build stage)',
          },
          { place: 'image', path: 'the base image', change: 'or build and run on the same C library (glibc or musl)' },
        ],
      },
      {
        id: 'jvm-classfile',
        when: (ctx) => {
          const m = /class file version (\d+)\.\d+\), this version of the Java Runtime only recognizes class file versions up to (\d+)/.exec(ctx.line);
          return m ? { want: `Java ${Number(m[1]) - 44}`, have: `Java ${Number(m[2]) - 44}` } : { want: 'a newer Java', have: 'an older one' };
        },
        summary: 'the classes need {{want}}, and the image runs {{have}}',
        explain:
          'The application was compiled for {{want}} (its class file version), and the JVM in the image is {{have}}, which refuses newer classes: ' +
          'the build and the runtime image use different JDKs.',
        knobs: [
          { place: 'image', path: 'the runtime base image (JRE)', change: 'use a JRE at least as new as the one the classes were compiled for ({{want}})' },
          { place: 'image', path: 'the build (maven.compiler.release / Gradle toolchain)', change: 'or compile for {{have}}' },
        ],
      },
    ],
  },
  {
    id: 'module-missing',
    kind: 'setting',
    resource: "the packages the app imports, installed where the image's runtime looks",
    doc:
      'The app imports a package the container does not have: the image was built without it (a build stage that installed dependencies was not ' +
      "copied, a dev-only install), or a volume mounted over the app's directory hides the node_modules or packages the image installed there.",
    variants: [
      {
        id: 'under-mount',
        when: (ctx) => {
          const d = appDirUnderMount(ctx);
          return d ? { ...d, module: ctx.groups.module ?? 'a package' } : false;
        },
        summary: 'the app cannot import {{module}}: volume {{volume}} mounted at {{mountPath}} hides what the image installed there',
        explain:
          'The app runs from {{mountPath}}, where the {{volumeKind}} volume "{{volume}}" is mounted: the mount replaces the image\'s directory, so the ' +
          'dependencies installed there at build time (node_modules, vendored packages) are not visible and {{module}} cannot be imported.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.volumeMounts[{{volume}}].mountPath',
            change: "mount the volume elsewhere (a data directory), not over the app's code",
          },
          { place: 'pod', path: 'spec.initContainers', change: 'or copy the app with its dependencies into the volume first' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'image',
        when: (ctx) => ({ module: ctx.groups.module ?? 'a package' }),
        summary: 'the image lacks the package {{module}} the app imports',
        explain:
          'The app imports {{module}} and the runtime cannot find it in the image: the dependency was not installed in the stage that became the image ' +
          '(or only as a dev dependency), or the app runs from another directory than the one its packages were installed in.',
        knobs: [
          {
            place: 'image',
            path: 'the Dockerfile',
            change: 'install the dependencies in the final stage (npm ci --omit=dev, pip install -r requirements.txt) or copy them into it',
          },
          { place: 'pod', path: '{{containerPath}}.workingDir / env PYTHONPATH / NODE_PATH', change: 'or run the app where its packages are installed' },
        ],
      },
    ],
  },
  {
    id: 'tzdata-missing',
    kind: 'setting',
    resource: 'the time zone database in the image',
    doc:
      'The app loads a named time zone (from TZ or its configuration) and the image has no time zone database: scratch and distroless-static images ' +
      'and slim bases ship without /usr/share/zoneinfo.',
    variants: [
      {
        id: 'zoneinfo',
        when: (ctx) => ({ zone: ctx.groups.zone ?? envValue(ctx, 'TZ') ?? 'the zone it names' }),
        summary: 'the image has no time zone data for {{zone}}',
        explain: 'The app asks for the time zone {{zone}} and cannot find it: the image has no /usr/share/zoneinfo (or the name is not a valid IANA zone).',
        knobs: [
          {
            place: 'image',
            path: 'the Dockerfile',
            change: 'install tzdata (or copy /usr/share/zoneinfo from the build stage); Go can embed it: import _ "time/tzdata"',
          },
          { place: 'pod', path: '{{containerPath}}.env TZ', change: 'and check the value is an IANA name (Europe/Berlin, not CET+1)' },
        ],
      },
    ],
  },
  {
    id: 'args-rejected',
    kind: 'setting',
    resource: 'command-line flags the program in the image accepts',
    doc:
      "The program refuses a flag the container's command or args pass: the args were written for another version of the program (a chart that " +
      'changed its args but not its image, an image tag that moved), or they carry a typo.',
    variants: [
      {
        id: 'flag',
        when: (ctx) => ({ flag: ctx.groups.flag ?? 'a flag', image: ctx.container?.image ?? 'the image' }),
        summary: 'the program in {{image}} does not accept {{flag}}',
        explain:
          "The container's command/args pass {{flag}}, which the program in {{image}} does not know, so it prints its usage and exits: the args and the " +
          'image are of different versions.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.args / command', change: 'pass only flags the program in this image accepts (run it with --help)' },
          { place: 'pod', path: '{{containerPath}}.image', change: "or use the image version the args were written for (the chart's appVersion)" },
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
          {
            place: 'pod',
            path: '{{containerPath}}.env HOME and USER',
            change: "or set them, for tools that only need a home and a name (Python's getpass reads USER)",
          },
        ],
      },
    ],
  },
  {
    id: 'runs-as-root',
    kind: 'setting',
    resource: 'a non-root user for a server that refuses root',
    doc: "The server refuses to run as root, and the container runs it as UID 0: the image's entrypoint, which would switch to the service user, is bypassed, or the pod asks for root.",
    variants: [
      {
        id: 'postgres',
        when: (ctx) => /postgres|initdb/i.test(ctx.line) && asWhom(ctx),
        summary: 'the server refuses to run as root',
        explain:
          "The server stops because it runs as root ({{asWhom}}): PostgreSQL never runs as root. The image's entrypoint normally starts as root and " +
          'switches to the postgres user; a command that starts the server directly skips that step.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.runAsUser + runAsNonRoot',
            change: "run as the image's postgres UID (and runAsNonRoot: true)",
          },
          { place: 'pod', path: '{{containerPath}}.command / args', change: "or keep the image's entrypoint, which switches user itself" },
        ],
      },
      {
        id: 'mysql',
        when: (ctx) => /mysqld/i.test(ctx.line) && asWhom(ctx),
        summary: 'mysqld refuses to run as root without a user to switch to',
        explain:
          'mysqld runs as root ({{asWhom}}) and is given no --user to switch to, so it stops: it runs as root only when told to with --user=root. ' +
          "The image's entrypoint passes --user=mysql (or starts it as mysql); a command that starts mysqld directly skips that.",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: "run as the image's mysql UID (999 in the official images)" },
          { place: 'pod', path: '{{containerPath}}.command / args', change: "or keep the image's entrypoint, or pass --user=mysql" },
        ],
      },
      {
        id: 'gitea',
        when: (ctx) => /gitea|forgejo/i.test(ctx.line) && asWhom(ctx),
        summary: 'Gitea refuses to run as root',
        explain:
          'Gitea (and Forgejo) exit when they run as UID 0 ({{asWhom}}): the rootless image runs as git (UID 1000), and the root image starts as root ' +
          'only to switch to git in its s6 entrypoint; a command or user that bypasses that runs the server as root.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser / runAsGroup', change: 'run as 1000 (the git user), with fsGroup 1000 for /data' },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or use the rootless image; bind port 22 or 80 with NET_BIND_SERVICE, not as root' },
        ],
      },
      {
        id: 'root',
        when: asWhom,
        summary: 'the server refuses to run as root',
        explain:
          'The server stops because it runs as root ({{asWhom}}) and refuses to: the image expects its entrypoint to switch to a service user, or ' +
          'the pod to run as one, and neither happens.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser + runAsNonRoot', change: "run as the image's service UID" },
          { place: 'pod', path: '{{containerPath}}.command / args', change: "or keep the image's entrypoint, which switches user itself" },
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
        id: 'elasticsearch-discovery',
        when: (ctx) => /default discovery settings are unsuitable for production/i.test(ctx.line),
        summary: 'Elasticsearch needs its discovery settings to form a cluster',
        explain:
          'Elasticsearch binds to a non-loopback address in a pod, so its bootstrap checks require discovery settings: either a single-node cluster ' +
          'or the seed hosts and initial master nodes of a multi-node one; the pod sets neither.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env discovery.type', change: 'set single-node for a one-pod cluster' },
          {
            place: 'pod',
            path: '{{containerPath}}.env discovery.seed_hosts + cluster.initial_master_nodes',
            change: "or, for several pods, the headless Service's name and the master pods' names (what the ECK operator and the Helm chart set)",
          },
        ],
      },
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
    doc: 'The process needs a locale the container does not give it: no LANG in the image (the C/POSIX locale, so Python encodes as ASCII), or a LANG naming a locale the image does not carry.',
    variants: [
      {
        id: 'not-installed',
        when: (ctx) => /Invalid or no user locale set/i.test(ctx.line) && { lang: envValue(ctx, 'LANG') ?? envValue(ctx, 'LC_ALL') ?? 'unset' },
        summary: 'the server refuses the locale it was given (LANG {{lang}})',
        explain: 'The server checks its locale at start and refuses it: LANG/LC_ALL ({{lang}}) is unset or names a locale the image does not have installed.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.env LANG / LC_ALL', change: 'set C.UTF-8 (built into glibc 2.35+ and shipped by Debian-based images)' },
        ],
      },
      {
        id: 'lang',
        summary: 'the process runs in the ASCII (C/POSIX) locale',
        explain: 'The process encodes text as ASCII because the container sets no UTF-8 locale (LANG/LC_ALL), and the data holds non-ASCII characters.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env LANG and PYTHONIOENCODING',
            change: 'set LANG=C.UTF-8 (and PYTHONIOENCODING=utf-8, or PYTHONUTF8=1 on Python 3.7+)',
          },
        ],
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
    needles: [
      'native thread',
      'new os thread',
      'max user processes',
      'pthread_create',
      'fork',
      "can't start new thread",
      'errno=11',
      'temporarily unavailable',
    ],
    patterns: [
      re('unable to create (?:new )?native thread'),
      re('failed to create new OS thread \\(have \\d+ already; errno=11\\)'),
      re('may need to increase max user processes \\(ulimit -u\\)'),
      re('pthread_create failed(?: \\(EAGAIN\\)|[^\\n]*?: ', EAGAIN, ')'),
      re('fork: (?:retry: )?', EAGAIN),
      re('\\bCannot fork\\b'),
      re("can't start new thread"),
      // A health check's exec that cannot even fork.
      re('^exec \\S+: ', EAGAIN),
    ],
    source:
      'OpenJDK os_linux.cpp / JVM_StartThread; Go runtime/os_linux.go newosproc; bash jobs.c ("fork: retry: %s"), dash ("Cannot fork"); CPython _threadmodule.c. ' +
      'Lines (GitHub): kruize/autotune#1551, SonarSource/docker-sonarqube#265, mikeizbicki/cmc-csci143#59, podman-container-tools/podman#17647, ' +
      'mikeizbicki/cmc-csci046#249, Ravinou/borgwarehouse#98, datalens-tech/datalens#324, opensandbox-group/OpenSandbox#495; ' +
      'near misses (seccomp, not pids): docker-library/golang#467, chroma-core/chroma#1682',
    examples: [
      'Exception in thread "main" java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached',
      'Exception in thread "main" java.lang.OutOfMemoryError: unable to create new native thread',
      '[4.265s][warning][os,thread] Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 4k, detached.',
      'runtime: failed to create new OS thread (have 13 already; errno=11)',
      'runtime: may need to increase max user processes (ulimit -u)',
      'bash: fork: retry: Resource temporarily unavailable',
      '-bash: fork: Resource temporarily unavailable',
      '/bin/sh: 1: Cannot fork',
      'exec /etc/temporal/healthcheck.sh: resource temporarily unavailable',
      "RuntimeError: can't start new thread",
    ],
    nearMisses: [
      'runtime/cgo: pthread_create failed: Operation not permitted',
      'OpenBLAS blas_thread_init: pthread_create failed for thread 9 of 32: Operation not permitted',
    ],
  },
  {
    id: 'server.threads-check',
    family: 'server',
    mechanism: 'pids-limit',
    needles: ['max number of threads'],
    patterns: [re('max number of threads \\[(?<limit>\\d+)\\] for user \\[[^\\]]+\\] is too low, increase to at least \\[(?<want>\\d+)\\]')],
    source: 'elasticsearch BootstrapChecks.java (MaxNumberOfThreadsCheck). Line (GitHub): elastic/elasticsearch#22485',
    examples: ['max number of threads [1024] for user [elasticsearch] is too low, increase to at least [2048]'],
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
      'commit_memory',
      'native memory allocation',
      'gc heap initialization failed',
      'failed to create coreclr',
    ],
    patterns: [
      re('GC heap initialization failed with error 0x8007000E'),
      re('Failed to create CoreCLR, HRESULT: 0x8007000E'),
      re('java\\.lang\\.OutOfMemoryError: (?:Java heap space|GC overhead limit exceeded|Metaspace|Direct buffer memory)'),
      re('JavaScript heap out of memory'),
      re('Could not reserve enough space for (?:\\d+KB )?object heap'),
      re('There is insufficient memory for the Java Runtime Environment to continue'),
      re("os::commit_memory\\([^)]*\\) failed; error='[^']*' \\(errno=12\\)"),
      re('Native memory allocation \\(mmap\\) failed to map \\d+ bytes'),
      re('fatal error: runtime: out of memory'),
      re('^MemoryError\\b'),
    ],
    source:
      'OpenJDK (universe.cpp, arguments.cpp, os_linux.cpp commit_memory), V8 (heap.cc FatalProcessOutOfMemory), Go runtime/malloc.go, CPython. ' +
      'Lines (GitHub): spotinst/spotinst-kubernetes-helm-charts#54, pulumi/pulumi-hugo#1325, wurstmeister/kafka-docker#69, apache/maven-mvnd#644, ' +
      'hyperhq/hyperd#130, secretflow/secretpad#190, alice-lg/alice-lg#25; .NET gc.cpp ("GC heap initialization failed with error 0x%08X") and the host ' +
      '("Failed to create CoreCLR, HRESULT: 0x%08X"): dotnet/sdk#42252, dotnet/runtime#132871',
    examples: [
      'Terminating due to java.lang.OutOfMemoryError: Java heap space',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      'FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory',
      'Could not reserve enough space for object heap',
      'Could not reserve enough space for 2097152KB object heap',
      "OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(0x00000000c5330000, 181207040, 0) failed; error='Cannot allocate memory' (errno=12)",
      'There is insufficient memory for the Java Runtime Environment to continue.',
      'Native memory allocation (mmap) failed to map 181207040 bytes for committing reserved memory.',
      '# Native memory allocation (mmap) failed to map 2147483648 bytes. Error detail: committing reserved memory.',
      'fatal error: runtime: out of memory',
      'GC heap initialization failed with error 0x8007000E',
      'Failed to create CoreCLR, HRESULT: 0x8007000E',
    ],
  },
  {
    id: 'errno.enomem',
    family: 'errno',
    generic: true,
    mechanism: 'memory-limit',
    needles: errnoNeedles('ENOMEM'),
    patterns: [re('(?:malloc|mmap|alloc|fork|clone|create|start|spawn)[^\\n]*', ENOMEM), re(ENOMEM, '$')],
    source:
      'ENOMEM texts of glibc ("Cannot allocate memory"), musl ("Out of memory"), Go and libuv (upstream.json); the examples are in the format of ' +
      'Go os/exec ("fork/exec %s: %v") and a C program\'s perror, redis rdb.c ("Can\'t save in background: fork: %s"), postgres sysv_shmem.c ' +
      '("could not map anonymous shared memory: %m"): no real paste was collected',
    examples: [
      'mmap failed: Cannot allocate memory',
      'fork/exec /usr/bin/git: cannot allocate memory',
      "1:M 10 Jan 2024 10:00:00.000 # Can't save in background: fork: Cannot allocate memory",
      'FATAL:  could not map anonymous shared memory: Cannot allocate memory',
    ],
  },
  {
    id: 'server.cpu-feature',
    family: 'server',
    mechanism: 'cpu-instruction-set',
    needles: ['avx', 'x86-64-v', 'illegal instruction', 'instruction set', 'instructions, but these'],
    patterns: [
      re('requires a CPU with AVX support'),
      re('CPU does not support x86-64-v[234]'),
      re("compiled to use [\\w.]+ instructions, but these aren't available"),
      re('Illegal instruction'),
    ],
    source:
      'mongo docker-entrypoint (5.0+, SERVER-54407); glibc dl-hwcaps "Fatal glibc error: CPU does not support x86-64-v%d"; TensorFlow cpu_feature_guard.cc; ' +
      'glibc strsignal(SIGILL). Lines (GitHub): ICTU/quality-time#3255, chainguard-images/images#1658, IBM/mcp-context-forge#5712, tensorflow/tensorflow#6896, ' +
      'scale-lab/DRiLLS#9, tensorflow/tensorflow#46496, turnkeylinux/tracker#1724; near miss (an INFO line) llSourcell/deep_dream_challenge#6',
    examples: [
      'WARNING: MongoDB 5.0+ requires a CPU with AVX support, and your current system does not appear to have that!',
      'Fatal glibc error: CPU does not support x86-64-v2',
      'Fatal glibc error: CPU does not support x86-64-v3',
      "2018-01-17 08:21:49.120154: F tensorflow/core/platform/cpu_feature_guard.cc:35] The TensorFlow library was compiled to use AVX2 instructions, but these aren't available on your machine.",
      "F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was compiled to use AVX instructions, but these aren't available on your machine.",
      'Illegal instruction (core dumped)',
      'Illegal instruction',
    ],
    nearMisses: ['cpu_feature_guard.cc:137] Your CPU supports instructions that this TensorFlow binary was not compiled to use: AVX'],
  },
  {
    id: 'server.max-map-count',
    family: 'server',
    mechanism: 'max-map-count',
    needles: ['max_map_count'],
    patterns: [
      re('max virtual memory areas vm\\.max_map_count \\[?(?<limit>\\d+)\\]? is too low, increase to at least \\[?(?<want>\\d+)\\]?'),
      re('\\(vm\\.max_map_count\\) (?<limit>\\d+) is too low, recommended value: (?<want>\\d+)'),
    ],
    source:
      'elasticsearch BootstrapChecks.java (MaxMapCountCheck), memgraph, cassandra StartupChecks. Lines (GitHub): pires/kubernetes-elasticsearch-cluster#137, ' +
      'memgraph/helm-charts#74, rustyrazorblade/easy-db-lab#103',
    examples: [
      '[1]: max virtual memory areas vm.max_map_count [65530] is too low, increase to at least [262144]',
      'Max virtual memory areas vm.max_map_count 65530 is too low, increase to at least 262144',
      'Maximum number of memory map areas per process (vm.max_map_count) 65530 is too low, recommended value: 1048575, you can change it with sysctl.',
    ],
  },
  {
    id: 'server.memlock',
    family: 'server',
    mechanism: 'memlock-limit',
    needles: ['memory locking', 'mlockall', 'memory is not locked', 'lock jvm memory', 'rlimit_memlock'],
    patterns: [
      re('memory locking requested for \\w+ process but memory is not locked'),
      re('Unable to lock JVM Memory'),
      re('Increase RLIMIT_MEMLOCK, soft limit: (?<limit>\\d+)'),
    ],
    source:
      'elasticsearch BootstrapChecks.java (MlockallCheck), JNANatives.java. Lines (GitHub): asc-lab/micronaut-microservices-poc#22, elastic/elasticsearch-docker#40',
    examples: [
      '[1]: memory locking requested for elasticsearch process but memory is not locked',
      '[2017-03-20T05:33:50,204][WARN ][o.e.b.JNANatives         ] Unable to lock JVM Memory: error=12, reason=Out of memory',
      'Increase RLIMIT_MEMLOCK, soft limit: 65536, hard limit: 65536',
    ],
  },
  // Resource limits family (getrlimit(2), mlock(2)): locked memory, and hard limits a script cannot raise.
  {
    id: 'server.vault-mlock',
    family: 'server',
    mechanism: 'memlock-limit',
    needles: ['failed to lock memory'],
    patterns: [re('Failed to lock memory: (?:', ENOMEM, '|', EPERM, ')')],
    source:
      'vault command/server.go (the mlock error, followed by "This usually means that the mlock syscall is not available"); mlock(2) ENOMEM/EPERM. ' +
      'Lines (GitHub): kelseyhightower/vault-on-google-kubernetes-engine#15, hashicorp/docker-vault#53, hashicorp/vault#121, hashicorp/docker-vault#39',
    examples: [
      'Error initializing core: Failed to lock memory: cannot allocate memory',
      'Error initializing core: failed to lock memory: cannot allocate memory',
    ],
  },
  {
    id: 'errno.mlock',
    family: 'errno',
    mechanism: 'memlock-limit',
    needles: ['mlock', 'io_uring', 'memlock may be too low', 'memory locked limit'],
    patterns: [
      re('\\bmlock(?:all|2)?\\b[^\\n]*(?:', ENOMEM, '|', EPERM, ')'),
      re('io_uring\\w*[^\\n]*(?:', ENOMEM, '|try larger memory locked limit)'),
      re(ENOMEM, '[^\\n]*io_uring'),
      re('MEMLOCK may be too low, consider rlimit\\.RemoveMemlock'),
    ],
    source:
      'mlock(2) (ENOMEM over RLIMIT_MEMLOCK without CAP_IPC_LOCK, EPERM when it is 0); liburing README ("ulimit settings"), MariaDB ' +
      '("io_uring_queue_init() failed with ENOMEM: try larger memory locked limit"); cilium/ebpf internal ("MEMLOCK may be too low, consider ' +
      'rlimit.RemoveMemlock"); ENOMEM/EPERM texts (upstream.json). Lines (GitHub): godzie44/go-uring#7, MariaDB/mariadb-docker#570, ' +
      'ocaml-multicore/eio#80, axboe/liburing#93; the mlockall and eBPF examples are in their formats: no real paste was collected',
    examples: [
      'panic: io_uring_setup: cannot allocate memory',
      'mysqld: io_uring_queue_init() failed with ENOMEM: try larger memory locked limit',
      'Fatal error: exception Unix.Unix_error(Unix.ENOMEM, "io_uring_register_buffers", "")',
      'mlockall failed: Cannot allocate memory',
      'loading objects: field Prog: program prog: map events: map create: operation not permitted (MEMLOCK may be too low, consider rlimit.RemoveMemlock)',
    ],
    nearMisses: ['io_uring_queue_init: Operation not permitted [system:1]'],
  },
  {
    id: 'runtime.ulimit-raise',
    family: 'runtime',
    mechanism: 'rlimit-raise',
    needles: ['cannot modify limit', 'error setting limit', 'setrlimit('],
    patterns: [
      re('ulimit: [\\w -]+?: cannot modify limit: ', EPERM),
      re('ulimit: error setting limit[: (]+', EPERM),
      re('setrlimit\\((?<rlimit>RLIMIT_\\w+)[^)]*\\) failed \\(1: ', EPERM),
    ],
    source:
      'bash builtins/ulimit.def ("%s: cannot modify limit: %s"), dash miscbltin.c ("error setting limit (%s)"); setrlimit(2) EPERM (raising the hard limit ' +
      'without CAP_SYS_RESOURCE). Lines (GitHub): Anchormen/elasticsearch-kubernetes#3, spujadas/elk-docker#180, JMBeresford/retrom#403, ' +
      'samuelebistoletti/docker-statsd-influxdb-grafana#4, gitpod-io/gitpod#16222, ClickHouse/ClickHouse#71, docker/cli#4807, firecrawl/firecrawl#1131; ' +
      'nginx ("setrlimit(RLIMIT_NOFILE, %i) failed" for worker_rlimit_nofile; that example is in its format: no real paste was collected)',
    examples: [
      'bin/custom-entrypoint: line 13: ulimit: max locked memory: cannot modify limit: Operation not permitted',
      '/etc/init.d/elasticsearch: line 124: ulimit: open files: cannot modify limit: Operation not permitted',
      '/app/start.sh: line 9: ulimit: open files: cannot modify limit: Operation not permitted',
      '/etc/init.d/influxdb: line 157: ulimit: open files: cannot modify limit: Operation not permitted',
      'bash: ulimit: max locked memory: cannot modify limit: Operation not permitted',
      'sh: 1: ulimit: error setting limit (Operation not permitted)',
      '2020/05/11 09:12:01 [alert] 1#1: setrlimit(RLIMIT_NOFILE, 65535) failed (1: Operation not permitted)',
    ],
  },
  {
    id: 'errno.eperm-switch-user',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['setgroups', 'setgid', 'setuid', 'failed switching', 'cannot set groups', 'initgroups', 'must be suid', 'assume identity'],
    patterns: [
      re('(?:setgroups|setgid|setuid|initgroups|failed switching to|cannot set groups)[^\\n]*', EPERM),
      re('su: must be suid to work properly'),
      re("failed to assume identity of user '[^']+': ", EPERM),
    ],
    source:
      'gosu setup-user.go ("failed switching to %q: %v"), util-linux setpriv, busybox su, pgbouncer src/system.c; EPERM texts (upstream.json). ' +
      'Lines (GitHub): Chevron7Locked/kima-hub#3, gogs/gogs#3586, fpsacha/zomboid-control-panel#34, nats-nui/k8s#6, edoburu/docker-pgbouncer#23; ' +
      'near miss (seccomp ENOSYS) docker-library/postgres#539',
    examples: [
      'error: failed switching to "postgres": operation not permitted',
      'error: failed switching to "git": operation not permitted',
      'setgroups failed: Operation not permitted',
      'su: must be suid to work properly',
      "FATAL @src/system.c:58 in function change_user(): failed to assume identity of user 'postgres': Operation not permitted [1]",
    ],
    nearMisses: ['error: failed switching to "postgres": function not implemented'],
  },
  {
    id: 'errno.eperm-raw-socket',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['ping', 'raw socket', 'icmp', 'cap_net_raw'],
    patterns: [
      re('ping: (?:icmp open )?(?:socket: )?', EPERM),
      re('ping: permission denied \\(are you root\\?\\)'),
      re("ping: can't create raw socket: ", EACCES),
      re('missing cap_net_raw\\+p capability'),
      re('listen ip4:icmp [^\\n]*socket: ', EPERM),
    ],
    source:
      'iputils ping.c (old "icmp open socket", new "=> missing cap_net_raw+p capability or setuid?"), busybox ping, Go x/net/icmp. Lines (GitHub): containers/toolbox#316, ' +
      'netblue30/firejail#5775, justmeandopensource/kubernetes#67, mviereck/dockerfile-x11docker-deepin#19, catcat-blog/NetMirror#5, openshift/origin#3326, ' +
      'AdoptOpenJDK/openjdk8-openj9-releases#9; near miss k3s-io/k3s#5349',
    examples: [
      'ping: socket: Operation not permitted',
      '/usr/bin/ping: socket: Operation not permitted',
      '/usr/bin/ping: => missing cap_net_raw+p capability or setuid?',
      'ping: permission denied (are you root?)',
      'bash: /usr/bin/ping: Operation not permitted',
      'listen ip4:icmp 0.0.0.0: socket: operation not permitted',
      'ping: icmp open socket: Operation not permitted',
      "ping: can't create raw socket: Permission denied",
    ],
    nearMisses: ["ping: bad address 'google.com'"],
  },
  {
    id: 'errno.eperm-net-admin',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['iptables', 'rtnetlink', 'netlink', 'ip6tables', 'so_mark'],
    patterns: [
      re("(?:iptables|ip6tables)[^\\n]*(?:Permission denied \\(you must be root\\)|can't initialize (?:ip6?tables|iptables) table)"),
      re('RTNETLINK answers: ', EPERM),
      // setsockopt(SO_MARK) needs CAP_NET_ADMIN (socket(7)).
      re('SO_MARK[^\\n]*', EPERM),
    ],
    source:
      'iptables libxtables / iptables-standalone.c (legacy and nf_tables backends); iproute2 (the RTNETLINK example is in its format: no real paste was collected). ' +
      'Lines (GitHub): j4ym0/pia-qbittorrent-docker#31, MikeWang000000/Natter#45, ysdragon/Pterodactyl-VPS-Egg#37, passteque/gluetun#139; ' +
      'socket(7) SO_MARK (CAP_NET_ADMIN): tailscale/tailscale#2456',
    examples: [
      "iptables v1.8.10 (legacy): can't initialize iptables table `filter': Permission denied (you must be root)",
      "iptables v1.8.9 (legacy): can't initialize iptables table `nat': Permission denied (you must be root)",
      'iptables v1.8.10 (nf_tables): Could not fetch rule set generation id: Permission denied (you must be root)',
      'ERROR   failed executing "-P INPUT ACCEPT": iptables v1.8.3 (legacy): can\'t initialize iptables table `filter\': Permission denied (you must be root)',
      'RTNETLINK answers: Operation not permitted',
      'logtail: dial "log.tailscale.io:443" failed: dial tcp 34.210.105.16:443: setting SO_MARK bypass: operation not permitted (in 20ms)',
    ],
  },
  {
    id: 'errno.eperm-mount',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['mount', 'unshare', 'fuse'],
    patterns: [re('(?:mount|unshare|fusermount)[^\\n]*(?:', EPERM, '|must be superuser|permission denied)')],
    unless: /MountVolume|kubelet|failed to mount volume|Unable to attach or mount/i,
    source:
      'util-linux mount, unshare; fuse fusermount; EPERM texts (upstream.json). Lines (GitHub): docker/for-linux#1267, EtiennePerot/safe-code-execution#26, ' +
      'gentoo/gentoo-docker-images#81, nix-community/nix-user-chroot#10, moby/moby#19433, rootless-containers/rootlesskit#23',
    examples: [
      'unshare: unshare failed: Operation not permitted',
      'unshare: write failed /proc/self/uid_map: Operation not permitted',
      'Unable to unshare: EPERM (for FEATURES="pid-sandbox")',
      "thread 'main' panicked at 'unshare failed: Sys(EPERM)'",
      'mount: permission denied',
      'mount: /sys: permission denied.',
    ],
  },
  // Capabilities family (capabilities(7)): the operations each capability gates, as the tools print their EPERM.
  {
    id: 'runtime.exec-file-caps',
    family: 'runtime',
    mechanism: 'capability-missing',
    needles: ['operation not permitted'],
    patterns: [
      re('^\\s*exec (?<path>/[^\\s:]+): operation not permitted\\s*$'),
      re('exec container process [`\'"]?(?<path>/[^`\'"\\s]+)[`\'"]?: Operation not permitted'),
    ],
    source:
      'runc ("exec %s: %w") and crun ("exec container process `%s`") around execve(2) EPERM; capabilities(7) "Safety checking for capability-dumb binaries". ' +
      'Lines (GitHub): caddyserver/caddy-docker#466, joryirving/home-ops#9800, joryirving/home-ops#10128, caddyserver/caddy-docker#396',
    examples: [
      'exec /usr/bin/caddy: operation not permitted',
      'exec /usr/local/bin/doormouse: operation not permitted',
      'caddy[12709]: {"msg":"exec container process `/usr/bin/caddy`: Operation not permitted","level":"error","time":"2025-04-04T19:20:00.696030Z"}',
    ],
  },
  {
    id: 'errno.eperm-clock',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['adjtimex', 'ntp_adjtime', 'clock_adjtime', 'settimeofday', 'clock_settime', 'cannot set date'],
    patterns: [re('(?:adjtimex|ntp_adjtime|clock_adjtime|settimeofday|clock_settime)\\b[^\\n]*', EPERM), re('cannot set date: ', EPERM)],
    source:
      'chrony sys_timex.c ("adjtimex(0x%x) failed : %s"), ntpd ("ntp_adjtime() failed: %m"), systemd-timesyncd ("Failed to call clock_adjtime(): %m"), ' +
      'coreutils date ("cannot set date"; that example is in its format: no real paste was collected); EPERM texts (upstream.json). ' +
      'Lines (GitHub): cturra/docker-ntp#28, openstack-k8s-operators/edpm-ansible#102, canonical/lxd#4249, systemd/systemd#20608',
    examples: [
      '2020-12-27T09:09:51Z Fatal error : adjtimex(0x8001) failed : Operation not permitted',
      'ntpd: ntp_adjtime() failed: Operation not permitted',
      'Failed to call clock_adjtime(): Operation not permitted',
      'date: cannot set date: Operation not permitted',
    ],
  },
  {
    id: 'errno.eperm-ptrace',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['ptrace', 'cannot attach to'],
    patterns: [re('ptrace[^\\n]*(?:', EPERM, '|', EACCES, ')'), re('Cannot attach to (?:lwp|process) \\d+: ', EPERM)],
    source:
      'gdb nat/linux-ptrace.c ("ptrace: %s."), strace ("attach: ptrace(PTRACE_SEIZE, %d)"), gdbserver ("Cannot attach to lwp %d: %s"); EPERM/EACCES texts ' +
      '(upstream.json). Lines (GitHub): containers/toolbox#651, aylei/kubectl-debug#59, kubernetes/kubernetes#44765, Azure/AKS#3089, gitpod-io/gitpod#544',
    examples: [
      'ptrace: Operation not permitted.',
      'strace: attach: ptrace(PTRACE_ATTACH, 1): Operation not permitted',
      'strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted',
      'Cannot attach to lwp 7: Operation not permitted (1) Exiting Remote connection closed',
      '[2022-07-16T16:21:25Z INFO  osmingester] OSM2PGSQL: warning: ptrace: Permission denied',
    ],
  },
  {
    id: 'errno.eperm-nice',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['niceness', 'set priority', 'setpriority', 'sched_setscheduler', 'sched_setattr'],
    patterns: [re('(?:cannot set niceness|failed to set priority|setpriority|sched_setscheduler|sched_setattr)[^\\n]*(?:', EPERM, '|', EACCES, ')')],
    source:
      'coreutils nice ("cannot set niceness"), util-linux renice ("failed to set priority for %d (%s)"); EPERM/EACCES texts (upstream.json). ' +
      'The examples are in their formats: no real paste was collected',
    examples: ['nice: cannot set niceness: Permission denied', 'renice: failed to set priority for 1 (process ID): Permission denied'],
  },
  {
    id: 'errno.eperm-chroot',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['chroot'],
    patterns: [re('chroot[^\\n]*', EPERM)],
    source:
      'coreutils chroot ("cannot change root directory to %s"), chroot(2) EPERM; EPERM texts (upstream.json). ' +
      'The example is in its format: no real paste was collected',
    examples: ["chroot: cannot change root directory to '/srv': Operation not permitted"],
  },
  // Image and runtime compatibility: the C library, shared libraries, the JVM, time zone data.
  {
    id: 'runtime.image-mismatch',
    family: 'runtime',
    mechanism: 'image-runtime-mismatch',
    needles: ['not found (required by', 'error while loading shared libraries', 'error loading shared library', 'unsupportedclassversionerror'],
    patterns: [
      re("version `GLIBC[\\w.]*' not found \\(required by "),
      re('error while loading shared libraries: \\S+: cannot open shared object file'),
      re('Error loading shared library \\S+: No such file or directory'),
      re('UnsupportedClassVersionError: [^\\n]*(?:class file version|Unsupported major\\.minor version)'),
    ],
    source:
      'glibc elf/dl-version.c ("version `%s\' not found (required by %s)"), ' +
      'elf/dl-load.c ("error while loading shared libraries: %s: cannot open shared object ' +
      'file"), musl ldso/dynlink.c ("Error loading shared library %s: %m (needed by %s)"), OpenJDK ClassFileParser (UnsupportedClassVersionError; that ' +
      'example is in its format). Lines (GitHub): eisengrind/docker-altv-server#36, mathinstitut/goemaxima#7, docker-library/python#518, ' +
      'sgerrand/alpine-pkg-glibc#117',
    examples: [
      "/opt/altv/configurator: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /opt/altv/configurator)",
      "/opt/maxima/bin/goweb: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by /opt/maxima/bin/goweb)",
      "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.28' not found (required by /home/user/anaconda3/lib/python3.8/site-packages/bpy.so)",
      '/usr/local/bin/app: error while loading shared libraries: libssl.so.1.1: cannot open shared object file: No such file or directory',
      'Error loading shared library libstdc++.so.6: No such file or directory (needed by /usr/local/bin/app)',
      'java.lang.UnsupportedClassVersionError: com/example/App has been compiled by a more recent version of the Java Runtime (class file version 61.0), ' +
        'this version of the Java Runtime only recognizes class file versions up to 55.0',
    ],
  },
  {
    id: 'runtime.module-missing',
    family: 'runtime',
    mechanism: 'module-missing',
    needles: ['cannot find module', 'no module named', 'cannot load such file', 'cannot find package'],
    patterns: [
      re("Error: Cannot find module '(?<module>[^'/.][^']*)'"),
      re("ModuleNotFoundError: No module named '(?<module>[^']+)'"),
      re('cannot load such file -- (?<module>\\S+) \\(LoadError\\)'),
      re("Error \\[ERR_MODULE_NOT_FOUND\\]: Cannot find package '(?<module>[^']+)'"),
    ],
    source:
      'Node lib/internal/modules/cjs/loader.js ("Cannot find module \'%s\'" with its "Require stack") and esm resolve ("Cannot find package \'%s\'"), ' +
      'CPython importlib ("No module named %r"), Ruby ("cannot load such file -- %s"); the examples are in their formats: no real paste was collected',
    examples: [
      "Error: Cannot find module 'express'",
      "ModuleNotFoundError: No module named 'flask'",
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'dotenv' imported from /app/server.js",
      "/usr/local/lib/ruby/3.2.0/rubygems/core_ext/kernel_require.rb:85:in `require': cannot load such file -- sinatra (LoadError)",
    ],
    nearMisses: ["Error: Cannot find module '/app/server.js'"],
    // A per-platform package (rollup's, swc's, @parcel/watcher's native builds) missing is a platform mismatch of the
    // installed node_modules (catalogue/runtimes.ts native-module-platform), not a dependency the app forgot.
    unless: /Cannot find module '@[\w.-]+\/[\w.-]+-(?:linux|darwin|win32|freebsd)-(?:x64|arm64|arm|ia32)(?:-(?:gnu|musl|msvc|gnueabihf))?'/,
  },
  {
    id: 'runtime.tzdata-missing',
    family: 'runtime',
    mechanism: 'tzdata-missing',
    needles: ['unknown time zone', 'unknowntimezoneerror', 'unknown time-zone id', 'no time zone found with key'],
    patterns: [
      re('unknown time zone (?<zone>[\\w/+-]+)'),
      re("UnknownTimeZoneError: '(?<zone>[^']+)'"),
      re('Unknown time-zone ID: (?<zone>[\\w/+-]+)'),
      re('No time zone found with key (?<zone>[\\w/+-]+)'),
    ],
    source:
      'Go time.LoadLocation ("unknown time zone %s"), pytz UnknownTimeZoneError, Python zoneinfo ZoneInfoNotFoundError ("No time zone found with key %s"), ' +
      'OpenJDK ZoneRulesProvider ("Unknown time-zone ID: %s"); the examples are in their formats. Reports (GitHub): GoogleContainerTools/distroless#124, ' +
      'asobti/kube-monkey#13, savdagod/ha-addons#8, google/syzkaller#7447',
    examples: [
      'panic: unknown time zone America/New_York',
      "pytz.exceptions.UnknownTimeZoneError: 'Europe/Berlin'",
      'java.time.zone.ZoneRulesException: Unknown time-zone ID: Europe/Berlin',
      "zoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key Europe/Berlin'",
    ],
  },
  {
    id: 'runtime.unknown-flag',
    family: 'runtime',
    mechanism: 'args-rejected',
    needles: ['flag provided but not defined', 'unknown flag', 'unknown shorthand flag', 'unrecognized arguments', 'unknown option'],
    patterns: [
      re('flag provided but not defined: (?<flag>-{1,2}[\\w.-]+)'),
      re('unknown flag: (?<flag>--[\\w.-]+)'),
      re("unknown shorthand flag: '(?<flag>.)'"),
      re('error: unrecognized arguments: (?<flag>\\S+)'),
      re("error: unknown option '(?<flag>[^']+)'"),
      re("Unknown option: '(?<flag>[^']+)'"),
    ],
    source:
      'Go flag ("flag provided but not defined: -%s"), spf13/pflag ("unknown flag: --%s", "unknown shorthand flag"), Python argparse ("unrecognized ' +
      'arguments"), commander.js ("unknown option"), picocli ("Unknown option"; the last three examples are in their formats). Lines (GitHub): ' +
      'DataDog/watermarkpodautoscaler#97, vllm-project/aibrix#668, grafana/helm-charts#3636, kubermatic/kubermatic#1650, ' +
      'kubealex/k8s-mediaserver-operator#36, kubernetes/ingress-nginx#4580, hashicorp/docker-vault#39',
    examples: [
      'flag provided but not defined: -zap-level',
      'flag provided but not defined: -enable-runtime-sidecar',
      'flag provided but not defined: -watched-dir',
      'Error: unknown flag: --metrics-bind-address',
      'Error: unknown flag: --ingress-nginx-configmap',
      'main.py: error: unrecognized arguments: --workers=4',
      "error: unknown option '--port'",
      "Unknown option: '--spring.profiles'",
    ],
  },
  {
    id: 'runtime.no-systemd',
    family: 'runtime',
    mechanism: 'no-init-system',
    needles: ['has not been booted with systemd', 'failed to connect to bus', 'failed to create bus connection', 'failed to get d-bus connection'],
    patterns: [
      re('System has not been booted with systemd as init system'),
      re('Failed to (?:connect to|create) bus(?: connection)?: (?:Host is down|No such file or directory)'),
      re('Failed to get D-Bus connection: ', EPERM),
    ],
    source:
      'systemd systemctl and bus-util ("System has not been booted with systemd as init system (PID 1). Can\'t operate.", "Failed to connect to bus: %m"; ' +
      'older systemctl "Failed to get D-Bus connection: %m", that example is in its format). Lines (GitHub): gezp/docker-ubuntu-desktop#17, ' +
      'eniocarboni/docker-rockylinux-systemd#1, nektos/act#548, sudo-project/sudo#441, ysdragon/Pterodactyl-VPS-Egg#25',
    examples: [
      "System has not been booted with systemd as init system (PID 1). Can't operate.",
      'Failed to connect to bus: Host is down',
      '| Failed to create bus connection: Host is down',
      'Failed to get D-Bus connection: Operation not permitted',
    ],
  },
  {
    id: 'errno.eperm-hostname',
    family: 'errno',
    mechanism: 'capability-missing',
    needles: ['sethostname', 'change the host name'],
    patterns: [re('you must be root to change the host name'), re('sethostname[^\\n]*', EPERM)],
    source:
      'net-tools hostname ("you must be root to change the host name" on EPERM), ' +
      'busybox hostname ("sethostname"; that example is in its format: no real paste ' +
      'was collected). Lines (GitHub): moby/moby#14772, moby/moby#8902, freeipa/freeipa#5706',
    examples: ['hostname: you must be root to change the host name', 'hostname: sethostname: Operation not permitted'],
  },
  // Sandboxes and devices: namespaces a program creates for itself, device nodes it opens.
  {
    id: 'runtime.sandbox-namespace',
    family: 'runtime',
    mechanism: 'sandbox-namespaces',
    needles: ['failed to move to new namespace', 'no usable sandbox', 'new namespace'],
    patterns: [
      re('Failed to move to new namespace: [^\\n]*but failed: errno = ', EPERM),
      re('No usable sandbox!'),
      re('bwrap: No permissions to creat(?:e|ing)(?: a)? new namespace'),
      re('bwrap: Creating new namespace failed: ', EPERM),
    ],
    source:
      'chromium sandbox/linux (zygote_host_impl_linux.cc "No usable sandbox!", the namespace sandbox "Failed to move to new namespace"); ' +
      'bubblewrap bubblewrap.c. ' +
      'Lines (GitHub): jlandure/alpine-chrome#33, jessfraz/dockerfiles#350, wechaty/wechaty#26, macbre/phantomas#800, puppeteer/puppeteer#2161, ' +
      'fsquillace/junest#261, containers/bubblewrap#324, Open-Wine-Components/umu-launcher#156, clouisle/Clouisle#373, containers/bubblewrap#675, ' +
      'tbrandenburg/cade#23',
    examples: [
      'Failed to move to new namespace: PID namespaces supported, Network namespace supported, but failed: errno = Operation not permitted',
      '[0308/081346.497090:FATAL:zygote_host_impl_linux.cc(124)] No usable sandbox! Update your kernel or see ' +
        'https://chromium.googlesource.com/chromium/src/+/master/docs/linux_suid_sandbox_development.md ' +
        'for more information on developing with the SUID sandbox. ' +
        'If you want to live dangerously and need an immediate workaround, you can try using --no-sandbox.',
      'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. ' +
        "On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.",
      'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.',
      'bwrap: Creating new namespace failed: Operation not permitted',
    ],
  },
  {
    id: 'runtime.device-missing',
    family: 'runtime',
    mechanism: 'device-access',
    needles: ['tun/tap', 'createtun', 'tstun', 'fuse: device not found', '/dev/fuse'],
    patterns: [
      re('Cannot open TUN/TAP dev (?<path>/\\S+): '),
      re('CreateTUN\\("[^"]*"\\) failed; (?<path>/dev/net/tun) does not exist'),
      re('tstun\\.New\\("[^"]*"\\): ', EPERM),
      re("fuse: device not found, try 'modprobe fuse' first"),
      re('(?:fusermount3?|fuse): failed to open (?<path>/dev/fuse): '),
    ],
    source:
      'openvpn tun.c ("Cannot open TUN/TAP dev %s"), wireguard-go/tailscale tstun ("CreateTUN(%q) failed; %s does not exist"), libfuse mount.c and ' +
      'fusermount.c ("fuse: device not found, try \'modprobe fuse\' first", "%s: failed to open %s: %s"; those examples are in their formats: no real paste ' +
      'was collected). Lines (GitHub): offlinehacker/openvpn-k8s#4, DyonR/docker-Jackettvpn#74, kubenetworks/kubevpn#444, tailscale/tailscale#14256',
    examples: [
      'ERROR: Cannot open TUN/TAP dev /dev/net/tun: No such device (errno=19)',
      'Cannot open TUN/TAP dev /dev/net/tun: No such file or directory (errno=2)',
      'CreateTUN("utun0") failed; /dev/net/tun does not exist',
      'tailscale 2024/12/01 11:51:00 wgengine.NewUserspaceEngine(tun "tailscale0") error: tstun.New("tailscale0"): operation not permitted',
      "fuse: device not found, try 'modprobe fuse' first",
      'fusermount: failed to open /dev/fuse: Operation not permitted',
    ],
  },
  {
    id: 'runtime.no-new-privs',
    family: 'runtime',
    mechanism: 'no-new-privileges',
    needles: ['sudo', 'no new privileges'],
    patterns: [
      re('sudo: effective uid is not 0'),
      re('The "no new privileges" flag is set'),
      re('sudo: If sudo is running in a container, you may need to adjust the container configuration to disable the flag'),
      re('sudo: unable to change to root gid'),
    ],
    source:
      'sudo src/sudo.c (sudo_check_suid; the no_new_privs check since 1.9.9, sudo-project/sudo#129). Lines (GitHub): docker/for-linux#1100, ' +
      'container2wasm/container2wasm#239, topgrade-rs/topgrade#1006; near miss perfsonar/perfsonar-testpoint-docker#44',
    examples: [
      "sudo: effective uid is not 0, is /usr/bin/sudo on a file system with the 'nosuid' option set or an NFS file system without root privileges?",
      'sudo: The "no new privileges" flag is set, which prevents sudo from running as root.',
      'sudo: If sudo is running in a container, you may need to adjust the container configuration to disable the flag.',
    ],
    nearMisses: ['sudo: unable to send audit message: Operation not permitted'],
  },
  {
    id: 'errno.seccomp',
    family: 'errno',
    mechanism: 'seccomp-blocked',
    needles: ['io_uring', 'clone3', 'userfaultfd', 'perf_event_open', 'function not implemented', 'enosys', 'pthread_create'],
    patterns: [
      re('(?:io_uring\\w*|clone3|userfaultfd|perf_event_open)[^\\n]*(?:', EPERM, '|', ENOSYS, ')'),
      re('io_uring is not available'),
      re('io_uring_queue_init_params failed'),
      re('pthread_create failed[^\\n]*?: ', EPERM),
      re(ENOSYS),
    ],
    source:
      'EPERM/ENOSYS texts (upstream.json); liburing, netty io_uring, Go runtime/cgo; moby/moby#42836 (clone3 in the default profile since Docker 20.10.10), ' +
      'moby/moby#47532 (io_uring blocked by the default profile). Lines (GitHub): axboe/liburing#1078, netty/netty-incubator-transport-io_uring#41, ' +
      'docker/for-mac#7707, the-benchmarker/web-frameworks#9467, tianon/docker-brew-ubuntu-core#217, docker-library/golang#467, chroma-core/chroma#1682, ' +
      'docker-library/postgres#539; near miss kruize/autotune#1551',
    examples: [
      'io_uring_queue_init: Operation not permitted [system:1]',
      'java.lang.RuntimeException: failed to create io_uring ring fd Operation not permitted',
      '2025-06-26 06:54:06.035Z error(io): io_uring is not available',
      '  io_uring_queue_init_params failed for all ring entry/flag combinations',
      'clone3(0x7ffe883ceeb0, 88)        = -1 EPERM (Operation not permitted)',
      'runtime/cgo: pthread_create failed: Operation not permitted',
      'OpenBLAS blas_thread_init: pthread_create failed for thread 9 of 32: Operation not permitted',
      'error: failed switching to "postgres": function not implemented',
    ],
    nearMisses: [
      '[4.265s][warning][os,thread] Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 4k, detached.',
    ],
  },
  {
    id: 'runtime.seccomp-rule',
    family: 'runtime',
    mechanism: 'seccomp-blocked',
    needles: ['seccomp filter rule'],
    patterns: [re('error adding seccomp filter rule for syscall (?<syscall>\\w+)')],
    source: 'runc libcontainer/seccomp (libseccomp too old for the syscall the profile names). Line (GitHub): containerd/containerd#6203',
    examples: ['error adding seccomp filter rule for syscall clone3: permission denied: unknown'],
  },
  {
    id: 'server.refuses-root',
    family: 'server',
    mechanism: 'runs-as-root',
    needles: ['execution of the postgresql server is not permitted', 'cannot be run as root', 'how to run mysqld as root', 'not supposed to be run as root'],
    patterns: [
      re('"root" execution of the PostgreSQL server is not permitted'),
      re('initdb: error: cannot be run as root'),
      re('(?:Please read "Security" section of the manual|Please consult the Knowledge Base) to find out how to run mysqld as root'),
      re('(?:Gitea|Forgejo) is not supposed to be run as root'),
    ],
    source:
      'postgres src/backend/main/main.c (check_root), src/bin/initdb/initdb.c; mysql-server sql/mysqld.cc and MariaDB (check_user); ' +
      'go-gitea/gitea cmd/web.go (the root check). Lines (GitHub): pgautoupgrade/docker-pgautoupgrade#21, MariaDB MDEV-7987',
    examples: [
      '"root" execution of the PostgreSQL server is not permitted.',
      'initdb: error: cannot be run as root',
      '2017-04-18T11:33:31.031538Z 0 [ERROR] Fatal error: Please read "Security" section of the manual to find out how to run mysqld as root!',
      'Gitea is not supposed to be run as root. Sorry. If you need to use privileged TCP ports please instead use setcap and the ' +
        '`cap_net_bind_service` permission',
      '[F] Forgejo is not supposed to be run as root',
    ],
  },
  {
    id: 'runtime.user-unknown',
    family: 'runtime',
    mechanism: 'user-unknown',
    needles: [
      'user id',
      'getpwuid',
      'user does not exist',
      'i have no name',
      'no matching entries in passwd',
      'runuser: user',
      'local user with id',
      'no user exists for uid',
    ],
    patterns: [
      re('cannot find name for user ID (?<uid>\\d+)'),
      re('getpwuid\\(\\): uid not found: (?<uid>\\d+)'),
      re("getpwuid: couldn't determine user name from uid (?<uid>\\d+)"),
      re('could not look up effective user ID (?<uid>\\d+): user does not exist'),
      re('local user with ID (?<uid>\\d+) does not exist'),
      re('runuser: user (?<uid>\\d+) does not exist'),
      re('No user exists for uid (?<uid>\\d+)'),
      re('I have no name!'),
      re('no matching entries in passwd file'),
    ],
    source:
      'coreutils whoami/id; CPython pwdmodule.c; postgres src/common/username.c; util-linux runuser; OpenSSH; httpd AH02155. Lines (GitHub): ' +
      'bitnami/bitnami-docker-wildfly#71, openshift/verification-tests#2734, openshift/jenkins#83, nextcloud-snap/nextcloud-snap#705, docker-library/postgres#359, ' +
      'bitnami/containers#7264, bitnami/containers#28147, ansible/ansible#68007, fedora-infra/koschei#282, hzxie/voj#134',
    examples: [
      'whoami: cannot find name for user ID 1001',
      'id: cannot find name for user ID 1002280000',
      'No user exists for uid 1001',
      "AH02155: getpwuid: couldn't determine user name from uid 4294967295, you probably need to modify the User directive",
      'initdb: could not look up effective user ID 1000360000: user does not exist',
      'createdb: error: local user with ID 1001 does not exist',
      'pg_dumpall: error: local user with ID 1001 does not exist',
      'runuser: user 1000 does not exist or the user entry does not contain all the required fields',
      "KeyError: 'getpwuid(): uid not found: 1000'",
      "KeyError: 'getpwuid(): uid not found: 1000550000'",
      "KeyError: 'getpwuid(): uid not found: 1536'",
    ],
  },
  {
    id: 'errno.e2big',
    family: 'errno',
    mechanism: 'env-too-large',
    needles: errnoNeedles('E2BIG'),
    patterns: [re(E2BIG)],
    source:
      'E2BIG texts (upstream.json); runc "exec user process caused", Go os/exec. Lines (GitHub): kubernetes/kubernetes#84539, apache/camel-k#6724, ' +
      'kubevirt/containerized-data-importer#4059, kubernetes/ingress-nginx#7968, DependencyTrack/helm-charts#240',
    examples: [
      'standard_init_linux.go:211: exec user process caused "argument list too long"',
      'exec /opt/java/openjdk/bin/java: argument list too long',
      'exec /usr/bin/sh: argument list too long',
      'F1123 11:30:18.364676       7 nginx.go:412] NGINX error: fork/exec /usr/local/nginx/sbin/nginx: argument list too long',
      '/docker-entrypoint.d/20-envsubst-on-templates.sh: line 53: envsubst: Argument list too long',
    ],
  },
  {
    id: 'errno.eacces-exec',
    family: 'errno',
    mechanism: 'exec-permission',
    needles: errnoNeedles('EACCES'),
    patterns: [re('exec(?:ve)?[(: ][^\\n]*', EACCES), re('exec user process caused: ', EACCES)],
    source:
      'runc libcontainer/standard_init_linux.go ("exec user process caused: %w"), runc/containerd "exec %s: %w"; EACCES texts (upstream.json). ' +
      'The example is in that format: no real paste was collected',
    examples: ['exec /docker-entrypoint.sh: permission denied'],
  },
  {
    id: 'server.required-env',
    family: 'server',
    mechanism: 'required-setting',
    needles: ['is uninitialized', 'you need to specify', 'must specify', 'is not set', 'is required', 'must be set', 'must be specified'],
    patterns: [
      re('Database is uninitialized and (?:password option|superuser password) is not specified'),
      re('database is uninitialized and [A-Z][A-Z0-9_]+ not set'),
      re('You need to specify one of (?:the following|[A-Z_, ]+)'),
      re('You must specify [A-Z][A-Z0-9_]+ (?:to a non-empty value|for the superuser)'),
      // Case-sensitive: the name is an environment variable's (upper case), not any word before "is not set".
      /\b[A-Z][A-Z0-9_]{2,}\b (?:environment variable )?(?:is not set|is required|must be set|must be specified)/,
      /(?:[Ee]nvironment variable|[Ee]nv var)\S* [A-Z][A-Z0-9_]+ (?:is not set|is required)/,
    ],
    source:
      'docker-library mysql/mariadb/postgres docker-entrypoint.sh (docker-library/mysql#913 added the list form). Lines (GitHub): docker-library/mysql#976, ' +
      'matomo-org/docker#249, shipping-docker/vessel#39, docker-archive-public/docker.kitematic#315, cr0hn/vulnerable-node#30, tianon/docker-postgres-upgrade#30',
    examples: [
      '2022-08-27 09:15:11+00:00 [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified',
      '2021-08-12 10:43:46+00:00 [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified',
      'error: database is uninitialized and password option is not specified ',
      '  You need to specify one of MYSQL_ROOT_PASSWORD, MYSQL_ALLOW_EMPTY_PASSWORD and MYSQL_RANDOM_ROOT_PASSWORD',
      '\tYou need to specify one of MARIADB_ROOT_PASSWORD, MARIADB_ALLOW_EMPTY_ROOT_PASSWORD and MARIADB_RANDOM_ROOT_PASSWORD',
      'error: database is uninitialized and MYSQL_ROOT_PASSWORD not set',
      'Error: Database is uninitialized and superuser password is not specified.',
      '       You must specify POSTGRES_PASSWORD to a non-empty value for the',
      '       You must specify POSTGRES_PASSWORD for the superuser. Use',
    ],
  },
  {
    id: 'server.elasticsearch-discovery',
    family: 'server',
    mechanism: 'required-setting',
    needles: ['default discovery settings are unsuitable'],
    patterns: [re('the default discovery settings are unsuitable for production use')],
    source:
      'elasticsearch BootstrapChecks.java (DiscoveryConfiguredCheck: "the default discovery settings are unsuitable for production use; at least one of ' +
      '[discovery.seed_hosts, discovery.seed_providers, cluster.initial_master_nodes] must be configured"); the example is in its format',
    examples: [
      '[1]: the default discovery settings are unsuitable for production use; at least one of [discovery.seed_hosts, discovery.seed_providers, ' +
        'cluster.initial_master_nodes] must be configured',
    ],
  },
  {
    id: 'runtime.ascii-locale',
    family: 'runtime',
    mechanism: 'locale',
    needles: ['ascii', 'locale'],
    patterns: [re("UnicodeEncodeError: 'ascii' codec can't encode"), re("UnicodeDecodeError: 'ascii' codec can't decode"), re('Invalid or no user locale set')],
    source:
      'CPython codecs (UnicodeEncodeError message); mongo Failed global initialization (locale). Lines (GitHub): docker-exec/dexec#26, thewhiteh4t/pwnedOrNot#18, ' +
      'intel/cc-oci-runtime#318; near miss (perl falls back to C and goes on) dockbuild/dockbuild#34',
    examples: [
      "UnicodeEncodeError: 'ascii' codec can't encode characters in position 7-9: ordinal not in range(128)",
      "UnicodeEncodeError: 'ascii' codec can't encode character '\\xe9' in position 36: ordinal not in range(128)",
      '2016-10-07T12:47:03.095+0000 F CONTROL  [main] Failed global initialization: BadValue: Invalid or no user locale set. Please ensure LANG and/or LC_* environment variables are set correctly.',
    ],
    nearMisses: ['perl: warning: Setting locale failed.'],
  },
  {
    id: 'signal.killed',
    family: 'signal',
    mechanism: 'memory-limit',
    needles: [' killed '],
    patterns: [re('line \\d+:\\s+\\d+ Killed\\s')],
    source:
      'bash jobs.c job report ("line %d: %5ld Killed ..." for a child ended by SIGKILL), as for the Bus error and Segmentation fault reports; the example ' +
      'is in its format: no real paste was collected',
    examples: ['/entrypoint.sh: line 12:     7 Killed                  java -jar /app/app.jar'],
  },
  {
    // Gunicorn kills a worker that missed its --timeout, and the SIGKILL report that follows guesses memory: read after a
    // WORKER TIMEOUT, the kill is the timeout's (mechanism worker-timeout, catalogue/servers.ts), not the memory limit's.
    id: 'server.worker-timeout-sigkill',
    family: 'server',
    mechanism: 'worker-timeout',
    needles: ['sigkill'],
    patterns: [re('Worker \\(pid:\\d+\\) was sent SIGKILL! Perhaps out of memory\\?')],
    preceded: /\[CRITICAL\] WORKER TIMEOUT \(pid:\d+\)/,
    source: 'gunicorn arbiter.py (murder_workers, then reap_workers). Lines (GitHub): open-runtimes/open-runtimes#330, devilry/devilry-django#1297',
    examples: [
      '[2024-11-05 09:25:59 +0000] [16] [CRITICAL] WORKER TIMEOUT (pid:17)\n[2024-11-05 09:26:00 +0000] [16] [ERROR] Worker (pid:17) was sent SIGKILL! ' +
        'Perhaps out of memory?',
    ],
    nearMisses: ['[ERROR] Worker (pid:414078) was sent SIGKILL! Perhaps out of memory?'],
  },
  {
    id: 'server.worker-sigkill',
    family: 'server',
    mechanism: 'memory-limit',
    needles: ['sigkill', 'signal 9'],
    patterns: [
      re('Worker \\(pid:\\d+\\) was sent SIGKILL! Perhaps out of memory\\?'),
      re('Worker with pid \\d+ was terminated due to signal 9\\b'),
      re('worker \\d+ \\(pid: \\d+\\) died, killed by signal 9\\b'),
      re('Worker exited prematurely: signal 9 \\(SIGKILL\\)'),
      re('child \\d+ exited on signal 9 \\(SIGKILL\\)'),
      re('worker process \\d+ exited on signal 9\\b'),
    ],
    source:
      'gunicorn arbiter.py ("Worker (pid:%s) was sent SIGKILL! Perhaps out of memory?", "Worker with pid %s was terminated due to signal %s"), uWSGI ' +
      '("worker %d (pid: %d) died, killed by signal %d"), Celery billiard (WorkerLostError "signal 9 (SIGKILL)"), php-fpm ("child %d exited on signal ' +
      '%d (%s)"), nginx ("worker process %P exited on signal %d"); the uWSGI, Celery, php-fpm and nginx examples are in their formats. Lines (GitHub): ' +
      'benoitc/gunicorn#2419, jlab-sensing/ENTS-backend#82, benoitc/gunicorn#2475',
    examples: [
      '[2020-09-12 05:37:52 +0000] [18] [ERROR] Worker (pid:21) was sent SIGKILL! Perhaps out of memory?',
      '[WARNING] Worker with pid 55 was terminated due to signal 9',
      'DAMN ! worker 1 (pid: 23) died, killed by signal 9 :( trying respawn ...',
      'billiard.exceptions.WorkerLostError: Worker exited prematurely: signal 9 (SIGKILL) Job: 12.',
      '[29-Nov-2026 01:00:00] WARNING: [pool www] child 123 exited on signal 9 (SIGKILL) after 12.345678 seconds from start',
      '2026/11/29 01:00:00 [alert] 1#1: worker process 31 exited on signal 9',
    ],
  },
  {
    id: 'signal.sigbus',
    family: 'signal',
    mechanism: 'bus-error',
    needles: ['bus error', 'sigbus'],
    patterns: [re('\\bBus error\\b'), re('\\bSIGBUS\\b')],
    unless: /insufficient shared memory/i,
    source:
      'glibc/musl strsignal(SIGBUS) "Bus error", Go runtime "SIGBUS: bus error"; the example is in the format of a shell\'s job report (as the real ' +
      'Segmentation fault one of Dadoum/Provision#39): no real paste was collected. Near miss kubeflow/pipelines#6510',
    examples: ['/usr/local/bin/entrypoint.sh: line 3:    10 Bus error               (core dumped) python train.py'],
    nearMisses: ['ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).'],
  },
  {
    id: 'signal.native-crash',
    family: 'signal',
    mechanism: 'native-crash',
    needles: ['segmentation fault', 'sigsegv', 'double free', 'aborted', 'segmentation violation', 'exit code 139'],
    patterns: [
      re('Segmentation fault'),
      re('SIGSEGV: segmentation violation'),
      re('\\bSIGSEGV \\(0xb\\) at pc='),
      re('\\bexit code 139\\b'),
      re('double free or corruption'),
      re('\\bAborted\\s+\\(core dumped\\)'),
    ],
    // Go prints its panic first ("invalid memory address or nil pointer dereference", exit 2) and the signal after it, in brackets.
    unless: /nil pointer dereference|^\[signal SIG\w+: /i,
    source:
      'glibc/musl strsignal(SIGSEGV, SIGABRT); Go runtime/signal_unix.go; HotSpot hs_err header; glibc malloc (the double free example is in its format). ' +
      'Lines (GitHub): Dadoum/Provision#39, n4ze3m/dialoqbase#90, deephaven/deephaven-core#6608; near miss rancher/opni#402',
    examples: [
      '/opt/docker-entrypoint.sh: line 17:     9 Segmentation fault      (core dumped) /opt/anisette_server',
      'Segmentation fault',
      'error Command failed with exit code 139.',
      '#  SIGSEGV (0xb) at pc=0x00007fe739c4be80, pid=1, tid=1072',
      'free(): double free or corruption (out)',
    ],
    nearMisses: ['[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1b5140d]'],
  },
]);

// Exported for tests that need the SIGILL / JVM helpers' behaviour.
export const testing = { jvmHeap };
