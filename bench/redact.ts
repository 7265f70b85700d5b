// bench:redact — the collector redacts every container log tail it keeps (100 lines by default)
// and the bot redacts every chat message and log record, so redaction sits on every diagnosis.
// Tails of 100 lines × 200 characters from the evaluation corpus's real container logs, as they
// are and with credentials planted in one line of ten. `npx tsx bench/redact.ts`; the last line
// is one JSON object (µs per tail).
import { join } from 'node:path';
import { redactLines } from '../src/redact.js';
import { loadObjects } from '../src/sim/load.js';

const LINES = 100;
const WIDTH = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 2000);

const CREDENTIALS = [
  'password=hunter2',
  'Authorization: Bearer 9f86d081884c7d659a2feaa0c55ad015',
  'postgres://app:S3cr3t!@db.shop.svc:5432/orders',
  'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
  'AKIAIOSFODNN7EXAMPLE',
];

async function corpusLines(): Promise<string[]> {
  const objects = await loadObjects([join(import.meta.dirname, '../eval/corpus')]);
  return objects.flatMap((o) => (o.kind === 'PodLog' && Array.isArray(o.lines) ? (o.lines as string[]) : []));
}

/** `LINES` lines of `WIDTH` characters, each made of consecutive corpus lines. */
function tail(lines: string[], offset: number): string[] {
  const out: string[] = [];
  let i = offset;
  while (out.length < LINES) {
    let line = '';
    while (line.length < WIDTH) line += `${line ? ' ' : ''}${lines[i++ % lines.length]}`;
    out.push(line.slice(0, WIDTH));
  }
  return out;
}

function microsPerTail(tails: string[][]): number {
  for (let i = 0; i < 200; i++) redactLines(tails[i % tails.length]!);
  const start = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) redactLines(tails[i % tails.length]!);
  return Number(process.hrtime.bigint() - start) / RUNS / 1000;
}

const lines = await corpusLines();
const clean = Array.from({ length: 16 }, (_, k) => tail(lines, k * 37));
const planted = clean.map((t, k) => t.map((l, i) => (i % 10 === 0 ? `${l.slice(0, WIDTH - 60)} ${CREDENTIALS[(i + k) % CREDENTIALS.length]}` : l)));
console.log(
  JSON.stringify({ corpusLines: lines.length, lines: LINES, width: WIDTH, cleanMicros: microsPerTail(clean), plantedMicros: microsPerTail(planted) }),
);
