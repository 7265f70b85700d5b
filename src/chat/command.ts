// `/pod-doctor <text>` (and the console's same command line), parsed without I/O so the Slack
// handler can acknowledge first and answer bad input in the acknowledgement itself.

import type { Policy } from '../access/policy.js';
import type { Target } from '../diagnosis/types.js';
import { isPodDoctorError } from '../errors.js';
import { parseTarget } from '../kube/target.js';

export type ParsedCommand = { kind: 'help' } | { kind: 'error'; problem: string } | { kind: 'diagnose'; target: Target };

const HELP = new Set(['', 'help', '-h', '--help', '?']);

/**
 * Namespace of a bare `<pod>` in `channel`: the channel's own entry, else `*`'s; at each step the
 * access policy's channel entry (`defaultNamespace`) wins over the `defaultNamespaces` map.
 */
export function defaultNamespaceFor(map: Readonly<Record<string, string>>, channel: string, policy?: Policy): string | undefined {
  const own = policy?.channels[channel]?.defaultNamespace ?? map[channel];
  return own ?? policy?.channels['*']?.defaultNamespace ?? map['*'];
}

export function parseCommand(text: string, defaultNamespace?: string): ParsedCommand {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || (words.length === 1 && HELP.has(words[0]!.toLowerCase()))) return { kind: 'help' };
  if (words.length > 1)
    return { kind: 'error', problem: `"${text.trim().slice(0, 200)}" is more than one target. Give one: <namespace>/<pod>, <pod>, node/<name> or ns/<name>.` };
  const word = words[0]!;
  // namespace (63) + "/" + name (253): anything longer cannot name an object.
  if (word.length > 317)
    return { kind: 'error', problem: `"${word.slice(0, 40)}…" is too long to name a pod, node or namespace (names have at most 253 characters).` };
  try {
    return { kind: 'diagnose', target: parseTarget(word, defaultNamespace) };
  } catch (err) {
    if (isPodDoctorError(err)) {
      return { kind: 'error', problem: err.message.length > 1000 ? `${err.message.slice(0, 1000)}…` : err.message };
    }
    throw err;
  }
}
