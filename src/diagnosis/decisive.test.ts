import { describe, expect, it } from 'vitest';
import { clipLine, decisiveLines, excerpt, innermostError } from './decisive.js';

const banner = (n: number) =>
  Array.from({ length: n }, (_, i) => `2026-11-21T09:59:${String(i % 60).padStart(2, '0')}Z INFO  starting worker ${i}: loaded module mod_${i}`);

describe('decisiveLines', () => {
  it('keeps the last line after a long banner (nginx: port already in use)', () => {
    const lines = [
      '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
      ...banner(40),
      '/docker-entrypoint.sh: Configuration complete; ready for start up',
      '2026/11/21 09:59:58 [emerg] 1#1: bind() to 0.0.0.0:80 failed (98: Address already in use)',
      'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)',
    ];
    const out = decisiveLines(lines, { maxLines: 5 });
    expect(out.at(-1)).toBe('nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)');
    expect(out.join('\n')).toMatch(/… \(\d+ lines\)/);
    expect(out.filter((l) => l.includes('[emerg]'))).toHaveLength(2);
    expect(out.some((l) => l.includes('INFO'))).toBe(false);
  });

  it('keeps a Go panic head above the goroutine frames that end the log', () => {
    const lines = [
      ...banner(30),
      'panic: runtime error: invalid memory address or nil pointer dereference',
      '[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x9a3f21]',
      '',
      'goroutine 1 [running]:',
      'main.(*Server).Start(0x0)',
      '\t/src/server.go:88 +0x21',
      'main.main()',
      '\t/src/main.go:42 +0x1d',
    ];
    const out = decisiveLines(lines, { maxLines: 4, tail: 2 });
    expect(out).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
    expect(out.at(-1)).toBe('\t/src/main.go:42 +0x1d');
  });

  it('prefers the exception head and its cause over older error lines (Java)', () => {
    const lines = [
      ...banner(10),
      '2026-11-21 09:59:01 ERROR o.a.c.c.C.[Tomcat] - transient error, retrying',
      ...banner(10),
      'org.springframework.beans.factory.BeanCreationException: Error creating bean with name "dataSource"',
      '\tat org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.doCreateBean(AbstractAutowireCapableBeanFactory.java:628)',
      'Caused by: java.net.UnknownHostException: postgres.db.svc.cluster.local',
      '\tat java.base/java.net.InetAddress.getAllByName0(InetAddress.java:1302)',
      '\t... 42 common frames omitted',
    ];
    const out = decisiveLines(lines, { maxLines: 3, tail: 1 });
    expect(out).toContain('Caused by: java.net.UnknownHostException: postgres.db.svc.cluster.local');
    expect(out.some((l) => l.startsWith('org.springframework.beans.factory.BeanCreationException'))).toBe(true);
    expect(out.some((l) => l.includes('transient error'))).toBe(false);
  });

  it('keeps glog F and E lines (F0214 fatal before the exit)', () => {
    const lines = [
      ...banner(20),
      'E1121 09:59:50.120000       1 reflector.go:138] failed to list *v1.Pod: Unauthorized',
      ...banner(20),
      'F1121 09:59:59.000000       1 main.go:77] cannot open /etc/app/config.yaml: open /etc/app/config.yaml: not a directory',
      'I1121 09:59:59.000100       1 shutdown.go:12] bye',
    ];
    const out = decisiveLines(lines, { maxLines: 3, tail: 1 });
    expect(out.join('\n')).toContain('F1121 09:59:59.000000       1 main.go:77] cannot open /etc/app/config.yaml');
    expect(out.join('\n')).toContain('E1121');
  });

  it('returns short tails whole, without empty lines or colour codes', () => {
    expect(decisiveLines(['\u001b[31mERROR\u001b[0m boom', '', 'done'])).toEqual(['ERROR boom', 'done']);
  });
});

describe('excerpt and clipLine', () => {
  const chain =
    'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: ' +
    'error mounting "/var/lib/kubelet/pods/0b1f/volumes/kubernetes.io~configmap/conf/nginx.conf" to rootfs at "/etc/nginx/nginx.conf": mount /var/lib/kubelet/pods/0b1f/volumes/kubernetes.io~configmap/conf/nginx.conf:/etc/nginx/nginx.conf (via /proc/self/fd/6), flags: 0x5001: not a directory: unknown';

  it('cuts a long runtime error chain in the middle and keeps its end', () => {
    const out = excerpt(chain, 200);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out.startsWith('failed to create containerd task')).toBe(true);
    expect(out.endsWith('not a directory: unknown')).toBe(true);
    expect(out).toContain('…');
  });

  it('leaves short text alone', () => {
    expect(excerpt('configmap "x" not found')).toBe('configmap "x" not found');
    expect(clipLine('short', 10)).toBe('short');
  });

  it('keeps the end of a long multi-line termination message within the budget', () => {
    const message = [...banner(30), 'Error: listen tcp :8080: bind: address already in use'].join('\n');
    const out = excerpt(message, 400);
    expect(out.length).toBeLessThanOrEqual(400);
    expect(out.endsWith('Error: listen tcp :8080: bind: address already in use')).toBe(true);
  });

  it('finds the innermost error of a chain', () => {
    expect(innermostError(chain)).toBe('not a directory');
    expect(innermostError('exec: "foo": executable file not found in $PATH: unknown')).toBe('executable file not found in $PATH');
    expect(innermostError('plain message.')).toBe('plain message');
  });
});
