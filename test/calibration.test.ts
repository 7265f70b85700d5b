// Calibration (issue 32): old restarts age out, init containers' and sidecars' included. A pod that
// has been Ready for a long time with restarts days ago is history: info at most, never a warning,
// whatever its previous run's log says. Recent restarts of the same pod still speak.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../src/diagnosis/engine.js';
import { RULES } from '../src/diagnosis/rules/index.js';
import { type Pod, SEVERITY_ORDER, type Snapshot } from '../src/diagnosis/types.js';
import { ago, containerStatus, logTail, pod, snapshot } from './helpers/factories.js';

const DAY = 86_400;
const readySince = (seconds: number) => [
  { type: 'PodScheduled', status: 'True' },
  { type: 'Initialized', status: 'True', lastTransitionTime: ago(seconds) },
  { type: 'ContainersReady', status: 'True', lastTransitionTime: ago(seconds) },
  { type: 'Ready', status: 'True', lastTransitionTime: ago(seconds) },
];
const ended = (reason: string, exitCode: number, finishedAgo: number) => ({
  terminated: { exitCode, reason, startedAt: ago(finishedAgo + 3600), finishedAt: ago(finishedAgo), containerID: 'containerd://0a1b' },
});

/** Ready for `readyFor`, the app restarted `restarts` times, the last run ended `lastAgo` ago. */
function oldTrouble(opts: { readyFor: number; restarts: number; lastAgo: number; reason?: string; exitCode?: number; init?: boolean; sidecar?: boolean }): Pod {
  const last = ended(opts.reason ?? 'Error', opts.exitCode ?? 1, opts.lastAgo);
  const app = containerStatus({ restartCount: opts.init || opts.sidecar ? 0 : opts.restarts, state: { running: { startedAt: ago(opts.readyFor + 10) } } });
  if (!opts.init && !opts.sidecar) app.lastState = last;
  const initStatus = containerStatus({
    name: opts.sidecar ? 'proxy' : 'migrate',
    restartCount: opts.restarts,
    ready: Boolean(opts.sidecar),
    state: opts.sidecar ? { running: { startedAt: ago(opts.lastAgo - 5) } } : ended('Completed', 0, opts.lastAgo - 30),
  });
  initStatus.lastState = last;
  return pod({
    metadata: { creationTimestamp: ago(opts.readyFor + opts.lastAgo) },
    spec:
      opts.init || opts.sidecar
        ? {
            initContainers: [
              { name: opts.sidecar ? 'proxy' : 'migrate', image: 'registry.example.com/shop/tool:2', ...(opts.sidecar ? { restartPolicy: 'Always' } : {}) },
            ],
          }
        : {},
    status: {
      startTime: ago(opts.readyFor + opts.lastAgo),
      conditions: readySince(opts.readyFor),
      containerStatuses: [app],
      ...(opts.init || opts.sidecar ? { initContainerStatuses: [initStatus] } : {}),
    },
  });
}

function loud(s: Snapshot) {
  return diagnose(s, { rules: RULES }).findings.filter((f) => SEVERITY_ORDER[f.severity] >= SEVERITY_ORDER.warning);
}

const NOISY_PREVIOUS = ['Exception in thread "main" java.net.SocketException: Too many open files', '\tat java.base/sun.nio.ch.Net.accept(Native Method)'];

describe('old restarts age out', () => {
  it.each([
    [
      'the app OOM-killed 12 times, the last two days ago, Ready for two days',
      { readyFor: 2 * DAY, restarts: 12, lastAgo: 2 * DAY + 60, reason: 'OOMKilled', exitCode: 137 },
    ],
    ['the app crashed 3 times a day ago (exit 1), Ready since', { readyFor: DAY - 60, restarts: 3, lastAgo: DAY }],
    ['an init container that failed twice a week ago before it completed', { readyFor: 7 * DAY, restarts: 2, lastAgo: 7 * DAY + 100, init: true }],
    ['a native sidecar restarted 5 times, the last 3 days ago (SIGKILL)', { readyFor: 3 * DAY, restarts: 5, lastAgo: 3 * DAY, exitCode: 137, sidecar: true }],
  ] as [string, Parameters<typeof oldTrouble>[0]][])('%s: info at most', (_name, opts) => {
    const p = oldTrouble(opts);
    const container = opts.init ? 'migrate' : opts.sidecar ? 'proxy' : 'web';
    const found = loud(snapshot(p, { logs: [logTail(container, NOISY_PREVIOUS, true)] }));
    expect(found.map((f) => `${f.rule}: ${f.title}`)).toEqual([]);
  });

  it('the same crashes a few minutes ago still speak (the test can fail)', () => {
    const p = oldTrouble({ readyFor: 60, restarts: 5, lastAgo: 120 });
    const found = loud(snapshot(p, { logs: [logTail('web', NOISY_PREVIOUS, true)] }));
    expect(found[0]?.rule).toBe('crash.app-exit');
    expect(found[0]?.mechanism?.id).toBe('fd-limit');
  });
});
