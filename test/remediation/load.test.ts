// Playbooks are data validated at load time: the shipped ones load; a corrupted file (wrong
// type, unknown step, missing field, dangling rule id, bad step parameter, unknown placeholder)
// is refused with its file, the field path and what is wrong, and stops loading altogether.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { slackIds } from '../../src/chat/adapters/slack/ids.js';
import { isPodDoctorError } from '../../src/errors.js';
import { defaultPlaybookDir, loadPlaybooks, PlaybookLoadError, validatePlaybookDir } from '../../src/remediation/load.js';

const DIR = defaultPlaybookDir();
let tmp: string | undefined;
afterEach(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  tmp = undefined;
});

/** A copy of the shipped playbooks with one file rewritten. */
function corrupted(file: string, edit: (text: string) => string): string {
  tmp = mkdtempSync(join(tmpdir(), 'pd-playbooks-'));
  for (const f of readdirSync(DIR)) copyFileSync(join(DIR, f), join(tmp, f));
  const text = readFileSync(join(DIR, file), 'utf8');
  const next = edit(text);
  expect(next, 'the edit must change the file').not.toBe(text);
  writeFileSync(join(tmp, file), next);
  return tmp;
}

describe('the shipped playbooks', () => {
  it('all load, with the risk and approvals the catalogue asks for', async () => {
    const books = await loadPlaybooks(DIR);
    expect(Object.fromEntries(books.map((b) => [b.id, `${b.risk}/${b.approvals}`]))).toEqual({
      'clear-namespace-finalizers': 'high/2',
      'contain-cascade': 'high/2',
      'force-delete-pod': 'high/1', // 2 for a StatefulSet pod, by its guard
      'recreate-pod': 'medium/1',
      'release-mount-holder': 'medium/1',
      'remove-finalizers': 'medium/1',
      'remove-stuck-containers': 'high/1',
      'repull-image': 'medium/1',
      'restart-kubelet': 'medium/1',
      'rollback-to-revision': 'medium/1',
      'stop-mount-holder': 'high/1',
      'unhang-fuse-mount': 'high/1',
    });
    const force = books.find((b) => b.id === 'force-delete-pod');
    expect(force?.guards).toEqual([
      expect.objectContaining({ when: { check: 'owner-kind-is', kind: 'StatefulSet' }, approvals: 2, warning: expect.stringMatching(/split-brain/) }),
    ]);
  });
});

describe('a corrupted playbook file', () => {
  it.each([
    ['wrong type', 'force-delete-pod.yaml', (t: string) => t.replace('risk: high', 'risk: 7'), 'risk', /expected one of "low"\|"medium"\|"high"/],
    ['wrong type (approvals)', 'remove-finalizers.yaml', (t: string) => t.replace('approvals: 1', 'approvals: "one"'), 'approvals', /Invalid input/],
    [
      'unknown step kind',
      'release-mount-holder.yaml',
      (t: string) => t.replace('action: restart-unit', 'action: reboot-node'),
      'steps[0].action',
      /unknown step kind "reboot-node"/,
    ],
    ['missing field', 'recreate-pod.yaml', (t: string) => t.replace(/^title: .*\n/m, ''), 'title', /required field is missing/],
    ['missing steps', 'restart-kubelet.yaml', (t: string) => t.replace(/^steps:\n( {2}.*\n)+/m, ''), 'steps', /required field is missing/],
    [
      'dangling rule id',
      'repull-image.yaml',
      (t: string) => t.replace('matches: [image.corrupt-local]', 'matches: [image.corrupt-locall]'),
      'matches[0]',
      /unknown rule id "image.corrupt-locall"/,
    ],
    [
      'dangling rule id in verify',
      'remove-finalizers.yaml',
      (t: string) => t.replace('verify: [terminating.finalizers]', 'verify: [terminating.finaliser]'),
      'verify[0]',
      /unknown rule id/,
    ],
    [
      'bad step parameter type',
      'repull-image.yaml',
      (t: string) => t.replace('timeoutSeconds: 300', 'timeoutSeconds: "five"'),
      'steps[2].with.timeoutSeconds',
      /expected number/,
    ],
    [
      'unknown step parameter',
      'contain-cascade.yaml',
      (t: string) => t.replace('replicas: 0 }', 'replicas: 0, speed: 3 }'),
      'steps[1].with.speed',
      /scale takes no parameter "speed"/,
    ],
    [
      'parameter of the wrong type for a step',
      'restart-kubelet.yaml',
      (t: string) => t.replace('node: { type: string, from: finding }', 'node: { type: "string[]", from: finding }'),
      'steps[0].with',
      /parameter node is string\[\], which restart-kubelet.node does not accept/,
    ],
    [
      'undeclared placeholder',
      'contain-cascade.yaml',
      (t: string) => t.replace('Cordon {nodes}', 'Cordon {nodez}'),
      'summary',
      /placeholder \{nodez\} names no declared parameter/,
    ],
    [
      'unknown check',
      'remove-finalizers.yaml',
      (t: string) => t.replace('check: pod-still-terminating', 'check: pod-is-sad'),
      'preconditions[1].check',
      /Invalid discriminator value/,
    ],
    ['unknown field', 'force-delete-pod.yaml', (t: string) => t.replace('risk: high', 'risk: high\nrisky: yes'), '(document)', /Unrecognized key: "risky"/],
    [
      'id not the file name',
      'remove-finalizers.yaml',
      (t: string) => t.replace('id: remove-finalizers', 'id: strip-finalizers'),
      'id',
      /must equal the file name "remove-finalizers"/,
    ],
    ['YAML syntax', 'recreate-pod.yaml', (t: string) => t.replace('risk: medium', 'risk: [medium'), '(file)', /^YAML: /],
  ])('%s: refused naming the file and the field', async (_name, file, edit, field, message) => {
    const dir = corrupted(file, edit);
    const { issues, playbooks } = await validatePlaybookDir(dir);
    expect(issues.length, JSON.stringify(issues)).toBeGreaterThan(0);
    expect(issues[0]).toMatchObject({ file: join(dir, file), field });
    expect(issues[0]?.message).toMatch(message);
    expect(playbooks.map((p) => p.playbook.id)).not.toContain(file.replace('.yaml', ''));
    const err = await loadPlaybooks(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlaybookLoadError);
    expect(isPodDoctorError(err, 'PLAYBOOK_INVALID')).toBe(true);
    expect((err as Error).message).toContain(`${join(dir, file)}: ${field}: `);
  });

  it("approvers: checked with the chat surface's id parser", async () => {
    const dir = corrupted('recreate-pod.yaml', (t) => t.replace('risk: medium', 'risk: medium\napprovers: [S0SRE, bob]'));
    expect((await validatePlaybookDir(dir, { ids: slackIds })).issues).toEqual([
      { file: join(dir, 'recreate-pod.yaml'), field: 'approvers[1]', message: 'expected a Slack user id (U…, W…) or user-group id (S…)' },
    ]);
    // Without a surface's parser, any surface's ids pass; spaces never do.
    expect((await validatePlaybookDir(dir)).issues).toEqual([]);
    writeFileSync(join(dir, 'recreate-pod.yaml'), readFileSync(join(dir, 'recreate-pod.yaml'), 'utf8').replace('bob', '"bob smith"'));
    expect((await validatePlaybookDir(dir)).issues[0]).toMatchObject({ field: 'approvers[1]' });
  });

  it('an empty or missing directory is an error too', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'pd-playbooks-'));
    expect((await validatePlaybookDir(tmp)).issues).toEqual([{ file: tmp, field: '(dir)', message: 'no playbooks (*.yaml) found' }]);
    expect((await validatePlaybookDir(join(tmp, 'nope'))).issues[0]?.message).toMatch(/cannot read the playbook directory/);
  });
});
