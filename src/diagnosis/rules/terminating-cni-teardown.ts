// terminating.cni-teardown: CNI teardown fails forever; the retry deletes the live pod's Calico endpoint.
import { journalEvidence, journalMatches, nodeChecksMissing, probeResult, shortId } from '../agent-facts.js';
import {
  clip,
  eventCount,
  eventEvidence,
  eventsMatching,
  eventTime,
  formatDuration,
  isDeleting,
  isStatefulSetPod,
  isStuckTerminating,
  newestFirst,
  secondsPastDeletion,
  secondsSince,
} from '../facts.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

const TEARDOWN = /NetworkPlugin cni failed to teardown pod|failed to destroy network for sandbox/;
const WEP_MISSING = /resource does not exist: WorkloadEndpoint|WorkloadEndpoint.*not found/;
/**
 * The kubelet retries a failed teardown on every sync of the pod (backoff capped at minutes), so a
 * loop that still runs leaves a failure this recent; an older last one was retried and went through.
 */
const RETRY_SECONDS = 15 * 60;

export const rule = defineRule({
  meta: {
    id: 'terminating.cni-teardown',
    title: "CNI teardown fails forever; the retry deletes the live pod's Calico endpoint",
    category: 'terminating',
    severity: 'error',
    needs: ['pod', 'events', 'node', 'owners', 'agent'],
    playbook: 'recreate-pod',
    priority: 88,
    // The missing endpoint is what this retry loop does to a same-named pod: one cause, one finding.
    supersedes: ['network.calico-endpoint-missing', 'terminating.status-lag', 'terminating.stuck'],
    doc: 'The kubelet repeats "StopPodSandbox ... NetworkPlugin cni failed to teardown pod ... resource does not exist: WorkloadEndpoint(...)". Old Calico CNI (< 1.10) fails DEL when the endpoint is gone, so the kubelet retries the old sandbox forever; for a StatefulSet pod (stable name) a retry deletes the NEW pod\'s same-named WorkloadEndpoint, cutting it off (seed 004). Only the teardown (DEL) failing on a missing endpoint counts: a failed ADD, another DEL error (ClusterInformation, Unauthorized) or a failure the kubelet retried past long ago is not this loop.',
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (!pod) return null;
    const node = pod.spec?.nodeName ?? '?';
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const uid = pod.metadata?.uid ?? '';
    const lines = journalMatches(snapshot, ['cni-teardown']).filter((m) => WEP_MISSING.test(m.line) || m.captures.workloadEndpoint);
    const deleting = isDeleting(pod);
    // A live pod is only at risk while the loop runs; a deleted pod stays stuck by every failure.
    const events = newestFirst(eventsMatching(snapshot.events, TEARDOWN, ['FailedKillPod', 'FailedSync'])).filter(
      (e) => WEP_MISSING.test(e.message ?? '') && (deleting || (secondsSince(snapshot, eventTime(e)) ?? 0) <= RETRY_SECONDS),
    );
    if (lines.length === 0 && events.length === 0) return null;
    // A deleted pod only counts once it is past its grace period; a live pod is hit by a stale retry.
    if (deleting && !isStuckTerminating(snapshot, pod)) return null;

    const statefulSet = isStatefulSetPod(snapshot);
    const runtime = probeResult(snapshot, 'runtime');
    const currentSandboxes = new Set((runtime?.docker.containers ?? []).filter((c) => c.sandbox).map((c) => c.id));
    const sandboxId = lines.map((m) => m.captures.sandboxId).find(Boolean);
    const failedUid = lines.map((m) => m.captures.podUid).find(Boolean);
    // The failing sandbox belongs to an earlier pod of the same name when its UID differs or it is not ours.
    const stale =
      (failedUid !== undefined && failedUid !== uid) ||
      (sandboxId !== undefined && currentSandboxes.size > 0 && ![...currentSandboxes].some((id) => id.startsWith(sandboxId)));
    const repeats = lines.length + events.reduce((n, e) => n + eventCount(e), 0);
    // The retry's DEL that removed this pod's endpoint: Calico's "Delete Key" for <ns>.<name>.
    const wepDeleted = journalMatches(snapshot, ['calico-wep-deleted', 'cni-del']).filter(
      (m) => m.captures.workload === `${ns}.${name}` || m.captures.podName === name,
    );

    const evidence: Evidence[] = [];
    for (const m of lines.slice(-2)) evidence.push(journalEvidence(node, m, 900));
    for (const e of events.slice(0, 1)) evidence.push({ ...eventEvidence(e), text: clip(e.message ?? '', 900) });
    for (const m of wepDeleted.filter((m) => m.signatures.includes('calico-wep-deleted')).slice(-1)) evidence.push(journalEvidence(node, m));
    const net = probeResult(snapshot, 'pod-network');
    if (net?.pod?.gateway && net.pod.gateway.state === 'incomplete') {
      evidence.push({
        source: `node agent: /proc/${net.pid ?? '?'}/net/arp on ${node}`,
        text: net.pod.gateway.entry?.line ?? `${net.pod.gateway.ip} incomplete`,
      });
    }
    evidence.push({
      source: 'pod owner',
      text: statefulSet
        ? `StatefulSet pod: the name ${ns}/${name} is reused by every replacement`
        : `not a StatefulSet pod (${(pod.metadata?.ownerReferences ?? []).map((o) => o.kind).join(', ') || 'no owner'})`,
    });

    const missing = lines.length === 0 ? nodeChecksMissing(snapshot, node, 'journal') : undefined;
    const target = deleting
      ? `The pod was deleted ${formatDuration(secondsPastDeletion(snapshot, pod) ?? 0)} past its grace period; the kubelet on ${node} keeps failing to tear down its sandbox network`
      : stale
        ? `The kubelet on ${node} keeps retrying the network teardown of an earlier sandbox${sandboxId ? ` (${shortId(sandboxId)})` : ''} of a pod with the same name${failedUid ? ` (UID ${failedUid})` : ''}`
        : `The kubelet on ${node} keeps failing to tear down a sandbox network of this pod`;
    const cause =
      `${target} (${repeats} failure${repeats === 1 ? '' : 's'} seen): Calico CNI returns "resource does not exist: WorkloadEndpoint" on DEL when the endpoint is already gone, which old Calico CNI (< 1.10) treats as an error, so the kubelet retries forever. ` +
      (statefulSet
        ? `Because a StatefulSet reuses the name ${ns}/${name}, each retry deletes the endpoint ${ns}.${name} — the one the live pod now owns — and that pod loses its network (gateway 169.254.1.1 unresolved).`
        : 'The pod stays Terminating until the teardown succeeds.') +
      (wepDeleted.some((m) => m.signatures.includes('calico-wep-deleted')) ? ' The node log shows a retry deleting that endpoint.' : '') +
      (missing ? ` ${missing}` : '');
    return {
      severity: statefulSet && !deleting ? 'critical' : 'error',
      title:
        stale && statefulSet
          ? `Stale CNI teardown on ${node} deletes ${ns}/${name}'s Calico endpoint`
          : `CNI teardown of ${ns}/${name} fails forever on ${node} (WorkloadEndpoint missing)`,
      cause,
      evidence,
      advice: [
        `Stop the retry first: remove the stale sandbox${sandboxId ? ` ${shortId(sandboxId)}` : ''} on ${node} (\`docker rm -f\`) or upgrade Calico CNI to >= 1.10, which ignores a missing endpoint on DEL.`,
        deleting
          ? 'Then the kubelet finishes the teardown and the pod goes away.'
          : `Then recreate ${ns}/${name} so it gets a new endpoint: playbook recreate-pod (approval).`,
        'Clean endpoints and IPAM handles left by deleted pods (`calicoctl get workloadendpoints`, `calicoctl ipam check`).',
      ],
      prevent: ['Upgrade Calico CNI to >= 1.10 on every node.'],
      playbook: deleting ? null : undefined,
      causeKey: `node/${node}:cni-teardown`,
      params: { node, namespace: ns, pod: name, ...(sandboxId ? { sandbox: sandboxId } : {}) },
    } satisfies FindingDraft;
  },
});
