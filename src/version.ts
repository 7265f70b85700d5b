// What this build is: the package version, and the commit it was built from. Both show in
// `pod-doctor --version`, the pod_doctor_build_info metric and trace resources.
import { builtin } from './builtin.js';

// Built-ins through require(): less resident memory in the node agent (src/builtin.ts).
const { readFileSync } = builtin('node:fs') as typeof import('node:fs');

function packageVersion(): string {
  // src/version.ts and dist/version.js both sit one level below package.json.
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export interface BuildInfo {
  version: string;
  /** The image build passes it as POD_DOCTOR_GIT_COMMIT (Dockerfile ARG); a checkout may not have one. */
  commit: string;
  /** The Node.js runtime, e.g. v24.9.0. */
  node: string;
}

let cached: BuildInfo | undefined;

export function buildInfo(env: NodeJS.ProcessEnv = process.env): BuildInfo {
  if (env !== process.env) return { version: packageVersion(), commit: env.POD_DOCTOR_GIT_COMMIT || 'unknown', node: process.version };
  cached ??= { version: packageVersion(), commit: env.POD_DOCTOR_GIT_COMMIT || 'unknown', node: process.version };
  return cached;
}
