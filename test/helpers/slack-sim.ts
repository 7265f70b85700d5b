// What a bot test stands on: a fake Slack Web API and a simulated cluster, whose kubeconfig is in
// a temporary folder the test may put more files in (a config file, Alertmanager's). `close()`
// ends all three; the test stops its bot first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '../../src/diagnosis/types.js';
import { loadScenario, shiftTimes } from '../../src/sim/scenarios.js';
import { type Sim, startSim } from '../../src/sim/server.js';
import { type FakeSlack, type FakeSlackOptions, startFakeSlack } from './fake-slack.js';

export interface SlackSim {
  slack: FakeSlack;
  sim: Sim;
  dir: string;
  /** The simulated cluster's kubeconfig, in `dir`. */
  kubeconfig: string;
  close(): Promise<void>;
}

/** A saved incident's objects with their times moved so that its `now` is now. */
export async function scenarioNow(path: string): Promise<KubeObject[]> {
  const scenario = await loadScenario(path);
  return shiftTimes(scenario.objects, Date.now() - Date.parse(scenario.meta.now));
}

export async function startSlackSim(objects: KubeObject[], slackOptions: FakeSlackOptions = {}): Promise<SlackSim> {
  const slack = await startFakeSlack(slackOptions);
  const sim = await startSim({ objects });
  const dir = mkdtempSync(join(tmpdir(), 'pd-slack-sim-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, sim.kubeconfig());
  return {
    slack,
    sim,
    dir,
    kubeconfig,
    close: async () => {
      await slack.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
