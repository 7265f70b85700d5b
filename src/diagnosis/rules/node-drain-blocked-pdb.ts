// node.drain-blocked-pdb: Drain blocked: a PodDisruptionBudget refuses to let the pod go.

import { formatDuration, isDeleting, isFinished, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { Evidence, KubeObject } from '../types.js';

// A drain (kubectl drain, a node upgrade, the cluster autoscaler) evicts pods through the
// eviction API, which refuses while a PodDisruptionBudget allows no disruption:
//   429 TooManyRequests  Cannot evict pod as it would violate the pod's disruption budget.
//   kubectl drain: error when evicting pods/"web-0" -n "shop" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.
// The refusal is not recorded on the pod, so the rule reads the state: the pod still runs on a
// cordoned node, and a budget that selects it has status.disruptionsAllowed 0.

/** The node has been cordoned this long: a drain that is going well is over by then. */
const CORDONED_SECONDS = 300;

interface Budget {
  name: string;
  allowed: number;
  current?: number;
  desired?: number;
  expected?: number;
  spec: string;
}

function budgetOf(b: KubeObject): Budget {
  const spec = (b.spec ?? {}) as { minAvailable?: number | string; maxUnavailable?: number | string };
  const status = (b.status ?? {}) as { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number; expectedPods?: number };
  return {
    name: b.metadata?.name ?? '?',
    allowed: status.disruptionsAllowed ?? 0,
    ...(status.currentHealthy !== undefined ? { current: status.currentHealthy } : {}),
    ...(status.desiredHealthy !== undefined ? { desired: status.desiredHealthy } : {}),
    ...(status.expectedPods !== undefined ? { expected: status.expectedPods } : {}),
    spec:
      spec.minAvailable !== undefined
        ? `minAvailable: ${spec.minAvailable}`
        : spec.maxUnavailable !== undefined
          ? `maxUnavailable: ${spec.maxUnavailable}`
          : 'no minAvailable/maxUnavailable',
  };
}

export const rule = defineRule({
  meta: {
    id: 'node.drain-blocked-pdb',
    title: 'Drain blocked: a PodDisruptionBudget refuses to let the pod go',
    category: 'node',
    severity: 'warning',
    needs: ['pod', 'node', 'disruptionBudgets'],
    priority: 46,
    doc:
      'The pod still runs on a cordoned node (a drain in progress) and a PodDisruptionBudget selecting it has disruptionsAllowed 0: ' +
      'every eviction is refused with "Cannot evict pod as it would violate the pod\'s disruption budget" and the drain waits forever. ' +
      'Names the PDB with its current/desired healthy counts.',
    messages: {
      title: 'Drain of {{node}} blocked by PodDisruptionBudget {{pdb}} ({{counts}})',
      cordoned: 'Node {{node}} is cordoned but the pod still runs there:',
      cordonedSince: 'Node {{node}} is cordoned since {{duration}} ago but the pod still runs there:',
      budgetRefuses:
        'PodDisruptionBudget {{pdb}} ({{spec}}) allows no disruption now ({{counts}}), so the eviction API refuses every attempt with ' +
        '"Cannot evict pod as it would violate the pod\'s disruption budget." and the drain retries forever.',
      neverAllows: 'The budget can never allow a disruption at this replica count (it requires every expected pod to stay healthy).',
      unhealthyElsewhere: 'Some of the pods it counts are unhealthy elsewhere, which uses up the budget.',
      scaleUp:
        'Scale the workload up by one (so a replica can move first) or relax {{pdb}} (maxUnavailable: 1) for the drain; ' +
        'a PDB with minAvailable equal to the replica count blocks every voluntary disruption.',
      fixUnhealthy: 'Fix the unhealthy pods the budget counts first (they use up the budget), then the drain continues by itself.',
      noForce: 'Do not force it with `kubectl delete pod` unless losing this replica is acceptable: that bypasses the budget the owners set.',
      prevent: 'Keep PDBs satisfiable: maxUnavailable: 1 (or minAvailable below replicas) and at least 2 replicas for anything with a budget.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const node = snapshot.node;
    if (!pod || !node?.spec?.unschedulable || isFinished(pod) || isDeleting(pod)) return null;
    const cordon = (node.spec.taints ?? []).find((t) => t.key === 'node.kubernetes.io/unschedulable');
    const cordonedFor = secondsSince(snapshot, cordon?.timeAdded);
    if (cordonedFor !== undefined && cordonedFor < CORDONED_SECONDS) return null;
    const blocking = (snapshot.disruptionBudgets ?? []).map(budgetOf).filter((b) => b.allowed <= 0);
    if (blocking.length === 0) return null;
    const nodeName = node.metadata?.name ?? pod.spec?.nodeName ?? '?';
    const b = blocking[0]!;
    const counts =
      b.current !== undefined && b.desired !== undefined
        ? `${b.current} healthy, ${b.desired} required${b.expected !== undefined ? `, ${b.expected} expected` : ''}`
        : 'no status counts';
    const evidence: Evidence[] = [
      { source: `node ${nodeName} spec.unschedulable`, text: `true${cordon?.timeAdded ? ` (cordoned ${cordon.timeAdded})` : ''}` },
      ...blocking.map((x) => ({
        source: `PodDisruptionBudget ${x.name}`,
        text:
          `${x.spec}; status: disruptionsAllowed=${x.allowed}, ` +
          `currentHealthy=${x.current ?? '?'}, desiredHealthy=${x.desired ?? '?'}, expectedPods=${x.expected ?? '?'}`,
      })),
    ];
    const singleReplica = b.expected !== undefined && b.desired !== undefined && b.expected <= b.desired;
    return {
      title: msg('title', { node: nodeName, pdb: b.name, counts }),
      cause: [
        cordonedFor !== undefined ? msg('cordonedSince', { node: nodeName, duration: formatDuration(cordonedFor) }) : msg('cordoned', { node: nodeName }),
        msg('budgetRefuses', { pdb: b.name, spec: b.spec, counts }),
        singleReplica ? msg('neverAllows') : b.current !== undefined && b.desired !== undefined && b.current < b.desired ? msg('unhealthyElsewhere') : null,
      ],
      evidence,
      advice: [singleReplica ? msg('scaleUp', { pdb: b.name }) : msg('fixUnhealthy'), msg('noForce')],
      prevent: [msg('prevent')],
      causeKey: `pdb/${pod.metadata?.namespace ?? ''}/${b.name}:drain-blocked`,
      params: {
        node: nodeName,
        pdb: b.name,
        ...(b.current !== undefined ? { currentHealthy: b.current } : {}),
        ...(b.desired !== undefined ? { desiredHealthy: b.desired } : {}),
      },
    };
  },
});
