// crash.oomkilled: Container killed for running out of memory.

import { containerEvents, crashEvidence, crashes, crashKey, crashLogs, logEvidence } from '../crashes.js';
import { eventEvidence, eventTime, formatDuration, ms, newestFirst, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { formatBytes, parseQuantity } from '../quantity.js';
import { defineRule } from '../rule.js';

/** A SystemOOM node event this close to the container's end is the same kill. */
const SYSTEM_OOM_WINDOW_MS = 120_000;

export const rule = defineRule({
  meta: {
    id: 'crash.oomkilled',
    title: 'Container killed for running out of memory',
    category: 'crash',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'nodeEvents'],
    priority: 50,
    // The app did not exit by itself: the kernel killed it.
    supersedes: ['crash.app-exit'],
    doc:
      'The kernel OOM killer stopped the container (`lastState.terminated.reason: OOMKilled`): it reached its memory limit, ' +
      "or the node ran out of memory (a SystemOOM event on the node at that moment: the node's kernel picked it, limit or not). " +
      'The finding shows the limit, the request and the restart count.',
    messages: {
      title: 'Container {{container}} was OOMKilled at its {{limit}} memory limit',
      titleNoLimit: 'Container {{container}} was OOMKilled (no memory limit)',
      // The cause is one long sentence; its clauses are the parts below, joined by a space.
      nodePicked: 'The node {{node}} ran out of memory and its kernel\'s OOM killer picked container "{{container}}" ("{{message}}"):',
      nodePickedAgo: 'The node {{node}} ran out of memory and its kernel\'s OOM killer picked container "{{container}}" {{ago}} ago ("{{message}}"):',
      ownLimit: 'its own limit is {{limit}}, so it was not over it necessarily;',
      nodeOvercommitted: 'the pods on the node together use more than it has, usually because their requests are far below their use,',
      killed: 'The kernel\'s OOM killer stopped container "{{container}}" (exit code {{exitCode}}):',
      killedAgo: 'The kernel\'s OOM killer stopped container "{{container}}" {{ago}} ago (exit code {{exitCode}}):',
      limitIs: 'its memory limit is {{limit}},',
      limitIsBytes: 'its memory limit is {{limit}} ({{bytes}}),',
      noLimit: 'it has no memory limit, so the node itself ran out of memory and the kernel picked this container,',
      request: 'request {{request}};',
      noRequest: 'no memory request;',
      notRestarted: 'it will not be restarted.',
      restarted: 'it has been restarted {{restarts}} {{times}}.',
      overLimit: 'The application did not exit by itself; it used more memory than allowed.',
      nodeOvercommittedAdvice:
        'The node was overcommitted: set memory requests close to real use on the pods of {{node}} (`kubectl top pods`), ' +
        'so the scheduler stops packing more than the node has; reserve memory for the system (--system-reserved).',
      comparePeak:
        "Compare the container's real peak (container_memory_working_set_bytes) with {{limit}}; " +
        'if the peak is legitimate, raise the limit together with the request.',
      comparePeakSuggest:
        "Compare the container's real peak (container_memory_working_set_bytes) with {{limit}}; " +
        'if the peak is legitimate, raise the limit (e.g. to {{suggested}}) together with the request.',
      setLimit:
        'Give the container a memory request and limit that match its real peak, so the scheduler reserves the memory and the kernel does not pick it first.',
      leak: 'If usage grows until the kill, it is a leak: take a heap profile before the limit is reached and fix the leak.',
      heap:
        'For JVM, Node.js or .NET apps, size the heap below the limit (-XX:MaxRAMPercentage, --max-old-space-size, GCHeapHardLimit), ' +
        'leaving room for non-heap memory.',
      preventRequests:
        'Set memory requests equal to limits for critical workloads and alert before the limit is reached (e.g. working set above 90% of the limit).',
      preventLoadTest: 'Load-test new versions with production-sized data to learn their memory peak.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    return crashes(snapshot)
      .filter((c) => c.term?.reason === 'OOMKilled')
      .map((c) => {
        const limitText = c.spec?.resources?.limits?.memory ?? pod?.spec?.resources?.limits?.memory;
        const requestText = c.spec?.resources?.requests?.memory;
        const limit = limitText !== undefined ? parseQuantity(limitText) : Number.NaN;
        const request = requestText !== undefined ? parseQuantity(requestText) : Number.NaN;
        const since = secondsSince(snapshot, c.term?.finishedAt);
        const limitWords = limitText
          ? Number.isFinite(limit) && String(limitText) !== formatBytes(limit)
            ? msg('limitIsBytes', { limit: limitText, bytes: formatBytes(limit) })
            : msg('limitIs', { limit: limitText })
          : msg('noLimit');
        const requestWords = requestText ? msg('request', { request: requestText }) : msg('noRequest');
        const restarts = c.final ? msg('notRestarted') : msg('restarted', { restarts: c.restarts, times: c.restarts === 1 ? 'time' : 'times' });
        const ago = since !== undefined ? formatDuration(since) : undefined;
        const killed = { container: c.name, exitCode: c.term?.exitCode ?? '?' };

        const evidence = crashEvidence(snapshot, c);
        evidence.push({
          source: `pod.spec.${c.s.init ? 'initContainers' : 'containers'}[${c.name}].resources`,
          text: `limits.memory=${limitText ?? '(none)'}, requests.memory=${requestText ?? '(none)'}`,
        });
        // The node's own OOM killer (SystemOOM) at the same moment: the node ran out, not the container's limit.
        const finished = ms(c.term?.finishedAt);
        const systemOom = newestFirst(snapshot.nodeEvents ?? []).find((e) => {
          if (e.reason !== 'SystemOOM') return false;
          const at = ms(eventTime(e));
          return finished === undefined || at === undefined || Math.abs(at - finished) <= SYSTEM_OOM_WINDOW_MS;
        });
        if (systemOom) evidence.unshift({ ...eventEvidence(systemOom), source: `${eventEvidence(systemOom).source} on node ${pod?.spec?.nodeName ?? ''}` });
        const tail = crashLogs(snapshot, c);
        if (tail) evidence.push(logEvidence(tail, 5));
        const backoff = containerEvents(snapshot, c, ['BackOff'])[0];
        if (backoff) evidence.push(eventEvidence(backoff));

        const picked = { node: pod?.spec?.nodeName ?? '', container: c.name, message: systemOom?.message ?? 'System OOM encountered' };
        const suggested = Number.isFinite(limit) && limit > 0 ? formatBytes(Math.ceil((limit * 1.5) / 2 ** 20) * 2 ** 20) : undefined;
        return {
          severity: c.flapping ? ('warning' as const) : ('error' as const),
          title: limitText ? msg('title', { container: c.name, limit: limitText }) : msg('titleNoLimit', { container: c.name }),
          cause: systemOom
            ? [
                ago !== undefined ? msg('nodePickedAgo', { ...picked, ago }) : msg('nodePicked', picked),
                limitText ? msg('ownLimit', { limit: limitText }) : undefined,
                msg('nodeOvercommitted'),
                requestWords,
                restarts,
              ]
            : [ago !== undefined ? msg('killedAgo', { ...killed, ago }) : msg('killed', killed), limitWords, requestWords, restarts, msg('overLimit')],
          evidence,
          advice: [
            systemOom && msg('nodeOvercommittedAdvice', { node: pod?.spec?.nodeName ?? 'the node' }),
            limitText ? (suggested ? msg('comparePeakSuggest', { limit: limitText, suggested }) : msg('comparePeak', { limit: limitText })) : msg('setLimit'),
            msg('leak'),
            msg('heap'),
          ],
          prevent: [msg('preventRequests'), msg('preventLoadTest')],
          causeKey: crashKey(pod, c, 'oomkilled'),
          params: {
            container: c.name,
            restarts: c.restarts,
            ...(limitText ? { memoryLimit: String(limitText) } : {}),
            ...(Number.isFinite(request) ? { memoryRequest: String(requestText) } : {}),
            ...(pod?.spec?.nodeName ? { node: pod.spec.nodeName } : {}),
          },
        };
      });
  },
});
