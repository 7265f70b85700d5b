// Answers this process expects per channel: a command was acknowledged here and its findings
// have not been posted yet. Follow-ups (approval prompts) in a channel wait while it expects
// answers, so at Slack's per-channel limit a prompt never takes the turn of someone's findings.
// A hint, not a record: an answer that never comes (another replica posted it, a restart) is
// forgotten after `ttlMs`.
export class ExpectedAnswers {
  private readonly byChannel = new Map<string, Map<string, number>>();

  constructor(private readonly ttlMs = 60_000) {}

  expect(channel: string, jobId: string): void {
    let jobs = this.byChannel.get(channel);
    if (!jobs) this.byChannel.set(channel, (jobs = new Map()));
    jobs.set(jobId, Date.now() + this.ttlMs);
  }

  arrived(channel: string, jobId: string): void {
    const jobs = this.byChannel.get(channel);
    jobs?.delete(jobId);
    if (jobs?.size === 0) this.byChannel.delete(channel);
  }

  /** Whether answers are still expected in `channel`. */
  pending(channel: string): boolean {
    const jobs = this.byChannel.get(channel);
    if (!jobs) return false;
    const now = Date.now();
    for (const [job, until] of jobs) if (until < now) jobs.delete(job);
    if (jobs.size === 0) this.byChannel.delete(channel);
    return jobs.size > 0;
  }
}
