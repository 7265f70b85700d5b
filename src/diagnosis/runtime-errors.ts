// Reading container runtime errors (runc, containerd, CRI-O) for what they are about: the
// workload's own command, or the node's runtime setup. The same words (`executable file not found
// in $PATH`, `exec format error`) mean different fixes depending on what the runtime was running.

/** The script an `exec format error` names (`exec /app/entrypoint.sh: exec format error`), if it is one. */
export function scriptPath(text: string): string | undefined {
  const path = /exec:? \\?"?([^\s"\\:]+)\\?"?: exec format error/.exec(text)?.[1] ?? /exec: \\?"([^"\\]+)\\?"/.exec(text)?.[1];
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
