// What the cluster components a failure points at (snapshot.components: cluster DNS, the CNI
// agent on the node, the CSI node plugin) say about themselves: are they running and Ready, and if
// not, the decisive lines of their own log. Rules quote this so a victim's finding names its cause.
import { decisiveLines } from './decisive.js';
import { containerStatuses } from './facts.js';
import type { ComponentFact, Evidence, Pod, Snapshot } from './types.js';

export interface ComponentState {
  fact: ComponentFact;
  /** Pods of the component that are not Ready, with what is wrong. */
  down: { pod: Pod; problem: string }[];
  /** Ready pods. */
  up: Pod[];
  /** One sentence for a cause: `calico-node-x8k2p (calico-system) is CrashLoopBackOff (41 restarts); its log ends: "..."`. */
  summary: string;
  evidence: Evidence[];
}

const ROLE_NAME: Record<ComponentFact['role'], string> = {
  dns: 'cluster DNS (CoreDNS)',
  cni: 'the CNI agent',
  csi: 'the CSI node plugin',
  apiserver: 'the API server',
};

function problemOf(p: Pod): string | undefined {
  if (p.metadata?.deletionTimestamp) return 'being deleted';
  const statuses = containerStatuses(p);
  for (const s of statuses) {
    const w = s.status.state?.waiting?.reason;
    if (w && w !== 'ContainerCreating' && w !== 'PodInitializing') return `${w} (${s.status.restartCount ?? 0} restarts)`;
    if (s.status.state?.terminated)
      return `${s.init ? 'init ' : ''}container ${s.status.name} terminated (${s.status.state.terminated.reason ?? 'exit'} ${s.status.state.terminated.exitCode})`;
  }
  const phase = p.status?.phase;
  if (phase && phase !== 'Running') return `phase ${phase}`;
  if (p.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True') return 'not Ready';
  return undefined;
}

export function componentState(snapshot: Snapshot, role: ComponentFact['role']): ComponentState | undefined {
  const fact = snapshot.components?.find((c) => c.role === role);
  if (!fact) return undefined;
  const down: ComponentState['down'] = [];
  const up: Pod[] = [];
  for (const p of fact.pods) {
    const problem = problemOf(p);
    if (problem) down.push({ pod: p, problem });
    else up.push(p);
  }
  const label = (p: Pod) => `${p.metadata?.name ?? '?'} (${p.metadata?.namespace ?? '?'})`;
  const evidence: Evidence[] = down.map(({ pod, problem }) => ({ source: `pod ${pod.metadata?.namespace}/${pod.metadata?.name}`, text: problem }));
  let said = '';
  for (const log of fact.logs ?? []) {
    const lines = decisiveLines(log.lines, { maxLines: 4, tail: 1 });
    evidence.push({ source: `logs ${log.pod} ${log.container}${log.previous ? ' (previous)' : ''}`, text: lines.join('\n') });
    said ||= lines.filter((l) => !l.startsWith('…')).at(-1) ?? '';
  }
  const where = role === 'dns' ? '' : ` on ${snapshot.pod?.spec?.nodeName ?? snapshot.node?.metadata?.name ?? 'the node'}`;
  let summary: string;
  if (fact.pods.length === 0) summary = `No pod of ${ROLE_NAME[role]}${fact.name ? ` (${fact.name})` : ''} runs${where}.`;
  else if (down.length === 0) summary = `${ROLE_NAME[role]}${where} is running and Ready (${up.map(label).join(', ')}).`;
  else
    summary =
      `${ROLE_NAME[role]}${where} is down: ${down.map((d) => `${label(d.pod)} is ${d.problem}`).join('; ')}` +
      `${up.length > 0 ? ` (${up.length} other pod${up.length === 1 ? '' : 's'} Ready)` : ''}${said ? `; its log ends: "${said}"` : ''}.`;
  return { fact, down, up, summary: summary.charAt(0).toUpperCase() + summary.slice(1), evidence };
}
