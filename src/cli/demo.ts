// `npm run demo`: a simulated cluster holding one scenario per seed incident, diagnosed
// through the real client. Timestamps are moved so each incident looks live right now.
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { diagnoseTarget } from '../collect/diagnose.js';
import { KubeSource } from '../collect/kube-source.js';
import { parseTarget } from '../diagnosis/target.js';
import { renderDiagnosisText } from '../render/text.js';
import { loadScenarios, shiftTimes } from '../sim/scenarios.js';
import { startSim } from '../sim/server.js';
import * as k8s from '@kubernetes/client-node';
import type { CliIo } from './diagnose.js';

export const SCENARIO_ROOT = fileURLToPath(new URL('../../test/fixtures/incidents', import.meta.url));

export async function demoCommand(argv: string[], io: CliIo): Promise<number | null> {
  const { values } = parseArgs({ args: argv, options: { all: { type: 'boolean', default: false }, dir: { type: 'string' } } });
  const scenarios = (await loadScenarios(values.dir ?? SCENARIO_ROOT)).filter((s) => values.all || s.meta.seed !== undefined);
  const now = Date.now();
  const objects = scenarios.flatMap((s) => shiftTimes(s.objects, now - Date.parse(s.meta.now)));
  const sim = await startSim({ objects });
  const color = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;
  try {
    const kc = new k8s.KubeConfig();
    kc.loadFromString(sim.kubeconfig());
    const source = new KubeSource(kc);
    io.stdout.write(`Simulated cluster on ${sim.url} with ${scenarios.length} incidents.\n`);
    for (const s of scenarios) {
      io.stdout.write(`\n${'='.repeat(78)}\n${s.meta.seed ? `seed ${s.meta.seed}: ` : ''}${s.meta.title}\n$ pod-doctor diagnose ${s.meta.target}\n\n`);
      const diagnosis = await diagnoseTarget(source, parseTarget(s.meta.target), { cluster: 'demo' });
      io.stdout.write(`${renderDiagnosisText(diagnosis, { color })}\n`);
    }
  } finally {
    await sim.close();
  }
  return 0;
}
