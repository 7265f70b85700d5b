import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { argvHash, canonicalJson, manifestPod, parseFlags, probe, readStaticPods, redactArgs, STATIC_POD_LIMITS } from './host.js';
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
      kubelet: {
        pid: 1322,
        settings: {
          maxPods: { value: 110, source: 'flag' },
          podInfraContainerImage: { value: 'k8s.gcr.io/pause:3.1', source: 'flag' },
          kubeAPIQPS: { source: 'unset' },
        },
      },
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
    expect(Object.fromEntries(parseFlags(['--max-pods=250', '--kube-api-qps', '20', '--serialize-image-pulls', '--v=2']))).toEqual({
      'max-pods': '250',
      'kube-api-qps': '20',
      'serialize-image-pulls': 'true',
      v: '2',
    });
  });
  it('redacts credentials in the kubelet command line', () => {
    expect(redactArgs(['/usr/bin/kubelet', '--token=abc', '--bootstrap-token', 'xyz', '--max-pods=10'])).toEqual([
      '/usr/bin/kubelet',
      '--token=[redacted]',
      '--bootstrap-token',
      '[redacted]',
      '--max-pods=10',
    ]);
  });
});

describe('static pods', () => {
  const MANIFESTS = join(FIXTURES, 'static-pod/host/etc/kubernetes/manifests');

  it('fixture static-pod: the kubeadm manifest dir from staticPodPath, as the kubelet reads it', async () => {
    const out = await runProbe(probe, {}, env('static-pod'));
    if (!out.ok) throw new Error(out.error);
    expect(out.kubelet.configFile).toBe('/var/lib/kubelet/config.yaml');
    const sp = out.staticPods;
    expect(sp).toMatchObject({ path: '/etc/kubernetes/manifests', source: 'config', kind: 'dir', truncated: false });
    expect(sp?.mtime).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    // Name order; no dotfile (.swp), no recursion into backup/.
    expect(sp?.manifests.map((m) => m.file)).toEqual(['etcd.yaml', 'kube-apiserver.yaml', 'kube-scheduler.yaml']);
    const api = sp?.manifests[1];
    expect(api?.mtime).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(api?.error).toBeUndefined();
    expect(api?.pod).toMatchObject({
      name: 'kube-apiserver',
      namespace: 'kube-system',
      containers: [{ name: 'kube-apiserver', init: false, image: 'registry.k8s.io/kube-apiserver:v1.31.4' }],
    });
    const c = api?.pod?.containers[0];
    expect(c?.command?.[0]).toBe('kube-apiserver');
    expect(c?.command).toContain('--audit-log-maxage=30');
    expect(c?.args).toBeUndefined();
    // The hash is over the file's content, so a rule can recompute it from a mirror pod.
    const doc = parseYaml(readFileSync(join(MANIFESTS, 'kube-apiserver.yaml'), 'utf8')) as { spec: { containers: { command: string[] }[] } };
    expect(c?.argvHash).toBe(argvHash(doc.spec.containers[0]!.command, undefined));
    expect(api?.pod?.specHash).toMatch(/^[0-9a-f]{64}$/);
    // A broken edit is reported, not thrown, and without quoting the file.
    expect(sp?.manifests[2]).toMatchObject({ file: 'kube-scheduler.yaml', error: 'not valid YAML: Sequence item without - indicator at line 13, column 1' });
    expect(sp?.manifests[2]?.pod).toBeUndefined();
  });

  it('seed 001: no --pod-manifest-path, no config file, no kubeadm dir', async () => {
    const out = await runProbe(probe, {}, env('001'));
    if (!out.ok) throw new Error(out.error);
    expect(out.staticPods).toEqual({
      path: '/etc/kubernetes/manifests',
      source: 'default',
      manifests: [],
      truncated: false,
      error: '/etc/kubernetes/manifests does not exist on the node',
    });
  });

  describe('on a scratch host root', () => {
    let root = '';
    const penv = () => ({ procRoot: join(root, 'proc'), hostRoot: join(root, 'host'), timeoutMs: 3000 });
    const pod = (name: string, extra = '') =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n  - name: ${name}\n    image: example/${name}:1\n${extra}`;
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'pod-doctor-static-'));
      await mkdir(join(root, 'host/srv/manifests'), { recursive: true });
      await mkdir(join(root, 'host/etc/kubernetes'), { recursive: true });
      await mkdir(join(root, 'host/many'), { recursive: true });
      await writeFile(join(root, 'host/srv/manifests/haproxy.yaml'), pod('haproxy'));
      await writeFile(join(root, 'host/srv/real-keepalived.yaml'), pod('keepalived'));
      // Absolute symlinks are the host's: resolved under the host root, not the agent's /.
      await symlink('/srv/real-keepalived.yaml', join(root, 'host/srv/manifests/keepalived.yaml'));
      await symlink('/srv/manifests', join(root, 'host/etc/kubernetes/manifests'));
      await writeFile(join(root, 'host/srv/manifests/big.yaml'), `# ${'x'.repeat(STATIC_POD_LIMITS.fileBytes)}\n`);
      for (let i = 0; i < STATIC_POD_LIMITS.files + 3; i++) await writeFile(join(root, `host/many/p${String(i).padStart(3, '0')}.yaml`), pod(`p${i}`));
    });
    afterAll(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it('follows a symlinked dir and file under the host root; caps the file size', async () => {
      const sp = await readStaticPods(penv(), '/etc/kubernetes/manifests', 'flag');
      expect(sp.kind).toBe('dir');
      expect(sp.manifests.map((m) => [m.file, m.pod?.name ?? m.error])).toEqual([
        ['big.yaml', `larger than ${STATIC_POD_LIMITS.fileBytes / 1024} KiB, not read`],
        ['haproxy.yaml', 'haproxy'],
        ['keepalived.yaml', 'keepalived'],
      ]);
      expect(sp.manifests[2]?.linkTarget).toBe('/srv/real-keepalived.yaml');
      expect(sp.manifests[1]?.pod?.namespace).toBe('default');
    });

    it('reads a single manifest file; a relative or missing path is an error, not a throw', async () => {
      const one = await readStaticPods(penv(), '/srv/real-keepalived.yaml', 'config');
      expect(one).toMatchObject({ kind: 'file', manifests: [{ file: 'real-keepalived.yaml', pod: { name: 'keepalived' } }] });
      expect((await readStaticPods(penv(), 'manifests', 'flag')).error).toMatch(/not an absolute path/);
      expect((await readStaticPods(penv(), '/nope', 'flag')).error).toBe('/nope does not exist on the node');
    });

    it('finds the path from --pod-manifest-path, or from a pre-1.10 kubelet whose --config is the dir', async () => {
      await mkdir(join(root, 'proc/700'), { recursive: true });
      await writeFile(join(root, 'proc/700/comm'), 'kubelet\n');
      const run = async (...flags: string[]) => {
        await writeFile(join(root, 'proc/700/cmdline'), ['/usr/bin/kubelet', ...flags, ''].join('\0'));
        const out = await runProbe(probe, {}, penv());
        if (!out.ok) throw new Error(out.error);
        return out.staticPods;
      };
      expect(await run('--pod-manifest-path=/srv/manifests/', '--max-pods=50')).toMatchObject({
        path: '/srv/manifests/',
        source: 'flag',
        kind: 'dir',
        manifests: [{ file: 'big.yaml' }, { file: 'haproxy.yaml' }, { file: 'keepalived.yaml' }],
      });
      expect(await run('--config', '/etc/kubernetes/manifests')).toMatchObject({ path: '/etc/kubernetes/manifests', source: 'flag', kind: 'dir' });
    });

    it('bounds the number of files read', async () => {
      const sp = await readStaticPods(penv(), '/many', 'flag');
      expect(sp.truncated).toBe(true);
      expect(sp.manifests).toHaveLength(STATIC_POD_LIMITS.files);
    });
  });

  it.each([
    ['a list', '- a', 'not a YAML mapping'],
    ['a Deployment', 'kind: Deployment\nmetadata: {name: x}', 'not a Pod (kind: Deployment)'],
    ['no name', 'kind: Pod\nspec: {containers: [{name: a}]}', 'metadata.name is missing'],
    ['no containers', 'kind: Pod\nmetadata: {name: x}\nspec: {containers: []}', 'spec.containers is empty'],
    [
      'a number in args',
      'kind: Pod\nmetadata: {name: x}\nspec: {containers: [{name: a, image: b, args: [--port, 8080]}]}',
      'container a: args must be a list of strings (the kubelet rejects this manifest)',
    ],
  ])('rejects %s the way the kubelet would', (_name, text, error) => {
    expect(manifestPod(parseYaml(text))).toEqual({ error });
  });

  it('redacts credentials across command and args, hashes what was written, and omits argv over budget', () => {
    const doc = parseYaml(
      'kind: Pod\nmetadata: {name: vip, namespace: kube-system}\nspec:\n  initContainers: [{name: init, image: busybox}]\n  containers:\n  - {name: vip, image: kube-vip:0.8, command: [kube-vip, --auth-token], args: [s3cr3t, --password=hunter2, manager]}',
    );
    const pod = manifestPod(doc);
    if ('error' in pod) throw new Error(pod.error);
    expect(pod.containers).toEqual([
      { name: 'init', init: true, image: 'busybox', argvHash: argvHash(undefined, undefined) },
      {
        name: 'vip',
        init: false,
        image: 'kube-vip:0.8',
        command: ['kube-vip', '--auth-token'],
        args: ['[redacted]', '--password=[redacted]', 'manager'],
        argvHash: argvHash(['kube-vip', '--auth-token'], ['s3cr3t', '--password=hunter2', 'manager']),
      },
    ]);
    const tight = manifestPod(doc, { argvChars: 10 });
    if ('error' in tight) throw new Error(tight.error);
    expect(tight.containers[1]).toEqual({ name: 'vip', init: false, image: 'kube-vip:0.8', argvOmitted: true, argvHash: pod.containers[1]!.argvHash });
  });

  it('canonical JSON ignores key order', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: 'x', u: undefined })).toBe('{"a":"x","b":[1,{"c":2,"d":1}]}');
    expect(argvHash(['a'], undefined)).toBe(argvHash(['a'], []));
    expect(argvHash(['a'], ['b'])).not.toBe(argvHash(['a', 'b'], undefined));
  });
});
