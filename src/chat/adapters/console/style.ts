// ANSI colours of the terminal: the console chat (by tone) and `pod-doctor diagnose`'s text.
import type { Tone } from '../../types.js';

export const ANSI = { reset: '\x1b[0m', bold: '\x1b[1m', dim: '\x1b[2m' } as const;

export const SEVERITY_STYLE_CODES: Record<Tone, string> = {
  critical: '\x1b[35m',
  error: '\x1b[31m',
  warning: '\x1b[33m',
  info: '\x1b[34m',
  ok: '\x1b[32m',
  pending: '\x1b[36m',
  neutral: '',
};

/** `s` in a tone (or bold/dim), reset after; plain when colour is off. */
export function paint(tone: Tone | 'bold' | 'dim', s: string, color = true): string {
  const code = tone === 'bold' || tone === 'dim' ? ANSI[tone] : SEVERITY_STYLE_CODES[tone];
  return color && code ? `${code}${s}${ANSI.reset}` : s;
}
