// ANSI colours of the console chat, by tone.
import type { Tone } from '../types.js';

export const SEVERITY_STYLE_CODES: Record<Tone, string> = {
  critical: '\x1b[35m',
  error: '\x1b[31m',
  warning: '\x1b[33m',
  info: '\x1b[34m',
  ok: '\x1b[32m',
  pending: '\x1b[36m',
  neutral: '',
};
