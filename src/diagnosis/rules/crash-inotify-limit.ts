// crash.inotify-limit: The node's inotify instances are used up: a file watcher cannot start.

import { crashEvidence, crashes, crashLogs, crashTexts, logEvidence } from '../crashes.js';
import { clip } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { FindingDraft } from '../types.js';

// "too many open files" from a file watcher is not the process's descriptor limit: inotify_init1()
// fails with EMFILE when the user's inotify instances on the node (fs.inotify.max_user_instances,
// 128 by default on many distributions) are used up. The count is per UID per node, shared by every
// container running as that UID: one more watcher-heavy pod on the node and the next one crashes:
//   failed to create fsnotify watcher: too many open files
//   panic: failed to new ca-cert watcher: too many open files   (controller-runtime certwatcher)

const WATCHER = /(?:fsnotify|inotify|watcher)[^\n]*too many open files|too many open files[^\n]*(?:fsnotify|inotify|watch)/i;

const messages = {
  title: '{{kind}} {{container}} cannot create a file watcher: inotify instances used up on {{node}}',
  crashedRun: 'The crashed run ends with "{{line}}".',
  notFdLimit:
    "That is inotify, not the container's file descriptor limit: {{node}} allows each user a fixed number of inotify instances " +
    '(fs.inotify.max_user_instances, often 128), shared by every container running as the same UID there, and they are used up.',
  raiseLimits:
    'Raise the limits on {{node}} (and the node pool): `sysctl -w fs.inotify.max_user_instances=8192 fs.inotify.max_user_watches=524288`, ' +
    'persisted in /etc/sysctl.d/ or the node image.',
  findHolders: 'See who holds them: `find /proc/*/fd -lname anon_inode:inotify 2>/dev/null | cut -d/ -f3 | sort | uniq -c | sort -rn | head` on {{node}}.',
  prevent: 'Set inotify limits in the node image for every pool; watcher-heavy workloads (controllers, log shippers, IDE servers) use many.',
} as const;
type Id = keyof typeof messages;

export const rule = defineRule({
  meta: {
    id: 'crash.inotify-limit',
    title: "The node's inotify instances are used up: a file watcher cannot start",
    category: 'crash',
    severity: 'error',
    needs: ['pod', 'events', 'logs'],
    priority: 44,
    supersedes: ['crash.app-exit'],
    doc:
      'The crashed run ends with `too many open files` from a file watcher ' +
      "(`failed to create fsnotify watcher: too many open files`, controller-runtime's certwatcher): " +
      "the node's per-user inotify limit (fs.inotify.max_user_instances) is used up by the containers of that UID on the node, " +
      "not the container's own file descriptor limit. Raise the sysctl on the nodes.",
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft<Id>[] = [];
    for (const c of crashes(snapshot)) {
      const tail = crashLogs(snapshot, c);
      const texts = [...(tail?.lines ?? []), ...crashTexts(snapshot, c).map((t) => t.text)];
      const line = [...texts].reverse().find((l) => WATCHER.test(l));
      if (!line) continue;
      const node = pod?.spec?.nodeName ?? 'the node';
      out.push({
        title: msg('title', { kind: c.s.init ? 'Init container' : 'Container', container: c.name, node }),
        cause: [msg('crashedRun', { line: clip(line, 300) }), msg('notFdLimit', { node })],
        evidence: [...(tail ? [logEvidence(tail, 4, 1)] : []), ...crashEvidence(snapshot, c)],
        advice: [msg('raiseLimits', { node }), msg('findHolders', { node })],
        prevent: [msg('prevent')],
        causeKey: `node/${node}:inotify`,
        params: { container: c.name, node },
      });
    }
    return out;
  },
});
