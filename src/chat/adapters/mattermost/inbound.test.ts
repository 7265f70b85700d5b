import { describe, expect, it } from 'vitest';
import { knownToken } from './inbound.js';

describe('slash command tokens', () => {
  it('takes any configured token, and nothing else (not a prefix, not empty)', () => {
    const tokens = ['team-one-token-123', 'team-two-token-456'];
    expect(tokens.map((t) => knownToken(tokens, t))).toEqual([true, true]);
    for (const bad of ['', 'team-one-token-12', 'team-one-token-1234', 'TEAM-ONE-TOKEN-123']) expect(knownToken(tokens, bad), bad).toBe(false);
    expect(knownToken([], 'anything-at-all')).toBe(false);
  });
});
