// Reading container runtime errors (runc, containerd, CRI-O) for what they are about: the
// workload's own command, or the node's runtime setup. The same words (`executable file not found
// in $PATH`, `exec format error`) mean different fixes depending on what the runtime was running.

// The two OCI runtimes word the exec of the container's process differently:
//   runc (containerd's default, and CRI-O's before 1.31): at create time `exec: "foo": executable file not
//     found in $PATH`, `exec: "/app/run": permission denied`, `exec: "/app/run": stat /app/run: no such file
//     or directory`; runc >= 1.1 after start, as the run's only log line: `exec /app/run: exec format error`.
//   crun (CRI-O's default from 1.31, and of its static bundle before): at create time `executable file `foo`
//     not found in $PATH: No such file or directory`, `open executable: Permission denied`; after start, as
//     the run's only log line: `exec container process `/app/run`: Exec format error`, `exec container
//     process (missing dynamic library?) `/app/run`: No such file or directory`.
// CRI-O quotes the create-time ones after `container create failed: ` (CreateContainerError).

export type StartProblem = 'not-found' | 'permission' | 'no-such-file' | 'no-interpreter';

/** runc's and crun's words for a failed exec of the container's own process (not a mount, not a node helper). */
const EXEC_FAILURE = /exec: \\?"|executable file (?:`[^`]*` )?not found in \$PATH|open executable: |exec container process /;

export function isExecFailure(text: string): boolean {
  return EXEC_FAILURE.test(text);
}

/** What kept the process from starting; an `exec format error` is a binary for another CPU or a script without `#!`. */
export function startProblem(text: string): Exclude<StartProblem, 'no-interpreter'> | undefined {
  if (/exec format error/i.test(text)) return undefined;
  if (/executable file (?:`[^`]*` )?not found in \$PATH/.test(text)) return 'not-found';
  if (/permission denied/i.test(text)) return 'permission';
  if (/no such file or directory/i.test(text)) return 'no-such-file';
  return undefined;
}

/** The path the runtime tried to exec: runc `exec: "foo"` (quotes escaped in docker's wording), crun `executable file `foo``. */
export function execPath(text: string): string | undefined {
  return (
    /exec: \\?"([^"\\]+)\\?"/.exec(text)?.[1] ??
    /executable file `([^`]+)`/.exec(text)?.[1] ??
    /exec container process (?:\(missing dynamic library\?\) )?`([^`]+)`/.exec(text)?.[1] ??
    /stat (\/\S+): no such file/.exec(text)?.[1]
  );
}

/**
 * The exec failure a run printed as its only log line, after the runtime started it: runc's
 * `exec /entrypoint: no such file or directory`, crun's `exec container process `/entrypoint`: Permission denied`.
 */
export function execLogLine(line: string): { path: string; problem: 'permission' | 'no-such-file' } | undefined {
  const m =
    /^exec (\S+): (no such file or directory|permission denied)$/.exec(line.trim()) ??
    /^exec container process (?:\(missing dynamic library\?\) )?`([^`]+)`: (No such file or directory|Permission denied)$/.exec(line.trim());
  if (!m?.[1] || !m[2]) return undefined;
  return { path: m[1], problem: /permission/i.test(m[2]) ? 'permission' : 'no-such-file' };
}

/** The script an `exec format error` names (`exec /app/entrypoint.sh: exec format error`, crun's `exec container process `…``), if it is one. */
export function scriptPath(text: string): string | undefined {
  const path =
    /exec:? \\?"?([^\s"\\:]+)\\?"?: exec format error/.exec(text)?.[1] ??
    /exec container process `([^`]+)`: Exec format error/i.exec(text)?.[1] ??
    /exec: \\?"([^"\\]+)\\?"/.exec(text)?.[1];
  return path && /\.(?:sh|bash|py|pl|rb|js)$|entrypoint/.test(path) ? path : undefined;
}

/**
 * Programs the runtime itself runs on the node (not in the container): when one of them is missing
 * or fails, the node's runtime setup is broken and no workload change helps.
 */
const NODE_HELPERS = new RegExp(
  String.raw`^(?:apparmor_parser|runc|crun|kata-runtime|runsc|conmon|containerd-shim(?:-[\w-]+)?|nvidia-container-runtime(?:-hook)?|nvidia-container-cli|` +
    'iptables|ip6tables|nsenter|mount|umount|fuse-overlayfs|slirp4netns)$',
);

/**
 * The node-side program a runtime error says is missing or failing: `exec: "apparmor_parser":
 * executable file not found in $PATH` while containerd generates its AppArmor profile, a missing
 * shim binary, an unconfigured runtime handler. Undefined when the error is about the container's
 * own process.
 */
export function nodeSideFailure(text: string): { program: string; line: string } | undefined {
  const exec = /exec: \\?"([^"\\]+)\\?": executable file not found in \$PATH/.exec(text);
  const program = exec?.[1]?.split('/').pop();
  if (exec && program && NODE_HELPERS.test(program)) return { program, line: exec[0] };
  const apparmor = /get apparmor_parser version[^"]*/.exec(text);
  if (apparmor) return { program: 'apparmor_parser', line: apparmor[0] };
  const shim = new RegExp(
    String.raw`failed to start shim: (?:start failed: )?(?:[^:]*: )?exec: "?(containerd-shim[\w-]*)"?[^:]*: ` +
      String.raw`(?:executable file not found in \$PATH|no such file or directory)`,
  ).exec(text);
  if (shim?.[1]) return { program: shim[1], line: shim[0] };
  return undefined;
}
