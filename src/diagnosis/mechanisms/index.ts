// The mechanism catalogue: what a failure line means inside a pod, and the knobs that change it.
// Rules read it (crash.app-exit and the other rules that quote a decisive line); it reads nothing.

export { explain, type Found, findLines, MECHANISM_BY_ID, MECHANISMS, READ_LIMITS, readExit, readTexts, SIGNATURES } from './read.js';
export { exitMeaning, signalOfExit } from './signals.js';
export type { Family, Knob, Mechanism, Reading, ReadingContext, Signature, Text, Variant } from './types.js';
