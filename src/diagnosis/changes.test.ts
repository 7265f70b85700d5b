import { describe, expect, it } from 'vitest';
import { ago, crashedPod, event, node, pod, snapshot } from '../../test/helpers/factories.js';
import { autoscaler, configMeta, disruptionBudget, networkPolicy } from '../../test/helpers/history.js';
import { failureBegan, templateDiff, whatChanged } from './changes.js';
import { diagnose } from './engine.js';
import { RULES } from './rules/index.js';
import type { KubeObject, Snapshot } from './types.js';

const WINDOW = 7200;

function parseFailure(failedAgo: number, configs: KubeObject[]) {
  const p = crashedPod(
    { exitCode: 1, restarts: 3, finishedAgo: 20, message: 'failed to parse /etc/web/config.yaml: yaml: line 3: did not find expected key' },
    { metadata: { creationTimestamp: ago(86_400) }, spec: { volumes: [{ name: 'config', configMap: { name: 'web-config' } }] } },
  );
  return snapshot(p, {
    events: [event(p, { reason: 'BackOff', type: 'Warning', message: 'Back-off restarting failed container web', firstSeenAgo: failedAgo })],
    history: { configs },
  });
}

describe('whatChanged', () => {
  it('blames a ConfigMap edited four minutes before the app began failing to parse it', () => {
    const s = parseFailure(60, [configMeta('ConfigMap', 'web-config', 'kubectl-edit', 300)]);
    expect(whatChanged(s, WINDOW)).toEqual([
      { at: ago(300), kind: 'config', object: 'ConfigMap web-config', text: 'edited', by: 'kubectl-edit', explains: 240 },
    ]);
    const d = diagnose(s, { rules: RULES });
    expect(d.findings[0]?.evidence.at(-1)).toEqual({
      source: 'what changed: ConfigMap web-config',
      text: 'began 4m after ConfigMap web-config was edited, by kubectl-edit',
    });
  });

  it('lists an edit made long before the failure without blaming it, and leaves out one older than the window', () => {
    const s = parseFailure(60, [configMeta('ConfigMap', 'web-config', 'kubectl-edit', 3600), configMeta('Secret', 'db', 'vault-injector', 9 * 3600)]);
    expect(whatChanged(s, WINDOW)).toEqual([{ at: ago(3600), kind: 'config', object: 'ConfigMap web-config', text: 'edited', by: 'kubectl-edit' }]);
  });

  it('names a Secret edit from its metadata alone', () => {
    const s = parseFailure(60, [configMeta('Secret', 'db-password', 'vault-injector', 120)]);
    expect(whatChanged(s, WINDOW)[0]).toMatchObject({ object: 'Secret db-password', by: 'vault-injector', explains: 60 });
  });

  it('reads the node: a reboot and a kubelet start from its events, a NoExecute taint, the Ready transition', () => {
    const p = crashedPod({ exitCode: 1, finishedAgo: 20 });
    const n = node({
      metadata: { name: 'node-1' },
      spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: ago(900) }] },
    });
    const s = snapshot(p, {
      node: n,
      nodeEvents: [
        event(n, { reason: 'Rebooted', type: 'Warning', message: 'Node node-1 has been rebooted, boot id: 4f1c9a2e', firstSeenAgo: 600 }),
        event(n, { reason: 'Starting', message: 'Starting kubelet.', firstSeenAgo: 590 }),
      ],
      history: { configs: [] },
    });
    const texts = whatChanged(s, WINDOW).map((c) => c.text);
    expect(texts).toContain('rebooted (boot ID 4f1c9a2e)');
    expect(texts.some((t) => t.startsWith('kubelet started (now kubelet'))).toBe(true);
    expect(texts).toContain('taint node.kubernetes.io/not-ready:NoExecute added');
  });

  it('says nothing without the history fact (the rule that needs it is off)', () => {
    expect(whatChanged({ ...parseFailure(60, []), history: undefined, node: undefined }, WINDOW)).toEqual([]);
  });
});

describe('failureBegan', () => {
  it('is undefined for a pod the node evicted: that is no failure of its template', () => {
    const evicted = crashedPod(
      { exitCode: 137, now: 'terminated' },
      { status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.' } },
    );
    expect(failureBegan(snapshot(evicted))).toBeUndefined();
  });

  it('is the earliest Warning event or failed run of a failing pod, and undefined for a healthy one', () => {
    expect(failureBegan(parseFailure(600, []))).toBe(Date.parse(ago(600)));
    expect(failureBegan(snapshot(pod()))).toBeUndefined();
  });
});

describe('templateDiff', () => {
  it('names env variables only, and says which come from a Secret', () => {
    const c = (env: { name: string; value?: string; valueFrom?: object }[]) => ({ spec: { containers: [{ name: 'web', image: 'web:1', env }] } });
    const secret = { secretKeyRef: { name: 'db', key: 'password' } };
    const diff = templateDiff(
      c([
        { name: 'MODE', value: 'a' },
        { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'old' } } },
      ]),
      c([
        { name: 'MODE', value: 'hunter2' },
        { name: 'DB_PASSWORD', valueFrom: secret },
        { name: 'TOKEN', valueFrom: secret },
      ]),
    );
    expect(diff).toEqual(['env MODE of web changed', 'env DB_PASSWORD (from a Secret) of web changed', 'env TOKEN (from a Secret) added to web']);
    expect(diff.join(' ')).not.toContain('hunter2');
  });
});

describe('RoleBindings of the pod ServiceAccount', () => {
  it('names an edit of a binding that grants the account, with its role', () => {
    const binding = {
      ...configMeta('ConfigMap', 'web-reader', 'kubectl-edit', 200),
      kind: 'RoleBinding',
      roleRef: { kind: 'Role', name: 'pod-reader' },
    };
    const s = parseFailure(60, []);
    const changes = whatChanged({ ...s, history: { configs: [], bindings: [binding] } }, WINDOW);
    expect(changes).toEqual([
      {
        at: ago(200),
        kind: 'access',
        object: "RoleBinding web-reader (of the pod's ServiceAccount, role pod-reader)",
        text: 'edited',
        by: 'kubectl-edit',
        explains: 140,
      },
    ]);
  });
});

describe('scaling and policies', () => {
  /** A pod whose readiness probe began failing `failedAgo` seconds before NOW (not crashing). */
  function notReady(failedAgo: number, history: Snapshot['history']) {
    const p = pod({ status: { conditions: [{ type: 'Ready', status: 'False' }] } });
    return snapshot(p, {
      events: [
        event(p, { reason: 'Unhealthy', type: 'Warning', message: 'Readiness probe failed: dial tcp 10.0.0.9:5432: i/o timeout', firstSeenAgo: failedAgo }),
      ],
      history,
    });
  }

  it('blames a NetworkPolicy selecting the pod created two minutes before its probes began failing', () => {
    const s = notReady(180, { configs: [], networkPolicies: [networkPolicy('deny-egress', 'kubectl-create', 300)] });
    expect(whatChanged(s, WINDOW)).toEqual([
      { at: ago(300), kind: 'policy', object: 'NetworkPolicy deny-egress (selects the pod; Egress)', text: 'created', by: 'kubectl-create', explains: 120 },
    ]);
  });

  it('does not blame a NetworkPolicy created after the probes began failing, nor one created long before', () => {
    for (const createdAgo of [60, 180 + 16 * 60]) {
      const s = notReady(180, { configs: [], networkPolicies: [networkPolicy('deny-egress', 'kubectl-create', createdAgo)] });
      const changes = whatChanged(s, WINDOW);
      expect(changes.map((c) => c.object)).toEqual(['NetworkPolicy deny-egress (selects the pod; Egress)']);
      expect(changes[0]?.explains).toBeUndefined();
    }
  });

  it("puts the NetworkPolicy on the readiness finding's evidence", () => {
    const s = notReady(180, { configs: [], networkPolicies: [networkPolicy('deny-egress', 'kubectl-create', 300)] });
    const d = diagnose(s, { rules: RULES });
    expect(d.findings[0]?.evidence.at(-1)).toEqual({
      source: 'what changed: NetworkPolicy deny-egress (selects the pod; Egress)',
      text: 'began 2m after NetworkPolicy deny-egress (selects the pod; Egress) was created, by kubectl-create',
    });
  });

  it('names an edit of an old NetworkPolicy, and blames it for a crash whose log names a failed connection', () => {
    const p = crashedPod({ exitCode: 1, restarts: 2, finishedAgo: 20 });
    const s = snapshot(p, {
      events: [event(p, { reason: 'BackOff', type: 'Warning', message: 'Back-off restarting failed container web', firstSeenAgo: 200 })],
      logs: [{ container: 'web', previous: true, lines: ['connecting to db:5432', 'Error: connect ETIMEDOUT 10.0.0.9:5432'] }],
      history: { configs: [], networkPolicies: [networkPolicy('allow-web', 'argocd-controller', 30 * 86_400, 260, ['Ingress', 'Egress'])] },
    });
    expect(whatChanged(s, WINDOW)).toEqual([
      {
        at: ago(260),
        kind: 'policy',
        object: 'NetworkPolicy allow-web (selects the pod; Ingress, Egress)',
        text: 'edited',
        by: 'argocd-controller',
        explains: 60,
      },
    ]);
  });

  it('lists an ingress-only NetworkPolicy without blaming it for failed outgoing connections', () => {
    const ingress = { ...networkPolicy('from-gateway', 'kubectl-create', 300), spec: { podSelector: { matchLabels: { app: 'web' } } } };
    const changes = whatChanged(notReady(180, { configs: [], networkPolicies: [ingress] }), WINDOW);
    expect(changes).toEqual([
      { at: ago(300), kind: 'policy', object: 'NetworkPolicy from-gateway (selects the pod; Ingress)', text: 'created', by: 'kubectl-create' },
    ]);
  });

  it('lists a NetworkPolicy without blaming it for a crash that names no connection', () => {
    const s = parseFailure(60, []);
    const changes = whatChanged({ ...s, history: { configs: [], networkPolicies: [networkPolicy('deny-egress', 'kubectl-create', 120)] } }, WINDOW);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.explains).toBeUndefined();
  });

  it("names an edit of the HPA's spec (its bounds) without blaming it; its status updates are no edit", () => {
    const hpa = autoscaler(30 * 86_400, 2, 2);
    const fields = hpa.metadata?.managedFields ?? [];
    const edited = { ...hpa, metadata: { ...hpa.metadata, managedFields: [...fields, { ...fields[0], manager: 'kubectl-edit', time: ago(90) }] } };
    expect(whatChanged({ ...parseFailure(60, []), history: { configs: [], autoscalers: [edited] } }, WINDOW)).toEqual([
      { at: ago(90), kind: 'scaling', object: 'HorizontalPodAutoscaler web', text: 'edited (min 2, max 6)', by: 'kubectl-edit' },
    ]);
  });

  it("lists the HPA's scale and a new budget, and blames neither (the budget's status updates are no edit)", () => {
    const s = parseFailure(60, []);
    const changes = whatChanged(
      { ...s, history: { configs: [], autoscalers: [autoscaler(120, 6, 4)], disruptionBudgets: [disruptionBudget('helm', 600)] } },
      WINDOW,
    );
    expect(changes).toEqual([
      { at: ago(600), kind: 'policy', object: 'PodDisruptionBudget web (selects the pod; maxUnavailable 0)', text: 'created', by: 'helm' },
      {
        at: ago(120),
        kind: 'scaling',
        object: 'HorizontalPodAutoscaler web',
        text: 'scaled Deployment web to 6 replicas (min 2, max 6, at its maximum, 4 running now)',
      },
    ]);
  });
});
