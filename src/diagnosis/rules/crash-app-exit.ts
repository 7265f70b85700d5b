// crash.app-exit: Container exits with an error.

import { containerEvents, crashEvidence, crashes, crashKey, crashLogs, exitMeaning, logAdvice, logEvidence } from '../crashes.js';
import { decisiveLines } from '../decisive.js';
import { clip, eventEvidence, formatDuration, ms, secondsSince } from '../facts.js';
import { defineRule } from '../rule.js';
export const rule = defineRule({
  meta: {
    id: 'crash.app-exit',
    title: 'Container exits with an error',
    category: 'crash',
    severity: 'error',
    needs: ['pod', 'events', 'logs'],
    priority: 30,
    doc: 'A container terminated with a non-zero exit code (CrashLoopBackOff, or a failed pod with restartPolicy Never); the finding quotes the exit code and the last log lines of the crashed run. More specific crash rules (OOM, probe, subPath, IPv6, corrupt image) supersede it.',
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

      const what =
        code === undefined
          ? 'fails to start'
          : started
            ? `fails to start (exit code ${code})`
            : `exited with code ${code}${t?.reason && t.reason !== 'Error' ? ` (${t.reason})` : ''}`;
      const state = c.final
        ? 'it will not be restarted (restartPolicy Never or the pod failed)'
        : c.flapping
          ? `it is running again after ${c.restarts} restarts, the last one ${formatDuration(secondsSince(snapshot, t?.finishedAt) ?? 0)} ago`
          : `it has restarted ${c.restarts} time${c.restarts === 1 ? '' : 's'} and waits in ${c.waiting?.reason ?? 'back-off'}`;
      const said =
        lines.length > 0
          ? ` The crashed run's log ends: "${clip(decisiveLines(lines, { maxLines: 3, tail: 1 }).join(' ⏎ '), 400)}".`
          : message
            ? ` Its termination message: "${clip(message, 400)}".`
            : ' No log lines of the crashed run were collected.';

      const evidence = crashEvidence(snapshot, c);
      if (tail) evidence.push(logEvidence(tail));
      else if (!message) {
        const failed = containerEvents(snapshot, c, ['Failed'])[0];
        if (failed) evidence.push(eventEvidence(failed));
      }
      const backoff = containerEvents(snapshot, c, ['BackOff'])[0];
      if (backoff) evidence.push(eventEvidence(backoff));

      const hints = logAdvice([c.waiting?.message ?? '', message ?? '', ...lines]);
      return {
        severity: c.flapping ? ('warning' as const) : ('error' as const),
        title: `${c.s.init ? 'Init container' : 'Container'} ${c.name} ${what}`,
        cause: `${c.s.init ? 'Init container' : 'Container'} "${c.name}" (${image}) ${what}${ran > 0 ? ` after running ${formatDuration(ran / 1000)}` : ''}; ${state}.${code !== undefined ? ` Exit code ${code} means ${exitMeaning(code)}.` : ''}${said}`,
        evidence,
        advice: [
          ...hints,
          `Read the crashed run's output: kubectl logs -n ${pod?.metadata?.namespace ?? ''} ${pod?.metadata?.name ?? ''} -c ${c.name}${c.termField === 'lastState' ? ' --previous' : ''}.`,
          ...(code === 0 && !c.final ? ['If the process is meant to finish, run it as a Job (or CronJob) instead of a Deployment.'] : []),
          'Fix the cause the log names, then roll out again; restarting the pod alone brings the same crash back.',
        ],
        prevent: [
          'Make the app log the reason before it exits and set terminationMessagePolicy: FallbackToLogsOnError, so the reason shows in the pod status.',
          'Retry dependencies at start-up instead of exiting, and test the image with production-like config before rollout.',
        ],
        causeKey: crashKey(pod, c, `exit-${code ?? 'start'}`),
        params: {
          container: c.name,
          image,
          ...(code !== undefined ? { exitCode: code } : {}),
          restarts: c.restarts,
          ...(pod?.spec?.nodeName ? { node: pod.spec.nodeName } : {}),
        },
      };
    });
  },
});
