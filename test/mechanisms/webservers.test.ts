// Web servers, proxies and application servers (src/diagnosis/mechanisms/catalogue/webservers.ts):
// each line, the mechanism and variant it means for a pod spec, and the knob with its path; then what
// the readings say (the backend, the port, the pool) and the look-alike lines they leave alone.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/engine.js';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { RULES } from '../../src/diagnosis/rules/index.js';
import { crashedPod, logTail, snapshot } from '../helpers/factories.js';
import { type ContainerPatch, describeFamilies, type Row, scopeOf } from '../helpers/mechanism-table.js';

const HAPROXY_RESOLVE =
  "[ALERT] 118/170701 (14) : parsing [/cfg/haproxy.cfg:109] : 'server letsencrypt-companion' : could not resolve address 'letsencrypt-companion'.";
const HAPROXY_COMPOSE = "[ALERT]    (9) : parsing [/etc/haproxy/haproxy.cfg:35] : 'server zope1' : could not resolve address 'zope-compose_zope_1'.";
const HAPROXY_80 = '[ALERT]    (1) : Starting frontend fe_web: cannot bind socket (Permission denied) [0.0.0.0:80]';
const HAPROXY_IN_USE = '[ALERT] (4518) : Starting frontend metrics-forwarder: cannot bind socket (Address already in use) [0.0.0.0:9804]';
const HAPROXY_UNIX = '[ALERT]    (1) : Starting frontend GLOBAL: cannot bind UNIX socket (Permission denied) [/var/run/haproxy.stat]';
const VARNISH_80 = 'Error: Could not get socket :80: Permission denied';
const VARNISH_WORKDIR = 'varnish_1   | Error: Cannot create test-file in /var/lib/varnish/ (Permission denied)';
const KONG_BOOTSTRAP =
  '2020/10/13 21:50:18 [error] 1#0: init_by_lua error: /usr/local/share/lua/5.1/kong/cmd/utils/migrations.lua:16: Database needs bootstrapping or is ' +
  'older than Kong 1.0.,';
const KONG_UP =
  "/usr/local/share/lua/5.1/kong/cmd/start.lua:75: /usr/local/share/lua/5.1/kong/cmd/utils/migrations.lua:20: New migrations available; run 'kong " +
  "migrations up' to proceed";
const KONG_DECLARATIVE =
  '2023/11/08 11:33:55 [error] 1#0: init_by_lua error: /usr/local/share/lua/5.1/kong/init.lua:652: ' +
  'error parsing declarative config file /kong_dbless/kong.yml:';
const FPM_ROOT = '[03-Mar-2023 12:55:08] ERROR: [pool www] please specify user and group other than root';
const FPM_ALERT = '[20-Nov-2020 05:38:24] ALERT: [pool www] user has not been defined';
const FPM_SOCKET_DIR = "[ERROR] unable to bind listening socket for address '/run/php/php7.0-fpm.sock': No such file or directory (2)";
const FPM_SOCKET_DENIED = "[20-Dec-2022 18:46:56] ERROR: unable to bind listening socket for address '/run/php-fpm/www.sock': Permission denied (13)";
const HAPROXY_SOCKET_DIR = '[ALERT] 362/193044 (1) : Starting frontend GLOBAL: cannot bind UNIX socket [/var/run/haproxy/haproxy.sock]';
const WILDFLY = 'java.lang.IllegalStateException: WFLYSRV0124: Could not create server data directory: /opt/jboss/wildfly/standalone/data';
const TOMCAT =
  'SEVERE [main] org.apache.catalina.startup.HostConfig.beforeStart Unable to create directory for deployment: [/usr/local/tomcat/conf/Catalina/localhost]';

const NON_ROOT: ContainerPatch = { securityContext: { runAsUser: 1000 } };
const VARNISH_TMPFS: ContainerPatch = { volumeMounts: [{ name: 'varnish', mountPath: '/var/lib/varnish' }] };
const KONG_CONFIGMAP: ContainerPatch = { volumeMounts: [{ name: 'dbless', mountPath: '/kong_dbless' }] };

const FAMILIES: Record<string, Row[]> = {
  'proxy resolves its backends at start': [
    { line: HAPROXY_RESOLVE, mechanism: 'resolve-at-start', variant: 'general', knob: 'init-addr', data: { host: 'letsencrypt-companion' } },
    { line: HAPROXY_COMPOSE, mechanism: 'resolve-at-start', variant: 'compose-name', knob: 'haproxy.cfg server lines', data: { host: 'zope-compose_zope_1' } },
    { line: 'FATAL: ipcache_init: DNS name lookup tests failed.', mechanism: 'resolve-at-start', variant: 'squid-dns-tests', knob: 'dns_testnames' },
  ],
  'Kong database migrations': [
    { line: KONG_BOOTSTRAP, mechanism: 'db-migrations-pending', variant: 'bootstrap', knob: 'kong migrations bootstrap' },
    { line: KONG_UP, mechanism: 'db-migrations-pending', variant: 'upgrade', knob: 'kong migrations up' },
  ],
  'PHP-FPM pool user': [
    { line: FPM_ROOT, mechanism: 'fpm-pool-user', variant: 'general', knob: 'the pool file', data: { pool: 'www' } },
    {
      line: FPM_ALERT,
      mechanism: 'fpm-pool-user',
      variant: 'root-requested',
      knob: 'spec.containers[app].securityContext.runAsUser',
      container: { securityContext: { runAsUser: 0 } },
    },
    {
      line: FPM_ROOT,
      mechanism: 'fpm-pool-user',
      variant: 'root-requested',
      knob: 'spec.securityContext.runAsUser',
      spec: { securityContext: { runAsUser: 0 } },
    },
  ],
  'HAProxy and Varnish cannot bind their port': [
    { line: HAPROXY_80, mechanism: 'privileged-port', variant: 'non-root', knob: 'securityContext', container: NON_ROOT, data: { port: '80' } },
    {
      line: VARNISH_80,
      mechanism: 'privileged-port',
      variant: 'host-network',
      knob: 'ports',
      container: NON_ROOT,
      spec: { hostNetwork: true },
      data: { port: '80' },
    },
    { line: HAPROXY_IN_USE, mechanism: 'port-in-use', variant: 'pod', knob: 'spec.containers', data: { port: '9804' } },
    { line: HAPROXY_IN_USE, mechanism: 'port-in-use', variant: 'host-network', knob: 'hostNetwork', spec: { hostNetwork: true } },
  ],
  'server directories not writable': [
    { line: WILDFLY, mechanism: 'fs-permission', variant: 'general', knob: 'securityContext', data: { path: '/opt/jboss/wildfly/standalone/data' } },
    {
      line: VARNISH_WORKDIR,
      mechanism: 'fs-permission',
      variant: 'volume-ownership',
      knob: 'spec.securityContext.fsGroup',
      container: VARNISH_TMPFS,
      spec: { volumes: [{ name: 'varnish', emptyDir: { medium: 'Memory' } }] },
      data: { path: '/var/lib/varnish' },
    },
    { line: TOMCAT, mechanism: 'fs-permission', variant: 'general', knob: 'securityContext', data: { path: '/usr/local/tomcat/conf/Catalina/localhost' } },
    { line: HAPROXY_UNIX, mechanism: 'fs-permission', variant: 'general', knob: 'securityContext', data: { path: '/var/run/haproxy.stat' } },
    { line: FPM_SOCKET_DENIED, mechanism: 'fs-permission', variant: 'general', knob: 'securityContext', data: { path: '/run/php-fpm/www.sock' } },
  ],
  'socket directory under /run missing': [
    {
      line: FPM_SOCKET_DIR,
      mechanism: 'runtime-dir-missing',
      variant: 'general',
      knob: 'the Dockerfile',
      data: { path: '/run/php/php7.0-fpm.sock', dir: '/run/php' },
    },
    {
      line: HAPROXY_SOCKET_DIR,
      mechanism: 'runtime-dir-missing',
      variant: 'hidden-by-volume',
      knob: 'spec.containers[app].volumeMounts[run].mountPath',
      container: { volumeMounts: [{ name: 'run', mountPath: '/run' }] },
      spec: { volumes: [{ name: 'run', emptyDir: {} }] },
      data: { dir: '/var/run/haproxy', volume: 'run' },
    },
    {
      line: FPM_SOCKET_DIR,
      mechanism: 'runtime-dir-missing',
      variant: 'hidden-by-volume',
      knob: 'spec.initContainers',
      container: { volumeMounts: [{ name: 'run', mountPath: '/run' }] },
      spec: { volumes: [{ name: 'run', emptyDir: { medium: 'Memory' } }] },
      data: { dir: '/run/php', mountPath: '/run' },
    },
  ],
  'Varnish shared memory from a sidecar': [
    {
      line: 'Could not get hold of varnishd, is it running?',
      mechanism: 'varnish-vsm-unreachable',
      variant: 'sidecar-without-workdir',
      knob: 'volumeMounts at /var/lib/varnish',
      spec: {
        containers: [
          { name: 'varnish', image: 'varnish:7.6' },
          { name: 'app', image: 'varnish:7.6' },
        ],
      },
    },
    {
      line: 'VSM: Could not get hold of varnishd, is it running?',
      mechanism: 'varnish-vsm-unreachable',
      variant: 'general',
      knob: 'spec.containers[app].args',
      container: { volumeMounts: [{ name: 'vsm', mountPath: '/var/lib/varnish' }] },
      spec: {
        containers: [
          { name: 'varnish', image: 'varnish:7.6' },
          { name: 'app', image: 'varnish:7.6', volumeMounts: [{ name: 'vsm', mountPath: '/var/lib/varnish' }] },
        ],
        volumes: [{ name: 'vsm', emptyDir: { medium: 'Memory' } }],
      },
    },
  ],
  'Kong declarative configuration': [
    { line: KONG_DECLARATIVE, mechanism: 'config-invalid', variant: 'file', knob: '', data: { path: '/kong_dbless/kong.yml' } },
    {
      line: KONG_DECLARATIVE,
      mechanism: 'config-invalid',
      variant: 'from-configmap',
      knob: 'configMap kong-dbless',
      container: KONG_CONFIGMAP,
      spec: { volumes: [{ name: 'dbless', configMap: { name: 'kong-dbless' } }] },
    },
  ],
};

describeFamilies(FAMILIES);

describe('web server readings say what they found', () => {
  const read = (line: string, container?: ContainerPatch) => readTexts([{ text: line, source: 'logs app' }], scopeOf(container));

  it('a backend that does not resolve names the backend and the init-addr fallback', () => {
    const r = read(HAPROXY_RESOLVE);
    expect(r?.summary).toBe('HAProxy cannot resolve backend letsencrypt-companion at start');
    expect(r?.knobs.join('\n')).toContain('default-server init-addr last,libc,none');
  });

  it("HAProxy's port in use through the engine is the port-in-use rule's finding (the rule reads the same line)", () => {
    const d = diagnose(snapshot(crashedPod({ exitCode: 1, restarts: 6 }), { logs: [logTail('web', ['starting', HAPROXY_IN_USE])] }), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('crash.port-in-use');
  });

  it('a socket directory hidden by a volume names the volume and where to mount it instead', () => {
    const r = readTexts(
      [{ text: FPM_SOCKET_DIR, source: 'logs app' }],
      scopeOf({ volumeMounts: [{ name: 'run', mountPath: '/run' }] }, { volumes: [{ name: 'run', emptyDir: {} }] }),
    );
    expect(r?.summary).toBe('/run/php, where the server puts its socket, is hidden by volume run at /run');
    expect(r?.knobs[0]).toBe('spec.containers[app].volumeMounts[run].mountPath: mount the volume at /run/php itself');
  });

  it("Varnish's socket refusal is a privileged port, not a file permission", () => {
    expect(read(VARNISH_80, NON_ROOT)?.mechanism).toBe('privileged-port');
  });

  it('the Kong upgrade case asks for migrations up and finish, the bootstrap case for bootstrap', () => {
    expect(read(KONG_UP)?.knobs.join('\n')).toContain('kong migrations finish');
    expect(read(KONG_BOOTSTRAP)?.knobs.join('\n')).toContain('KONG_PG_HOST');
  });

  it("PHP-FPM's notice that the user directive is ignored (a non-root master) is not a pool-user failure", () => {
    const r = read("[19-Aug-2016 22:58:45] NOTICE: [pool www] 'user' directive is ignored when FPM is not running as root");
    expect(r?.mechanism).not.toBe('fpm-pool-user');
  });

  it("Squid's skipped DNS self-test is not a failure", () => {
    expect(read('ipcache_init: Skipping DNS name lookup tests.')?.mechanism).not.toBe('resolve-at-start');
  });
});
