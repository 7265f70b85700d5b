// Log pipelines and workflow platforms as their pods fail: a log shipper (Fluent Bit, Fluentd) that cannot read the node's
// logs or keep its offsets and buffers, Airflow on a metadata database nobody migrated or a Fernet key that changed, Superset
// on its placeholder SECRET_KEY. Lines that carry an errno text (Vector's data_dir, Promtail's positions file, the Thanos
// compactor's disk) are read by the errno signatures already; this file names the lines that carry none.
import { ALWAYS_READ_ONLY, envValue, mountOf, runAsUser, selinuxNodeOs } from '../context.js';
import { data, mechanisms, mountFact, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** The directory part of a glob (`/var/log/containers/*.log` → `/var/log/containers`): what the DaemonSet must mount. */
function globDir(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const head = path.split(/[*?[{]/)[0] ?? path;
  const dir = head.endsWith('/') ? head.slice(0, -1) : head.slice(0, head.lastIndexOf('/'));
  return dir || '/';
}

/** The pod runs the container as a non-root user (runAsUser other than 0). */
function nonRoot(ctx: ReadingContext): number | undefined {
  const uid = runAsUser(ctx);
  return uid !== undefined && uid !== 0 ? uid : undefined;
}

/** The line comes from an Airflow container: its image or an AIRFLOW__ env var says so. */
function isAirflow(ctx: ReadingContext): boolean {
  return /airflow/i.test(ctx.container?.image ?? '') || (ctx.container?.env ?? []).some((e) => e.name.startsWith('AIRFLOW__'));
}

function fernetKeyNote(ctx: ReadingContext): string {
  const e = (ctx.container?.env ?? []).find((v) => v.name === 'AIRFLOW__CORE__FERNET_KEY');
  if (!e) return 'The container sets no AIRFLOW__CORE__FERNET_KEY, so the key comes from airflow.cfg or a generated default.';
  const ref = e.valueFrom?.secretKeyRef;
  return ref
    ? `The container reads AIRFLOW__CORE__FERNET_KEY from Secret ${ref.name} (key ${ref.key}).`
    : 'The container sets AIRFLOW__CORE__FERNET_KEY literally.';
}

export const MECHANISMS = mechanisms([
  {
    id: 'node-logs-unreadable',
    kind: 'permission',
    resource: "read access to the node's log directories",
    doc:
      "A log shipper running as a DaemonSet reads the node's container logs through hostPath mounts (/var/log/containers holds symlinks into " +
      '/var/log/pods, and on Docker nodes on into /var/lib/docker/containers). It reports a directory it could not list: the directory is not ' +
      'mounted, or the container may not read it (a non-root user, an SELinux label on the host).',
    variants: [
      {
        id: 'not-mounted',
        when: (ctx) => {
          const dir = globDir(ctx.groups.path);
          return !!dir && !mountOf(ctx, dir)?.kind && { path: ctx.groups.path ?? dir, dir };
        },
        summary: 'the log shipper scans {{path}}, but {{dir}} is not mounted from the node',
        explain:
          "The shipper tails {{path}}, and no volume of the container covers {{dir}}: it sees the image's own (empty or missing) directory, not the " +
          "node's logs. The symlinks in /var/log/containers point into /var/log/pods, so both must be mounted (and /var/lib/docker/containers on " +
          'Docker nodes).',
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes[].hostPath + {{containerPath}}.volumeMounts',
            change: 'mount the hostPath /var/log (or /var/log/containers and /var/log/pods) at the same path, read-only',
          },
          { place: 'app', path: 'the tail input Path (Fluent Bit) / __path__ (Promtail)', change: 'or point it at the directory the DaemonSet mounts' },
        ],
      },
      {
        id: 'selinux',
        when: (ctx) => {
          const os = selinuxNodeOs(ctx);
          const dir = globDir(ctx.groups.path);
          return !!os && !ctx.container?.securityContext?.privileged && { os, path: ctx.groups.path ?? dir ?? 'the log path', dir: dir ?? 'the directory' };
        },
        summary: 'the log shipper may not list {{dir}} on {{node}}: likely its SELinux label',
        explain:
          "{{node}} runs {{os}}, which enforces SELinux: the node's log directories keep their host labels (var_log_t, container_log_t), and a " +
          "container's process (container_t) may not read them whatever their Unix mode. The kubelet never relabels a hostPath.",
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.seLinuxOptions.type',
            change: 'run the shipper as spc_t (what the OpenShift logging collector does), or set privileged: true',
          },
          { place: 'node', path: 'ausearch -m avc on {{node}}', change: 'to confirm: the denial names the directory and the two labels' },
        ],
      },
      {
        id: 'non-root',
        when: (ctx) => {
          const uid = nonRoot(ctx);
          const dir = globDir(ctx.groups.path);
          return uid !== undefined && { uid, path: ctx.groups.path ?? dir ?? 'the log path', dir: dir ?? 'the directory' };
        },
        summary: 'the log shipper runs as UID {{uid}} and may not list {{dir}}',
        explain:
          'The container runs as UID {{uid}}, and the kubelet writes container logs as root: the directories under /var/log/pods are root-owned and ' +
          'the log files mode 0640, so a non-root shipper cannot list or read them through the hostPath (fsGroup does not apply to a hostPath).',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: 'run the shipper as 0 (what the Fluent Bit and Promtail charts do)' },
          {
            place: 'pod',
            path: '{{containerPath}}.securityContext.capabilities.add',
            change: 'or keep the non-root user and add DAC_READ_SEARCH (read any file) with a matching privilege policy',
          },
        ],
        facts: (ctx, d) => [specFact(ctx, 'securityContext', `runAsUser: ${d.uid}`)],
      },
      {
        id: 'general',
        when: (ctx) => data({ path: ctx.groups.path, dir: globDir(ctx.groups.path) }),
        summary: 'the log shipper could not list {{dir}}',
        explain:
          'The shipper could not read a directory on the way to {{path}}: the hostPath mount, the user it runs as, and the SELinux/AppArmor profile ' +
          'decide. A glob on a directory that rotates away while scanned reports the same now and then; a shipper that reports it at every start is denied.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes[].hostPath + {{containerPath}}.volumeMounts',
            change: "mount the node's log directories at the path the input reads",
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: 'run the shipper as root, as the upstream DaemonSets do' },
        ],
      },
    ],
  },
  {
    id: 'collector-state-unwritable',
    kind: 'permission',
    resource: 'a writable file for the shipper to keep its read offsets',
    doc:
      'A log shipper keeps how far it read each file in a small database (Fluent Bit DB, Fluentd pos_file, Promtail positions.yaml) so a ' +
      'restart neither loses nor resends lines. Fluent Bit stops its input when it cannot open that SQLite file: its directory is read-only or ' +
      'not writable by its user.',
    variants: [
      {
        id: 'read-only-mount',
        when: (ctx) => {
          const path = ctx.groups.path;
          const m = mountOf(ctx, path);
          if (!path || !m || !(m.mount.readOnly || (m.kind && ALWAYS_READ_ONLY.has(m.kind)))) return false;
          return { path, volume: m.mount.name, mountPath: m.mount.mountPath };
        },
        summary: 'Fluent Bit cannot create its offsets database {{path}}: volume {{volume}} is mounted read-only',
        explain:
          'Fluent Bit keeps the read offsets of its inputs in the SQLite file {{path}}, which lies on volume "{{volume}}" mounted read-only at ' +
          "{{mountPath}} (reading the node's logs needs no write access, so the mount was made read-only). SQLite cannot create the file or its journal there.",
        knobs: [
          {
            place: 'app',
            path: 'the input DB key (e.g. DB /var/fluent-bit/state/flb_kube.db)',
            change: 'keep the database on its own writable hostPath, apart from the read-only log mount',
          },
          { place: 'pod', path: '{{containerPath}}.volumeMounts[{{volume}}].readOnly', change: 'or mount {{mountPath}} writable' },
        ],
        facts: (ctx, d) => mountFact(ctx, String(d.path)),
      },
      {
        id: 'read-only-root',
        when: (ctx) => {
          const path = ctx.groups.path;
          return !!path && !mountOf(ctx, path)?.kind && ctx.container?.securityContext?.readOnlyRootFilesystem === true && { path };
        },
        summary: 'Fluent Bit cannot create its offsets database {{path}} on a read-only root filesystem',
        explain:
          'Fluent Bit keeps the read offsets of its inputs in the SQLite file {{path}}, which is on no volume, and the container runs with ' +
          'readOnlyRootFilesystem: true.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes[].hostPath + {{containerPath}}.volumeMounts',
            change: "mount a writable hostPath at the database's directory (it survives restarts; an emptyDir would resend every log after a reschedule)",
          },
        ],
        facts: (ctx) => [specFact(ctx, 'securityContext', 'readOnlyRootFilesystem: true')],
      },
      {
        id: 'non-root',
        when: (ctx) => {
          const uid = nonRoot(ctx);
          return uid !== undefined && { uid, path: ctx.groups.path ?? 'its database file' };
        },
        summary: 'Fluent Bit runs as UID {{uid}} and cannot create its offsets database {{path}}',
        explain:
          'Fluent Bit keeps the read offsets of its inputs in the SQLite file {{path}}, and runs as UID {{uid}}: a hostPath directory keeps the ' +
          "node's owner (root), and fsGroup does not apply to it.",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: 'run as 0, or' },
          { place: 'pod', path: 'spec.initContainers', change: "give the database's host directory to UID {{uid}} from a root init container" },
        ],
        facts: (ctx, d) => [specFact(ctx, 'securityContext', `runAsUser: ${d.uid}`)],
      },
      {
        id: 'general',
        when: (ctx) => data({ path: ctx.groups.path ?? 'its database file' }),
        summary: 'Fluent Bit cannot open its offsets database {{path}}',
        explain:
          'Fluent Bit keeps the read offsets of its inputs in the SQLite file {{path}} and could not open or create it: its directory is missing, ' +
          'read-only or owned by another user, or another process holds it (two pods sharing one hostPath file).',
        knobs: [
          { place: 'app', path: 'the input DB key', change: 'point it at a writable directory that one pod per node owns' },
          { place: 'pod', path: 'spec.volumes[].hostPath + {{containerPath}}.volumeMounts', change: 'mount that directory writable' },
        ],
      },
    ],
  },
  {
    id: 'output-buffer-full',
    kind: 'resource',
    resource: "the output buffer's size limit",
    doc:
      'A log router buffers records before an output sends them. When the destination is down or slower than the input, the buffer grows to ' +
      'its total limit and new records are refused (Fluentd: BufferOverflowError), then dropped or blocking the input per overflow_action.',
    variants: [
      {
        id: 'sized-empty-dir',
        when: (ctx) => {
          const v = (ctx.pod?.spec?.volumes ?? []).find((x) => x.emptyDir?.sizeLimit !== undefined);
          return !!v && { volume: v.name, sizeLimit: String(v.emptyDir?.sizeLimit) };
        },
        summary: "Fluentd's buffer is full: the output does not keep up and volume {{volume}} allows {{sizeLimit}}",
        explain:
          "Fluentd's output buffer reached its total_limit_size and refuses new chunks: the destination is down, refusing, or slower than the input. " +
          'A file buffer on emptyDir "{{volume}}" (sizeLimit {{sizeLimit}}) must have a total_limit_size below that size, or the kubelet evicts the ' +
          'pod before Fluentd sees the limit (the default for a file buffer is 64GB).',
        knobs: [
          { place: 'app', path: '<buffer> total_limit_size', change: 'set it below {{sizeLimit}}, with overflow_action block or drop_oldest_chunk' },
          { place: 'pod', path: 'spec.volumes[{{volume}}].emptyDir.sizeLimit', change: 'or give the buffer more room' },
          { place: 'app', path: "the output's destination", change: 'and find why it does not accept: the retries logged before the overflow name it' },
        ],
      },
      {
        id: 'general',
        summary: "the log router's output buffer is full: the destination does not keep up",
        explain:
          "The output buffer reached its total limit (Fluentd's total_limit_size: 512MB for a memory buffer, 64GB for a file buffer) and refuses " +
          'new records: the destination is down, refusing, or slower than the input. Raising the limit only buys time while the destination is down.',
        knobs: [
          { place: 'app', path: "the output's destination", change: 'find why it does not accept: the retry errors logged before the overflow name it' },
          {
            place: 'app',
            path: '<buffer> total_limit_size / overflow_action / flush_thread_count',
            change: 'size the buffer for an outage, and flush in parallel',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.resources.limits.memory',
            change: 'a memory buffer counts against it: keep the limit above total_limit_size',
          },
        ],
      },
    ],
  },
  {
    id: 'schema-not-migrated',
    kind: 'setting',
    resource: "a metadata database migrated to the app's version",
    doc:
      "Airflow's components (scheduler, webserver, triggerer, workers) refuse to start until the metadata database holds the schema of their " +
      'version; the migration is a separate step (airflow db migrate, formerly db init / db upgrade) that a Helm hook or Job runs.',
    variants: [
      {
        id: 'never-initialized',
        when: (ctx) => /need to initialize the database/i.test(ctx.line),
        summary: "Airflow's metadata database was never migrated",
        explain:
          'The component found no Airflow tables in the metadata database named by its sql_alchemy_conn: the migration step never ran against this ' +
          "database (the chart's migrate-database Job is disabled or was skipped, as Helm hooks are under helm template / Argo CD without hooks), " +
          'or the connection string points at another, empty database.',
        knobs: [
          {
            place: 'cluster',
            path: 'the Helm values migrateDatabaseJob.enabled (apache-airflow) / airflow.dbMigrations.enabled (airflow-helm)',
            change: 'enable the migration Job, with useHelmHooks: false when Argo CD or helm template deploys the chart',
          },
          { place: 'pod', path: 'spec.initContainers', change: 'or run airflow db migrate with the same image first' },
          { place: 'pod', path: '{{containerPath}}.env AIRFLOW__DATABASE__SQL_ALCHEMY_CONN', change: 'and check it names the database the Job migrated' },
        ],
      },
      {
        id: 'older-schema',
        summary: "Airflow's metadata database has the schema of an older version than the image",
        explain:
          "The metadata database holds an older Airflow version's schema than the image: the image was upgraded (or a provider " +
          'package pulled in a newer Airflow) and the migration did not run with the new image before the components started.',
        knobs: [
          {
            place: 'cluster',
            path: 'the Helm values migrateDatabaseJob.enabled (apache-airflow) / airflow.dbMigrations.enabled (airflow-helm)',
            change: 'run the migration Job with the new image on every upgrade',
          },
          { place: 'image', path: 'the image (extraPipPackages, requirements)', change: 'pin apache-airflow so installed packages cannot upgrade it' },
        ],
      },
    ],
  },
  {
    id: 'encryption-key-mismatch',
    kind: 'setting',
    resource: 'the key that encrypted the stored secrets',
    doc:
      'The app stores secrets encrypted (Airflow connections and variables, with the Fernet key) and decrypts them with the key it is given now. ' +
      'A key that differs from the one used to encrypt (regenerated on each install or helm upgrade, or different between components) cannot ' +
      'decrypt them: cryptography.fernet.InvalidToken.',
    variants: [
      {
        id: 'airflow-webserver-secret-key',
        when: (ctx) => /same 'secret_key' configured in 'webserver' section/i.test(ctx.line),
        summary: "Airflow's components do not share one [webserver] secret_key",
        explain:
          'The webserver signs its requests for task logs with [webserver] secret_key, and the worker (or triggerer) serving the log checks the ' +
          'signature with its own key: the keys differ, so it answers 403. A component without the setting generates a random key at each start, ' +
          'so every pod has its own unless they all read one Secret (the signature also expires when the clocks of the nodes disagree).',
        knobs: [
          {
            place: 'cluster',
            path: 'the Helm value webserverSecretKeySecretName (apache-airflow) / airflow.webserverSecretKey (airflow-helm)',
            change: 'keep the key in one Secret that every component reads',
          },
          {
            place: 'pod',
            path: '{{containerPath}}.env[].valueFrom.secretKeyRef AIRFLOW__WEBSERVER__SECRET_KEY',
            change: 'give the webserver, scheduler, workers and triggerer the same Secret',
          },
        ],
      },
      {
        id: 'airflow',
        when: (ctx) => isAirflow(ctx) && { keyNote: fernetKeyNote(ctx) },
        summary: "Airflow's Fernet key is not the one that encrypted its connections and variables",
        explain:
          'Airflow decrypts connections and variables with its Fernet key, and the stored values were encrypted with another key: the chart made a ' +
          'new random key (each helm upgrade or Argo CD render without fernetKeySecretName), or the scheduler, webserver and worker pods are not ' +
          'given the same one. {{keyNote}}',
        knobs: [
          {
            place: 'cluster',
            path: 'the Helm value fernetKeySecretName (apache-airflow) / airflow.fernetKey (airflow-helm)',
            change: 'keep the key in one Secret you create, so upgrades reuse it',
          },
          { place: 'pod', path: '{{containerPath}}.env[].valueFrom.secretKeyRef AIRFLOW__CORE__FERNET_KEY', change: 'give every component that same Secret' },
          { place: 'app', path: 'airflow rotate-fernet-key', change: 'to change keys, set "new,old" and rotate, instead of replacing the key' },
        ],
      },
      {
        id: 'general',
        summary: 'the encryption key is not the one that encrypted the stored data',
        explain:
          'The app decrypts stored values with a Fernet key that differs from the one they were encrypted with: the key was regenerated or ' +
          'differs between the pods that share the data.',
        knobs: [{ place: 'pod', path: '{{containerPath}}.env[].valueFrom.secretKeyRef', change: 'give every pod the original key from one Secret' }],
      },
    ],
  },
  {
    id: 'app-secret-key-invalid',
    kind: 'setting',
    resource: 'a secret key of its own',
    doc:
      'The app refuses the secret key it is given: the placeholder shipped in its default config (Superset in production), or a value that is ' +
      "not a key at all (Airflow's Fernet key must be 32 url-safe base64-encoded bytes).",
    variants: [
      {
        id: 'superset-default',
        when: (ctx) => /insecure SECRET_KEY|Default SECRET_KEY was detected/i.test(ctx.line) && { flaskDebug: envValue(ctx, 'FLASK_DEBUG') ?? 'not set' },
        summary: 'Superset refuses to start with its default SECRET_KEY',
        explain:
          'Superset signs sessions and encrypts database passwords with SECRET_KEY, and since 2.1 it refuses to start outside Flask debug mode ' +
          '(FLASK_DEBUG {{flaskDebug}}) while SECRET_KEY is the placeholder from its default config: superset_config.py does not override it, or ' +
          'reads it from an env var the pod does not set.',
        knobs: [
          {
            place: 'cluster',
            path: 'the Helm value extraSecretEnv.SUPERSET_SECRET_KEY (superset chart)',
            change: "set a random key (openssl rand -base64 42); the chart's superset_config.py reads it",
          },
          { place: 'pod', path: '{{containerPath}}.env[].valueFrom.secretKeyRef SUPERSET_SECRET_KEY', change: 'or pass it from a Secret yourself' },
          {
            place: 'app',
            path: 'superset_config.py PREVIOUS_SECRET_KEY',
            change: 'on an existing install, set the old key there and run superset re-encrypt-secrets',
          },
        ],
      },
      {
        id: 'fernet-malformed',
        when: (ctx) => /Could not create Fernet object/i.test(ctx.line),
        summary: "Airflow's Fernet key is not a valid key",
        explain:
          'Airflow builds its Fernet cipher from the configured key, which must be 32 url-safe base64-encoded bytes (44 characters), and the value ' +
          'given is not: a placeholder, a truncated value, or a key base64-encoded twice (a Secret stringData vs data mix-up).',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env[].valueFrom.secretKeyRef AIRFLOW__CORE__FERNET_KEY',
            change: 'store a key from python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"',
          },
        ],
      },
      {
        id: 'general',
        summary: 'the app refuses its secret key',
        explain: 'The app refuses to start with the secret key it is given: the default placeholder, or a value of the wrong form.',
        knobs: [{ place: 'pod', path: '{{containerPath}}.env[].valueFrom.secretKeyRef', change: 'pass a generated key from a Secret' }],
      },
    ],
  },
  {
    id: 'memberlist-advertise-address',
    kind: 'setting',
    resource: 'an address to advertise to the gossip ring',
    doc:
      'Components that form a hash ring over gossip (hashicorp/memberlist, as Grafana Mimir and Tempo use it through dskit) advertise one of ' +
      "their own addresses to their peers. Without an explicit address they pick a private (RFC 1918) address of the pod's interfaces, and " +
      'a pod network outside those ranges (CGNAT 100.64.0.0/10, public or IPv6-only pod CIDRs) leaves them none.',
    variants: [
      {
        id: 'dskit',
        when: (ctx) =>
          (/memberlist-kv/i.test(ctx.line) || /mimir|tempo|cortex/i.test(ctx.container?.image ?? '')) && { podIp: envValue(ctx, 'POD_IP') ?? 'not set' },
        summary: 'the memberlist ring finds no private address to advertise on this pod network',
        explain:
          "The memberlist-kv module (the gossip ring every component joins) starts only with an address to advertise, and the pod's interfaces " +
          'carry no RFC 1918 address: the pod network uses another range. Every module that depends on the ring then fails with it. ' +
          'The env var POD_IP is {{podIp}}.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env POD_IP (valueFrom.fieldRef status.podIP)',
            change: 'pass the pod IP, and use it as -memberlist.advertise-addr=$(POD_IP) (or memberlist.advertise_addr with -config.expand-env=true)',
          },
          { place: 'app', path: 'memberlist.advertise_addr', change: 'or set the advertised address in the config the Helm chart renders (structuredConfig)' },
        ],
      },
      {
        id: 'general',
        summary: 'memberlist finds no private address to advertise on this pod network',
        explain:
          "memberlist picks a private (RFC 1918) address of the pod's interfaces to advertise when none is configured, and the pod has none: " +
          'its network uses another range.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.env (valueFrom.fieldRef status.podIP)',
            change: 'pass the pod IP and configure it as the advertised address',
          },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'server.fluent-bit-tail-read-error',
    family: 'server',
    mechanism: 'node-logs-unreadable',
    needles: ['[input:tail', '[in_tail]'],
    patterns: [re('\\[(?:input:tail[:\\w.-]*|in_tail)\\] read error, check permissions: (?<path>/\\S+)')],
    source:
      'fluent-bit plugins/in_tail/tail_scan_glob.c (glob(3) GLOB_ABORTED: "read error, check permissions: %s"). Lines (GitHub): fluent/fluent-bit#8469, ' +
      'fluent/fluent-bit#2374, fluent/fluent-bit#5501, fluent/fluent-bit#7085, fluent/helm-charts#34',
    examples: [
      '[2024/02/08 09:29:20] [error] [input:tail:restic] read error, check permissions: /var/log/containers/restic*',
      '[2020/07/21 02:58:49] [error] [in_tail] read error, check permissions: /var/lib/rancher/rke/log/kube*.log',
      '[2022/05/24 00:46:18] [error] [input:tail:tail.0] read error, check permissions: /var/log/containers/*/custom*.log',
      '[error] [in_tail] read error, check permissions: /var/log/containers/*.log',
    ],
    nearMisses: [
      // The line after it: a warning, not the cause.
      '[2022/05/25 09:51:58] [ warn] [input:tail:tail.0] error scanning path: /var/log/containers/*/custom*.log',
      // A glob with no match at all is only a debug line.
      '[2021/02/12 02:06:47] [debug] [in_tail] Cannot read info from: /var/log/containers/*.log',
    ],
  },
  {
    id: 'server.fluent-bit-sqldb',
    family: 'server',
    mechanism: 'collector-state-unwritable',
    needles: ['[sqldb]', 'could not open/create database'],
    patterns: [re('\\[sqldb\\] cannot open database (?<path>/\\S+)'), re("\\[input:[\\w:.-]+\\] could not open/create database(?: '(?<path>/[^']+)')?")],
    source:
      'fluent-bit src/flb_sqldb.c ("cannot open database %s"), plugins/in_tail/tail_db.c and in_systemd ("could not open/create database"). ' +
      'Lines (GitHub): fluent/fluent-bit#5180, fluent/fluent-bit-kubernetes-logging#97, fluent/fluent-bit#4692, fluent/fluent-operator#851, ' +
      'fluent/fluent-operator#1353',
    examples: [
      '[2022/03/25 09:51:42] [error] [sqldb] cannot open database /var/log/flb_kube.db',
      '[2022/01/13 19:32:37] [error] [sqldb] cannot open database /app/flb.db',
      '[error] [sqldb] cannot open database /fluent-bit/tail/systemd.db',
      "[error] [input:systemd:systemd.0] could not open/create database '/fluent-bit/tail/systemd.db'",
      '[2022/03/25 09:51:42] [error] [input:tail:tail.0] could not open/create database',
    ],
    nearMisses: ['[2018/12/14 06:09:27] [error] [sqldb] error=database is locked'],
  },
  {
    id: 'server.fluentd-buffer-overflow',
    family: 'server',
    mechanism: 'output-buffer-full',
    needles: ['buffer space has too many data', 'overflowerror'],
    patterns: [re('BufferOverflowError(?::| error=)\\s*"?buffer space has too many data'), re('buffer space has too many data')],
    source:
      'fluentd lib/fluent/plugin/buffer.rb (BufferOverflowError, "buffer space has too many data"). Lines (GitHub): fluent/fluentd#1218, ' +
      'fluent/fluentd#2411, fluent/fluentd#2067',
    examples: [
      '2016-09-08 17:41:16 +0000 [warn]: emit transaction failed: error_class=Fluent::Plugin::Buffer::BufferOverflowError error="buffer ' +
        'space has too many data" tag="fluent.warn"',
      '2016-09-08 17:41:16 +0000 [error]: failed to emit fluentd\'s log event tag="fluent.warn" ' +
        'event={"message"=>"failed to write data into buffer by buffer overflow"} ' +
        'error_class=Fluent::Plugin::Buffer::BufferOverflowError error="buffer space has too many data"',
    ],
    nearMisses: [
      // A single record larger than a chunk: chunk_limit_size, not the total.
      '2026-08-04 16:56:44 +0530 [warn]: #0 fluent/log.rb:393:: send an error event stream to @ERROR: ' +
        'error_class=Fluent::Plugin::Buffer::BufferChunkOverflowError ' +
        'error="a 6291511 bytes record (nth: 0) is larger than buffer chunk limit size (7)',
    ],
  },
  {
    id: 'server.airflow-db-not-migrated',
    family: 'server',
    mechanism: 'schema-not-migrated',
    needles: ['you need to initialize the database', 'you need to upgrade the database'],
    patterns: [
      re(
        "You need to (?:initialize|upgrade) the database\\. Please run [`'](?:airflow (?:db (?:init|upgrade|migrate)|initdb|upgradedb))[`']\\.?",
        '(?:\\s*Make sure the command is run using Airflow version (?<version>[\\w.+-]+?)\\.?$)?',
      ),
    ],
    source:
      'apache-airflow airflow/utils/db.py check_and_run_migrations / airflow/cli (the "You need to %s the database. Please run `airflow db %s`. ' +
      'Make sure the command is run using Airflow version %s." message). Lines (GitHub): airflow-helm/charts#699, READMEs of docker-compose ' +
      'and Heroku Airflow deployments quoting the scheduler log',
    examples: [
      'ERROR: You need to initialize the database. Please run `airflow db init`. Make sure the command is run using Airflow version 2.7.1.',
      'ERROR: You need to initialize the database. Please run `airflow db migrate`. Make sure the command is run using Airflow version 3.0.3.',
      'ERROR: You need to initialize the database. Please run `airflow db init`.',
      'ERROR: You need to upgrade the database. Please run `airflow db upgrade`. Make sure the command is run using Airflow version 2.4.2.',
      "ERROR: You need to upgrade the database. Please run 'airflow db upgrade'. Make sure the command is run using Airflow version 2.5.1.",
    ],
  },
  {
    id: 'runtime.fernet-invalid-token',
    family: 'runtime',
    mechanism: 'encryption-key-mismatch',
    needles: ['fernet.invalidtoken'],
    patterns: [re('cryptography\\.fernet\\.InvalidToken\\b')],
    source:
      'pyca/cryptography src/cryptography/fernet.py (InvalidToken raised when a token does not verify under the key). Lines (GitHub): ' +
      'apache/airflow#16313, apache/airflow#18127, astronomer/astronomer#367',
    examples: ['cryptography.fernet.InvalidToken'],
  },
  {
    id: 'server.superset-insecure-secret-key',
    family: 'server',
    mechanism: 'app-secret-key-invalid',
    needles: ['secret_key'],
    patterns: [re('Refusing to start due to insecure SECRET_KEY')],
    source:
      'apache/superset superset/initialization (check_secret_key, apache/superset#23186). Lines (GitHub): apache/superset#24201, apache/superset#23288, ' +
      'apache/superset#29577',
    examples: ['Refusing to start due to insecure SECRET_KEY'],
    nearMisses: [
      // The banner before it, printed in debug mode too, where Superset starts anyway.
      'A Default SECRET_KEY was detected, please use superset_config.py to override it.',
    ],
  },
  {
    id: 'server.airflow-fernet-malformed',
    family: 'server',
    mechanism: 'app-secret-key-invalid',
    needles: ['could not create fernet object'],
    patterns: [re('Could not create Fernet object: (?<reason>.+)$')],
    source:
      'apache-airflow airflow/models/crypto.py get_fernet ("Could not create Fernet object: {value_error}"). Lines (GitHub): ' +
      'xnuinside/airflow_in_docker_compose#12',
    examples: [
      'airflow.exceptions.AirflowException: Could not create Fernet object: Invalid base64-encoded string: number of data characters ' +
        '(53) cannot be 1 more than a multiple of 4',
    ],
  },
  {
    id: 'runtime.memberlist-advertise',
    family: 'runtime',
    mechanism: 'memberlist-advertise-address',
    needles: ['failed to get final advertise address', 'no private ip address found'],
    patterns: [re('Failed to get final advertise address: no private IP address found, and explicit IP not provided')],
    source:
      'hashicorp/memberlist memberlist.go refreshAdvertise ("Failed to get final advertise address: %v", "no private IP address found, and explicit ' +
      'IP not provided"), as dskit modules report it. Lines (GitHub): kubefin/kubefin#44 (Mimir in CrashLoopBackOff)',
    examples: [
      'ts=2023-10-31T08:36:21.539569082Z caller=mimir.go:802 level=error msg="module failed" module=store-queryable err="failed to start store-queryable, ' +
        'because it depends on module memberlist-kv, which has failed: failed to create memberlist: Failed to get final advertise address: ' +
        'no private IP address found, and explicit IP not provided"',
    ],
  },
  {
    id: 'server.airflow-webserver-secret-key',
    family: 'server',
    mechanism: 'encryption-key-mismatch',
    needles: ["'secret_key' configured in 'webserver'"],
    patterns: [re("have the same 'secret_key' configured in 'webserver' section")],
    source:
      'apache-airflow airflow/utils/log/file_task_handler.py (apache/airflow#17410: the hint printed when a worker refuses the log request). ' +
      'Lines (GitHub): apache/airflow#26660, bitnami/bitnami-docker-airflow#124, readybuilderone/serverless-airflow#3',
    examples: [
      "*** !!!! Please make sure that all your Airflow components (e.g. schedulers, webservers and workers) have the same 'secret_key' configured in " +
        "'webserver' section !!!!!",
      "*** !!!! Please make sure that all your Airflow components (e.g. schedulers, webservers and workers) have the same 'secret_key' configured in " +
        "'webserver' section and time is synchronized on all your machines (for example with ntpd) !!!!!",
    ],
  },
  {
    id: 'server.fluent-bit-kube-token',
    family: 'server',
    mechanism: 'service-account-token-missing',
    needles: ['/var/run/secrets/kubernetes.io/serviceaccount/'],
    patterns: [
      re('\\[filter:kubernetes[:\\w.-]*\\] cannot open (?<path>/var/run/secrets/kubernetes\\.io/serviceaccount/(?:namespace|token))'),
      re('\\[TLS\\] Invalid CA file: (?<path>/var/run/secrets/kubernetes\\.io/serviceaccount/ca\\.crt)'),
    ],
    source:
      'fluent-bit plugins/filter_kubernetes/kube_meta.c ("cannot open %s" for the namespace and token files, then "Fluent Bit not running in a POD") ' +
      'and src/tls ("Invalid CA file: %s"). Lines (GitHub): fluent/fluent-bit#2446 (fixed by automountServiceAccountToken on the DaemonSet)',
    examples: [
      '[2020/11/09 21:13:56] [error] [TLS] Invalid CA file: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
      '[2020/11/09 21:13:56] [ warn] [filter:kubernetes:kubernetes.0] cannot open /var/run/secrets/kubernetes.io/serviceaccount/namespace',
    ],
  },
  {
    // Ruby (Fluentd) names the path after the C function that failed, closed by `>` or `"`: the errno reading alone finds no path there.
    id: 'runtime.ruby-errno-path-eacces',
    family: 'runtime',
    mechanism: 'fs-permission',
    needles: ['permission denied @ '],
    patterns: [re('Permission denied @ (?:rb_sysopen|dir_s_mkdir|dir_initialize|rb_file_s_\\w+|rb_io_\\w+) - (?<path>/[^\\s">]+)')],
    source:
      'Ruby error.c rb_syserr_fail_path ("%s @ %s - %s": strerror, function, path), as Fluentd prints it. Lines (GitHub): ' +
      'fluent/fluentd-kubernetes-daemonset#322, fluent/fluentd#4180, fluent/fluent-operator#735, fluent/fluentd#2271',
    examples: [
      '2019-06-10 16:44:01 +0000 [error]: unexpected error error_class=Errno::EACCES error=#<Errno::EACCES: Permission denied @ rb_sysopen - ' +
        '/var/log/fluentd-containers.log.pos>',
      '2023-05-15 14:13:11 +0000 [error]: #0 unexpected error error_class=Errno::EACCES error="Permission denied @ dir_s_mkdir - /var/log/fluentd"',
      '2019-01-21 08:28:33 +0000 [error]: #0 fluent/log.rb:362:error: unexpected error error_class=Errno::EACCES ' +
        'error="Permission denied @ rb_file_s_stat - /var/lib/docker/containers/733.log"',
    ],
  },
  {
    id: 'runtime.ruby-errno-path-erofs',
    family: 'runtime',
    mechanism: 'fs-read-only',
    needles: ['read-only file system @ '],
    patterns: [re('Read-only file system @ (?:rb_sysopen|dir_s_mkdir|rb_file_s_\\w+|rb_io_\\w+) - (?<path>/[^\\s">]+)')],
    source:
      'Ruby error.c rb_syserr_fail_path ("%s @ %s - %s"), the EROFS text of glibc (upstream.json). Lines (GitHub): a Jekyll build on a ' +
      'read-only mount (davidproctor.io blog post), a RubyCritic container run with a read-only source mount',
    examples: [
      'Read-only file system @ rb_sysopen - /src/coverage/.resultset.json.lock (Errno::EROFS)',
      'jekyll 3.4.0 | Error:  Read-only file system @ rb_sysopen - /media/david/Files/git/davidproctor.io/_site/category/art.html',
    ],
  },
]);
