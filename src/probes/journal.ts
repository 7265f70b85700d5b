// journal: recent kubelet and runtime log lines about the pod (its UID, containers, sandboxes,
// `<name>_<namespace>`) matched against the catalogue signatures, from log files under the host
// root or from `journalctl --directory` when configured. Lines are redacted (Calico's CNI env
// dump prints the API token) and the result is capped.
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { capped, clipText, containerIdSchema, defineProbe, matchSchema, namespaceSchema, type ProbeEnv, podNameSchema, podUidSchema } from './probe.js';
import { matchSignatures, redactLine, signatureScope } from './signatures.js';

export const params = z.object({
  podUid: podUidSchema.optional(),
  namespace: namespaceSchema.optional(),
  name: podNameSchema.optional(),
  containerIds: z.array(containerIdSchema).max(32).default([]),
  /** More texts that make a line relevant (sandbox ids, layer dirs). */
  match: z.array(matchSchema).max(16).default([]),
});
export type JournalParams = z.infer<typeof params>;

const TAIL_BYTES = 16 * 1024 * 1024;
const MAX_MATCHES = 64;
const MAX_NODE_MATCHES = 16;
const MAX_LINE = 2000;

const DEFAULT_FILES = ['var/log/messages', 'var/log/syslog', 'var/log/daemon.log', 'var/log/kubelet.log', 'var/log/docker.log', 'var/log/containerd.log'];

const match = z.object({
  signatures: z.array(z.string()),
  source: z.string(),
  line: z.string(),
  captures: z.record(z.string(), z.string()),
  /** The line names the pod (else it is a node-wide signature such as PLEG). */
  aboutPod: z.boolean(),
});
/** `signatures` holds SignatureId values; kept as strings so an agent of another version still parses. */
export type JournalMatch = z.infer<typeof match>;

export const result = z.object({
  sources: z.array(z.object({ source: z.string(), lines: z.number(), error: z.string().optional() })),
  /** The texts a line had to contain to count as about the pod. */
  keys: z.array(z.string()),
  /** Matching lines: node-wide ones, then the pod's; each group oldest first. */
  matches: z.array(match),
  counts: z.record(z.string(), z.number()),
  truncated: z.boolean(),
});
export type JournalResult = z.infer<typeof result>;

/** Texts that tie a log line to this pod. */
export function podKeys(p: JournalParams): string[] {
  const keys = new Set<string>();
  if (p.podUid) keys.add(p.podUid);
  for (const id of p.containerIds) {
    keys.add(id);
    if (id.length > 12) keys.add(id.slice(0, 12));
  }
  if (p.namespace && p.name) {
    keys.add(`${p.name}_${p.namespace}`);
    keys.add(`${p.namespace}.${p.name}`);
    keys.add(`"${p.namespace}/${p.name}"`);
    keys.add(`K8S_POD_NAME=${p.name};`);
  }
  for (const m of p.match) keys.add(m);
  return [...keys].filter((k) => k.length >= 8);
}

async function tailFile(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - start);
    await handle.read(buf, 0, buf.length, start);
    const text = buf.toString('utf8');
    // Drop the partial first line of a tail.
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
}

function runJournalctl(env: ProbeEnv, options: { command?: string; directory?: string; sinceMinutes?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['--no-pager', '-q', '-o', 'short-iso', '-u', 'kubelet', '-u', 'docker', '-u', 'containerd', '--since', `-${options.sinceMinutes ?? 120}min`];
    args.push('--directory', options.directory ?? join(env.hostRoot, 'var/log/journal'));
    const child = spawn(options.command ?? 'journalctl', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(new Error('journalctl did not finish in time'));
      },
      Math.max(500, env.timeoutMs - 500),
    );
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      chunks.push(c);
      // Keep only the newest TAIL_BYTES.
      while (size - (chunks[0]?.length ?? 0) > TAIL_BYTES) size -= chunks.shift()!.length;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

export async function scanJournal(p: JournalParams, env: ProbeEnv): Promise<JournalResult> {
  const keys = podKeys(p);
  const texts: { source: string; text?: string; error?: string }[] = [];
  const files = env.logFiles ?? DEFAULT_FILES.map((f) => join(env.hostRoot, f));
  for (const file of files) {
    const text = await tailFile(file);
    if (text !== undefined) texts.push({ source: file, text });
  }
  if (env.journalctl) {
    try {
      texts.push({ source: 'journalctl', text: await runJournalctl(env, env.journalctl) });
    } catch (err) {
      texts.push({ source: 'journalctl', error: err instanceof Error ? err.message : String(err) });
    }
  }
  if (texts.length === 0) throw new Error(`no log source readable (tried ${files.join(', ')}${env.journalctl ? ', journalctl' : ''})`);

  const podMatches: JournalMatch[] = [];
  const nodeMatches: JournalMatch[] = [];
  const counts: Record<string, number> = {};
  const sources: JournalResult['sources'] = [];
  for (const { source, text, error } of texts) {
    if (text === undefined) {
      sources.push({ source, lines: 0, error });
      continue;
    }
    let lines = 0;
    let from = 0;
    while (from < text.length) {
      let end = text.indexOf('\n', from);
      if (end < 0) end = text.length;
      const line = text.slice(from, end);
      from = end + 1;
      lines += 1;
      const aboutPod = keys.some((k) => line.includes(k));
      const hit = matchSignatures(line);
      if (!hit) continue;
      const podSigs = hit.signatures.filter((s) => aboutPod || signatureScope(s) === 'node');
      if (podSigs.length === 0) continue;
      for (const s of podSigs) counts[s] = (counts[s] ?? 0) + 1;
      const m: JournalMatch = { signatures: podSigs, source, line: clipText(redactLine(line), MAX_LINE), captures: hit.captures, aboutPod };
      (aboutPod ? podMatches : nodeMatches).push(m);
    }
    sources.push({ source, lines });
  }
  // Keep the newest lines of each kind.
  const pod = podMatches.length > MAX_MATCHES ? podMatches.slice(-MAX_MATCHES) : podMatches;
  const node = capped(nodeMatches.slice(-MAX_NODE_MATCHES), MAX_NODE_MATCHES);
  return {
    sources,
    keys,
    matches: [...node.items, ...pod],
    counts,
    truncated: podMatches.length > MAX_MATCHES || nodeMatches.length > MAX_NODE_MATCHES,
  };
}

export const probe = defineProbe({
  name: 'journal',
  description:
    "Recent kubelet/runtime log lines about the pod's UID, containers and sandboxes, matched against catalogue signatures (device busy, KillContainerError deadline, lstat ns, subPath cleanup, CNI teardown, sandbox creation, image checksum).",
  params,
  result,
  timeoutMs: 8000,
  run: scanJournal,
});
