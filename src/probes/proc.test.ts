import { describe, expect, it } from 'vitest';
import { parseCgroup, parseMountinfoLine, parseStat, podCgroupNeedles, startTimeIso } from './proc.js';

describe('parseStat', () => {
  it.each([
    [
      '31238 (java) Z 31221 31238 31238 0 -1 4194560 100 0 0 0 10 5 0 0 20 0 1 0 26975500 0 0',
      { pid: 31238, comm: 'java', state: 'Z', ppid: 31221, startTicks: 26975500 },
    ],
    // A command may contain spaces and parentheses: split after the last ")".
    ['42 (my (odd) cmd) S 1 42 42 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 777 0 0', { pid: 42, comm: 'my (odd) cmd', state: 'S', ppid: 1, startTicks: 777 }],
  ])('%s', (text, want) => {
    expect(parseStat(text)).toEqual(want);
  });
  it('rejects garbage', () => expect(parseStat('nope')).toBeUndefined());
});

describe('parseCgroup', () => {
  const uid = '2b8e5882-5146-11e9-b3b3-525400dd6f19';
  const cid = '17619dcf545c0936b5a5bad416c1fe50064547f49ba3f34721baf4201f242c1b';
  it.each([
    ['v1 service', '11:memory:/system.slice/ntpd.service\n1:name=systemd:/system.slice/ntpd.service\n', { unit: 'ntpd.service' }],
    ['v2 service', '0::/system.slice/ntpd.service\n', { unit: 'ntpd.service' }],
    [
      'v1 cgroupfs driver (docker)',
      `11:memory:/kubepods/burstable/pod${uid}/${cid}\n1:name=systemd:/kubepods/burstable/pod${uid}/${cid}\n`,
      { podUid: uid, containerId: cid },
    ],
    [
      'v2 systemd driver (containerd)',
      `0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${uid.replace(/-/g, '_')}.slice/cri-containerd-${cid}.scope\n`,
      { podUid: uid, containerId: cid, unit: `cri-containerd-${cid}.scope` },
    ],
    [
      'hybrid: systemd hierarchy says / but memory knows the pod',
      `11:memory:/kubepods/besteffort/pod${uid}/${cid}\n1:name=systemd:/\n0::/\n`,
      { podUid: uid, containerId: cid },
    ],
  ])('%s', (_name, text, want) => {
    expect(parseCgroup(text)).toMatchObject(want);
  });
  it('knows both UID spellings', () => expect(podCgroupNeedles(uid)).toEqual([`pod${uid}`, `pod${uid.replace(/-/g, '_')}`]));
});

describe('parseMountinfoLine', () => {
  it('reads the line of seed 001', () => {
    const line =
      '296 183 0:183 / /var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged rw,relatime shared:88 - overlay overlay rw,lowerdir=/var/lib/docker/overlay/5e2a5f7af24e555a5afacd6a8faa406b42c51d7f2bb4cde22adcea22e0153583/root';
    expect(parseMountinfoLine(line)).toMatchObject({
      mountId: '296',
      root: '/',
      fsType: 'overlay',
      source: 'overlay',
      mountPoint: '/var/lib/docker/overlay/98a56d695c9e3d0b6a9f3b5e0e60abf7cdb3ce73e976b00e36ca59028e585a36/merged',
    });
  });
  it('unescapes octal spaces', () => {
    expect(parseMountinfoLine('50 41 0:40 / /mnt/my\\040disk rw - nfs4 srv:/x rw')?.mountPoint).toBe('/mnt/my disk');
  });
  it('start time from boot time and ticks', () => expect(startTimeIso(1553500000, 26975500)).toBe('2019-03-28T10:42:35.000Z'));
});
