import { describe, expect, it } from 'vitest';
import { event, pod, snapshot, waitingPod } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { diagnose } from '../engine.js';
import { RULES } from './index.js';
import { rule } from './security-run-as-non-root.js';

const ROOT = 'container has runAsNonRoot and image will run as root (pod: "web-7d9f8c6b5-x2k4q_shop(6f1c2d3e-aaaa-4bbb-8ccc-000000000001)", container: web)';
const NAMED =
  'container has runAsNonRoot and image has non-numeric user (nginx), cannot verify user is non-root (pod: ' +
  '"web-7d9f8c6b5-x2k4q_shop(6f1c2d3e-aaaa-4bbb-8ccc-000000000001)", container: web)';
const nonRoot = { spec: { securityContext: { runAsNonRoot: true } } };

testRule(rule, {
  valid: [
    { name: 'healthy pod', snapshot: snapshot(pod()) },
    {
      name: 'CreateContainerConfigError for a missing configmap',
      snapshot: snapshot(waitingPod('CreateContainerConfigError', 'configmap "web-config" not found')),
    },
  ],
  invalid: [
    {
      name: 'image runs as root',
      snapshot: snapshot(waitingPod('CreateContainerConfigError', ROOT, nonRoot), {
        events: [event(pod(), { reason: 'Failed', count: 14, fieldPath: 'spec.containers{web}', message: `Error: ${ROOT}` })],
      }),
      expect: { severity: 'error', params: { container: 'web' }, quotes: [/image will run as root/, /"runAsNonRoot":true/] },
    },
    {
      name: 'image names its user (nginx)',
      snapshot: snapshot(waitingPod('CreateContainerConfigError', NAMED, nonRoot)),
      expect: { params: { imageUser: 'nginx' }, quotes: [/non-numeric user \(nginx\)/] },
    },
    {
      name: 'status message generic, the event carries it',
      snapshot: snapshot(waitingPod('CreateContainerConfigError', '', nonRoot), { events: [event(pod(), { reason: 'Failed', message: `Error: ${ROOT}` })] }),
      expect: { quotes: [/will run as root/] },
    },
  ],
});

describe('security.run-as-non-root in the full registry', () => {
  it('is the only finding (config.missing-reference stays out)', () => {
    const d = diagnose(snapshot(waitingPod('CreateContainerConfigError', ROOT, nonRoot)), { rules: RULES });
    expect(d.findings.map((f) => f.rule)).toEqual(['security.run-as-non-root']);
  });
});
