// rollout.regression: The pod began failing right after its workload rolled out a new revision.

import { BLAME_SECONDS, blamedRollout, describeChange } from '../changes.js';
import { formatDuration } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';

const RESOURCE: Record<string, string> = { Deployment: 'deployment', StatefulSet: 'statefulset', DaemonSet: 'daemonset' };

const messages = {
  title: 'The failure began {{after}} after revision {{revision}} of {{kind}} {{name}}',
  rolledOut: 'Revision {{revision}} of {{kind}} {{name}} was rolled out at {{at}}: {{what}}.',
  rolledOutBy: 'Revision {{revision}} of {{kind}} {{name}} was rolled out at {{at}} by {{by}}: {{what}}.',
  runsIt:
    'Pod {{pod}} runs that revision and began failing {{after}} later; ' + 'revision {{previous}}, the one before it, is still in the history to roll back to.',
  rollBack:
    'Roll back to revision {{previous}} (playbook rollback-to-revision, or ' +
    'kubectl rollout undo {{resource}}/{{name}} -n {{namespace}} --to-revision={{previous}}), then fix revision {{revision}} before rolling forward.',
  compare: 'See what revision {{revision}} changed: kubectl rollout history {{resource}}/{{name}} -n {{namespace}} --revision={{revision}}.',
  gitOps: 'A GitOps controller ({{by}}) rolled it out: revert the change in Git too, or it rolls the broken revision out again.',
  preventProgressive:
    'Roll out so a bad revision stops at its first pod: maxUnavailable 0 with a readinessProbe that fails on a broken start, ' +
    'progressDeadlineSeconds, or a canary that checks the new pods before the rest follow.',
} as const;

export const rule = defineRule({
  meta: {
    id: 'rollout.regression',
    title: 'The pod began failing right after a rollout',
    category: 'rollout',
    severity: 'error',
    needs: ['owners', 'changes', 'node', 'nodeEvents'],
    playbook: 'rollback-to-revision',
    // Below the rules that name the failure's mechanism: they say why it fails, this says what set it off.
    priority: 25,
    doc:
      "A pod of its workload's newest revision (ReplicaSet of a Deployment, ControllerRevision of a StatefulSet or DaemonSet) " +
      `began failing within ${BLAME_SECONDS / 60} minutes of that revision's rollout: names the revision, what it changed ` +
      '(images, commands, env names, resources, probes), who rolled it out (managedFields) and offers a rollback to the revision before.',
    messages,
  },
  check(snapshot, ctx) {
    const pod = snapshot.pod;
    const blamed = blamedRollout(snapshot, ctx.changeWindowSeconds);
    if (!pod || !blamed) return null;
    const namespace = pod.metadata?.namespace ?? '';
    const { kind, name, revision, previous, change } = blamed;
    const resource = RESOURCE[kind] ?? kind.toLowerCase();
    const after = formatDuration(blamed.after);
    const what = change.text.replace(/^revision \d+: /, '');
    const rolled = { revision: revision.revision, kind, name, at: change.at, what };
    const gitOps = change.by !== undefined && /argo|flux|helm-controller|kustomize-controller/i.test(change.by);
    return {
      title: msg('title', { after, revision: revision.revision, kind, name }),
      cause: [
        change.by ? msg('rolledOutBy', { ...rolled, by: change.by }) : msg('rolledOut', rolled),
        msg('runsIt', { pod: pod.metadata?.name ?? '', after, previous: previous.revision }),
      ],
      evidence: [
        { source: `rollout history of ${kind} ${name}`, text: describeChange(change) },
        { source: `rollout history of ${kind} ${name}`, text: `revision ${previous.revision}: ${previous.name}, created ${previous.at}` },
      ],
      advice: [
        msg('rollBack', { previous: previous.revision, resource, name, namespace, revision: revision.revision }),
        msg('compare', { revision: revision.revision, resource, name, namespace }),
        gitOps && msg('gitOps', { by: change.by ?? '' }),
      ],
      prevent: [msg('preventProgressive')],
      // Every pod of the revision fails for the same reason: one incident, one rollback.
      causeKey: `rollout/${namespace}/${kind}/${name}:${revision.revision}`,
      params: { namespace, kind, name, revision: previous.revision, fromRevision: revision.revision, revisionName: previous.name },
    };
  },
});
