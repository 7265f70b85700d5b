// IPv4 addresses and CIDRs as NetworkPolicy ipBlocks and the metadata endpoint need them.

/** A dotted IPv4 address as a number; undefined for anything else (IPv6, a name, an octet over 255). */
export function ipv4(ip: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.some((p) => p > 255) ? undefined : parts.reduce((a, p) => a * 256 + p, 0);
}

/** Whether a v4 CIDR (or a bare address) covers a v4 address; undefined when either is not IPv4. */
export function cidrCovers(cidr: string, ip: string): boolean | undefined {
  const [base, bits] = cidr.split('/');
  const a = ipv4(base ?? '');
  const b = ipv4(ip);
  const n = bits === undefined ? 32 : Number(bits);
  if (a === undefined || b === undefined || !Number.isInteger(n) || n < 0 || n > 32) return undefined;
  const size = 2 ** (32 - n);
  return Math.floor(a / size) === Math.floor(b / size);
}
