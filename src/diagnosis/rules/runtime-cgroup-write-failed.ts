// runtime.cgroup-write-failed: The runtime cannot apply the container's cgroup limits on the node.

import { crashes, crashTexts } from '../crashes.js';
import { clip, containerStatuses, statusEvidence } from '../facts.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// runc applies the container's cgroup limits before it starts the process; when the kernel refuses
// a value the container never starts (StartError, exit 128):
//   runc create failed: unable to start container process: error during container init: error
//   setting cgroup config for procHooks process: failed to write "200000": write
//   /sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod.../cpu.cfs_quota_us: invalid argument
// The value is legal for the pod; the node's cgroup tree is not what the kubelet expects (a parent
// cgroup with a lower quota, a cgroup driver mismatch between kubelet and runtime, an old kernel).

const CGROUP = /failed to write "?[^"]*"?: (?:write )?\/sys\/fs\/cgroup\/|unable to apply cgroup configuration|error setting cgroup config/;
/** The cgroup file and the kernel's answer: `write /sys/fs/cgroup/.../cpu.cfs_quota_us: invalid argument`. */
const WRITE = /failed to write "?[^"]*"?: (?:write )?(\/sys\/fs\/cgroup\/\S+?): ([^:"]+)/;

export const rule = defineRule({
  meta: {
    id: 'runtime.cgroup-write-failed',
    title: "The runtime cannot apply the container's cgroup limits on the node",
    category: 'runtime',
    severity: 'error',
    needs: ['pod', 'events'],
    priority: 58,
    supersedes: ['crash.app-exit', 'container.start-error', 'container.create-error'],
    doc: 'runc fails before the process starts because the kernel refuses a cgroup write: `failed to write "200000": write /sys/fs/cgroup/.../cpu.cfs_quota_us: invalid argument`, `unable to apply cgroup configuration`. The pod\'s limits are fine; the node\'s cgroup hierarchy disagrees (a parent with a lower quota, kubelet and runtime using different cgroup drivers, a kernel without the controller). Fix the node, not the workload.',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const node = pod?.spec?.nodeName ?? 'the node';
    const out: FindingDraft[] = [];
    const report = (name: string, text: string, evidence: Evidence[]) => {
      const m = WRITE.exec(text);
      const file = m?.[1];
      out.push({
        title: `${name}: runc cannot write ${file ? file.split('/').pop() : 'its cgroup limits'} on ${node}${m?.[2] ? ` (${m[2].trim()})` : ''}`,
        cause: `The runtime on ${node} cannot start container "${name}": the kernel refuses its cgroup settings ("${clip(text, 400)}"). The limits in the pod spec are valid; the node's cgroup hierarchy does not accept them (a parent cgroup with a lower CPU quota, kubelet and runtime on different cgroup drivers, or a kernel missing the controller).`,
        evidence,
        advice: [
          `On ${node}: compare the kubelet's cgroupDriver with the runtime's (containerd SystemdCgroup, CRI-O cgroup_manager): they must match; check the parent cgroup (\`cat /sys/fs/cgroup/cpu,cpuacct/kubepods/cpu.cfs_quota_us\`).`,
          'Drain the node and fix its configuration (or replace it from a good image); other nodes run the same pod.',
        ],
        prevent: ['Build nodes from one image with the cgroup driver set consistently (systemd for kubelet and runtime on cgroup v2).'],
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
