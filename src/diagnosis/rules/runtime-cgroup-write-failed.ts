// runtime.cgroup-write-failed: The runtime cannot apply the container's cgroup limits on the node.

import { crashes, crashTexts } from '../crashes.js';
import { clip, containerStatuses, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// runc applies the container's cgroup limits before it starts the process; when the kernel refuses
// a value the container never starts (StartError, exit 128):
//   runc create failed: unable to start container process: error during container init: error
//   setting cgroup config for procHooks process: failed to write "200000": write
//   /sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod.../cpu.cfs_quota_us: invalid argument
// The value is legal for the pod; the node's cgroup tree is not what the kubelet expects (a parent
// cgroup with a lower quota, a cgroup driver mismatch between kubelet and runtime, an old kernel).

// crun (CRI-O's default from 1.31) writes the same files relative to the container's cgroup and
// fails at create time (CreateContainerError `container create failed: ...`):
//   writing file `cpu.max`: Invalid argument  (containers/crun src/libcrun/utils.c write_file_at_with_flags)
const CRUN_FILE = String.raw`writing file \`((?:cpu|cpuset|memory|pids|io|blkio|hugetlb|rdma|misc|cgroup)\.[\w.]+)\`: ([^:"]+)`;
const CGROUP = new RegExp(
  String.raw`failed to write "?[^"]*"?: (?:write )?\/sys\/fs\/cgroup\/|unable to apply cgroup configuration|error setting cgroup config|${CRUN_FILE}`,
);
/** The cgroup file and the kernel's answer: `write /sys/fs/cgroup/.../cpu.cfs_quota_us: invalid argument`, crun's `writing file `cpu.max`: ...`. */
const WRITE = new RegExp(String.raw`failed to write "?[^"]*"?: (?:write )?(\/sys\/fs\/cgroup\/\S+?): ([^:"]+)|${CRUN_FILE}`);

const messages = {
  title: '{{container}}: {{runtime}} cannot write {{file}} on {{node}}',
  titleAnswer: '{{container}}: {{runtime}} cannot write {{file}} on {{node}} ({{answer}})',
  refused:
    'The runtime on {{node}} cannot start container "{{container}}": the kernel refuses its cgroup settings ("{{text}}"). ' +
    "The limits in the pod spec are valid; the node's cgroup hierarchy does not accept them " +
    '(a parent cgroup with a lower CPU quota, kubelet and runtime on different cgroup drivers, or a kernel missing the controller).',
  compareDrivers:
    "On {{node}}: compare the kubelet's cgroupDriver with the runtime's (containerd SystemdCgroup, CRI-O cgroup_manager): they must match; " +
    'check the parent cgroup (`cat /sys/fs/cgroup/cpu,cpuacct/kubepods/cpu.cfs_quota_us`).',
  drain: 'Drain the node and fix its configuration (or replace it from a good image); other nodes run the same pod.',
  prevent: 'Build nodes from one image with the cgroup driver set consistently (systemd for kubelet and runtime on cgroup v2).',
} as const;

type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'runtime.cgroup-write-failed',
    title: "The runtime cannot apply the container's cgroup limits on the node",
    category: 'runtime',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 58,
    supersedes: ['crash.app-exit', 'container.start-error', 'container.create-error'],
    doc:
      'runc fails before the process starts because the kernel refuses a cgroup write: ' +
      '`failed to write "200000": write /sys/fs/cgroup/.../cpu.cfs_quota_us: invalid argument`, `unable to apply cgroup configuration`. ' +
      "The pod's limits are fine; the node's cgroup hierarchy disagrees " +
      '(a parent with a lower quota, kubelet and runtime using different cgroup drivers, a kernel without the controller). ' +
      'Fix the node, not the workload.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const node = pod?.spec?.nodeName ?? 'the node';
    const out: FindingDraft<Id>[] = [];
    const report = (name: string, text: string, evidence: Evidence[]) => {
      const m = WRITE.exec(text);
      const file = m?.[1] ?? m?.[3];
      const answer = (m?.[2] ?? m?.[4])?.trim();
      const shown = file ? String(file.split('/').pop()) : 'its cgroup limits';
      const runtime = m?.[3] ? 'crun' : 'runc';
      out.push({
        title: answer
          ? msg('titleAnswer', { container: name, file: shown, node, answer, runtime })
          : msg('title', { container: name, file: shown, node, runtime }),
        cause: msg('refused', { node, container: name, text: clip(text, 400) }),
        evidence,
        advice: [msg('compareDrivers', { node }), msg('drain')],
        prevent: [msg('prevent')],
        causeKey: `node/${node}:cgroup-write`,
        params: { container: name, ...(file ? { file } : {}), node },
      });
    };
    for (const c of crashes(snapshot)) {
      const hit = crashTexts(snapshot, c).find((t) => CGROUP.test(t.text));
      if (hit) report(c.name, hit.text, [hit.evidence]);
    }
    for (const s of containerStatuses(pod)) {
      const w = s.status.state?.waiting;
      if (w?.reason === 'CreateContainerError' && w.message && CGROUP.test(w.message) && !out.some((f) => f.params?.container === s.status.name))
        report(s.status.name, w.message, [statusEvidence(s, 'state', `${w.reason}: ${w.message}`)]);
    }
    return out;
  },
});
