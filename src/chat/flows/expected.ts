// Answers this process expects per channel: a command was acknowledged here, or an alert group's
// diagnosis is on its way, and its findings have not been posted yet. Approval prompts in a
// channel wait while it expects answers, and a group's alert list while its own findings are
// expected, so at Slack's per-channel limit neither takes the turn of someone's findings.
// A hint, not a record: an answer that never comes (another replica posted it, a restart) is
// forgotten after `ttlMs`.
export class ExpectedAnswers {
  private readonly byChannel = new Map<string, Map<string, number>>();
  /** Answers that arrived lately (`channel|id` → until when): expecting them again is a late echo. */
  private readonly arrivedLately = new Map<string, number>();

  constructor(private readonly ttlMs = 60_000) {}

  /** `ttlMs`: how long to expect it at most (default the store's). An answer that arrived lately is not expected again. */
  expect(channel: string, jobId: string, ttlMs = this.ttlMs): void {
    const lately = this.arrivedLately.get(`${channel}|${jobId}`);
    if (lately !== undefined && lately >= Date.now()) return;
    let jobs = this.byChannel.get(channel);
    if (!jobs) this.byChannel.set(channel, (jobs = new Map()));
    jobs.set(jobId, Math.max(jobs.get(jobId) ?? 0, Date.now() + ttlMs));
  }

  arrived(channel: string, jobId: string): void {
    const jobs = this.byChannel.get(channel);
    jobs?.delete(jobId);
    if (jobs?.size === 0) this.byChannel.delete(channel);
    const now = Date.now();
    this.arrivedLately.set(`${channel}|${jobId}`, now + this.ttlMs);
    if (this.arrivedLately.size > 10_000) for (const [k, until] of this.arrivedLately) if (until < now) this.arrivedLately.delete(k);
  }

  /** Whether answer `id` is still expected in `channel`. */
  pendingFor(channel: string, id: string): boolean {
    const until = this.byChannel.get(channel)?.get(id);
    return until !== undefined && until >= Date.now();
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
