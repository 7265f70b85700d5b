// Reading a request body within a size limit: the one reader of the webhook, the agent, the Slack
// receiver and the simulated API server. Past the limit it stops keeping data and says so; the
// caller answers 413 (and may `discard` the rest so the client reads that answer, not a reset).
import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/** Reads at most `max` bytes; past it stops keeping data and reports too-large. */
export function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    // A declared length past the limit is refused before a byte is read.
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      resolve({ ok: false, reason: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (r: BodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        settle({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle({ ok: true, body: Buffer.concat(chunks) });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => settle({ ok: false, reason: 'aborted' }));
    req.on('close', () => settle({ ok: false, reason: 'aborted' }));
  });
}

/**
 * Let the client finish sending what it started (so it reads our 4xx instead of a reset),
 * up to `cap` bytes; beyond that the connection is dropped.
 */
export function discard(req: IncomingMessage, cap: number): void {
  if (req.readableEnded) return;
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > cap) req.socket.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}
