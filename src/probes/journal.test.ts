import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probe } from './journal.js';
import { runProbe } from './probe.js';
import { matchSignatures, redactLine } from './signatures.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/nodes');
const env = (seed: string) => ({ procRoot: join(FIXTURES, seed, 'proc'), hostRoot: join(FIXTURES, seed, 'host'), timeoutMs: 8000 });
const tmp = mkdtempSync(join(tmpdir(), 'pd-journal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('journal', () => {
  it('seed 000: kill deadline lines about the pod, the lstat ns line as a node-wide signature', async () => {
    const out = await runProbe(
      probe,
      {
        podUid: '2b8e5882-5146-11e9-b3b3-525400dd6f19',
        namespace: 'xxx-xxxx',
        name: 'xxxx-xxxxx-index-task-569f775985-2qv8x',
        containerIds: ['17619dcf545c0936b5a5bad416c1fe50064547f49ba3f34721baf4201f242c1b'],
      },
      env('000'),
    );
    if (!out.ok) throw new Error(out.error);
    // Four kubelet lines carry the timeout; kubelet.go:1532 names only the container, not the pod.
    expect(out.counts['kill-deadline']).toBe(3);
    expect(out.counts['kill-timeout']).toBe(3);
    const lstat = out.matches.find((m) => m.signatures.includes('ns-lstat'));
    expect(lstat).toMatchObject({ aboutPod: false, captures: { pid: '30849', ns: 'ipc' } });
    expect(out.matches.find((m) => m.signatures.includes('kill-deadline'))?.captures.containerId).toBe(
      '17619dcf545c0936b5a5bad416c1fe50064547f49ba3f34721baf4201f242c1b',
    );
  });

  it("seed 001: the busy path is captured from dockerd's line", async () => {
    const out = await runProbe(
      probe,
      { podUid: '9e3d2cbb-f9d4-11e8-b61c-f01fafd10a1b', containerIds: ['e6b7378c58a34cb42c6fa7924f7a52b7a19a64b2166d7a56f363e73ecba6e5a9'] },
      env('001'),
    );
    if (!out.ok) throw new Error(out.error);
    // Only the two lines about this container: the other container's busy lines do not name the pod.
    expect(out.matches).toHaveLength(2);
    expect(
      out.matches.every((m) => m.captures.path === '/var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged'),
    ).toBe(true);
  });

  it('seed 004: teardown lines of a same-named pod, with the API token redacted', async () => {
    const out = await runProbe(probe, { podUid: '35b722f5-dfad-11e7-9a8f-52549da43ad9', namespace: 'lijiaob', name: 'stateful-new-pod-0' }, env('004'));
    if (!out.ok) throw new Error(out.error);
    expect(out.counts['cni-teardown']).toBe(6);
    expect(out.counts['calico-wep-deleted']).toBe(2);
    const stop = out.matches.find((m) => m.line.includes('StopPodSandbox'));
    expect(stop?.captures).toMatchObject({ sandboxId: '41857f70ed13326dbc2c04e7d8e7c56c28f83df67e82e76d2fb4d74b7ab24659', pod: 'stateful-new-pod-0_lijiaob' });
    expect(out.matches.find((m) => m.line.includes('KillPodSandbox'))?.captures.podUid).toBe('0bdc387d-dfac-11e7-9a8f-52549da43ad9');
    const all = JSON.stringify(out);
    expect(all).not.toMatch(/eyJhbGciOiJSUzI1NiIs/);
    expect(all).toMatch(/K8S_API_TOKEN=\[redacted\]/);
  });

  it('caps the matches and marks truncation', async () => {
    const uid = '11111111-2222-4333-8444-555555555555';
    const file = join(tmp, 'messages');
    writeFileSync(
      file,
      Array.from(
        { length: 500 },
        (_, i) =>
          `Nov 21 10:00:${String(i % 60).padStart(2, '0')} n kubelet[1]: error cleaning subPath mounts for volume "v" pod "${uid}": remove /var/lib/kubelet/pods/${uid}/volume-subpaths/v/c/${i}: device or resource busy`,
      ).join('\n'),
    );
    const out = await runProbe(probe, { podUid: uid }, { ...env('001'), logFiles: [file] });
    if (!out.ok) throw new Error(out.error);
    expect(out.matches).toHaveLength(64);
    expect(out.truncated).toBe(true);
    // The newest lines are kept.
    expect(out.matches.at(-1)?.captures.path).toBe(`/var/lib/kubelet/pods/${uid}/volume-subpaths/v/c/499`);
  });

  it('no readable source is a probe failure, not an empty answer', async () => {
    const out = await runProbe(probe, {}, { ...env('001'), logFiles: [join(tmp, 'missing')] });
    expect(out).toMatchObject({ ok: false, error: expect.stringMatching(/no log source readable/) });
  });
});

describe('signatures', () => {
  it("the kubelet's volume TearDown failing with umount(8)'s words (a real kubelet 1.20, test/realnode) is device-busy, with path and volume", () => {
    // Printed by the kubelet of the real-node suite (its root dir shown as /var/lib/kubelet).
    const line = String.raw`E1125 13:07:09.774973    8048 nestedpendingoperations.go:301] Operation for "{volumeName:kubernetes.io/empty-dir/fb153396-24b1-43e2-82ae-2782ebdef33c-cache podName:fb153396-24b1-43e2-82ae-2782ebdef33c nodeName:}" failed. No retries permitted until 2026-11-25 13:07:10.274945316 +0000 UTC m=+26.284793951 (durationBeforeRetry 500ms). Error: "UnmountVolume.TearDown failed for volume \"cache\" (UniqueName: \"kubernetes.io/empty-dir/fb153396-24b1-43e2-82ae-2782ebdef33c-cache\") pod \"fb153396-24b1-43e2-82ae-2782ebdef33c\" (UID: \"fb153396-24b1-43e2-82ae-2782ebdef33c\") : unmount failed: exit status 32\nUnmounting arguments: /var/lib/kubelet/pods/fb153396-24b1-43e2-82ae-2782ebdef33c/volumes/kubernetes.io~empty-dir/cache\nOutput: umount: /var/lib/kubelet/pods/fb153396-24b1-43e2-82ae-2782ebdef33c/volumes/kubernetes.io~empty-dir/cache: target is busy.\n"`;
    const hit = matchSignatures(line);
    expect(hit?.signatures).toEqual(['device-busy']);
    expect(hit?.captures).toMatchObject({
      path: '/var/lib/kubelet/pods/fb153396-24b1-43e2-82ae-2782ebdef33c/volumes/kubernetes.io~empty-dir/cache',
      volume: 'cache',
    });
    // "target is busy" alone, from something that is not umount(8), is not the signature.
    expect(matchSignatures('the parking target is busy today')).toBeUndefined();
  });

  it.each([
    [
      'FailedCreatePodSandBox: Failed to create pod sandbox: rpc error: code = Unknown desc = failed pulling image "k8s.gcr.io/pause:3.2": unauthorized',
      ['sandbox-create-failed'],
    ],
    ['Error response from daemon: file integrity checksum failed for "etc/anacrontab"', ['image-checksum']],
    [
      'Handler for GET /v1.31/images/docker02:35000/grafana/grafana-enhanced:5.2.0/json returned error: readlink /mnt/disk0/docker/data/overlay2: invalid argument',
      ['image-inspect-readlink'],
    ],
    ['Node became not ready: PLEG is not healthy: pleg was last seen active 3m5s ago', ['pleg-unhealthy']],
    ['nothing to see here', undefined],
  ])('%s', (text, want) => expect(matchSignatures(text)?.signatures).toEqual(want));
  it('redacts tokens', () =>
    expect(redactLine('Authorization: Bearer abcdefghijklmnop token=s3cr3t')).toBe('Authorization: Bearer [redacted] token=[redacted]'));
});
