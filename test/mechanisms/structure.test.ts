// Signatures by structure (src/diagnosis/mechanisms/catalogue/structure.ts): a line that names what
// it lacks leads to the mechanism that explains it, with the name it gave.
import { describeFamilies } from '../helpers/mechanism-table.js';

describeFamilies({
  'a named capability': [
    {
      line: 'Capability cap_sys_chroot is not set for the coolforkit program.',
      mechanism: 'capability-missing',
      variant: 'chroot',
      knob: 'securityContext.capabilities.add',
      container: { securityContext: { capabilities: { drop: ['ALL'] } } },
    },
    {
      line: 'Capability cap_sys_admin is not set for the coolforkit program.',
      mechanism: 'capability-missing',
      variant: 'named',
      knob: 'securityContext.capabilities.add',
      data: { cap: 'SYS_ADMIN', podSecurity: 'Pod Security baseline refuses it' },
    },
    {
      line: 'Capability cap_fowner is not set for the coolforkit program.',
      mechanism: 'capability-missing',
      variant: 'named',
      knob: 'securityContext.capabilities.add',
      container: { securityContext: { capabilities: { drop: ['ALL'] } } },
      data: { cap: 'FOWNER', held: 'the container drops it (capabilities.drop)', podSecurity: 'Pod Security baseline allows it' },
    },
    {
      line: 'ping: socket: Operation not permitted (missing cap_net_raw+p capability)',
      mechanism: 'capability-missing',
      variant: 'raw-socket',
      knob: 'net.ipv4.ping_group_range',
    },
  ],
  'a device node': [
    {
      line: 'tun: open /dev/net/tun: no such file or directory',
      mechanism: 'device-access',
      variant: 'tun',
      knob: 'securityContext.privileged',
    },
    {
      line: 'Nov 21 19:35:23 archlinux libvirtd[10559]: Unable to open /dev/kvm: No such file or directory',
      mechanism: 'device-access',
      variant: 'kvm',
      knob: 'devices.kubevirt.io/kvm',
    },
  ],
  'the locked-memory limit of eBPF': [
    {
      line: 'level=ERROR msg="can\'t find target process" error="removing memory lock: failed to set memlock rlimit: operation not permitted"',
      mechanism: 'memlock-limit',
      variant: 'ebpf',
      knob: 'securityContext.capabilities.add',
    },
    {
      line: '2025/06/24 10:34:22 Removing memlockfailed to set memlock rlimit: operation not permitted',
      mechanism: 'memlock-limit',
      variant: 'ebpf',
      knob: 'LimitMEMLOCK',
    },
  ],
});

describeFamilies({
  'a server that refuses root': [
    {
      line: '2017-04-18T11:33:31.031538Z 0 [ERROR] Fatal error: Please read "Security" section of the manual to find out how to run mysqld as root!',
      mechanism: 'runs-as-root',
      variant: 'mysql',
      knob: 'securityContext.runAsUser',
      container: { securityContext: { runAsUser: 0 } },
      data: { asWhom: 'runAsUser: 0' },
    },
    {
      line: '[F] Forgejo is not supposed to be run as root',
      mechanism: 'runs-as-root',
      variant: 'gitea',
      knob: 'securityContext.runAsUser / runAsGroup',
    },
    {
      line: '"root" execution of the PostgreSQL server is not permitted.',
      mechanism: 'runs-as-root',
      variant: 'postgres',
      knob: 'runAsNonRoot',
    },
  ],
});
