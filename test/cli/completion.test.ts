// `pod-doctor completion bash|zsh`: the scripts parse in their shell and complete what the CLI
// takes: commands, diagnose's flags and -o values, target types, and names from kubectl asked with
// the -n / --context already typed (a stand-in kubectl records what it was asked). zsh runs its
// functions with the completion builtins stood in for (no terminal needed); skipped without zsh.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { cli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pd-completion-'));
const LOG = join(dir, 'kubectl.log');
const scripts: Record<string, string> = {};

const FAKE_KUBECTL = `#!/bin/sh
echo "$*" >> "${LOG}"
case "$*" in
  *"get deploy "*) printf 'deployment.apps/web\\ndeployment.apps/api\\n' ;;
  *"get pods -n shop "*) printf 'pod/web-1\\npod/web-2\\n' ;;
  *"get namespaces "*) printf 'namespace/shop\\nnamespace/default\\n' ;;
  *"config get-contexts"*) printf 'prod\\nstaging\\n' ;;
esac
`;

function which(name: string): string | undefined {
  for (const d of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(d, name), constants.X_OK);
      return join(d, name);
    } catch {}
  }
  return undefined;
}
const zsh = which('zsh');

beforeAll(async () => {
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin/kubectl'), FAKE_KUBECTL, { mode: 0o755 });
  for (const shell of ['bash', 'zsh']) {
    const r = await cli(['completion', shell]);
    expect(r.code).toBe(0);
    scripts[shell] = r.stdout;
    writeFileSync(join(dir, `completion.${shell}`), r.stdout);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function kubectlCalls(): string[] {
  try {
    return readFileSync(LOG, 'utf8').trim().split('\n');
  } catch {
    return [];
  }
}

function run(shell: string, script: string): string[] {
  writeFileSync(LOG, '');
  const r = spawnSync(shell, ['-c', script], { env: { PATH: [join(dir, 'bin'), '/usr/bin', '/bin'].join(delimiter), HOME: dir }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter(Boolean).sort();
}

/** What bash offers for `words` (the last one is being completed). */
function bash(words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  return run(
    'bash',
    `source '${join(dir, 'completion.bash')}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _pod_doctor; printf '%s\\n' "\${COMPREPLY[@]}"`,
  );
}

/** What zsh offers for `words`, with compadd (matching the prefix as zsh does), _describe, compset and _files stood in for. */
function zshOffers(words: string[]): string[] {
  const current = words.at(-1)!;
  const stubs = `
compdef() { :; }
compadd() { local -a out; while (( $# )); do case $1 in -S) shift 2;; -a) out+=(\${(P)2}); shift 2;; --) shift; out+=("$@"); break;; *) out+=($1); shift;; esac; done; local x; for x in $out; do [[ $x == \${PREFIX}* ]] && print -- $x; done; return 0; }
_describe() { local -a c; c=(\${(P)4}); compadd -- \${c%%:*}; }
compset() { PREFIX=\${PREFIX#*/}; }
_files() { print -- FILES; }
`;
  const quoted = words.map((w) => `'${w}'`).join(' ');
  return run(zsh!, `${stubs}\nsource '${join(dir, 'completion.zsh')}'\nwords=(${quoted}); CURRENT=${words.length}; PREFIX='${current}'\n_pod_doctor`);
}

describe('pod-doctor completion', () => {
  it('refuses a shell it does not know, exit 2', async () => {
    const r = await cli(['completion', 'fish']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pod-doctor completion: "fish" is not a shell this knows: bash or zsh/);
  });

  it('bash parses the script', () => {
    expect(spawnSync('bash', ['-n', join(dir, 'completion.bash')]).status).toBe(0);
  });

  it.skipIf(!zsh)('zsh parses the script', () => {
    expect(spawnSync(zsh!, ['-n', join(dir, 'completion.zsh')]).status).toBe(0);
  });

  const shells: Array<[string, (words: string[]) => string[]]> = [['bash', bash]];
  if (zsh) shells.push(['zsh', zshOffers]);

  describe.each(shells)('%s', (shell, offers) => {
    it('offers every command', () => {
      const offered = offers(['pod-doctor', '']);
      for (const name of Object.keys(COMMANDS)) expect(offered).toContain(name);
    });

    it('offers target types, then names from kubectl with the -n and --context typed', () => {
      expect(offers(['pod-doctor', 'diagnose', 'de'])).toEqual(['deploy/']);
      expect(offers(['pod-doctor', 'diagnose', '-n', 'shop', '--context', 'prod', 'deploy/'])).toEqual(
        shell === 'bash' ? ['deploy/api', 'deploy/web'] : ['api', 'web'], // zsh: compset moved "deploy/" into the prefix
      );
      expect(kubectlCalls()).toEqual(['-n shop --context prod get deploy -o name']);
    });

    it('reads <namespace>/ as the pods of that namespace', () => {
      expect(offers(['pod-doctor', 'diagnose', 'shop/'])).toEqual(shell === 'bash' ? ['shop/web-1', 'shop/web-2'] : ['web-1', 'web-2']);
      expect(kubectlCalls()).toEqual(['get pods -n shop -o name']);
    });

    it('offers flags, output formats, namespaces, contexts and shells', () => {
      expect(offers(['pod-doctor', 'diagnose', 'web', '--na'])).toEqual(['--namespace']);
      expect(offers(['pod-doctor', 'diagnose', '-o', ''])).toEqual(['json', 'yaml']);
      expect(offers(['pod-doctor', 'diagnose', '-n', ''])).toEqual(['default', 'shop']);
      expect(offers(['pod-doctor', 'diagnose', '--context', ''])).toEqual(['prod', 'staging']);
      expect(offers(['pod-doctor', 'completion', ''])).toEqual(['bash', 'zsh']);
    });
  });

  it('lists itself in the usage', async () => {
    const r = await cli(['--help']);
    expect(r.stdout).toMatch(/^ {2}completion /m);
    expect(scripts.bash).toContain('complete -F _pod_doctor pod-doctor');
  });
});
