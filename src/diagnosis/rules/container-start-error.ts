// container.start-error: The container's command cannot be started.

import { type Crash, containerSpec, crashes, crashKey, crashLogs, crashTexts, logEvidence } from '../crashes.js';
import { clip, containerStatuses, statusEvidence } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import { execLogLine, execPath, isExecFailure, nodeSideFailure, type StartProblem, scriptPath, startProblem } from '../runtime-errors.js';
import type { Container, Evidence, FindingDraft, Snapshot } from '../types.js';

// The runtime could not start the container's process: the command does not exist, is not
// executable, or a path it needs is missing. Wording, newest first:
//   containerd + runc >= 1.1: `failed to create containerd task: failed to create shim task: OCI runtime
//     create failed: runc create failed: unable to start container process: exec: "foo": executable
//     file not found in $PATH: unknown` (terminated reason StartError, exit code 128)
//   runc 1.0: `... starting container process caused: exec: "foo": executable file not found in $PATH: unknown`
//   docker: `OCI runtime create failed: container_linux.go:345: starting container process caused
//     "exec: \"foo\": executable file not found in $PATH": unknown` (ContainerCannotRun, exit 127)
//   CRI-O: CreateContainerError `container create failed: ...` with runc's words, or crun's (CRI-O's default
//     from 1.31): `executable file `foo` not found in $PATH: No such file or directory`
// A shell entrypoint that cannot find its command exits 127 (`sh: foo: not found`) or 126.
// runtime-errors.ts reads both runtimes' words.

const SHELL_127 = /(?:^|: )(?:\S+: )?(?:line \d+: )?(\S+): (?:command )?not found$|exec: \S+: not found|can't execute '[^']+': No such file or directory/m;

/** Only the exec of the process itself: mount errors in the same OCI message (subPath, a missing hostPath file) say "no such file or directory" too. */
const ownExec = (text: string) => isExecFailure(text) && startProblem(text) !== undefined && !nodeSideFailure(text);

export function commandOf(spec: Container | undefined): string {
  const cmd = spec?.command ?? [];
  const args = spec?.args ?? [];
  if (cmd.length === 0 && args.length === 0) return 'the image ENTRYPOINT/CMD (no command or args in the pod spec)';
  return `${cmd.length > 0 ? `command ${JSON.stringify(cmd)}` : 'the image ENTRYPOINT'}${args.length > 0 ? ` with args ${JSON.stringify(args)}` : ''}`;
}

interface Hit {
  name: string;
  init: boolean;
  spec?: Container;
  problem: StartProblem;
  path?: string;
  text: string;
  evidence: Evidence[];
  crash?: Crash;
}

function hits(snapshot: Snapshot): Hit[] {
  const out: Hit[] = [];
  for (const c of crashes(snapshot)) {
    const texts = crashTexts(snapshot, c);
    // A program the runtime itself runs on the node (apparmor_parser, a shim) is container.create-error's.
    const runtime = texts.find((t) => ownExec(t.text));
    if (runtime) {
      out.push({
        name: c.name,
        init: c.s.init,
        ...(c.spec ? { spec: c.spec } : {}),
        problem: startProblem(runtime.text) ?? 'not-found',
        ...(execPath(runtime.text) ? { path: execPath(runtime.text) } : {}),
        text: runtime.text,
        evidence: [runtime.evidence],
        crash: c,
      });
      continue;
    }
    // A script without a `#!` line (or with CRLF endings): the kernel cannot exec it (runc >= 1.1 logs
    // `exec /app/entrypoint.sh: exec format error`). A binary for another CPU is image.wrong-arch.
    const tail = crashLogs(snapshot, c);
    const formatLine = [...(tail?.lines.slice(-5) ?? []), ...texts.map((t) => t.text)].find((l) => /exec format error/i.test(l) && scriptPath(l));
    if (formatLine) {
      const fromLog = tail?.lines.includes(formatLine);
      out.push({
        name: c.name,
        init: c.s.init,
        ...(c.spec ? { spec: c.spec } : {}),
        problem: 'no-interpreter',
        ...(scriptPath(formatLine) ? { path: scriptPath(formatLine) } : {}),
        text: formatLine,
        evidence: [fromLog && tail ? logEvidence(tail, 3) : (texts.find((t) => t.text === formatLine)?.evidence ?? { source: 'runtime', text: formatLine })],
        crash: c,
      });
      continue;
    }
    // runc >= 1.1 (and crun) report a failed exec of the entrypoint as the run's only log line: `exec
    // /entrypoint: no such file or directory` (the file, or the interpreter its #! line names, is missing:
    // a CRLF line ending makes it look for `/bin/sh\r`) or `exec /app/run: permission denied`.
    const execLine = tail?.lines.slice(-3).find((l) => execLogLine(l));
    const exec = execLine ? execLogLine(execLine) : undefined;
    if (execLine && exec) {
      out.push({
        name: c.name,
        init: c.s.init,
        ...(c.spec ? { spec: c.spec } : {}),
        problem: exec.problem,
        path: exec.path,
        text: execLine.trim(),
        evidence: [logEvidence(tail!, 3)],
        crash: c,
      });
      continue;
    }
    // A shell entrypoint whose command is missing (127) or not executable (126).
    const code = c.term?.exitCode;
    const line = tail?.lines
      .slice(-5)
      .reverse()
      .find((l) => SHELL_127.test(l) || /Permission denied/.test(l));
    if ((code === 127 || code === 126) && line) {
      out.push({
        name: c.name,
        init: c.s.init,
        ...(c.spec ? { spec: c.spec } : {}),
        problem: code === 126 ? 'permission' : 'not-found',
        text: line,
        evidence: [logEvidence(tail!, 5)],
        crash: c,
      });
    }
  }
  // CRI-O reports it at create time, before any crash (runc's or crun's words).
  for (const s of containerStatuses(snapshot.pod)) {
    const w = s.status.state?.waiting;
    if (w?.reason !== 'CreateContainerError' || !w.message || !ownExec(w.message)) continue;
    const problem = startProblem(w.message);
    if (!problem || out.some((h) => h.name === s.status.name)) continue;
    const spec = containerSpec(snapshot.pod, s.status.name, s.init);
    out.push({
      name: s.status.name,
      init: s.init,
      ...(spec ? { spec } : {}),
      problem,
      ...(execPath(w.message) ? { path: execPath(w.message) } : {}),
      text: w.message,
      evidence: [statusEvidence(s, 'state', `${w.reason}: ${clip(w.message)}`)],
    });
  }
  return out;
}

const messages = {
  titleNotFound: '{{container}} {{name}} cannot start: not found',
  titleNotFoundPath: '{{container}} {{name}} cannot start: {{path}} not found',
  titlePermission: '{{container}} {{name}} cannot start: permission denied',
  titlePermissionPath: '{{container}} {{name}} cannot start: {{path}} permission denied',
  titleNoSuchFile: '{{container}} {{name}} cannot start: no such file or directory',
  titleNoSuchFilePath: '{{container}} {{name}} cannot start: {{path}} no such file or directory',
  titleNoInterpreter: '{{container}} {{name}} cannot start: exec format error (script without #!)',
  titleNoInterpreterPath: '{{container}} {{name}} cannot start: {{path}} exec format error (script without #!)',
  notFound: 'The runtime created {{who}} but could not start its process: {{path}} is not in the image (not found in $PATH).',
  permission: 'The runtime created {{who}} but could not start its process: {{path}} is not executable (permission denied).',
  noSuchFile:
    'The runtime created {{who}} but could not start its process: {{path}} ' +
    'or a file it needs does not exist in the image (no such file or directory; ' +
    'for a script, the interpreter its #! line names, or a CRLF line ending that makes it look for `sh\\r`).',
  noInterpreter:
    'The runtime created {{who}} but could not start its process: {{path}} ' +
    'is a script the kernel cannot execute (exec format error): it lacks a `#!` line, or the line ends in CRLF.',
  runs: 'It runs {{command}}.',
  runsImage: 'It runs {{command}} from image {{image}}.',
  runtimeMessage: 'Runtime message: "{{text}}".',
  addInterpreter:
    'Start {{path}} with an interpreter line (`#!/bin/sh`) and LF line endings (`dos2unix`, or `.gitattributes` eol=lf), ' +
    'or call it through its interpreter (command: ["sh", "{{script}}"]).',
  makeExecutable:
    'Make {{path}} executable in the image (`chmod +x` in the Dockerfile, or COPY --chmod=755), ' +
    'or call it through its interpreter (command: ["sh", "{{script}}"]); ' +
    'check that a volume mounted over its directory (noexec, a ConfigMap with defaultMode 0644) does not hide it.',
  checkExists:
    "Check {{path}} exists in the image: `docker run --rm --entrypoint sh {{image}} -c 'ls -l {{file}}; echo $PATH'`; " +
    'a distroless or scratch image has no shell, so `sh -c` commands fail there too.',
  fixCommand: 'Fix the command/args in the {{kind}} spec (or the image ENTRYPOINT), then roll out; restarting the pod does not help.',
  prevent:
    'Start every new image once in CI with the exact command and args the manifest uses (a smoke test), ' + 'so a wrong entrypoint never reaches the cluster.',
} as const;

type Id = keyof typeof messages;

/** Per problem: the title without and with the path, and the first sentence of the cause. */
const WORDS: Record<StartProblem, { titleId: Id; titlePathId: Id; causeId: Id }> = {
  'not-found': { titleId: 'titleNotFound', titlePathId: 'titleNotFoundPath', causeId: 'notFound' },
  permission: { titleId: 'titlePermission', titlePathId: 'titlePermissionPath', causeId: 'permission' },
  'no-such-file': { titleId: 'titleNoSuchFile', titlePathId: 'titleNoSuchFilePath', causeId: 'noSuchFile' },
  'no-interpreter': { titleId: 'titleNoInterpreter', titlePathId: 'titleNoInterpreterPath', causeId: 'noInterpreter' },
};

export const rule = defineRule({
  meta: {
    id: 'container.start-error',
    title: "The container's command cannot be started",
    category: 'container',
    severity: 'error',
    needs: ['pod', 'events', 'logs'],
    priority: 52,
    supersedes: ['crash.app-exit'],
    doc:
      "The runtime cannot exec the container's process: StartError / RunContainerError / ContainerCannotRun / CreateContainerError " +
      'with `executable file not found in $PATH`, `permission denied` or `no such file or directory` (exit 128 on containerd, 127 on docker; ' +
      "crun's `executable file `x` not found in $PATH`, `open executable`, `exec container process` under CRI-O), " +
      'or a shell entrypoint exiting 127/126 with `not found`. Points at the command/args in the pod spec or the image entrypoint.',
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    return hits(snapshot).map((h): FindingDraft<Id> => {
      const who = `${h.init ? 'init container' : 'container'} ${h.name}`;
      const path = h.path ? `"${h.path}"` : 'the command';
      const image = h.spec?.image ?? '';
      const words = WORDS[h.problem];
      return {
        title: h.path
          ? msg(words.titlePathId, { container: h.init ? 'Init container' : 'Container', name: h.name, path: h.path })
          : msg(words.titleId, { container: h.init ? 'Init container' : 'Container', name: h.name }),
        cause: [
          msg(words.causeId, { who, path }),
          image ? msg('runsImage', { command: commandOf(h.spec), image }) : msg('runs', { command: commandOf(h.spec) }),
          msg('runtimeMessage', { text: clip(h.text, 400) }),
        ],
        evidence: [
          ...h.evidence,
          ...(h.spec?.command || h.spec?.args ? [{ source: `pod.spec.${h.init ? 'initContainers' : 'containers'}[${h.name}]`, text: commandOf(h.spec) }] : []),
        ],
        advice: [
          h.problem === 'no-interpreter'
            ? msg('addInterpreter', { path, script: h.path ?? '<script>' })
            : h.problem === 'permission'
              ? msg('makeExecutable', { path, script: h.path ?? '<script>' })
              : msg('checkExists', { path, image: image || '<image>', file: h.path ?? '<path>' }),
          msg('fixCommand', { kind: pod?.metadata?.ownerReferences?.[0]?.kind ?? 'pod' }),
        ],
        prevent: [msg('prevent')],
        causeKey: h.crash ? crashKey(pod, h.crash, `start-${h.problem}`) : `workload/${pod?.metadata?.namespace ?? ''}/${h.name}:start-${h.problem}`,
        params: { container: h.name, problem: h.problem, ...(h.path ? { path: h.path } : {}), ...(image ? { image } : {}) },
      };
    });
  },
});
