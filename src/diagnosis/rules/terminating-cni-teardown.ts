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
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, FindingDraft } from '../types.js';

// dockershim `NetworkPlugin cni failed to teardown pod`, containerd `failed to destroy network for sandbox "<id>"`,
// CRI-O `failed to destroy network for pod sandbox k8s_...(<id>): error removing pod <ns>_<name> from CNI network "..."`.
const TEARDOWN = /NetworkPlugin cni failed to teardown pod|failed to destroy network for (?:pod )?sandbox|error removing pod \S+ from CNI network/;
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
    doc:
      'The kubelet repeats "StopPodSandbox ... NetworkPlugin cni failed to teardown pod ... resource does not exist: WorkloadEndpoint(...)". ' +
      'Old Calico CNI (< 1.10) fails DEL when the endpoint is gone, so the kubelet retries the old sandbox forever; ' +
      "for a StatefulSet pod (stable name) a retry deletes the NEW pod's same-named WorkloadEndpoint, cutting it off (seed 004). " +
      'Only the teardown (DEL) failing on a missing endpoint counts: a failed ADD, another DEL error (ClusterInformation, Unauthorized) ' +
      'or a failure the kubelet retried past long ago is not this loop.',
    messages: {
      titleStale: "Stale CNI teardown on {{node}} deletes {{namespace}}/{{pod}}'s Calico endpoint",
      title: 'CNI teardown of {{namespace}}/{{pod}} fails forever on {{node}} (WorkloadEndpoint missing)',
      deletedTeardown: 'The pod was deleted {{overdue}} past its grace period; the kubelet on {{node}} keeps failing to tear down its sandbox network',
      retryEarlier: 'The kubelet on {{node}} keeps retrying the network teardown of an earlier sandbox of a pod with the same name',
      retryEarlierSandbox: 'The kubelet on {{node}} keeps retrying the network teardown of an earlier sandbox ({{sandbox}}) of a pod with the same name',
      retryEarlierUid: 'The kubelet on {{node}} keeps retrying the network teardown of an earlier sandbox of a pod with the same name (UID {{uid}})',
      retryEarlierSandboxUid:
        'The kubelet on {{node}} keeps retrying the network teardown of an earlier sandbox ({{sandbox}}) of a pod with the same name (UID {{uid}})',
      failingTeardown: 'The kubelet on {{node}} keeps failing to tear down a sandbox network of this pod',
      failureSeen: '({{repeats}} failure seen):',
      failuresSeen: '({{repeats}} failures seen):',
      calicoDel:
        'Calico CNI returns "resource does not exist: WorkloadEndpoint" on DEL when the endpoint is already gone, ' +
        'which old Calico CNI (< 1.10) treats as an error, so the kubelet retries forever.',
      endpointStolen:
        'Because a StatefulSet reuses the name {{namespace}}/{{pod}}, each retry deletes the endpoint {{namespace}}.{{pod}} ' +
        '— the one the live pod now owns — and that pod loses its network (gateway 169.254.1.1 unresolved).',
      staysTerminating: 'The pod stays Terminating until the teardown succeeds.',
      logShowsDelete: 'The node log shows a retry deleting that endpoint.',
      checksMissing: '{{missing}}',
      removeSandbox:
        'Stop the retry first: remove the stale sandbox on {{node}} (`docker rm -f`) ' +
        'or upgrade Calico CNI to >= 1.10, which ignores a missing endpoint on DEL.',
      removeSandboxId:
        'Stop the retry first: remove the stale sandbox {{sandbox}} on {{node}} (`docker rm -f`) ' +
        'or upgrade Calico CNI to >= 1.10, which ignores a missing endpoint on DEL.',
      teardownFinishes: 'Then the kubelet finishes the teardown and the pod goes away.',
      recreatePod: 'Then recreate {{namespace}}/{{pod}} so it gets a new endpoint: playbook recreate-pod (approval).',
      cleanEndpoints: 'Clean endpoints and IPAM handles left by deleted pods (`calicoctl get workloadendpoints`, `calicoctl ipam check`).',
      prevent: 'Upgrade Calico CNI to >= 1.10 on every node.',
    },
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
    const sandbox = sandboxId ? shortId(sandboxId) : undefined;
    const target = deleting
      ? msg('deletedTeardown', { overdue: formatDuration(secondsPastDeletion(snapshot, pod) ?? 0), node })
      : stale
        ? sandbox && failedUid
          ? msg('retryEarlierSandboxUid', { node, sandbox, uid: failedUid })
          : sandbox
            ? msg('retryEarlierSandbox', { node, sandbox })
            : failedUid
              ? msg('retryEarlierUid', { node, uid: failedUid })
              : msg('retryEarlier', { node })
        : msg('failingTeardown', { node });
    const pair = { namespace: ns, pod: name };
    return {
      severity: statefulSet && !deleting ? 'critical' : 'error',
      title: stale && statefulSet ? msg('titleStale', { node, ...pair }) : msg('title', { ...pair, node }),
      cause: [
        target,
        msg(repeats === 1 ? 'failureSeen' : 'failuresSeen', { repeats }),
        msg('calicoDel'),
        statefulSet ? msg('endpointStolen', pair) : msg('staysTerminating'),
        wepDeleted.some((m) => m.signatures.includes('calico-wep-deleted')) && msg('logShowsDelete'),
        missing ? msg('checksMissing', { missing }) : null,
      ],
      evidence,
      advice: [
        sandbox ? msg('removeSandboxId', { sandbox, node }) : msg('removeSandbox', { node }),
        deleting ? msg('teardownFinishes') : msg('recreatePod', pair),
        msg('cleanEndpoints'),
      ],
      prevent: [msg('prevent')],
      playbook: deleting ? null : undefined,
      causeKey: `node/${node}:cni-teardown`,
      params: { node, namespace: ns, pod: name, ...(sandboxId ? { sandbox: sandboxId } : {}) },
    } satisfies FindingDraft;
  },
});
