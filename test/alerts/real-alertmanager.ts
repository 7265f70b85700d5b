// The real Alertmanager (Debian's prometheus-alertmanager) for end-to-end tests: configured like
// deploy/alertmanager/alertmanager.yml with a bearer token file, listening on a free loopback
// port, no HA gossip, short grouping so notifications come within seconds.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { eventually } from '../helpers/jobs.js';

export const ALERTMANAGER_BIN = process.env.ALERTMANAGER_BIN ?? '/usr/bin/prometheus-alertmanager';
export const HAVE_ALERTMANAGER = existsSync(ALERTMANAGER_BIN);

export interface RealAlertmanager {
  url: string;
  /** Everything it printed (for failure messages). */
  log(): string;
  /** POST /api/v2/alerts. */
  postAlerts(body: unknown): Promise<Response>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export async function startRealAlertmanager(options: { dir: string; webhookUrl: string; token: string; maxAlerts?: number }): Promise<RealAlertmanager> {
  const tokenFile = join(options.dir, 'token');
  writeFileSync(tokenFile, `${options.token}\n`, { mode: 0o600 });
  const config = join(options.dir, 'alertmanager.yml');
  writeFileSync(
    config,
    `route:
  receiver: pod-doctor
  group_by: ['alertname', 'namespace']
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 1h
receivers:
  - name: pod-doctor
    webhook_configs:
      - url: ${options.webhookUrl}
        send_resolved: true
${options.maxAlerts !== undefined ? `        max_alerts: ${options.maxAlerts}\n` : ''}        http_config:
          authorization:
            type: Bearer
            credentials_file: ${tokenFile}
`,
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const am = spawn(
    ALERTMANAGER_BIN,
    [
      `--config.file=${config}`,
      `--storage.path=${join(options.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=debug',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  am.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  am.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const stop = async () => {
    if (am.exitCode !== null) return;
    const exited = new Promise((r) => am.once('exit', r));
    am.kill('SIGTERM');
    await exited;
  };
  try {
    await eventually(async () => (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok, 20_000, 100);
  } catch (err) {
    await stop();
    throw new Error(`alertmanager did not become ready: ${(err as Error).message}\n${log.slice(-2000)}`);
  }
  return {
    url,
    log: () => log,
    postAlerts: (body) => fetch(`${url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    stop,
  };
}
