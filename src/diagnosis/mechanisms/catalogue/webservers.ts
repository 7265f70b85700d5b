// Web servers, proxies and application servers: the fatal start-up lines of HAProxy, Varnish, Squid,
// PHP-FPM, Kong, Tomcat and WildFly that the shared errno and DNS readings miss or misread (Varnish's
// "Could not get socket :80: Permission denied" is a privileged port, not a file). Most map onto an
// existing mechanism (privileged-port, port-in-use, fs-permission, config-invalid); three are their own:
// a proxy that resolves its backends once at start, Kong's database migrations, and PHP-FPM's pool user.
import { dirOf, mountOf, runAsUser } from '../context.js';
import { data, mechanisms, mountFact, re, signatures, specFact } from '../define.js';
import type { ReadingContext } from '../types.js';

/** Whether the container or the pod asks for UID 0 outright (not just leaves the image's user). */
function asksForRoot(ctx: ReadingContext): boolean {
  return runAsUser(ctx) === 0;
}

/** The securityContext that set runAsUser: the container's wins over the pod's. */
function runAsUserField(ctx: ReadingContext): string {
  return ctx.container?.securityContext?.runAsUser !== undefined ? 'securityContext.runAsUser' : 'spec.securityContext.runAsUser';
}

/** The directory a socket goes in, and the volume mounted over a parent of it (an emptyDir at /run hides the image's /run/php). */
function socketDir(ctx: ReadingContext) {
  const path = ctx.groups.path;
  if (!path) return undefined;
  const dir = dirOf(path);
  // /var/run is a link to /run in most images: a volume at either covers both.
  const m = mountOf(ctx, dir) ?? mountOf(ctx, dir.replace(/^\/var\/run\//, '/run/'));
  const mp = m?.mount.mountPath.replace(/\/+$/, '');
  const covering = m && mp !== dir && mp !== dir.replace(/^\/var\/run\//, '/run/') && mp !== '/' ? m : undefined;
  return { dir, mount: covering };
}

/** Varnish's default working directory: varnishd keeps its shared memory (VSM) under it, named after the host. */
const VARNISH_WORKDIR = '/var/lib/varnish';

export const MECHANISMS = mechanisms([
  {
    id: 'varnish-vsm-unreachable',
    kind: 'setting',
    resource: "varnishd's shared memory, reachable from the container that reads it",
    doc:
      "varnishlog, varnishncsa, varnishstat and the Prometheus exporter read varnishd's shared memory (VSM) in its working directory " +
      '(-n, /var/lib/varnish/<host> by default). From another container of the pod they find it only on a volume both mount there, under the same ' +
      '-n name, readable by their user, and with a libvarnishapi of the same generation as varnishd.',
    variants: [
      {
        id: 'sidecar-without-workdir',
        when: (ctx) => (ctx.pod?.spec?.containers?.length ?? 0) > 1 && !mountOf(ctx, `${VARNISH_WORKDIR}/x`) && { dir: VARNISH_WORKDIR },
        summary: "a Varnish reader in a sidecar cannot see varnishd's shared memory: {{dir}} is not shared",
        explain:
          "This container reads varnishd's shared memory, but varnishd runs in another container of the pod, and {{dir}} is the image's own " +
          'directory in each container: nothing shares the working directory between them.',
        knobs: [
          {
            place: 'pod',
            path: 'spec.volumes + volumeMounts at {{dir}} in both containers',
            change: "mount one emptyDir (medium: Memory) at varnishd's working directory in the varnishd container and in {{containerPath}}",
          },
          { place: 'pod', path: '{{containerPath}}.args', change: "and pass the same -n as varnishd (the default name is the pod's hostname, shared by both)" },
        ],
      },
      {
        id: 'general',
        summary: "a Varnish reader cannot attach to varnishd's shared memory",
        explain:
          "The tool looked for varnishd's shared memory in its working directory and found no running varnishd there: another -n than varnishd's, " +
          "a user that may not read varnishd's files (its group is varnish), a tool built against another Varnish generation, or varnishd not started yet.",
        knobs: [
          { place: 'pod', path: '{{containerPath}}.args', change: 'pass the -n (working directory) varnishd runs with' },
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser / runAsGroup', change: "run as varnishd's user or group (varnish)" },
          { place: 'image', path: '{{containerPath}}.image', change: "use a reader built for varnishd's version (same libvarnishapi generation)" },
        ],
      },
    ],
  },
  {
    id: 'runtime-dir-missing',
    kind: 'setting',
    resource: 'a runtime directory under /run that a service manager would create',
    doc:
      "A server puts its UNIX socket (or PID file) in a directory under /run that the distribution's service unit or init script creates at boot " +
      '(/run is a tmpfs on a host). Started straight in a container, nothing creates it; or a volume mounted over /run hides the one the image has.',
    variants: [
      {
        id: 'hidden-by-volume',
        when: (ctx) => {
          const s = socketDir(ctx);
          return s?.mount !== undefined && { dir: s.dir, volume: s.mount.mount.name, mountPath: s.mount.mount.mountPath };
        },
        summary: '{{dir}}, where the server puts its socket, is hidden by volume {{volume}} at {{mountPath}}',
        explain:
          'The server creates its socket {{path}} in {{dir}}, which the image has, but volume {{volume}} is mounted at {{mountPath}} over it: the empty ' +
          'volume hides the directory, and the server does not create parent directories.',
        knobs: [
          { place: 'pod', path: '{{containerPath}}.volumeMounts[{{volume}}].mountPath', change: 'mount the volume at {{dir}} itself' },
          {
            place: 'pod',
            path: 'spec.initContainers',
            change: "or create {{dir}} on the volume (mkdir -p, owned by the server's user) before the server starts",
          },
        ],
        facts: (ctx) => mountFact(ctx, socketDir(ctx)?.dir),
      },
      {
        id: 'general',
        when: (ctx) => data({ dir: socketDir(ctx)?.dir }),
        summary: 'the directory of socket {{path}} does not exist',
        explain:
          'The server binds its UNIX socket {{path}}, and {{dir}} does not exist: on a host the service unit or init script creates it under the tmpfs /run ' +
          '(systemd RuntimeDirectory), and started directly in a container nothing does.',
        knobs: [
          { place: 'image', path: 'the Dockerfile', change: "create {{dir}} (RUN mkdir -p {{dir}}, owned by the server's user)" },
          { place: 'pod', path: '{{containerPath}}.volumeMounts', change: 'or mount an emptyDir at {{dir}}' },
          { place: 'app', path: "the server's listen / socket directive", change: 'or listen on a TCP port or a socket in a directory that exists (/tmp)' },
        ],
      },
    ],
  },
  {
    id: 'resolve-at-start',
    kind: 'dependency',
    resource: 'backend names that resolve while the proxy loads its configuration',
    doc:
      'A proxy resolves every backend name in its configuration once, while it loads it, and refuses to start if one does not resolve: a Service not ' +
      'created yet, a headless Service without ready pods (no A record), or a name from another platform (docker-compose) that no cluster DNS serves.',
    variants: [
      {
        id: 'squid-dns-tests',
        when: (ctx) => /ipcache_init/i.test(ctx.line),
        summary: 'Squid stops at start because its DNS self-test failed',
        explain:
          'Squid (before 3.1) resolves the names in dns_testnames before it serves, and exits when none resolves: from a pod without egress to the ' +
          "public names it tests (netsquid.org and the like by default), or while the cluster's DNS does not answer.",
        knobs: [
          { place: 'app', path: 'squid.conf dns_testnames', change: 'test a name the cluster resolves (kubernetes.default.svc.cluster.local)' },
          { place: 'pod', path: '{{containerPath}}.args', change: 'or start squid with -D to skip the test (Squid 3.1 and later no longer run it)' },
        ],
      },
      {
        id: 'compose-name',
        when: (ctx) => (ctx.groups.host?.includes('_') ?? false) && data({ host: ctx.groups.host }),
        summary: 'HAProxy cannot resolve backend {{host}}, a docker-compose name, at start',
        explain:
          'HAProxy resolves each server address while it parses haproxy.cfg and stops when one fails. {{host}} has an underscore: it is a docker-compose ' +
          'or swarm container name, which Kubernetes DNS never serves (Service names are DNS labels without underscores).',
        knobs: [
          {
            place: 'app',
            path: 'haproxy.cfg server lines (ConfigMap key)',
            change: "name the backend's Service instead: <service>.<namespace>.svc.cluster.local (or the short name in the same namespace)",
          },
        ],
      },
      {
        id: 'general',
        summary: 'HAProxy cannot resolve backend {{host}} at start',
        explain:
          'HAProxy resolves each server address once, while it parses haproxy.cfg, through the system resolver, and refuses to start when {{host}} does not ' +
          'resolve: the Service does not exist (yet), it is headless and has no ready pods, or it lives in another namespace than the short name implies. ' +
          'Started before its backends, the proxy crash-loops until they are up.',
        knobs: [
          {
            place: 'app',
            path: 'haproxy.cfg defaults: default-server init-addr last,libc,none',
            change: 'start with the server in maintenance until its name resolves, instead of refusing to start',
          },
          {
            place: 'app',
            path: 'haproxy.cfg resolvers section (parse-resolv-conf) + resolvers <name> on each server line',
            change: "re-resolve at run time through the cluster's DNS, so a backend that comes up later is picked up",
          },
          { place: 'cluster', path: 'Service {{host}}', change: 'check it exists in the namespace the name points at and has ready endpoints' },
        ],
      },
    ],
  },
  {
    id: 'db-migrations-pending',
    kind: 'setting',
    resource: "a database schema at the server's version",
    doc:
      'Kong keeps its configuration in PostgreSQL and checks at start that the schema is at its own version: a new database must be bootstrapped and an ' +
      "upgraded Kong must have its migrations run first, by a separate `kong migrations` command the gateway's own start does not run.",
    variants: [
      {
        id: 'upgrade',
        when: (ctx) => /new migrations available/i.test(ctx.line),
        summary: "Kong's database is older than this Kong: its migrations have not run",
        explain:
          'The gateway found migrations of its version that the database has not had: the image was upgraded and nothing ran kong migrations up ' +
          '(and finish) against the database before the new pods started.',
        knobs: [
          {
            place: 'cluster',
            path: 'a Job (or the chart\'s pre-upgrade migrations Job) running "kong migrations up" then "kong migrations finish"',
            change: 'run it with the same KONG_DATABASE / KONG_PG_* env as the gateway, before the new version rolls out',
          },
          { place: 'pod', path: '{{containerPath}}.image', change: 'or keep the previous Kong version until the migrations have run' },
        ],
      },
      {
        id: 'bootstrap',
        summary: "Kong's database has not been bootstrapped",
        explain:
          'The gateway found no Kong schema in its database (or one from before Kong 1.0): nothing ran kong migrations bootstrap against this database, ' +
          'or the gateway points at another database than the migrations did (KONG_PG_HOST, KONG_PG_DATABASE).',
        knobs: [
          {
            place: 'cluster',
            path: 'a Job or init container running "kong migrations bootstrap"',
            change: "run it once with the gateway's KONG_DATABASE / KONG_PG_* env (the Kong chart does with migrations enabled)",
          },
          { place: 'pod', path: '{{containerPath}}.env KONG_PG_HOST / KONG_PG_DATABASE', change: 'check they name the database that was bootstrapped' },
          { place: 'pod', path: '{{containerPath}}.env KONG_DATABASE', change: 'or run DB-less: off, with KONG_DECLARATIVE_CONFIG pointing at a kong.yml' },
        ],
      },
    ],
  },
  {
    id: 'fpm-pool-user',
    kind: 'setting',
    resource: 'the user a PHP-FPM pool runs its workers as',
    doc:
      "PHP-FPM's master runs as root only to start each pool's workers as the pool's user, and refuses a pool that names no user (or root): the pool " +
      'file a ConfigMap replaced lacks the user directive, or the container runs as root where the image expects its own user.',
    variants: [
      {
        id: 'root-requested',
        when: (ctx) => asksForRoot(ctx) && { field: runAsUserField(ctx) },
        summary: 'PHP-FPM runs as root, which the pod asks for, and a pool names no other user',
        explain:
          'The pod sets runAsUser: 0, so the FPM master is root and must switch each pool to a non-root user, and the pool configuration names none ' +
          '(or names root): FPM refuses to run PHP as root.',
        knobs: [
          {
            place: 'pod',
            path: '{{containerPath}}.{{field}}',
            change: "run as the image's PHP user (82 or 33 for www-data): FPM then runs pools as that user",
          },
          { place: 'app', path: 'the pool file (www.conf / zz-docker.conf)', change: 'or set user = www-data and group = www-data in the pool' },
        ],
        facts: (ctx, d) => [specFact(ctx, String(d.field), '0')],
      },
      {
        id: 'general',
        summary: 'PHP-FPM runs as root and a pool names no other user',
        explain:
          'The FPM master runs as root and a pool has no user directive (or names root), so FPM refuses to start it: a pool file mounted from a ConfigMap ' +
          "replaced the image's www.conf, or a new section name left the image's [www] pool without its user.",
        knobs: [
          {
            place: 'app',
            path: 'the pool file (www.conf / zz-docker.conf)',
            change: 'set user = www-data and group = www-data (or reuse the [www] section name)',
          },
          { place: 'pod', path: '{{containerPath}}.securityContext.runAsUser', change: 'or run the container as the PHP user: the directive is then ignored' },
          { place: 'pod', path: '{{containerPath}}.args', change: 'only if PHP must run as root: php-fpm --allow-to-run-as-root (-R)' },
        ],
      },
    ],
  },
]);

export const SIGNATURES = signatures([
  {
    id: 'server.haproxy-bind-denied',
    family: 'server',
    mechanism: 'privileged-port',
    needles: ['cannot bind socket (permission denied)'],
    patterns: [re('cannot bind socket \\(Permission denied\\) (?:for )?\\[(?:[^\\]]*):(?<port>\\d+)\\]')],
    source:
      'haproxy src/proto_tcp.c / src/listener.c ("cannot bind socket" with the errno text; "Binding [%s:%d] for %s %s:" since 2.6). Lines (GitHub): ' +
      'docker-library/haproxy#162, docker-library/haproxy#160, haproxy/haproxy#1394, haproxytech/kubernetes-ingress#619, WhatsApp/proxy#110',
    examples: [
      '[ALERT]    (1) : Starting frontend fe_web: cannot bind socket (Permission denied) [0.0.0.0:80]',
      '[ALERT]    (1) : Starting frontend http_frontend: cannot bind socket (Permission denied) [0.0.0.0:80]',
      '[ALERT]    (295) : Binding [/etc/haproxy/haproxy.cfg:48] for frontend http: cannot bind socket (Permission denied) for [:::80]',
      '[ALERT]    (21) : Binding [/usr/local/etc/haproxy/haproxy.cfg:59] for frontend haproxy_v4_http: cannot bind socket (Permission denied) for [0.0.0.0:80]',
    ],
  },
  {
    id: 'server.haproxy-bind-in-use',
    family: 'server',
    mechanism: 'port-in-use',
    needles: ['cannot bind socket (address already in use)'],
    patterns: [re('cannot bind socket \\(Address already in use\\) (?:for )?\\[(?<host>[^\\]]*):(?<port>\\d+)\\]')],
    source:
      'haproxy src/proto_tcp.c / src/listener.c ("cannot bind socket" with the errno text). Lines: DataDog documentation (Agent FIPS proxy ' +
      'troubleshooting: its embedded HAProxy)',
    examples: ['[ALERT] (4518) : Starting frontend metrics-forwarder: cannot bind socket (Address already in use) [0.0.0.0:9804]'],
  },
  {
    id: 'server.haproxy-unix-socket-denied',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['cannot bind unix socket (permission denied)'],
    patterns: [re('cannot bind UNIX socket \\(Permission denied\\) (?:for )?\\[(?<path>/[^\\]]+)\\]')],
    source:
      'haproxy src/sock_unix.c ("cannot bind UNIX socket" with the errno text): the stats socket in a directory the haproxy user (2.4+ images) may not ' +
      'write. Lines (GitHub): docker-library/haproxy#241',
    examples: ['[ALERT]    (1) : Starting frontend GLOBAL: cannot bind UNIX socket (Permission denied) [/var/run/haproxy.stat]'],
  },
  {
    id: 'server.haproxy-socket-dir',
    family: 'server',
    mechanism: 'runtime-dir-missing',
    needles: ['cannot bind unix socket'],
    patterns: [re('cannot bind UNIX socket (?:\\(No such file or directory\\) )?(?:for )?\\[(?<path>/[^\\]]+)\\]')],
    source:
      'haproxy src/sock_unix.c ("cannot bind UNIX socket", with the errno text in newer releases): a stats socket in /var/run/haproxy/, which the ' +
      "distribution's unit creates and the image does not. Lines (GitHub): docker-library/haproxy#56",
    examples: ['[ALERT] 362/193044 (1) : Starting frontend GLOBAL: cannot bind UNIX socket [/var/run/haproxy/haproxy.sock]'],
    nearMisses: ['[ALERT]    (1) : Starting frontend GLOBAL: cannot bind UNIX socket (Permission denied) [/var/run/haproxy.stat]'],
  },
  {
    id: 'server.php-fpm-socket-dir',
    family: 'server',
    mechanism: 'runtime-dir-missing',
    needles: ['unable to bind listening socket'],
    patterns: [re("unable to bind listening socket for address '(?<path>/[^']+)': No such file or directory")],
    source:
      'php-src sapi/fpm/fpm/fpm_sockets.c ("unable to bind listening socket for address \'%s\'" with the errno text and number): /run/php is made by ' +
      'the php-fpm service unit. Lines (GitHub): phalcon/phalcon-compose#26, php/php-src#9736',
    examples: [
      "[ERROR] unable to bind listening socket for address '/run/php/php7.0-fpm.sock': No such file or directory (2)",
      "[12-Oct-2022 20:56:13] ERROR: unable to bind listening socket for address '/run/php-fpm/php-fpm.sock': No such file or directory (2)",
    ],
    nearMisses: [
      "[24-Apr-2016 13:54:09] ERROR: unable to bind listening socket for address '127.0.0.1:9000': Address already in use (98)",
      "[20-Dec-2022 18:46:56] ERROR: unable to bind listening socket for address '/run/php-fpm/www.sock': Permission denied (13)",
    ],
  },
  {
    id: 'server.php-fpm-socket-denied',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['unable to bind listening socket'],
    patterns: [re("unable to bind listening socket for address '(?<path>/[^']+)': Permission denied")],
    source:
      "php-src sapi/fpm/fpm/fpm_sockets.c (\"unable to bind listening socket for address '%s'\" with the errno text and number): the socket's " +
      'directory is not writable by the user FPM runs as. Lines: notes of the Red Hat DO180 lab (an OpenShift arbitrary UID, /run/php-fpm owned by ' +
      'root); near miss puphpet/puphpet#2278',
    examples: ["[20-Dec-2022 18:46:56] ERROR: unable to bind listening socket for address '/run/php-fpm/www.sock': Permission denied (13)"],
    nearMisses: ["[24-Apr-2016 13:54:09] ERROR: unable to bind listening socket for address '127.0.0.1:9000': Address already in use (98)"],
  },
  {
    id: 'server.haproxy-resolve-at-start',
    family: 'server',
    mechanism: 'resolve-at-start',
    needles: ['could not resolve address'],
    patterns: [re("'server [^']+' : could not resolve address '(?<host>[^']+)'")],
    source:
      'haproxy src/server.c / src/cfgparse.c (srv_set_addr_via_libc: "could not resolve address \'%s\'", then "Failed to initialize server(s) addr."). ' +
      'Lines (GitHub): vfarcic/docker-flow-proxy#224, gandie/interfaces-docker#2, docker-library/haproxy#124, OpenCHAMI/deployment-recipes#102, ' +
      'play-with-docker/play-with-docker#479',
    examples: [
      "[ALERT] 118/170701 (14) : parsing [/cfg/haproxy.cfg:109] : 'server letsencrypt-companion' : could not resolve address 'letsencrypt-companion'.",
      "[ALERT]    (9) : parsing [/etc/haproxy/haproxy.cfg:35] : 'server zope1' : could not resolve address 'zope-compose_zope_1'.",
      "[ALERT]    (1) : config : [/usr/local/etc/haproxy/haproxy.cfg:72] : 'server configurator/configurator' : could not resolve address 'configurator'.",
      "haproxy    | [ALERT]    (1) : parsing [/usr/local/etc/haproxy/haproxy.cfg:18] : 'server node2' : could not resolve address 'l2'.",
    ],
  },
  {
    id: 'server.squid-dns-tests',
    family: 'server',
    mechanism: 'resolve-at-start',
    needles: ['ipcache_init'],
    patterns: [re('FATAL: ipcache_init: DNS name lookup tests failed')],
    // "Skipping DNS name lookup tests" is the -D path: not a failure.
    source: 'squid src/ipcache.cc (fatal "ipcache_init: DNS name lookup tests failed.", before 3.1); squid-cache wiki SquidFaq "FATAL: ipcache_init"',
    examples: ['FATAL: ipcache_init: DNS name lookup tests failed.'],
    nearMisses: ['ipcache_init: Skipping DNS name lookup tests.'],
  },
  {
    id: 'server.varnish-socket-denied',
    family: 'server',
    mechanism: 'privileged-port',
    needles: ['could not get socket'],
    patterns: [re('Error: Could not get socket (?:[\\w.-]*|\\[[^\\]]*\\]):(?<port>\\d+): Permission denied')],
    source:
      'varnish-cache bin/varnishd/mgt/mgt_acceptor.c ("Could not get socket %s: %s"): the official image runs as user varnish since late 2021. ' +
      'Lines (GitHub): varnishcache/varnish-cache#3605, varnish/docker-varnish#42, varnish/docker-varnish#65, softonic/varnish-chart#46',
    examples: ['Error: Could not get socket :80: Permission denied'],
  },
  {
    id: 'server.varnish-vsm',
    family: 'server',
    mechanism: 'varnish-vsm-unreachable',
    needles: ['could not get hold of varnishd'],
    patterns: [re('Could not get hold of varnishd, is it running\\?')],
    source:
      'varnish-cache lib/libvarnishapi/vsm.c VSM_Attach ("Could not get hold of varnishd, is it running?"). Lines (GitHub): varnishcache/varnish-cache#3607, ' +
      'varnish/docker-varnish#30, jonnenauha/prometheus_varnish_exporter (README troubleshooting), mittwald/kube-httpcache#8',
    examples: ['Could not get hold of varnishd, is it running?', 'VSM: Could not get hold of varnishd, is it running?'],
  },
  {
    id: 'server.varnish-workdir',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['cannot create test-file in'],
    patterns: [re('Cannot create test-file in (?<path>/\\S+?)/? \\(Permission denied\\)')],
    source:
      'varnish-cache lib/libvarnish/vin.c / mgt_main.c ("Cannot create test-file in %s (%s)", "Check permissions (or delete old directory)"): the working ' +
      'directory (-n, /var/lib/varnish) on a tmpfs or volume the varnish user does not own. Lines (GitHub): varnish/docker-varnish#44',
    examples: ['varnish_1   | Error: Cannot create test-file in /var/lib/varnish/ (Permission denied)'],
  },
  {
    id: 'server.wildfly-data-dir',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['wflysrv0124'],
    patterns: [re('WFLYSRV0124: Could not create server data directory: (?<path>/\\S+)')],
    source:
      'wildfly-core server ServerLogger (WFLYSRV0124 couldNotCreateServerDataDirectory): standalone/data under jboss.server.base.dir, not writable by an ' +
      'arbitrary UID. Lines (GitHub): wildfly-extras/wildfly-camel#1501, wildfly/wildfly-container#25',
    examples: ['java.lang.IllegalStateException: WFLYSRV0124: Could not create server data directory: /opt/jboss/wildfly/standalone/data'],
  },
  {
    id: 'server.tomcat-deploy-dir',
    family: 'server',
    mechanism: 'fs-permission',
    needles: ['unable to create directory for deployment'],
    patterns: [re('Unable to create directory for deployment: \\[(?<path>/[^\\]]+)\\]')],
    source:
      'tomcat org.apache.catalina.startup HostConfig.beforeStart (hostConfig.createDirs: "Unable to create directory for deployment: [{0}]"): ' +
      'CATALINA_BASE/conf/Catalina/<host> under a non-root user. Lines (GitHub): docker-library/tomcat#209, docker-library/tomcat#147, ' +
      'docker-library/tomcat#128',
    examples: [
      'SEVERE [main] org.apache.catalina.startup.HostConfig.beforeStart Unable to create directory for deployment: [/usr/local/tomcat/conf/Catalina/localhost]',
      'Unable to create directory for deployment: [/usr/local/tomcat/conf/Catalina/localhost]',
    ],
  },
  {
    id: 'server.kong-migrations',
    family: 'server',
    mechanism: 'db-migrations-pending',
    needles: ['database needs bootstrapping', 'new migrations available'],
    patterns: [re('Database needs bootstrapping or is older than Kong 1\\.0'), re("New migrations available; run 'kong migrations up' to proceed")],
    source:
      'kong kong/cmd/utils/migrations.lua check_state ("Database needs bootstrapping or is older than Kong 1.0.", "New migrations available; run ' +
      "'kong migrations up' to proceed\"). Lines (GitHub): d4rkstar/kong-konga-keycloak#4, bitnami/charts#9145, Kong/kong#7762",
    examples: [
      '2020/10/13 21:50:18 [error] 1#0: init_by_lua error: /usr/local/share/lua/5.1/kong/cmd/utils/migrations.lua:16: Database needs bootstrapping or is ' +
        'older than Kong 1.0.,',
      'nginx: [error] init_by_lua error: /usr/local/share/lua/5.1/kong/cmd/utils/migrations.lua:16: Database needs bootstrapping or is older than Kong 1.0.',
      "/usr/local/share/lua/5.1/kong/cmd/start.lua:75: /usr/local/share/lua/5.1/kong/cmd/utils/migrations.lua:20: New migrations available; run 'kong " +
        "migrations up' to proceed",
    ],
  },
  {
    id: 'server.kong-declarative-config',
    family: 'server',
    mechanism: 'config-invalid',
    needles: ['error parsing declarative config file'],
    patterns: [re('error parsing declarative config file (?<path>/[^\\s:]+):?')],
    source: 'kong kong/init.lua (parse_declarative_config: "error parsing declarative config file %s:\\n%s") in DB-less mode. Lines (GitHub): Kong/charts#933',
    examples: [
      '2023/11/08 11:33:55 [error] 1#0: init_by_lua error: /usr/local/share/lua/5.1/kong/init.lua:652: error parsing declarative config file ' +
        '/kong_dbless/kong.yml:',
      '2024/04/08 07:38:01 [error] 1#0: init_by_lua error: /usr/local/share/lua/5.1/kong/init.lua:553: error parsing declarative config file ' +
        '/home/kong/kong.yml:',
    ],
  },
  {
    id: 'server.php-fpm-pool-user',
    family: 'server',
    mechanism: 'fpm-pool-user',
    needles: ['please specify user and group other than root', 'user has not been defined'],
    patterns: [
      re('\\[pool (?<pool>[^\\]]+)\\] please specify user and group other than root'),
      re('ALERT: \\[pool (?<pool>[^\\]]+)\\] user has not been defined'),
    ],
    source:
      'php-src sapi/fpm/fpm/fpm_unix.c fpm_unix_conf_wp ("[pool %s] please specify user and group other than root") and fpm_conf.c ' +
      '("[pool %s] user has not been defined"). Lines (GitHub): linuxserver/docker-piwigo#60, alexbelgium/hassio-addons#1760, cachethq/Docker#376, ' +
      'linuxserver-archive/docker-photoshow#13; a blog post quoting a php-fpm alpine build (TrafeX/docker-php-nginx)',
    examples: [
      '[03-Mar-2023 12:55:08] ERROR: [pool www] please specify user and group other than root',
      '[11-May-2020 11:10:51] ERROR: [pool www] please specify user and group other than root',
      '[20-Nov-2020 05:38:24] ALERT: [pool www] user has not been defined',
    ],
  },
]);
