// readiness.gate-not-ready: Containers Ready, pod not Ready: a readiness gate's condition is missing or not True.

import { clip, containerStatuses, eventEvidence, formatDuration, isDeleting, ms, newestFirst, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { ownerConditions } from '../owners.js';
import { defineRule } from '../rule.js';
import type { Evidence, Pod, Said } from '../types.js';

// A pod with spec.readinessGates is Ready only when every gate's condition in status.conditions is
// True; nothing but the component that owns the gate writes that condition. With all containers
// Ready, the kubelet sets Ready=False, reason ReadinessGatesNotReady, and one of (kubelet status
// manager, 1.14+, joined by ", " when several gates fail):
//   corresponding condition of pod readiness gate "target-health.elbv2.k8s.aws/k8s-shop-web-3f2a9c1b7e" does not exist.
//   the status of pod readiness gate "target-health.elbv2.k8s.aws/k8s-shop-web-3f2a9c1b7e" is not "True", but False
// The pod stays out of its Services' endpoints and nothing restarts it; a rollout with
// maxUnavailable 0 waits on it until ProgressDeadlineExceeded.
// Owners known by their condition type:
// - AWS Load Balancer Controller (v2): `target-health.elbv2.k8s.aws/<TargetGroupBinding>`, True when
//   the target is healthy, else False with the ELB reason and description (`Target.FailedHealthChecks`
//   "Health checks failed", `Elb.RegistrationInProgress` "Target registration is in progress",
//   `Elb.InitialHealthChecking`, `Target.ResponseCodeMismatch`, `Target.Timeout`, `Target.NotInUse`).
// - AWS ALB Ingress Controller v1: `target-health.alb.ingress.k8s.aws/<ingress>_<service>_<port>`;
//   v2 does not set these (its webhook injects its own gate instead).
// - GKE NEG controller: `cloud.google.com/load-balancer-neg-ready` (reasons LoadBalancerNegNotReady,
//   LoadBalancerNegTimeout; it marks the gate True anyway 10 minutes after the pod's creation).
// - OpenKruise: `InPlaceUpdateReady`, False while kruise-manager updates a CloneSet or Advanced
//   StatefulSet pod in place.

/** Containers Ready and the gate still not True this long is no longer registration or health-check warm-up. */
export const GATE_THRESHOLD_SECONDS = 300;

const AWS = 'target-health.elbv2.k8s.aws/';
const AWS_LEGACY = /^target-health\.alb\.ingress\.(?:k8s\.aws|kubernetes\.io)\//;
const GKE_NEG = 'cloud.google.com/load-balancer-neg-ready';
const KRUISE = 'InPlaceUpdateReady';
/** ELB target-health reasons that say the load balancer's health check fails against the pod. */
const HEALTH_CHECK_FAILS = new Set(['Target.FailedHealthChecks', 'Target.ResponseCodeMismatch', 'Target.Timeout']);
const REGISTERING = new Set(['Elb.RegistrationInProgress', 'Elb.InitialHealthChecking']);

const messages = {
  titleAbsent: '{{pod}} not Ready for {{since}}: readiness gate {{gate}} was never set ({{owner}})',
  titleStatus: '{{pod}} not Ready for {{since}}: readiness gate {{gate}} is {{status}} ({{owner}})',
  titleReason: '{{pod}} not Ready for {{since}}: readiness gate {{gate}} is {{status}}, {{reason}} ({{owner}})',
  containersReady: "All of the pod's containers are Ready; it is kept out of readiness by spec.readinessGates alone.",
  absent:
    'The pod has a readiness gate "{{gate}}" but no condition of that type in its status: the component that owns the gate ' +
    'has not written it in the {{since}} since the containers became Ready, so the kubelet holds Ready=False (ReadinessGatesNotReady).',
  notTrue: 'The condition of readiness gate "{{gate}}" is {{status}}, so the kubelet holds Ready=False (ReadinessGatesNotReady).',
  notTrueReason: 'The condition of readiness gate "{{gate}}" is {{status}} ({{reason}}), so the kubelet holds Ready=False (ReadinessGatesNotReady).',
  notTrueSaid:
    'The condition of readiness gate "{{gate}}" is {{status}} ({{reason}}: "{{message}}"), ' + 'so the kubelet holds Ready=False (ReadinessGatesNotReady).',
  others: 'Other readiness gates not True: {{gates}}.',
  ownerAws:
    'The AWS Load Balancer Controller owns it: it sets the condition for TargetGroupBinding "{{binding}}", True once the pod\'s target ' +
    "in that target group is healthy, False with the load balancer's reason while it is not.",
  ownerAwsLegacy:
    "Its prefix is the AWS ALB Ingress Controller v1's; the AWS Load Balancer Controller v2 never sets these conditions " +
    '(it injects target-health.elbv2.k8s.aws/<TargetGroupBinding> gates of its own).',
  ownerGkeNeg:
    "GKE's NEG controller owns it: it sets the condition True once the pod's endpoint is healthy in a network endpoint group of its " +
    'Service, or 10 minutes after the pod was created whatever the health (LoadBalancerNegTimeout).',
  ownerKruise: "OpenKruise's kruise-manager owns it: it is False while a CloneSet or Advanced StatefulSet updates the pod in place.",
  ownerUnknown: 'No component pod-doctor knows owns this condition type: whatever injected the gate (a webhook, the workload template) must also set it.',
  outOfEndpoints: 'Nothing restarts the pod for this; it stays out of the endpoints of Service {{services}} until the condition turns True.',
  outOfEndpointsNone: 'Nothing restarts the pod for this; it stays not Ready until the condition turns True.',
  rolloutStuck: '{{owner}}\'s rollout waits on it: {{reason}}, "{{message}}"',
  awsAbsent:
    'Check that the AWS Load Balancer Controller is running and reconciling: its log (kubectl -n kube-system logs deploy/aws-load-balancer-controller, ' +
    'or its own namespace) names TargetGroupBinding "{{binding}}" with any error, and kubectl -n {{namespace}} describe targetgroupbinding {{binding}} ' +
    'shows its events. If its pods run but stopped reconciling, restarting them (kubectl rollout restart) makes them register the targets again.',
  awsHealthCheck:
    "The load balancer's health check fails against the pod ({{reason}}): compare the target group's health check (path, port, success codes; " +
    "the Ingress's or Service's healthcheck annotations) with what the pod answers, and check that the security groups let the load balancer reach the pod.",
  awsRegistering:
    "The target has been registering or in its first health checks ({{reason}}) for {{since}}: check the controller's log for errors about " +
    'TargetGroupBinding "{{binding}}" and the target group\'s health check settings.',
  awsNotInUse: 'The target group receives no traffic ({{reason}}): attach it to a listener rule of the load balancer, or remove the gate.',
  awsOther: "aws elbv2 describe-target-health on TargetGroupBinding {{binding}}'s target group says why the target is not healthy ({{reason}}).",
  awsLegacy:
    'Remove the legacy gate from the pod template and label the namespace elbv2.k8s.aws/pod-readiness-gate-inject=enabled, ' +
    'so the v2 controller injects the gate it sets; or run the v1 controller that sets this one.',
  gkeNeg:
    "Check the Service's NEG annotations (cloud.google.com/neg, and cloud.google.com/neg-status written by the controller) and the backend's health " +
    "in the load balancer; the health check must reach the pod from Google's probe ranges 35.191.0.0/16 and 130.211.0.0/22 (a firewall rule).",
  kruise: "Read kruise-manager's log (namespace kruise-system) for this pod: it marks the gate True when the in-place update of the containers has finished.",
  unknown:
    'Find the component that owns "{{gate}}" (kubectl get mutatingwebhookconfigurations; the workload template) and check that it runs and has ' +
    'the pod in scope; until it sets the condition True, the pod is not Ready.',
  inspect: 'kubectl get pod -n {{namespace}} {{pod}} -o wide shows READINESS GATES; -o yaml shows the gate conditions with their reason and message.',
  prevent:
    "Alert on pods whose containers are Ready while the pod is not for more than a few minutes, and on the gate controller's own health: " +
    'one that stops reconciling holds every new pod, and every rollout, at not Ready.',
} as const;
type Id = keyof typeof messages;

type Condition = NonNullable<NonNullable<Pod['status']>['conditions']>[number];
type Owner = 'aws' | 'awsLegacy' | 'gkeNeg' | 'kruise' | 'unknown';

const OWNER_LABEL: Record<Owner, string> = {
  aws: 'AWS Load Balancer Controller',
  awsLegacy: 'AWS ALB Ingress Controller v1',
  gkeNeg: 'GKE NEG controller',
  kruise: 'OpenKruise',
  unknown: 'no known controller',
};

function ownerOf(gate: string): Owner {
  if (gate.startsWith(AWS)) return 'aws';
  if (AWS_LEGACY.test(gate)) return 'awsLegacy';
  if (gate === GKE_NEG) return 'gkeNeg';
  if (gate === KRUISE) return 'kruise';
  return 'unknown';
}

interface Gate {
  type: string;
  /** Absent: no condition of that type in the pod's status. */
  condition?: Condition;
}

function ownerAdvice(g: Gate, owner: Owner, data: { namespace: string; since: string }): Said<Id> {
  const binding = g.type.slice(AWS.length);
  const reason = g.condition?.reason ?? '';
  switch (owner) {
    case 'aws':
      if (!g.condition) return msg('awsAbsent', { binding, namespace: data.namespace });
      if (HEALTH_CHECK_FAILS.has(reason)) return msg('awsHealthCheck', { reason });
      if (REGISTERING.has(reason)) return msg('awsRegistering', { reason, since: data.since, binding });
      if (reason === 'Target.NotInUse') return msg('awsNotInUse', { reason });
      return reason ? msg('awsOther', { binding, reason }) : msg('awsAbsent', { binding, namespace: data.namespace });
    case 'awsLegacy':
      return msg('awsLegacy');
    case 'gkeNeg':
      return msg('gkeNeg');
    case 'kruise':
      return msg('kruise');
    default:
      return msg('unknown', { gate: g.type });
  }
}

export const rule = defineRule({
  meta: {
    id: 'readiness.gate-not-ready',
    title: 'Containers Ready, pod not Ready: a readiness gate is not set',
    category: 'readiness',
    severity: 'warning',
    needs: ['pod', 'events', 'owners', 'services'],
    // Above readiness.failing (26): here no probe fails, the gate's owner is what holds the pod.
    priority: 30,
    supersedes: ['readiness.failing', 'pod.unexplained'],
    doc:
      `A Running pod whose containers are all Ready stays Ready=False (ReadinessGatesNotReady) for more than ${GATE_THRESHOLD_SECONDS / 60} minutes ` +
      'because a condition its spec.readinessGates names is absent or not True. Names the gate, its state (never written, or False with the reason ' +
      'and message its owner wrote), the owner by its prefix (AWS Load Balancer Controller target-health.elbv2.k8s.aws/<TargetGroupBinding>, ' +
      "the v1 ALB ingress controller's legacy prefix, GKE's NEG controller, OpenKruise's InPlaceUpdateReady, otherwise generic), " +
      'the Services that lose the pod and a rollout that waits on it, and what to check.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    if (pod?.status?.phase !== 'Running' || isDeleting(pod)) return null;
    const gates = (pod.spec?.readinessGates ?? []).map((g) => g.conditionType).filter((t): t is string => Boolean(t));
    if (gates.length === 0) return null;
    const conditions = pod.status.conditions ?? [];
    const find = (type: string) => conditions.find((c) => c.type === type);
    const ready = find('Ready');
    const containersReady = find('ContainersReady');
    if (ready?.status !== 'False' || containersReady?.status !== 'True') return null;
    // A probe that fails (a container not Ready) is readiness.failing's, whatever the gates say.
    if (containerStatuses(pod).some((s) => !s.init && !s.status.ready)) return null;
    const unready: Gate[] = gates.flatMap((type) => {
      const condition = find(type);
      if (condition?.status === 'True') return [];
      return [condition ? { type, condition } : { type }];
    });
    const first = unready[0];
    if (!first) return null;
    // Held since the containers became Ready or the gate last changed, whichever is later.
    const times = [containersReady.lastTransitionTime, first.condition?.lastTransitionTime, ready.lastTransitionTime].filter(
      (t): t is string => ms(t) !== undefined,
    );
    const heldSince = times.sort((a, b) => (ms(b) ?? 0) - (ms(a) ?? 0))[0] ?? pod.status.startTime ?? pod.metadata?.creationTimestamp;
    const held = secondsSince(snapshot, heldSince);
    if (held === undefined || held < GATE_THRESHOLD_SECONDS) return null;

    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const since = formatDuration(held);
    const owner = ownerOf(first.type);
    const status = first.condition?.status || 'not set';
    const reason = first.condition?.reason ?? '';
    const message = first.condition?.message ?? '';
    const services = (snapshot.services ?? []).map((s) => s.metadata?.name ?? '').filter(Boolean);

    const evidence: Evidence[] = [
      {
        source: 'pod.status.conditions[Ready]',
        text: [`False since ${ready.lastTransitionTime ?? '?'}`, ready.reason, ready.message].filter(Boolean).join(': '),
      },
      { source: 'pod.status.conditions[ContainersReady]', text: `True since ${containersReady.lastTransitionTime ?? '?'}` },
      ...unready.map((g) => ({
        source: `pod.status.conditions[${g.type}]`,
        text: g.condition
          ? [`${g.condition.status || '(no status)'} since ${g.condition.lastTransitionTime ?? '?'}`, g.condition.reason, g.condition.message]
              .filter(Boolean)
              .join(': ')
          : 'absent: no condition of this type',
      })),
      { source: 'pod.spec.readinessGates', text: gates.join(', ') },
    ];
    // What the gate's owner said about the pod (the NEG controller records each decision as an event).
    const ownerEvents = newestFirst(snapshot.events).filter(
      (e) => e.source?.component === 'neg-readiness-reflector' || e.reportingComponent === 'neg-readiness-reflector' || (reason && e.reason === reason),
    );
    if (ownerEvents[0]) evidence.push({ ...eventEvidence(ownerEvents[0]), text: clip(ownerEvents[0].message ?? '') });
    if (services.length > 0) evidence.push({ source: 'services selecting the pod', text: services.join(', ') });
    // The workload whose rollout waits on this pod (maxUnavailable 0 stops at its first new pod).
    const stuck = (snapshot.owners ?? [])
      .flatMap((o) => ownerConditions(o.object).map((c) => ({ o, c })))
      .find(({ c }) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded');
    if (stuck) {
      evidence.push({ source: `${stuck.o.kind} ${stuck.o.name} status.conditions[Progressing]`, text: `${stuck.c.reason}: ${stuck.c.message ?? ''}` });
    }
    const ownerCause: Record<Owner, Said<Id>> = {
      aws: msg('ownerAws', { binding: first.type.slice(AWS.length) }),
      awsLegacy: msg('ownerAwsLegacy'),
      gkeNeg: msg('ownerGkeNeg'),
      kruise: msg('ownerKruise'),
      unknown: msg('ownerUnknown'),
    };
    const titleData = { pod: name, since, gate: first.type, owner: OWNER_LABEL[owner], status, reason };
    return {
      title: !first.condition ? msg('titleAbsent', titleData) : reason ? msg('titleReason', titleData) : msg('titleStatus', titleData),
      cause: [
        msg('containersReady'),
        !first.condition
          ? msg('absent', { gate: first.type, since })
          : msg(reason ? (message ? 'notTrueSaid' : 'notTrueReason') : 'notTrue', { gate: first.type, status, reason, message: clip(message, 200) }),
        ownerCause[owner],
        unready.length > 1 &&
          msg('others', {
            gates: unready
              .slice(1)
              .map((g) => g.type)
              .join(', '),
          }),
        services.length > 0 ? msg('outOfEndpoints', { services: services.join(', ') }) : msg('outOfEndpointsNone'),
        stuck && msg('rolloutStuck', { owner: `${stuck.o.kind} ${stuck.o.name}`, reason: stuck.c.reason ?? '', message: stuck.c.message ?? '' }),
      ],
      evidence,
      advice: [ownerAdvice(first, owner, { namespace, since }), msg('inspect', { namespace, pod: name })],
      prevent: [msg('prevent')],
      playbook: null,
      causeKey: `pod/${namespace}/${name}:readiness-gate:${first.type}`,
      params: { gate: first.type, state: first.condition ? status : 'absent', owner, ...(reason ? { reason } : {}) },
    };
  },
});
