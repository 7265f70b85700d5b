// Libraries' wording of failures the catalogue already explains (src/diagnosis/mechanisms/catalogue/libraries.ts).
import { describe, expect, it } from 'vitest';
import { readTexts } from '../../src/diagnosis/mechanisms/index.js';
import { describeFamilies, scopeOf } from '../helpers/mechanism-table.js';

describeFamilies({
  'Netty native transport': [
    {
      line: 'io.netty.channel.unix.Errors$NativeIoException: bind(..) failed: Permission denied',
      mechanism: 'privileged-port',
      variant: 'non-root',
      knob: 'net.ipv4.ip_unprivileged_port_start',
      container: { securityContext: { runAsUser: 1000 } },
    },
  ],
  'Prisma connection errors': [
    {
      line: "Error: P1001: Can't reach database server at `orders-db`:`5432`",
      mechanism: 'dependency-unreachable',
      variant: 'path',
      knob: 'NetworkPolicies of shop',
      data: { host: 'orders-db', port: '5432' },
    },
    {
      line: 'Error: P1000: Authentication failed against database server at `orders-db`, the provided database credentials for `shop` are not valid.',
      mechanism: 'credentials-rejected',
      variant: 'password',
      knob: 'valueFrom.secretKeyRef',
      data: { host: 'orders-db', user: 'shop' },
    },
  ],
  'Spring placeholders': [
    {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Spring's own placeholder syntax, quoted as printed.
      line: 'Caused by: java.lang.IllegalArgumentException: Could not resolve placeholder \'JWT_SECRET\' in value "${JWT_SECRET}"',
      mechanism: 'required-setting',
      variant: 'env',
      knob: 'env[].valueFrom.secretKeyRef',
      data: { names: 'JWT_SECRET' },
    },
  ],
});

describe('server-specific readings of lines other signatures also know', () => {
  it("nginx's unresolved upstream says nginx resolves it once, at start", () => {
    const r = readTexts(
      [
        {
          text: '2024/06/22 16:54:59 [emerg] 1#1: host not found in upstream "pipedfrontend:80" in /etc/nginx/conf.d/pipedfrontend.conf:2',
          source: 'logs app',
        },
      ],
      scopeOf(),
    );
    expect({ mechanism: r?.mechanism, variant: r?.variant }).toEqual({ mechanism: 'dns-resolution', variant: 'nginx-upstream' });
    expect(r?.knobPaths.join(' | ')).toContain('resolver kube-dns.kube-system.svc.cluster.local');
  });
  it('a gunicorn worker killed after its timeout is the timeout, not memory', () => {
    const log = [
      '[2024-11-05 09:25:59 +0000] [16] [CRITICAL] WORKER TIMEOUT (pid:17)',
      '[2024-11-05 09:26:00 +0000] [16] [ERROR] Worker (pid:17) was sent SIGKILL! Perhaps out of memory?',
    ];
    expect(readTexts([{ lines: log, source: 'logs app' }], scopeOf())?.mechanism).toBe('worker-timeout');
    expect(readTexts([{ lines: log.slice(1), source: 'logs app' }], scopeOf())?.mechanism).toBe('memory-limit');
  });
  it("rollup's platform package missing is the install's platform, also when its cause line comes last", () => {
    const log = [
      'Error: Cannot find module @rollup/rollup-linux-x64-musl. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). ' +
        'Please try `npm i` again after removing both package-lock.json and node_modules directory.',
      '    at requireWithFriendlyError (/app/node_modules/rollup/dist/native.js:59:9)',
      "  [cause]: Error: Cannot find module '@rollup/rollup-linux-x64-musl'",
    ];
    expect(readTexts([{ lines: log, source: 'logs app' }], scopeOf())?.mechanism).toBe('native-module-platform');
    expect(readTexts([{ text: "Error: Cannot find module 'express'", source: 'logs app' }], scopeOf())?.mechanism).toBe('module-missing');
  });
});
