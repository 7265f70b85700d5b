import { describe, expect, it } from 'vitest';
import { ago, event, ownerFact, pod, snapshot } from '../../../test/helpers/factories.js';
import { findingsOf, testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import type { KubeObject, Pod, Snapshot } from '../types.js';
import { RULES } from './index.js';
import { rule } from './readiness-gate-not-ready.js';

type Condition = NonNullable<NonNullable<Pod['status']>['conditions']>[number];

const ALB = 'target-health.elbv2.k8s.aws/k8s-shop-web-3f2a9c1b7e';
const NEG = 'cloud.google.com/load-balancer-neg-ready';
const absentMessage = (gate: string) => `corresponding condition of pod readiness gate "${gate}" does not exist.`;
const notTrueMessage = (gate: string, status: string) => `the status of pod readiness gate "${gate}" is not "True", but ${status}`;

interface GatedInit {
  gates: string[];
  /** Gate conditions the owner wrote (absent gates are simply not listed). */
  gateConditions?: Condition[];
  /** Seconds since the containers became Ready. */
  containersReadyAgo?: number;
  readyMessage?: string;
  createdAgo?: number;
  containerReady?: boolean;
}

/** A Running pod whose container is Ready and whose Ready condition is False for its gates (the kubelet's wording). */
function gated(init: GatedInit): Pod {
  const containersReadyAgo = init.containersReadyAgo ?? 1800;
  const containerReady = init.containerReady ?? true;
  const readyMessage = init.readyMessage ?? init.gates.map(absentMessage).join(', ');
  return pod({
    metadata: { creationTimestamp: ago(init.createdAgo ?? containersReadyAgo + 40) },
    spec: {
      readinessGates: init.gates.map((conditionType) => ({ conditionType })),
      containers: [{ name: 'web', image: 'registry.example.com/shop/web:1.4.2', readinessProbe: { httpGet: { path: '/healthz', port: 8080 } } }],
    },
    status: {
      conditions: [
        ...(init.gateConditions ?? []),
        { type: 'PodScheduled', status: 'True' },
        { type: 'Initialized', status: 'True' },
        containerReady
          ? { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: readyMessage, lastTransitionTime: ago(containersReadyAgo + 20) }
          : {
              type: 'Ready',
              status: 'False',
              reason: 'ContainersNotReady',
              message: 'containers with unready status: [web]',
              lastTransitionTime: ago(containersReadyAgo + 20),
            },
        containerReady
          ? { type: 'ContainersReady', status: 'True', lastTransitionTime: ago(containersReadyAgo) }
          : {
              type: 'ContainersReady',
              status: 'False',
              reason: 'ContainersNotReady',
              message: 'containers with unready status: [web]',
              lastTransitionTime: ago(containersReadyAgo),
            },
      ],
      containerStatuses: [
        {
          name: 'web',
          ready: containerReady,
          started: true,
          restartCount: 0,
          image: 'registry.example.com/shop/web:1.4.2',
          imageID: '',
          state: { running: { startedAt: ago(containersReadyAgo + 15) } },
        },
      ],
    },
  });
}

const svc = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'shop' }, spec: { selector: { app: 'web' } } });
const stuckDeployment = ownerFact('Deployment', 'web', {
  spec: { replicas: 3, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
  status: {
    replicas: 4,
    readyReplicas: 3,
    conditions: [
      { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
      { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-7d9f8c6b5" has timed out progressing.' },
    ],
  },
});

const albAbsent = gated({ gates: [ALB], containersReadyAgo: 2280 });
const albFailing = gated({
  gates: [ALB],
  containersReadyAgo: 7200,
  readyMessage: notTrueMessage(ALB, 'False'),
  gateConditions: [{ type: ALB, status: 'False', reason: 'Target.FailedHealthChecks', message: 'Health checks failed', lastTransitionTime: ago(1200) }],
});
const albRegistering = gated({
  gates: [ALB],
  containersReadyAgo: 900,
  readyMessage: notTrueMessage(ALB, 'False'),
  gateConditions: [
    { type: ALB, status: 'False', reason: 'Elb.RegistrationInProgress', message: 'Target registration is in progress', lastTransitionTime: ago(890) },
  ],
});
const LEGACY = 'target-health.alb.ingress.k8s.aws/web-qa-ckapp-web_web-qa-ckapp-web_80';
const legacy = gated({ gates: [LEGACY], containersReadyAgo: 3600 });
const negWaiting = gated({
  gates: [NEG],
  containersReadyAgo: 420,
  createdAgo: 540,
  readyMessage: notTrueMessage(NEG, ''),
  gateConditions: [
    {
      type: NEG,
      status: '',
      reason: 'LoadBalancerNegNotReady',
      message: 'Waiting for pod to become healthy in at least one of the NEG(s): [k8s1-138e3498-shop-web-80-52906662]',
    },
  ],
});
const kruise = gated({
  gates: ['InPlaceUpdateReady'],
  containersReadyAgo: 600,
  readyMessage: notTrueMessage('InPlaceUpdateReady', 'False'),
  gateConditions: [{ type: 'InPlaceUpdateReady', status: 'False', lastTransitionTime: ago(700) }],
});
const CUSTOM = 'example.com/feature-warmup';
const custom = gated({ gates: [ALB, CUSTOM], containersReadyAgo: 1200, gateConditions: [] });
const customOnly = gated({
  gates: [ALB, CUSTOM],
  containersReadyAgo: 1200,
  readyMessage: absentMessage(CUSTOM),
  gateConditions: [{ type: ALB, status: 'True', lastTransitionTime: ago(1150) }],
});

testRule(rule, {
  valid: [
    { name: 'healthy pod without gates', snapshot: snapshot(pod()) },
    {
      name: 'healthy pod whose gate is True',
      snapshot: snapshot(
        pod({
          spec: { readinessGates: [{ conditionType: ALB }] },
          status: {
            conditions: [
              { type: ALB, status: 'True', lastTransitionTime: ago(3500) },
              { type: 'PodScheduled', status: 'True' },
              { type: 'Initialized', status: 'True' },
              { type: 'ContainersReady', status: 'True' },
              { type: 'Ready', status: 'True' },
            ],
          },
        }),
      ),
    },
    {
      name: 'near miss (readiness.failing vs readiness.gate-not-ready): the probe fails, containers not Ready, the gate absent too',
      snapshot: snapshot(gated({ gates: [ALB], containerReady: false }), {
        events: [
          event(pod(), {
            reason: 'Unhealthy',
            count: 300,
            lastSeenAgo: 5,
            fieldPath: 'spec.containers{web}',
            message: 'Readiness probe failed: Get "http://10.244.1.12:8080/healthz": dial tcp 10.244.1.12:8080: connect: connection refused',
          }),
        ],
      }),
    },
    {
      name: 'near miss (registration vs readiness.gate-not-ready): containers Ready 90s ago, the target still registering',
      snapshot: snapshot(
        gated({
          gates: [ALB],
          containersReadyAgo: 90,
          readyMessage: notTrueMessage(ALB, 'False'),
          gateConditions: [
            { type: ALB, status: 'False', reason: 'Elb.InitialHealthChecking', message: 'Initial health checks in progress', lastTransitionTime: ago(80) },
          ],
        }),
      ),
    },
    {
      name: 'near miss (a flip vs readiness.gate-not-ready): containers Ready for hours, the gate went False a minute ago',
      snapshot: snapshot(
        gated({
          gates: [ALB],
          containersReadyAgo: 7200,
          readyMessage: notTrueMessage(ALB, 'False'),
          gateConditions: [{ type: ALB, status: 'False', reason: 'Target.FailedHealthChecks', message: 'Health checks failed', lastTransitionTime: ago(60) }],
        }),
      ),
    },
    {
      name: 'being deleted',
      snapshot: snapshot({ ...albAbsent, metadata: { ...albAbsent.metadata, deletionTimestamp: ago(10) } }),
    },
    {
      name: 'Ready already True (the kubelet caught up with a gate that turned True)',
      snapshot: snapshot(
        pod({
          spec: { readinessGates: [{ conditionType: NEG }] },
          status: {
            conditions: [
              { type: NEG, status: 'True', reason: 'LoadBalancerNegReady', message: 'Pod has become Healthy in NEG' },
              { type: 'ContainersReady', status: 'True', lastTransitionTime: ago(3000) },
              { type: 'Ready', status: 'True', lastTransitionTime: ago(2900) },
            ],
          },
        }),
      ),
    },
  ],
  invalid: [
    {
      name: 'ALB target-health gate never set, the rollout stuck behind it (aws-load-balancer-controller#1205)',
      snapshot: snapshot(albAbsent, { services: [svc('web')], owners: [ownerFact('ReplicaSet', 'web-7d9f8c6b5'), stuckDeployment] }),
      expect: {
        severity: 'warning',
        playbook: null,
        params: { gate: ALB, state: 'absent', owner: 'aws' },
        said: [
          { id: 'titleAbsent', data: { gate: ALB, owner: 'AWS Load Balancer Controller', since: '38m' } },
          { id: 'absent', data: { gate: ALB } },
          { id: 'ownerAws', data: { binding: 'k8s-shop-web-3f2a9c1b7e' } },
          { id: 'awsAbsent', data: { binding: 'k8s-shop-web-3f2a9c1b7e', namespace: 'shop' } },
          { id: 'outOfEndpoints', data: { services: 'web' } },
          { id: 'rolloutStuck', data: { owner: 'Deployment web', reason: 'ProgressDeadlineExceeded' } },
        ],
        quotes: [
          /ReadinessGatesNotReady: corresponding condition of pod readiness gate "target-health\.elbv2\.k8s\.aws\/k8s-shop-web-3f2a9c1b7e" does not exist\./,
          /absent/,
        ],
      },
    },
    {
      name: 'ALB gate False: the load balancer health check fails against the pod (Target.FailedHealthChecks)',
      snapshot: snapshot(albFailing),
      expect: {
        params: { state: 'False', reason: 'Target.FailedHealthChecks' },
        said: [
          { id: 'titleReason', data: { status: 'False', reason: 'Target.FailedHealthChecks', since: '20m' } },
          { id: 'notTrueSaid', data: { status: 'False', reason: 'Target.FailedHealthChecks', message: 'Health checks failed' } },
          { id: 'awsHealthCheck', data: { reason: 'Target.FailedHealthChecks' } },
          'outOfEndpointsNone',
        ],
        quotes: [/is not "True", but False/, /False since .*: Target\.FailedHealthChecks: Health checks failed/],
      },
    },
    {
      name: 'ALB gate still registering after 15 minutes (Elb.RegistrationInProgress)',
      snapshot: snapshot(albRegistering),
      expect: { said: [{ id: 'awsRegistering', data: { reason: 'Elb.RegistrationInProgress', binding: 'k8s-shop-web-3f2a9c1b7e' } }] },
    },
    {
      name: 'a v1 ALB ingress gate on a cluster the v2 controller runs (aws-load-balancer-controller#1547)',
      snapshot: snapshot(legacy),
      expect: { params: { owner: 'awsLegacy', state: 'absent' }, said: ['ownerAwsLegacy', 'awsLegacy', { id: 'titleAbsent', data: { gate: LEGACY } }] },
    },
    {
      name: "GKE NEG gate without status, the NEG controller's event quoted",
      snapshot: snapshot(negWaiting, {
        events: [
          event(negWaiting, {
            type: 'Normal',
            reason: 'LoadBalancerNegNotReady',
            component: 'neg-readiness-reflector',
            lastSeenAgo: 400,
            message: 'Waiting for pod to become healthy in at least one of the NEG(s): [k8s1-138e3498-shop-web-80-52906662]',
          }),
        ],
      }),
      expect: {
        params: { owner: 'gkeNeg', state: 'not set' },
        said: ['ownerGkeNeg', 'gkeNeg', { id: 'titleReason', data: { status: 'not set', reason: 'LoadBalancerNegNotReady' } }],
        quotes: [/Waiting for pod to become healthy in at least one of the NEG\(s\)/],
      },
    },
    {
      name: 'OpenKruise in-place update not finished (InPlaceUpdateReady False)',
      snapshot: snapshot(kruise),
      expect: { params: { owner: 'kruise' }, said: ['ownerKruise', 'kruise', { id: 'notTrue', data: { gate: 'InPlaceUpdateReady', status: 'False' } }] },
    },
    {
      name: 'two gates, neither set: the first named, the other listed',
      snapshot: snapshot(custom),
      expect: { said: [{ id: 'others', data: { gates: CUSTOM } }, 'awsAbsent'] },
    },
    {
      name: 'a custom gate nobody sets while the ALB gate is True',
      snapshot: snapshot(customOnly),
      expect: { params: { gate: CUSTOM, owner: 'unknown' }, said: ['ownerUnknown', { id: 'unknown', data: { gate: CUSTOM } }] },
    },
  ],
});

describe('readiness.gate-not-ready among the other rules', () => {
  const withProbeNoise = (p: Pod): Snapshot =>
    snapshot(p, {
      services: [svc('web')],
      owners: [ownerFact('ReplicaSet', 'web-7d9f8c6b5'), stuckDeployment],
      // The probe failed while the app started, half an hour ago: what pod.unexplained would quote.
      events: [
        event(p, {
          reason: 'Unhealthy',
          count: 3,
          lastSeenAgo: 2260,
          firstSeenAgo: 2270,
          fieldPath: 'spec.containers{web}',
          message: 'Readiness probe failed: Get "http://10.244.1.12:8080/healthz": dial tcp 10.244.1.12:8080: connect: connection refused',
        }),
      ],
    });

  it('ranks first, and neither readiness.failing nor pod.unexplained speaks', () => {
    const d = diagnose(withProbeNoise(albAbsent), { rules: RULES });
    expect(d.findings[0]?.rule).toBe('readiness.gate-not-ready');
    expect(d.findings.map((f) => f.rule)).not.toContain('pod.unexplained');
    expect(d.findings.map((f) => f.rule)).not.toContain('readiness.failing');
  });

  it('leaves a probe failure to readiness.failing', () => {
    const p = gated({ gates: [ALB], containerReady: false });
    const s = snapshot(p, {
      events: [
        event(p, {
          reason: 'Unhealthy',
          count: 300,
          lastSeenAgo: 5,
          firstSeenAgo: 1800,
          fieldPath: 'spec.containers{web}',
          message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
        }),
      ],
    });
    expect(findingsOf(rule, s)).toEqual([]);
    expect(diagnose(s, { rules: RULES }).findings[0]?.rule).toBe('readiness.failing');
  });
});
