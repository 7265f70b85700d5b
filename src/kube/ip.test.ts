import { describe, expect, it } from 'vitest';
import { cidrCovers, ipv4 } from './ip.js';

describe('ipv4 and cidrCovers', () => {
  it('reads dotted addresses only', () => {
    expect(ipv4('10.96.0.10')).toBe(10 * 2 ** 24 + 96 * 2 ** 16 + 10);
    expect(ipv4('256.1.1.1')).toBeUndefined();
    expect(ipv4('fd00::1')).toBeUndefined();
  });
  it('says whether a block covers an address, and cannot tell for IPv6 or a bad prefix', () => {
    expect(cidrCovers('169.254.169.254/32', '169.254.169.254')).toBe(true);
    expect(cidrCovers('10.0.0.0/8', '169.254.169.254')).toBe(false);
    expect(cidrCovers('0.0.0.0/0', '192.168.1.1')).toBe(true);
    expect(cidrCovers('10.0.0.1', '10.0.0.1')).toBe(true);
    expect(cidrCovers('10.0.0.0/33', '10.0.0.1')).toBeUndefined();
    expect(cidrCovers('fd00::/8', '10.0.0.1')).toBeUndefined();
  });
});
