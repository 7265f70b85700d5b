// crash.inotify-limit: The node's inotify instances are used up: a file watcher cannot start.

import { crashEvidence, crashes, crashLogs, crashReadingOf, logEvidence, logSource, mechanismRef } from '../crashes.js';
import { clip } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';
import type { FindingDraft } from '../types.js';

// "too many open files" from a file watcher is not the process's descriptor limit: inotify_init1()
// fails with EMFILE when the user's inotify instances on the node (fs.inotify.max_user_instances,
// 128 by default on many distributions) are used up. The count is per UID per node, shared by every
// container running as that UID: one more watcher-heavy pod on the node and the next one crashes.
// Each runtime words it its own way; the mechanism catalogue (inotify-instances, signature
// errno.emfile-inotify in catalogue/filesystem.ts) owns the wordings and this rule asks it:
//   failed to create fsnotify watcher: too many open files                         (Go fsnotify)
//   panic: failed to new ca-cert watcher: too many open files                      (controller-runtime certwatcher)
//   System.IO.IOException: The configured user limit (128) on the number of inotify instances has been reached, ...   (.NET)
//   java.io.IOException: User limit of inotify instances reached or too many open files                               (JDK WatchService)
// Watches (fs.inotify.max_user_watches, ENOSPC) are another limit: the catalogue's inotify-watches, named by crash.app-exit.
const INOTIFY_INSTANCES: ReadonlySet<string> = new Set(['inotify-instances']);

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
  knob: '{{knob}}.',
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
      "The crashed run ends with a file watcher that cannot get an inotify instance, as the mechanism catalogue reads it in each runtime's words " +
      "(`failed to create fsnotify watcher: too many open files`, controller-runtime's certwatcher, .NET's `The configured user limit (128) " +
      "on the number of inotify instances has been reached`, the JDK's `User limit of inotify instances reached`): " +
      "the node's per-user inotify limit (fs.inotify.max_user_instances) is used up by the containers of that UID on the node, " +
      "not the container's own file descriptor limit. Raise the sysctl on the nodes.",
    messages,
  },
  check(snapshot) {
    const pod = snapshot.pod;
    const out: FindingDraft<Id>[] = [];
    for (const c of crashes(snapshot)) {
      const reading = crashReadingOf(snapshot, c, INOTIFY_INSTANCES);
      if (!reading) continue;
      const tail = crashLogs(snapshot, c);
      const node = pod?.spec?.nodeName ?? 'the node';
      const quoted = tail && reading.source === logSource(tail) ? [] : reading.evidence.slice(0, 1);
      out.push({
        title: msg('title', { kind: c.s.init ? 'Init container' : 'Container', container: c.name, node }),
        cause: [msg('crashedRun', { line: clip(reading.line, 300) }), msg('notFdLimit', { node })],
        evidence: [...quoted, ...(tail ? [logEvidence(tail, 4, 1)] : []), ...crashEvidence(snapshot, c)],
        // The sysctl first (the rule's own words), then what the runtime offers besides (.NET's polling watcher).
        advice: [
          msg('raiseLimits', { node }),
          msg('findHolders', { node }),
          ...reading.knobs.filter((k) => !k.startsWith('sysctl ')).map((knob) => msg('knob', { knob })),
        ],
        prevent: [msg('prevent')],
        causeKey: `node/${node}:inotify`,
        params: { container: c.name, node },
        mechanism: mechanismRef(reading),
      });
    }
    return out;
  },
});
