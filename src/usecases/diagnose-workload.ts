// A workload's diagnosis (`pod-doctor diagnose deploy/web`): its unhealthy pods, found as a
// workload alert's are (collect/workload-pods.ts), each diagnosed, the worst first. Pods missing
// rather than unhealthy (a quota or an admission webhook refusing them) leave nothing to pick:
// then the namespace is diagnosed, which reads the workloads' FailedCreate events and conditions.

import type { FactSource } from '../collect/source.js';
import { unhealthyPodsOf } from '../collect/workload-pods.js';
import { type Diagnosis, SEVERITY_ORDER } from '../diagnosis/types.js';
import { PodDoctorError } from '../errors.js';
import type { WorkloadRef } from '../kube/target.js';
import { type DiagnoseOptions, diagnoseTarget } from './diagnose.js';

export interface WorkloadDiagnosis {
  workload: WorkloadRef;
  /** Pods its selector lists and that it controls. */
  total: number;
  unhealthy: number;
  /** How many pods it wants now, when its object says. */
  desired: number | undefined;
  /** Why each pod was picked (`CrashLoopBackOff`, `Pending`...), by pod name. */
  reasons: Record<string, string>;
  /** Worst first: the highest severity found, then the order pods were picked in. */
  diagnoses: Diagnosis[];
}

/** The highest severity among a diagnosis' findings (0 without findings). */
function worst(d: Diagnosis): number {
  return Math.max(0, ...d.findings.map((f) => SEVERITY_ORDER[f.severity]));
}

export async function diagnoseWorkload(source: FactSource, workload: WorkloadRef, options: DiagnoseOptions & { maxPods: number }): Promise<WorkloadDiagnosis> {
  const read = await unhealthyPodsOf(source, workload, options.maxPods);
  if (read.problem) throw new PodDoctorError(read.problem === 'not-found' ? 'TARGET_NOT_FOUND' : 'BAD_TARGET', read.message);
  const reasons: Record<string, string> = {};
  const diagnoses: Diagnosis[] = [];
  // One at a time: a workload's pods share their node and owner reads, and the API server is
  // not a place to fan out twenty diagnoses from a laptop.
  for (const { pod, reason } of read.picked) {
    const name = pod.metadata?.name ?? '';
    reasons[name] = reason;
    diagnoses.push(await diagnoseTarget(source, { kind: 'pod', namespace: workload.namespace, name }, options));
  }
  if (read.picked.length === 0 && read.desired !== undefined && read.total < read.desired) {
    reasons[`ns/${workload.namespace}`] = `${read.total} of ${read.desired} pods exist`;
    diagnoses.push(await diagnoseTarget(source, { kind: 'namespace', name: workload.namespace }, options));
  }
  // Array.prototype.sort is stable: equal severities keep the picking order (waiting reasons first).
  diagnoses.sort((a, b) => worst(b) - worst(a));
  return { workload, total: read.total, unhealthy: read.unhealthy, desired: read.desired, reasons, diagnoses };
}
