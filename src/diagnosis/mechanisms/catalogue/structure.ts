// Signatures by structure: lines that name the thing they lack (a capability, a device node, the
// locked-memory limit) in any program's wording. They carry no mechanism of their own: each leads
// to one the catalogue already explains, with what the line named as its data, so a program nobody
// listed still gets the mechanism when it says what it needs.

import { re, signatures } from '../define.js';
import { errnoSource } from '../errno.js';
import type { Mechanism } from '../types.js';

const ENOENT = errnoSource('ENOENT');
const EACCES = errnoSource('EACCES');
const EPERM = errnoSource('EPERM');

/**
 * Device nodes every container has (the runtime creates them, or they are the pod's own
 * mounts): a failure on one of these is not a missing device. /dev/shm has its own mechanism.
 */
const ORDINARY_DEVICES = '(?!(?:shm|null|zero|full|u?random|tty|console|pts|ptmx|mqueue|std(?:in|out|err)|fd|termination-log|log)\\b)';

export const MECHANISMS: readonly Mechanism[] = [];

export const SIGNATURES = signatures([
  {
    id: 'structure.capability-named',
    // A program's own check naming what it lacks: as specific as a server's sentence.
    family: 'server',
    mechanism: 'capability-missing',
    needles: ['cap_'],
    patterns: [
      // libcap's cap_to_name() wording inside a program's own check (Collabora's coolforkit).
      re('Capability (?<cap>cap_[a-z_]+) is not set'),
      // iputils: `ping: socket: Operation not permitted (missing cap_net_raw+p capability)`.
      re('\\(missing (?<cap>cap_[a-z_]+)\\+[a-z]+ capability\\)'),
    ],
    source:
      'libcap cap_to_name() (lower-case cap_ names) as programs print them: CollaboraOnline/online kit security check ("Capability %s is not set ' +
      'for the coolforkit program", issue CollaboraOnline/online#3917), iputils ping ("missing cap_net_raw+p capability")',
    examples: ['Capability cap_sys_chroot is not set for the coolforkit program.', 'ping: socket: Operation not permitted (missing cap_net_raw+p capability)'],
    nearMisses: ['Current: = cap_chown,cap_dac_override,cap_fowner,cap_fsetid,cap_kill,cap_setgid,cap_setuid,cap_setpcap,cap_net_bind_service+eip'],
  },
  {
    id: 'structure.dev-node',
    family: 'errno',
    mechanism: 'device-access',
    needles: ['/dev/'],
    patterns: [
      // `open /dev/net/tun: no such file or directory`, `Unable to open /dev/kvm: No such file or directory`,
      // `stat /dev/kvm: no such file or directory`: the device is not in the container (or not on the node).
      re(`(?:open|opening|stat|access)\\S*:? (?<path>/dev/${ORDINARY_DEVICES}[\\w./-]+)['"]?: (?:`, ENOENT, '|', EACCES, '|', EPERM, ')'),
    ],
    source:
      'open(2)/stat(2) on a device node the runtime did not create (runc creates only its default devices; the device cgroup refuses others). ' +
      'Lines (GitHub): libvirt via kubevirt/kubevirt discussions ("Unable to open /dev/kvm"), Firecracker/E2B setups ("KVM not available: stat ' +
      '/dev/kvm"), tailscale and transmission-openvpn pods ("tun: open /dev/net/tun: no such file or directory")',
    examples: [
      'Nov 21 19:35:23 archlinux libvirtd[10559]: Unable to open /dev/kvm: No such file or directory',
      'Error: "KVM not available: stat /dev/kvm: no such file or directory"',
      'tun: open /dev/net/tun: no such file or directory',
    ],
  },
  {
    id: 'structure.memlock-rlimit',
    family: 'runtime',
    mechanism: 'memlock-limit',
    needles: ['memlock rlimit'],
    patterns: [re('failed to set memlock rlimit: ', EPERM)],
    source:
      'cilium/ebpf rlimit/rlimit.go (RemoveMemlock: "failed to set memlock rlimit: %w", needs SYS_RESOURCE before kernel 5.11). Lines (GitHub): ' +
      'grafana/beyla troubleshooting docs, cilium on rootless kind',
    examples: [
      'level=ERROR msg="can\'t find target process" error="removing memory lock: failed to set memlock rlimit: operation not permitted"',
      '2025/06/24 10:34:22 Removing memlockfailed to set memlock rlimit: operation not permitted',
    ],
  },
]);
