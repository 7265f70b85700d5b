// The one place rules are registered. A contract test checks that this list equals the
// files in this folder, that each id matches its file name, and that each has tests.
import type { Rule } from '../rule.js';
import { rule as terminatingFinalizers } from './terminating-finalizers.js';

export const RULES: readonly Rule[] = [
  terminatingFinalizers,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}
