// crash.app-exit: Container exits with an error.

import { containerEvents, crashEvidence, crashes, crashKey, crashLogs, crashReading, exitMeaning, logAdvice, logEvidence, mechanismRef } from '../crashes.js';
import { decisiveLines } from '../decisive.js';
import { clip, eventEvidence, formatDuration, ms, secondsSince } from '../facts.js';
import { msg } from '../messages.js';
import { defineRule } from '../rule.js';

export const rule = defineRule({
  meta: {
    id: 'crash.app-exit',
    title: 'Container exits with an error',
    category: 'crash',
    severity: 'error',
    needs: ['pod', 'events', 'logs', 'access', 'dependencies'],
    priority: 30,
    generic: true,
    doc:
      'A container terminated with a non-zero exit code (CrashLoopBackOff, or a failed pod with restartPolicy Never); ' +
      'the finding quotes the exit code and the last log lines of the crashed run. When the mechanism catalogue knows the decisive line ' +
      '(an OS error, a server start-up check, a TLS, DNS or API refusal, a signal), the finding names the mechanism behind it ' +
      "and the knobs that set it, in this pod's terms; what the process printed wins over the exit code's generic meaning. " +
      'More specific crash rules (OOM, probe, subPath, IPv6, corrupt image) supersede it.',
    messages: {
      titleNoStart: '{{kind}} {{container}} fails to start',
      titleNoStartCode: '{{kind}} {{container}} fails to start (exit code {{code}})',
      titleExited: '{{kind}} {{container}} exited with code {{code}}',
      titleExitedReason: '{{kind}} {{container}} exited with code {{code}} ({{reason}})',
      titleMechanism: '{{kind}} {{container}} exited with code {{code}}: {{summary}}',
      titleNoStartMechanism: '{{kind}} {{container}} fails to start: {{summary}}',
      mechanism: '{{explanation}}',
      decisiveLine: 'The decisive line ({{source}}): "{{line}}".',
      knob: '{{knob}}',
      noStart: '{{kind}} "{{container}}" ({{image}}) fails to start;',
      noStartCode: '{{kind}} "{{container}}" ({{image}}) fails to start (exit code {{code}});',
      exited: '{{kind}} "{{container}}" ({{image}}) exited with code {{code}};',
      exitedReason: '{{kind}} "{{container}}" ({{image}}) exited with code {{code}} ({{reason}});',
      noStartAfter: '{{kind}} "{{container}}" ({{image}}) fails to start after running {{ran}};',
      noStartCodeAfter: '{{kind}} "{{container}}" ({{image}}) fails to start (exit code {{code}}) after running {{ran}};',
      exitedAfter: '{{kind}} "{{container}}" ({{image}}) exited with code {{code}} after running {{ran}};',
      exitedReasonAfter: '{{kind}} "{{container}}" ({{image}}) exited with code {{code}} ({{reason}}) after running {{ran}};',
      notRestarted: 'it will not be restarted (restartPolicy Never or the pod failed).',
      runningAgain: 'it is running again after {{restarts}} restarts, the last one {{ago}} ago.',
      waiting: 'it has restarted {{restarts}} {{times}} and waits in {{reason}}.',
      waitingBackOff: 'it has restarted {{restarts}} {{times}} and waits in back-off.',
      exitMeaning: 'Exit code {{code}} means {{meaning}}.',
      logEnds: 'The crashed run\'s log ends: "{{lines}}".',
      terminationMessage: 'Its termination message: "{{message}}".',
      noLogs: 'No log lines of the crashed run were collected.',
      logHint: '{{hint}}',
      readLogs: "Read the crashed run's output: kubectl logs -n {{namespace}} {{pod}} -c {{container}}.",
      readPreviousLogs: "Read the crashed run's output: kubectl logs -n {{namespace}} {{pod}} -c {{container}} --previous.",
      runAsJob: 'If the process is meant to finish, run it as a Job (or CronJob) instead of a Deployment.',
      fixCause: 'Fix the cause the log names, then roll out again; restarting the pod alone brings the same crash back.',
      preventLogReason:
        'Make the app log the reason before it exits and set terminationMessagePolicy: FallbackToLogsOnError, so the reason shows in the pod status.',
      preventRetry: 'Retry dependencies at start-up instead of exiting, and test the image with production-like config before rollout.',
    },
  },
  check(snapshot) {
    const pod = snapshot.pod;
    return crashes(snapshot).map((c) => {
      const t = c.term;
      const code = t?.exitCode;
      const tail = crashLogs(snapshot, c);
      const lines = tail?.lines ?? [];
      const message = t?.message?.trim();
      const started = t?.reason === 'StartError' || t?.reason === 'ContainerCannotRun' || c.waiting?.reason === 'RunContainerError';
      const image = c.spec?.image ?? c.s.status.image;
      const start = ms(t?.startedAt);
      const end = ms(t?.finishedAt);
      const ran = start !== undefined && end !== undefined ? end - start : 0;

      // Which of the four ways it failed: the title says it, the cause's first clause says it with the image and the run time.
      const reason = t?.reason && t.reason !== 'Error' ? t.reason : undefined;
      const what = code === undefined ? 'noStart' : started ? 'noStartCode' : reason ? 'exitedReason' : 'exited';
      const whatData = {
        kind: c.s.init ? 'Init container' : 'Container',
        container: c.name,
        ...(code !== undefined ? { code } : {}),
        ...(reason ? { reason } : {}),
      };
      const titleId = ({ noStart: 'titleNoStart', noStartCode: 'titleNoStartCode', exited: 'titleExited', exitedReason: 'titleExitedReason' } as const)[what];
      const ranId = ({ noStart: 'noStartAfter', noStartCode: 'noStartCodeAfter', exited: 'exitedAfter', exitedReason: 'exitedReasonAfter' } as const)[what];
      const waitReason = c.waiting?.reason;
      const state = c.final
        ? msg('notRestarted')
        : c.flapping
          ? msg('runningAgain', { restarts: c.restarts, ago: formatDuration(secondsSince(snapshot, t?.finishedAt) ?? 0) })
          : waitReason != null
            ? msg('waiting', { restarts: c.restarts, times: c.restarts === 1 ? 'time' : 'times', reason: waitReason })
            : msg('waitingBackOff', { restarts: c.restarts, times: c.restarts === 1 ? 'time' : 'times' });
      const reading = crashReading(snapshot, c);
      const said = reading
        ? msg('decisiveLine', { source: reading.source, line: reading.line })
        : lines.length > 0
          ? msg('logEnds', { lines: clip(decisiveLines(lines, { maxLines: 3, tail: 1 }).join(' ⏎ '), 400) })
          : message
            ? msg('terminationMessage', { message: clip(message, 400) })
            : msg('noLogs');

      const evidence = [...crashEvidence(snapshot, c), ...(reading?.evidence ?? [])];
      if (tail) evidence.push(logEvidence(tail));
      else if (!message) {
        const failed = containerEvents(snapshot, c, ['Failed'])[0];
        if (failed) evidence.push(eventEvidence(failed));
      }
      const backoff = containerEvents(snapshot, c, ['BackOff'])[0];
      if (backoff) evidence.push(eventEvidence(backoff));

      const hints = reading ? [] : logAdvice([c.waiting?.message ?? '', message ?? '', ...lines]);
      const noStart = what === 'noStart' || what === 'noStartCode';
      return {
        severity: c.flapping ? ('warning' as const) : ('error' as const),
        title: reading ? msg(noStart ? 'titleNoStartMechanism' : 'titleMechanism', { ...whatData, summary: reading.summary }) : msg(titleId, whatData),
        cause: [
          ran > 0 ? msg(ranId, { ...whatData, image, ran: formatDuration(ran / 1000) }) : msg(what, { ...whatData, image }),
          state,
          // What the process printed wins over the code's generic meaning.
          reading ? msg('mechanism', { explanation: reading.explanation }) : code !== undefined && msg('exitMeaning', { code, meaning: exitMeaning(code) }),
          said,
        ],
        evidence,
        advice: [
          ...(reading?.knobs ?? []).map((knob) => msg('knob', { knob })),
          ...hints.map((hint) => msg('logHint', { hint })),
          msg(c.termField === 'lastState' ? 'readPreviousLogs' : 'readLogs', {
            namespace: pod?.metadata?.namespace ?? '',
            pod: pod?.metadata?.name ?? '',
            container: c.name,
          }),
          code === 0 && !c.final && msg('runAsJob'),
          !reading && msg('fixCause'),
        ],
        prevent: [msg('preventLogReason'), msg('preventRetry')],
        causeKey: crashKey(pod, c, `exit-${code ?? 'start'}`),
        params: {
          container: c.name,
          image,
          ...(code !== undefined ? { exitCode: code } : {}),
          restarts: c.restarts,
          ...(pod?.spec?.nodeName ? { node: pod.spec.nodeName } : {}),
        },
        ...(reading ? { mechanism: mechanismRef(reading) } : {}),
      };
    });
  },
});
