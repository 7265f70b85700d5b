import { describe, expect, it } from 'vitest';
import { USER_AGENT } from '../collect/kube-source.js';
import { planUserAgent } from './user-agent.js';

describe('planUserAgent', () => {
  it('is pod-doctor/<version of package.json>', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } });
    expect(USER_AGENT).toBe(`pod-doctor/${pkg.version}`);
  });

  it.each([
    [['U0ALICE'], `(plan=pl_AbCdEfGhIjKlMnOp; approvedBy=U0ALICE)`],
    [['U0ALICE', 'U0BOB'], `(plan=pl_AbCdEfGhIjKlMnOp; approvedBy=U0ALICE,U0BOB)`],
    [[], `(plan=pl_AbCdEfGhIjKlMnOp; approvedBy=unknown)`],
    [undefined, `(plan=pl_AbCdEfGhIjKlMnOp)`],
  ])('approvers %j → %s', (approvers, tail) => {
    expect(planUserAgent('pl_AbCdEfGhIjKlMnOp', approvers)).toBe(`${USER_AGENT} ${tail}`);
  });

  it('keeps header-unsafe characters out (console names, a forged id)', () => {
    const ua = planUserAgent('pl_x', ['alice smith', 'bob\r\nX-Evil: 1', 'carol;approvedBy=root']);
    expect(ua).toBe(`${USER_AGENT} (plan=pl_x; approvedBy=alice_smith,bob__X-Evil__1,carol_approvedBy_root)`);
    expect(ua).not.toMatch(/[\r\n]/);
  });
});
