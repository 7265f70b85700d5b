// Chat metrics, registered in the process' registry next to the job metrics.
import { Counter, Histogram, type Registry } from 'prom-client';

export interface ChatMetrics {
  commands: Counter<'outcome'>;
  /** Slash command received → acknowledged (what Slack's 3-second limit is about). */
  ackSeconds: Histogram<'kind'>;
  decisions: Counter<'decision'>;
  findingsPosted: Counter;
}

export function createChatMetrics(registry: Registry): ChatMetrics {
  return {
    commands: new Counter({
      name: 'pod_doctor_chat_commands_total',
      help: 'Chat commands by outcome: queued, joined (an open job for the same target), bad-input, refused (access policy).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    ackSeconds: new Histogram({
      name: 'pod_doctor_chat_ack_seconds',
      help: 'Time from a Slack request reaching a listener to its acknowledgement.',
      labelNames: ['kind'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 3],
      registers: [registry],
    }),
    decisions: new Counter({
      name: 'pod_doctor_chat_decisions_total',
      help: 'Approval decisions: approve, deny, refused (not an approver).',
      labelNames: ['decision'] as const,
      registers: [registry],
    }),
    findingsPosted: new Counter({ name: 'pod_doctor_chat_findings_posted_total', help: 'Diagnoses posted to chat threads.', registers: [registry] }),
  };
}
