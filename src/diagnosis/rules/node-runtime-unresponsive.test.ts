import { agent, fsMounts, mountCheck, runtime } from '../../../test/helpers/agent.js';
import { agentGap, ago, node, pod, snapshot } from '../../../test/helpers/factories.js';
import { testRule } from '../../../test/helpers/rule-tester.js';
import { rule } from './node-runtime-unresponsive.js';

const plegNode = (runtimeVersion: string) =>
  node({
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'KubeletNotReady',
          message: 'PLEG is not healthy: pleg was last seen active 3m47.381s ago; threshold is 3m0s',
          lastHeartbeatTime: ago(10),
          lastTransitionTime: ago(300),
        },
      ],
      nodeInfo: { containerRuntimeVersion: runtimeVersion },
    },
  });
const dockerNode = node({ status: { nodeInfo: { containerRuntimeVersion: 'docker://18.9.7' } } });

testRule(rule, {
  valid: [
    { name: 'healthy node, runtime answers', snapshot: snapshot(pod(), { agent: agent('node-1', { runtime: runtime() }) }) },
    {
      name: 'containerd node without docker installed (docker absent)',
      snapshot: snapshot(pod(), { agent: agent('node-1', { runtime: runtime({ docker: { state: 'absent' }, containerd: { state: 'ok' } }) }) }),
    },
    { name: 'a pod that is not scheduled yet', snapshot: snapshot(pod({ spec: { nodeName: undefined } })) },
  ],
  invalid: [
    {
      name: 'PLEG is not healthy from the API alone (containerd era); node check named',
      snapshot: snapshot(pod(), { node: plegNode('containerd://1.6.20'), gaps: [agentGap('node-1', 'no answer within 8000ms', 'timeout')] }),
      expect: {
        severity: 'error',
        causeKey: 'node/node-1:runtime/containerd',
        said: ['titlePleg', { id: 'checksMissing', data: { missing: /runtime, fs-mounts could not run/ } }],
      },
    },
    {
      name: 'docker API hangs behind a hung glusterfs mount',
      snapshot: snapshot(pod(), {
        node: dockerNode,
        agent: agent('node-1', {
          runtime: runtime({
            docker: { state: 'hung', detail: '/containers/json did not answer within 2000ms although /_ping did', timedOut: ['/containers/json'] },
          }),
          'fs-mounts': fsMounts([mountCheck({ state: 'hung', detail: 'stat did not return within 2000ms' })]),
        }),
      }),
      expect: {
        severity: 'critical',
        causeKey: 'node/node-1:runtime/docker',
        params: { runtime: 'docker' },
        said: ['title', { id: 'hungMounts', data: { mounts: /fuse\.glusterfs/ } }],
      },
    },
    {
      name: 'containerd socket refuses connections',
      snapshot: snapshot(pod(), {
        node: plegNode('containerd://1.7.2'),
        agent: agent('node-1', {
          runtime: runtime({
            docker: { state: 'absent' },
            containerd: { state: 'unreachable', detail: 'ECONNREFUSED connect ECONNREFUSED /run/containerd/containerd.sock' },
          }),
        }),
      }),
      expect: { severity: 'critical', said: [{ id: 'containerdRefuses', data: { detail: /ECONNREFUSED/ } }] },
    },
  ],
});
