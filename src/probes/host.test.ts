import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFlags, probe, redactArgs } from './host.js';
import { runProbe } from './probe.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const env = (seed: string) => ({ procRoot: join(FIXTURES, seed, 'proc'), hostRoot: join(FIXTURES, seed, 'host'), timeoutMs: 3000 });

describe('host', () => {
  it('seed 001: kernel 3.10, docker.service without MountFlags, kubelet flags', async () => {
    const out = await runProbe(probe, {}, env('001'));
    if (!out.ok) throw new Error(out.error);
    expect(out).toMatchObject({
      kernel: '3.10.0-327.el7.x86_64',
      os: 'CentOS Linux release 7.2.1511 (Core)',
      dockerService: { unitFile: '/usr/lib/systemd/system/docker.service', mountFlags: undefined, dropIns: [] },
      kubelet: { pid: 1322, settings: { maxPods: { value: 110, source: 'flag' }, podInfraContainerImage: { value: 'k8s.gcr.io/pause:3.1', source: 'flag' }, kubeAPIQPS: { source: 'unset' } } },
    });
  });

  it('seed 000: MountFlags=slave', async () => {
    const out = await runProbe(probe, {}, env('000'));
    expect(out).toMatchObject({ ok: true, dockerService: { mountFlags: 'slave' } });
  });

  it('seed 002: settings from the --config KubeletConfiguration, flags win', async () => {
    const out = await runProbe(probe, {}, env('002'));
    if (!out.ok) throw new Error(out.error);
    expect(out.kubelet.configFile).toBe('/var/lib/kubelet/config.yaml');
    expect(out.kubelet.settings).toMatchObject({
      maxPods: { value: 128, source: 'config' },
      kubeAPIQPS: { value: 50, source: 'config' },
      registryPullQPS: { value: 5, source: 'config' },
      podInfraContainerImage: { value: 'registry.aliyuncs.com/google_containers/pause:3.5', source: 'flag' },
    });
  });
});

describe('flags', () => {
  it('--a=b, --a b, bare --a', () => {
    expect(Object.fromEntries(parseFlags(['--max-pods=250', '--kube-api-qps', '20', '--serialize-image-pulls', '--v=2']))).toEqual({ 'max-pods': '250', 'kube-api-qps': '20', 'serialize-image-pulls': 'true', v: '2' });
  });
  it('redacts credentials in the kubelet command line', () => {
    expect(redactArgs(['/usr/bin/kubelet', '--token=abc', '--bootstrap-token', 'xyz', '--max-pods=10'])).toEqual(['/usr/bin/kubelet', '--token=[redacted]', '--bootstrap-token', '[redacted]', '--max-pods=10']);
  });
});
