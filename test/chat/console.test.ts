// The console chat and `npm run demo`: the scripted tour when stdin is not a terminal, an
// interactive session typed line by line, and a clear word when Redis is not there.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/chat/command.js';
import { auditCommand } from '../../src/cli/audit.js';
import { demoCommand, SCENARIO_ROOT } from '../../src/cli/demo.js';
import { loadScenarios } from '../../src/sim/scenarios.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function capture(): PassThrough & { text(): string } {
  const out = new PassThrough() as PassThrough & { text(): string };
  let buf = '';
  out.on('data', (c: Buffer) => (buf += c.toString()));
  out.text = () => buf;
  return out;
}

async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('parseCommand', () => {
  it.each([
    ['', undefined, { kind: 'help' }],
    ['help', undefined, { kind: 'help' }],
    ['shop/web-1', undefined, { kind: 'diagnose', target: { kind: 'pod', namespace: 'shop', name: 'web-1' } }],
    ['web-1', 'shop', { kind: 'diagnose', target: { kind: 'pod', namespace: 'shop', name: 'web-1' } }],
    ['node/worker-2', undefined, { kind: 'diagnose', target: { kind: 'node', name: 'worker-2' } }],
    ['ns/reports', undefined, { kind: 'diagnose', target: { kind: 'namespace', name: 'reports' } }],
    ['  shop/web-1  ', undefined, { kind: 'diagnose', target: { kind: 'pod', namespace: 'shop', name: 'web-1' } }],
  ] as const)('%j (default namespace %s)', (text, ns, expected) => {
    expect(parseCommand(text, ns)).toEqual(expected);
  });

  it.each([
    ['web-1', undefined, /no default namespace/],
    ['Shop/web-1', undefined, /not a valid namespace name/],
    ['shop/web_1', undefined, /not a valid pod name/],
    ['a/b/c', undefined, /too many "\/"/],
    ['shop/web-1 shop/web-2', undefined, /more than one target/],
    [`shop/${'a'.repeat(254)}`, undefined, /not a valid pod name/],
    [`shop/${'a'.repeat(400)}`, undefined, /too long/],
  ] as const)('refuses %j', (text, ns, problem) => {
    const out = parseCommand(text, ns);
    expect(out.kind).toBe('error');
    expect(out.kind === 'error' ? out.problem : '').toMatch(problem);
  });
});

describe('pod-doctor demo', () => {
  it('takes the scripted tour when stdin is not a terminal: every seed incident, one fix approved and verified, exit 0', { timeout: 120_000 }, async () => {
    const stdout = capture();
    const stderr = capture();
    const input = new PassThrough();
    const code = await demoCommand([], { stdout, stderr, env: { REDIS_URL, LOG_LEVEL: 'silent', USER: 'dana' } }, { input });
    expect(code, stderr.text()).toBe(0);
    const out = stdout.text();
    const seeds = (await loadScenarios(SCENARIO_ROOT)).filter((s) => s.meta.seed !== undefined);
    for (const s of seeds) {
      expect(out).toContain(`dana> /pod-doctor ${s.meta.target}`);
      expect(out).toContain(`Diagnosis of ${s.meta.target} (cluster demo)`);
      if (s.meta.first) expect(out).toContain(`[${s.meta.first}]`);
    }
    expect(out).toMatch(/Fixed by remove-finalizers: verified by a new diagnosis \(reports\/report-6f7d8-xk2lq is gone\)/);
    // Where it keeps its state, for `pod-doctor audit export` while it runs.
    expect(out).toMatch(/POD_DOCTOR_REDIS_PREFIX=pod-doctor-demo-\S+ pod-doctor audit export --since 1h --cluster demo/);
    // An Alertmanager group: firing, its thread with the diagnoses, silenced and muted from it, resolved.
    const alerts = out.slice(out.indexOf('dana> alert fire'));
    expect(alerts).toContain('KubePodNotReady (2): 2 firing');
    expect(alerts).toContain('First diagnosis of this root cause in the group');
    expect(alerts).toMatch(/dana> silence \d+ 1h\n {2}\(simulated Alertmanager\) silence sim-silence-1 until \d\d:\d\d UTC: alertname="KubePodNotReady"/);
    expect(alerts).toMatch(/@dana silenced this group in Alertmanager for 1h/);
    expect(alerts).toMatch(/@dana muted this thread until/);
    expect(alerts.indexOf('dana> alert resolve')).toBeGreaterThan(alerts.indexOf('muted this thread'));
    expect(alerts).toContain('Resolved: KubePodNotReady');
    expect(out.indexOf('Tour finished.')).toBeGreaterThan(out.indexOf('Resolved: KubePodNotReady'));
  });

  it('runs the production worker wiring: a rule override from its --config file applies to the findings', { timeout: 60_000 }, async () => {
    // One incident whose rule is a warning by default; the config file makes it info.
    const dir = mkdtempSync(join(tmpdir(), 'pod-doctor-demo-'));
    try {
      cpSync(join(SCENARIO_ROOT, 'crash-liveness-probe'), join(dir, 'scenarios', 'crash-liveness-probe'), { recursive: true });
      writeFileSync(join(dir, 'config.yaml'), 'rules:\n  crash.probe-failing: info\n');
      const stdout = capture();
      const stderr = capture();
      const argv = ['--all', '--dir', join(dir, 'scenarios'), '--config', join(dir, 'config.yaml')];
      const code = await demoCommand(argv, { stdout, stderr, env: { REDIS_URL, LOG_LEVEL: 'silent', USER: 'dana' } }, { input: new PassThrough() });
      expect(code, stderr.text()).toBe(0);
      const out = stdout.text();
      expect(out).toMatch(/1\. INFO · Liveness probe keeps killing container api .*\[crash\.probe-failing\]/);
      expect(out).not.toMatch(/WARNING · Liveness probe/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('chats line by line on a terminal: diagnose, approve as the local user, read the audit trail, an alert group, quit', { timeout: 120_000 }, async () => {
    const stdout = capture();
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const running = demoCommand(['--user', 'erin'], { stdout, stderr: capture(), env: { REDIS_URL, LOG_LEVEL: 'silent' } }, { input });
    await until(() => stdout.text().includes('Try one of these'));
    input.write('list\n');
    await until(() => stdout.text().includes('/pod-doctor reports/report-6f7d8-xk2lq\n'));
    input.write('/pod-doctor Reports/x\n');
    await until(() => stdout.text().includes('not a valid target'));
    input.write('/pod-doctor reports/report-6f7d8-xk2lq\n');
    await until(() => /\[approve (\d+)\] Approve: Remove the finalizers/.test(stdout.text()));
    const n = /\[approve (\d+)\] Approve: Remove the finalizers/.exec(stdout.text())![1];
    input.write('approve 99\n');
    await until(() => stdout.text().includes('no "approve" button on message 99'));
    input.write(`approve ${n}\n`);
    await until(() => stdout.text().includes('Fixed by remove-finalizers'));
    const mark = stdout.text().length;
    input.write(`approve ${n}\n`);
    await until(() => /no "approve" button|Already/.test(stdout.text().slice(mark)));
    // The audit trail of this run, read by `pod-doctor audit export` with what the demo printed.
    const [, env] = /\n {2}(REDIS_URL=\S+ POD_DOCTOR_REDIS_PREFIX=\S+) pod-doctor audit export/.exec(stdout.text())!;
    const audit = capture();
    const exported = await auditCommand(['export', '--since', '1h', '--cluster', 'demo'], {
      stdout: audit,
      stderr: capture(),
      env: { ...Object.fromEntries(env!.split(' ').map((kv) => kv.split('=', 2) as [string, string])), REDIS_URL, LOG_LEVEL: 'silent' },
    });
    expect(exported).toBe(0);
    const entries = audit
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; playbook: string; cluster: string });
    expect(entries.some((e) => e.kind === 'approval' && e.playbook === 'remove-finalizers' && e.cluster === 'demo')).toBe(true);

    // The thread's write-up, typed: printed as the file Slack would get, naming the local approver.
    const w = /\[writeup (\d+)\] Write-up/.exec(stdout.text())![1];
    const before = stdout.text().length;
    input.write(`writeup ${w}\n`);
    await until(() => /file post-incident-demo-[\d-]+\.md/.test(stdout.text().slice(before)) && stdout.text().slice(before).includes('## Follow-ups'));
    expect(stdout.text().slice(before)).toMatch(/remove-finalizers \(plan pl_[\w-]+\) approved by @erin; handed to the runner/);

    // The Alertmanager group, typed: fire, silence and mute from its thread, resolve.
    input.write('alert resolve\n');
    await until(() => stdout.text().includes('error: the alert group is not firing'));
    input.write('alert fire\n');
    await until(() => /\[mute (\d+)\] Mute 4h/.test(stdout.text()) && stdout.text().includes('First diagnosis of this root cause in the group'));
    const note = /\[mute (\d+)\] Mute 4h/.exec(stdout.text())![1];
    input.write(`silence ${note} 1h\n`);
    await until(() => stdout.text().includes('(simulated Alertmanager) silence sim-silence-1'));
    input.write(`mute ${note}\n`);
    await until(() => stdout.text().includes('@erin muted this thread'));
    input.write('alert resolve\n');
    await until(() => stdout.text().includes('Resolved: KubePodNotReady'));
    // Not a problem, typed on the group's findings: recorded for the local user, said in the thread.
    const nap = [...stdout.text().matchAll(/\[not-a-problem (\d+)\] Not a problem/g)].at(-1)![1];
    input.write(`not-a-problem ${nap}\n`);
    await until(() => /@erin marked [a-z0-9.-]+ \(.*\) not a problem for \S+/.test(stdout.text()));
    input.write('quit\n');
    expect(await running).toBe(0);
    expect(stdout.text()).toContain('@erin approved remove-finalizers');
  });

  it('says how to start Redis when nothing answers on REDIS_URL', async () => {
    const stderr = capture();
    const code = await demoCommand(
      [],
      { stdout: capture(), stderr, env: { REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent' } },
      { input: new PassThrough() },
    );
    expect(code).toBe(2);
    expect(stderr.text()).toContain('redis-server --daemonize yes --bind 127.0.0.1 --port 6379');
    expect(stderr.text()).toContain('redis://127.0.0.1:1');
  });
});
