// `pod-doctor completion bash|zsh`: a shell completion script, built from the same tables the
// commands parse with (their names, diagnose's options, kubectl's resource types). Names of pods,
// workloads, nodes, namespaces and contexts come from kubectl when it is on PATH, asked with the
// --kubeconfig, --context and -n already on the command line (kubectl is read-only here).
import { RESOURCE_TYPES } from '../kube/target.js';
import type { CliIo } from './diagnose.js';
import { DIAGNOSE_OPTIONS, OUTPUT_FORMATS } from './options.js';

export const COMPLETION_USAGE = `Usage: pod-doctor completion bash|zsh
  Prints a completion script for the shell: commands, diagnose's options and targets (pod/, deploy/,
  sts/, ds/, job/, node/, ns/ and their names, read with kubectl when it is installed).
  bash:  source <(pod-doctor completion bash)      (or save it in ~/.local/share/bash-completion/completions/pod-doctor)
  zsh:   source <(pod-doctor completion zsh)       (or save it as _pod-doctor in a directory of $fpath)`;

export const SHELLS = ['bash', 'zsh'] as const;

/** Subcommands of the commands that have them. */
const SUBCOMMANDS: Record<string, readonly string[]> = {
  audit: ['export'],
  playbook: ['list', 'validate', 'run'],
  completion: SHELLS,
};

/** diagnose's flags as typed: `--name` and `-x` for those with a short form. */
function diagnoseFlags(): { flags: string[]; takesValue: string[] } {
  const flags: string[] = [];
  const takesValue: string[] = [];
  for (const [name, o] of Object.entries(DIAGNOSE_OPTIONS)) {
    const forms = [`--${name}`, ...('short' in o ? [`-${o.short}`] : [])];
    flags.push(...forms);
    if (o.type === 'string') takesValue.push(...forms);
  }
  return { flags, takesValue };
}

/** The type prefixes offered for a target, short forms first (kubectl's own spellings are all accepted). */
const TARGET_PREFIXES = ['pod/', 'deploy/', 'sts/', 'ds/', 'job/', 'node/', 'ns/'];

/** What `kubectl get <type>` lists for a target prefix, so that names come back with the prefix typed. */
function kubectlTypes(): string {
  return Object.keys(RESOURCE_TYPES).join(' ');
}

function bashScript(commands: readonly string[]): string {
  const { flags, takesValue } = diagnoseFlags();
  // Flags whose value has no completion of its own above: nothing to offer after them.
  const completed = ['-o', '--output', '--kubeconfig', '--from', '--config', '-n', '--namespace', '--context'];
  const plainValue = takesValue.filter((f) => !completed.includes(f)).join('|');
  const subs = Object.entries(SUBCOMMANDS)
    .map(([c, s]) => `    ${c}) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W "${s.join(' ')}" -- "$cur")) ;;`)
    .join('\n');
  return `# bash completion for pod-doctor: source <(pod-doctor completion bash)
# kubectl (when on PATH) lists the names, with the --kubeconfig, --context and -n given so far.
_pod_doctor_kubectl() {
  command -v kubectl >/dev/null 2>&1 || return 0
  local -a args=()
  local i w
  for ((i = 2; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      --kubeconfig|--context|-n|--namespace) args+=("$w" "\${COMP_WORDS[i+1]}") ;;
      --kubeconfig=*|--context=*|--namespace=*) args+=("$w") ;;
    esac
  done
  kubectl "\${args[@]}" "$@" 2>/dev/null
}

_pod_doctor() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="\${COMP_WORDS[1]}"
  COMPREPLY=()
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${commands.join(' ')} --help --version" -- "$cur"))
    return 0
  fi
  case "$cmd" in
    diagnose)
      case "$prev" in
        -o|--output) COMPREPLY=($(compgen -W "${OUTPUT_FORMATS.join(' ')}" -- "$cur")); return 0 ;;
        --kubeconfig|--from|--config) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
        -n|--namespace) COMPREPLY=($(compgen -W "$(_pod_doctor_kubectl get namespaces -o name | sed 's|^[^/]*/||')" -- "$cur")); return 0 ;;
        --context) COMPREPLY=($(compgen -W "$(_pod_doctor_kubectl config get-contexts -o name)" -- "$cur")); return 0 ;;
        ${plainValue}) return 0 ;;
      esac
      if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "${flags.join(' ')}" -- "$cur"))
      elif [[ "$cur" == */* ]]; then
        local type="\${cur%%/*}" list
        case " ${kubectlTypes()} " in
          *" $type "*) list="$(_pod_doctor_kubectl get "$type" -o name)" ;;
          *) list="$(_pod_doctor_kubectl get pods -n "$type" -o name)" ;;  # <namespace>/<pod>
        esac
        COMPREPLY=($(compgen -W "$(printf '%s\\n' "$list" | sed "s|^[^/]*/|$type/|")" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "${TARGET_PREFIXES.join(' ')}" -- "$cur"))
        [[ \${#COMPREPLY[@]} -eq 1 && "\${COMPREPLY[0]}" == */ ]] && compopt -o nospace 2>/dev/null
      fi
      ;;
${subs}
  esac
  return 0
}
complete -F _pod_doctor pod-doctor
`;
}

function zshScript(commands: readonly string[], summaries: Readonly<Record<string, string>>): string {
  const quote = (s: string) => s.replaceAll("'", "'\\''");
  const described = commands.map((c) => `    '${c}:${quote(summaries[c] ?? '')}'`).join('\n');
  const subs = Object.entries(SUBCOMMANDS)
    .map(([c, s]) => `    ${c}) (( CURRENT == 3 )) && compadd -- ${s.join(' ')} ;;`)
    .join('\n');
  return `#compdef pod-doctor
# zsh completion for pod-doctor: source <(pod-doctor completion zsh), or save as _pod-doctor on $fpath.
# kubectl (when on PATH) lists the names, with the --kubeconfig, --context and -n given so far.
_pod_doctor_kubectl() {
  (( $+commands[kubectl] )) || return 0
  local -a args
  local i
  for (( i = 3; i < CURRENT; i++ )); do
    case $words[i] in
      --kubeconfig|--context|-n|--namespace) args+=($words[i] $words[i+1]) ;;
      --kubeconfig=*|--context=*|--namespace=*) args+=($words[i]) ;;
    esac
  done
  kubectl $args "$@" 2>/dev/null
}

_pod_doctor_names() {
  local -a names
  names=(\${(f)"$(_pod_doctor_kubectl "$@")"})
  names=(\${names#*/})
  compadd -a names
}

_pod_doctor_target() {
  if [[ $PREFIX == */* ]]; then
    local type=\${PREFIX%%/*}
    compset -P '*/'
    local -a types
    types=(${kubectlTypes()})
    if (( $types[(Ie)$type] )); then
      _pod_doctor_names get $type -o name
    else
      _pod_doctor_names get pods -n $type -o name
    fi
  else
    compadd -S '' -- ${TARGET_PREFIXES.join(' ')}
  fi
}

_pod_doctor() {
  local -a cmds
  cmds=(
${described}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'pod-doctor command' cmds
    return
  fi
  case $words[2] in
    diagnose)
      if [[ $words[CURRENT-1] == (-o|--output) ]]; then compadd -- ${OUTPUT_FORMATS.join(' ')}
      elif [[ $words[CURRENT-1] == (--kubeconfig|--from|--config) ]]; then _files
      elif [[ $words[CURRENT-1] == (-n|--namespace) ]]; then _pod_doctor_names get namespaces -o name
      elif [[ $words[CURRENT-1] == --context ]]; then _pod_doctor_names config get-contexts -o name
      elif [[ $words[CURRENT-1] == (--now|--cluster|--max-pods) ]]; then return
      elif [[ $PREFIX == -* ]]; then compadd -- ${diagnoseFlags().flags.join(' ')}
      else _pod_doctor_target
      fi
      ;;
${subs}
  esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _pod_doctor "$@"
else
  compdef _pod_doctor pod-doctor
fi
`;
}

export async function completionCommand(argv: string[], io: CliIo, commands: Readonly<Record<string, string>>): Promise<number> {
  const [shell, ...rest] = argv;
  if (shell === '--help' || shell === '-h' || shell === 'help') {
    io.stdout.write(`${COMPLETION_USAGE}\n`);
    return 0;
  }
  if (!SHELLS.some((s) => s === shell) || rest.length > 0) {
    io.stderr.write(`pod-doctor completion: ${shell ? `"${[shell, ...rest].join(' ')}" is not a shell this knows: ` : ''}bash or zsh\n${COMPLETION_USAGE}\n`);
    return 2;
  }
  const names = Object.keys(commands);
  io.stdout.write(shell === 'bash' ? bashScript(names) : zshScript(names, commands));
  return 0;
}
