// Kubernetes resource quantities (`100m`, `2`, `128Mi`, `1G`, `1e3`) as plain numbers in
// base units: cores for cpu, bytes for memory and storage, a count for pods and the rest.
// Pure and tolerant: rules quote what they cannot parse instead of throwing.

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

// <signedNumber><suffix>, suffix = binarySI | decimalSI | decimalExponent (apimachinery's grammar).
// The exponent form is tried first so `1E3` is 1000 while a bare `1E` is one exa.
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$/;

export interface QuantityParts {
  /** The number as written, before the suffix is applied. */
  number: number;
  /** `Mi`, `m`, `e3`, or `''` when the value has no unit. */
  suffix: string;
  /** Value in base units. */
  value: number;
}

/** Split a quantity into number, suffix and value; undefined when it is not a quantity. */
export function quantityParts(q: string | number): QuantityParts | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? { number: q, suffix: '', value: q } : undefined;
  const m = QUANTITY.exec(q.trim());
  if (!m) return undefined;
  const number = Number(m[1]);
  if (m[2] !== undefined) return { number, suffix: `e${m[2]}`, value: number * 10 ** Number(m[2]) };
  const suffix = m[3] ?? '';
  const factor = BINARY[suffix] ?? DECIMAL[suffix] ?? 1;
  return { number, suffix, value: number * factor };
}

/**
 * A quantity in base units (cores or bytes): `100m` → 0.1, `128Mi` → 134217728, `1G` → 1e9,
 * `1e3` → 1000, `4` → 4. Returns NaN when the text is not a Kubernetes quantity.
 */
export function parseQuantity(q: string | number): number {
  return quantityParts(q)?.value ?? Number.NaN;
}

function trim(n: number, digits: number): string {
  return String(Number(n.toFixed(digits)));
}

/** Bytes the way kubectl users read them: `512 B`, `1.5Ki`, `128Mi`, `3.2Gi`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const sign = bytes < 0 ? '-' : '';
  const abs = Math.abs(bytes);
  if (abs < 1024) return `${sign}${trim(abs, 3)} B`;
  const units = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;
  let value = abs;
  let unit: string = 'B';
  for (const u of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = u;
  }
  return `${sign}${trim(value, 1)}${unit}`;
}

/** Cores as written in specs: `250m` below one core, `1.5` above. */
export function formatCores(cores: number): string {
  if (!Number.isFinite(cores)) return String(cores);
  if (Math.abs(cores) < 1) return `${Math.round(cores * 1000)}m`;
  return trim(cores, 2);
}

/** A value of the named resource in its natural unit (cpu → cores, memory/storage → bytes). */
export function formatResource(resource: string, value: number): string {
  if (resource === 'cpu') return formatCores(value);
  if (resource === 'memory' || resource.includes('storage') || resource.startsWith('hugepages-')) return formatBytes(value);
  return trim(value, 2);
}
