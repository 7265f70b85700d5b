// What both agent commands share (serving, cli.ts; one probe, probe-cli.ts), without the probes
// themselves: serving loads them with its first probe request.
import type { AgentProbeEnv } from '../probes/index.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const defaultIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** Probe environment options shared by both commands. */
export const envOptions = {
  'proc-root': { type: 'string' },
  'host-root': { type: 'string' },
  'docker-socket': { type: 'string', multiple: true },
  'containerd-socket': { type: 'string', multiple: true },
  'log-file': { type: 'string', multiple: true },
} as const;

export function probeEnvFrom(values: {
  'proc-root'?: string;
  'host-root'?: string;
  'docker-socket'?: string[];
  'containerd-socket'?: string[];
  'log-file'?: string[];
}): AgentProbeEnv {
  return {
    procRoot: values['proc-root'] ?? '/proc',
    hostRoot: values['host-root'] ?? '/',
    ...(values['docker-socket'] ? { dockerSockets: values['docker-socket'] } : {}),
    ...(values['containerd-socket'] ? { containerdSockets: values['containerd-socket'] } : {}),
    ...(values['log-file'] ? { logFiles: values['log-file'] } : {}),
  };
}
