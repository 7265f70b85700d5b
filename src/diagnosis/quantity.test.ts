import { describe, expect, it } from 'vitest';
import { formatBytes, formatCores, formatResource, parseQuantity, quantityParts } from './quantity.js';

describe('parseQuantity', () => {
  it.each([
    ['100m', 0.1],
    ['2', 2],
    ['1.5', 1.5],
    ['128Mi', 128 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['1G', 1e9],
    ['1e3', 1000],
    ['1E3', 1000],
    ['2E', 2e18],
    ['4', 4],
    ['1024m', 1.024],
    ['500M', 5e8],
    ['264040352Ki', 264040352 * 1024],
    ['.5', 0.5],
    ['+3k', 3000],
    [' 256Mi ', 256 * 2 ** 20],
  ])('%s → %d', (q, want) => {
    expect(parseQuantity(q)).toBeCloseTo(want, 9);
  });

  it.each(['', 'abc', '1.2.3', '10 Mi', '5mb', '1KiB'])('rejects %j as NaN', (q) => {
    expect(parseQuantity(q)).toBeNaN();
  });

  it('accepts numbers from YAML', () => {
    expect(parseQuantity(4)).toBe(4);
  });

  it('tells the suffix apart (memory-units needs it)', () => {
    expect(quantityParts('1024m')).toEqual({ number: 1024, suffix: 'm', value: 1.024 });
    expect(quantityParts('4')?.suffix).toBe('');
    expect(quantityParts('1e3')?.suffix).toBe('e3');
  });
});

describe('formatting', () => {
  it('formats bytes in binary units', () => {
    expect(formatBytes(4)).toBe('4 B');
    expect(formatBytes(1.024)).toBe('1.024 B');
    expect(formatBytes(128 * 2 ** 20)).toBe('128Mi');
    expect(formatBytes(1.5 * 2 ** 30)).toBe('1.5Gi');
    expect(formatBytes(1e9)).toBe('953.7Mi');
  });
  it('formats cores like specs do', () => {
    expect(formatCores(0.25)).toBe('250m');
    expect(formatCores(1.5)).toBe('1.5');
    expect(formatCores(3.8)).toBe('3.8');
  });
  it('picks the unit by resource', () => {
    expect(formatResource('cpu', 0.5)).toBe('500m');
    expect(formatResource('memory', 2 ** 30)).toBe('1Gi');
    expect(formatResource('ephemeral-storage', 2 ** 31)).toBe('2Gi');
    expect(formatResource('nvidia.com/gpu', 1)).toBe('1');
  });
});
