// The node agent's allow-listed actions over HTTP (the real agent server over fixture proc trees,
// a fake docker and a recording HostExec): what is allowed runs, everything else is refused with
// 403 and the reason, and nothing reaches the host. Plus the real HostExec's fixed argv, and the
// one action table both the agent and the playbook steps are built from.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHostExec, splitImageRef } from '../../src/agent/actions/host-exec.js';
import { AGENT_ACTION_DEFS } from '../../src/agent/actions/index.js';
import { AGENT_ACTION_TABLE, AGENT_ACTIONS } from '../../src/agent/actions/types.js';
import { ACTIONS, type StepContext } from '../../src/remediation/actions/index.js';
import { startFakeDocker } from '../../src/sim/fake-docker.js';
import { sharedAgentCerts } from '../helpers/agent-tls.js';
import { type FixtureAgent, fixtureAgent, HANGING_GLUSTER_STAT, TOKEN } from '../helpers/remediation.js';

const UID_001 = '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b';
const UID_000 = '2b8e5882-5146-11e9-b3b3-525400dd6f19';
const OTHER = '00000000-0000-4000-8000-00000000abcd';
const GLUSTER_OWN = `/var/lib/kubelet/pods/${UID_000}/volumes/kubernetes.io~glusterfs/xxxx-xxxxx-index-task-volume-log`;
const GLUSTER_OTHER = '/var/lib/kubelet/pods/7c1e40a2-5146-11e9-b3b3-525400dd6f19/volumes/kubernetes.io~glusterfs/xxxx-xxxxx-query-volume-log';
const OVERLAY = '/var/lib/docker/overlay2/c3f1d9b8a7e6f5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0/merged';

function podRef(uid: string) {
  return { uid, namespace: 'default', name: 'web-1', containerIds: [] };
}

/** The fixture agents serve HTTPS (test/helpers/agent-tls.ts): trust their CA and name. */
const tls = new Agent({ connect: { ca: sharedAgentCerts().ca, servername: sharedAgentCerts().serverName } });

async function post(agent: FixtureAgent, action: string, body: unknown, token = TOKEN): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${agent.url}/v1/actions/${action}`, {
    dispatcher: tls,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('agent actions on node 001 (ntpd holds a container mount)', () => {
  let agent: FixtureAgent;
  beforeAll(async () => {
    agent = await fixtureAgent('001', 'node-1');
  });
  afterAll(async () => agent.close());
  afterEach(() => {
    agent.exec.calls.length = 0;
  });

  it('is authenticated with the probes token and validates input strictly', async () => {
    expect((await post(agent, 'restart-unit', { node: 'node-1', pod: podRef(UID_001), unit: 'ntpd.service' }, 'wrong-token-wrong-token')).status).toBe(401);
    const bad = await post(agent, 'restart-unit', { node: 'node-1', pod: podRef(UID_001), unit: 'ntpd.service; reboot' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/unit/);
    expect((await post(agent, 'restart-unit', { node: 'node-1', pod: podRef(UID_001), unit: 'ntpd.service', extra: 1 })).status).toBe(400);
    expect((await post(agent, 'reboot', { node: 'node-1' })).status).toBe(404);
    expect(agent.exec.calls).toEqual([]);
  });

  it("restarts a unit that holds one of the pod's mounts now", async () => {
    const r = await post(agent, 'restart-unit', { node: 'node-1', pod: podRef(UID_001), unit: 'ntpd.service' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ ok: true, action: 'restart-unit', node: 'node-1', changed: true });
    expect(agent.exec.calls).toEqual([{ op: 'restartUnit', arg: 'ntpd.service' }]);
  });

  it.each([
    [
      'a unit that holds nothing of the pod',
      { pod: podRef(UID_001), unit: 'crond.service' },
      /crond\.service does not hold a mount of pod default\/web-1 .* now; holders now: ntpd\.service/,
    ],
    [
      'the holder, asked for another pod',
      { pod: podRef(OTHER), unit: 'ntpd.service' },
      /does not hold a mount of pod default\/web-1 \(uid 00000000-0000-4000-8000-00000000abcd\) now/,
    ],
    ['the kubelet', { pod: podRef(UID_001), unit: 'kubelet.service' }, /kubelet\.service is not a pod-scoped unit/],
    ['the runtime', { pod: podRef(UID_001), unit: 'docker.service' }, /docker\.service is not a pod-scoped unit/],
  ])('refuses to restart %s (403, with the reason)', async (_name, body, reason) => {
    const r = await post(agent, 'restart-unit', { node: 'node-1', ...body });
    expect(r.status).toBe(403);
    expect(String(r.body.error)).toMatch(reason);
    expect(agent.exec.calls).toEqual([]);
  });

  it('refuses a request for another node', async () => {
    const r = await post(agent, 'restart-kubelet', { node: 'node-2' });
    expect(r).toMatchObject({ status: 403, body: { error: 'this agent serves node node-1, not node-2' } });
    expect(agent.exec.calls).toEqual([]);
  });

  it("removes only containers labelled with the pod's UID", async () => {
    const foreign = await post(agent, 'remove-pod-containers', { node: 'node-1', pod: podRef(UID_001), containerIds: ['ffffffffffff'] });
    expect(foreign.status).toBe(403);
    expect(String(foreign.body.error)).toMatch(/ffffffffffff are not containers of pod/);
    const none = await post(agent, 'remove-pod-containers', { node: 'node-1', pod: podRef(OTHER) });
    expect(none).toMatchObject({ status: 200, body: { changed: false } });
    expect(agent.exec.calls).toEqual([]);
    const ok = await post(agent, 'remove-pod-containers', { node: 'node-1', pod: podRef(UID_001) });
    expect(ok).toMatchObject({ status: 200, body: { changed: true, items: ['e6b7378c58a3'] } });
    expect(agent.exec.calls).toEqual([{ op: 'removeContainer', arg: 'e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9' }]);
  });
});

describe('agent image actions', () => {
  let agent: FixtureAgent;
  const IMAGE = 'registry.example.com/shop/web:1.4.2';
  beforeAll(async () => {
    agent = await fixtureAgent('001', 'node-1', {
      editSpec: (spec) => {
        spec.routes['/containers/json'] = [
          { Id: 'ab'.repeat(32), Image: IMAGE, State: 'exited', Labels: { 'io.kubernetes.pod.uid': UID_001 } },
          { Id: 'cd'.repeat(32), Image: 'busybox:1.36', State: 'running', Labels: { 'io.kubernetes.pod.uid': OTHER } },
        ];
      },
    });
  });
  afterAll(async () => agent.close());

  it("removes only the pod's image (after the pod's containers using it), then may pull it again", async () => {
    const other = await post(agent, 'remove-image', { node: 'node-1', pod: podRef(UID_001), image: 'busybox:1.36' });
    expect(other.status).toBe(403);
    expect(String(other.body.error)).toMatch(/image busybox:1\.36 is not used by a container of pod/);
    expect((await post(agent, 'pull-image', { node: 'node-1', pod: podRef(UID_001), image: 'busybox:1.36' })).status).toBe(403);
    expect(agent.exec.calls).toEqual([]);

    expect((await post(agent, 'remove-image', { node: 'node-1', pod: podRef(UID_001), image: IMAGE })).status).toBe(200);
    // The pod's containers are gone now; the grant from remove-image allows the re-pull.
    expect((await post(agent, 'pull-image', { node: 'node-1', pod: podRef(UID_001), image: IMAGE })).status).toBe(200);
    expect(agent.exec.calls).toEqual([
      { op: 'removeContainer', arg: 'ab'.repeat(32) },
      { op: 'removeImage', arg: IMAGE },
      { op: 'pullImage', arg: IMAGE },
    ]);
  });
});

describe('agent lazy-unmount on node 000 (glusterfs)', () => {
  it.each([
    ['an overlay mount', UID_000, OVERLAY, ['true'], 403, /is a overlay mount; only FUSE and network mounts/],
    ["another pod's FUSE mount that answers stat", UID_000, GLUSTER_OTHER, ['true'], 403, /is not a mount of pod .* and answers stat/],
    ["another pod's FUSE mount that hangs", OTHER, GLUSTER_OTHER, HANGING_GLUSTER_STAT, 200, /lazily unmounted fuse\.glusterfs .* \(it did not answer stat\)/],
    ["the pod's own FUSE mount", UID_000, GLUSTER_OWN, ['true'], 200, /lazily unmounted fuse\.glusterfs 10\.10\.64\.58:xxxx-log at/],
    ['a path that is not mounted', UID_000, `/var/lib/kubelet/pods/${UID_000}/volumes/x`, ['true'], 200, /is not mounted/],
  ])('%s', async (_name, uid, mount, stat, status, text) => {
    const agent = await fixtureAgent('000', 'node-0', { statCommand: stat });
    try {
      const r = await post(agent, 'lazy-unmount', { node: 'node-0', pod: podRef(uid), mount });
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(String(r.body.error ?? r.body.detail)).toMatch(text);
      expect(agent.exec.calls).toEqual(status === 200 && !/not mounted/.test(String(r.body.detail)) ? [{ op: 'lazyUnmount', arg: mount }] : []);
    } finally {
      await agent.close();
    }
  });

  it('refuses paths with ".."', async () => {
    const agent = await fixtureAgent('000', 'node-0');
    try {
      expect((await post(agent, 'lazy-unmount', { node: 'node-0', pod: podRef(UID_000), mount: `/var/lib/kubelet/pods/${UID_000}/../../etc` })).status).toBe(
        400,
      );
    } finally {
      await agent.close();
    }
  });
});

describe('the real HostExec', () => {
  let bin: string;
  let oldPath: string | undefined;
  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'pd-bin-'));
    for (const cmd of ['systemctl', 'umount', 'nsenter']) {
      writeFileSync(join(bin, cmd), `#!/bin/sh\nprintf '%s\\n' "${cmd}" "$@" >> "${join(bin, 'argv.log')}"\n`);
      chmodSync(join(bin, cmd), 0o755);
    }
    oldPath = process.env.PATH;
    process.env.PATH = `${bin}:${oldPath}`;
  });
  afterAll(() => {
    process.env.PATH = oldPath;
    rmSync(bin, { recursive: true, force: true });
  });

  it('runs fixed argv without a shell, through nsenter when the host root is mounted elsewhere', async () => {
    const onHost = createHostExec({ hostRoot: '/' });
    expect(await onHost.restartUnit('ntpd.service')).toMatchObject({ ok: true });
    expect(await onHost.lazyUnmount('/mnt/gluster')).toMatchObject({ ok: true });
    const inPod = createHostExec({ hostRoot: '/host' });
    expect(await inPod.restartUnit('ntpd.service')).toMatchObject({ ok: true });
    expect(readFileSync(join(bin, 'argv.log'), 'utf8').trim().split('\n')).toEqual([
      'systemctl',
      'restart',
      'ntpd.service',
      'umount',
      '-l',
      '/mnt/gluster',
      'nsenter',
      '--target',
      '1',
      '--mount',
      '--uts',
      '--ipc',
      '--net',
      '--pid',
      '--',
      'systemctl',
      'restart',
      'ntpd.service',
    ]);
    await expect(onHost.restartUnit('ntpd.service; reboot')).rejects.toThrow();
    await expect(onHost.lazyUnmount('relative/path')).rejects.toThrow();
    await expect(onHost.lazyUnmount('/mnt/$(reboot)')).rejects.toThrow();
  });

  it('speaks the Docker API: containers by pod label, refusals as codes', async () => {
    const docker = await startFakeDocker({
      routes: {
        '/containers/json': [
          { Id: 'ab'.repeat(32), Names: ['/k8s_web'], Image: 'web:1', State: 'exited', Labels: { 'io.kubernetes.pod.uid': UID_001 } },
          { Id: 'cd'.repeat(32), Names: ['/k8s_db'], Image: 'db:1', State: 'running', Labels: { 'io.kubernetes.pod.uid': OTHER } },
        ],
      },
    });
    try {
      const exec = createHostExec({ hostRoot: '/', dockerSockets: [docker.socket] });
      expect((await exec.listPodContainers(UID_001)).map((c) => c.id)).toEqual(['ab'.repeat(32)]);
      expect(docker.requests.at(-1)).toContain(encodeURIComponent(`io.kubernetes.pod.uid=${UID_001}`));
      expect(await exec.removeContainer('ab'.repeat(32))).toMatchObject({ ok: false, code: 404 });
      await expect(exec.removeImage('bad image')).rejects.toThrow();
    } finally {
      await docker.close();
    }
  });

  it('splits image references for /images/create', () => {
    expect(splitImageRef('docker02:35000/app/pms.tar:develop-175')).toEqual({ fromImage: 'docker02:35000/app/pms.tar', tag: 'develop-175' });
    expect(splitImageRef('busybox')).toEqual({ fromImage: 'busybox', tag: 'latest' });
    expect(splitImageRef(`web@sha256:${'a'.repeat(64)}`)).toEqual({ fromImage: 'web', tag: `sha256:${'a'.repeat(64)}` });
  });
});

describe('the agent action table', () => {
  it('is what the agent serves', () => {
    expect(Object.keys(AGENT_ACTION_DEFS)).toEqual([...AGENT_ACTIONS]);
  });

  it("gives each action a step kind of its name that sends a request the action's schema accepts", async () => {
    const sample: Record<string, unknown> = {
      node: 'node-1',
      namespace: 'default',
      pod: 'web-1',
      uid: UID_001,
      unit: 'ntpd.service',
      pid: 4242,
      mount: GLUSTER_OWN,
      image: 'busybox:1.35',
    };
    for (const name of AGENT_ACTIONS) {
      const { step, request } = AGENT_ACTION_TABLE[name];
      const kind = ACTIONS[name]!;
      expect({ kind: kind.kind, summary: kind.summary, destructive: kind.destructive, timeoutMs: kind.timeoutMs }).toEqual({
        kind: name,
        summary: step.summary,
        destructive: step.destructive,
        timeoutMs: step.timeoutMs,
      });
      const params = kind.params.parse(Object.fromEntries(Object.keys(kind.params.shape).flatMap((k) => (k in sample ? [[k, sample[k]]] : []))));
      const sent: unknown[] = [];
      const agentClient = {
        call: async (action: string, input: unknown) => {
          sent.push(action, request.parse(input));
          return { ok: true, action, node: 'node-1', changed: true, detail: 'done', items: [] };
        },
      };
      const out = await kind.run({ agent: agentClient } as unknown as StepContext, params);
      expect(sent[0], name).toBe(name);
      expect(out.detail).toBe('node-1: done');
      expect(kind.describe(params)[0]).toMatch(/^node agent on node-1: /);
    }
  });
});
