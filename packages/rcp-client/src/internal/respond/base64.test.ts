import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toBase64 } from './base64';

describe('toBase64', () => {
  it("is Node's base64 for every length, across the chunk size", () => {
    for (const length of [0, 1, 2, 3, 4, 0x7fff, 0x8000, 0x8001, 100_000]) {
      const bytes = new Uint8Array(randomBytes(length));
      expect(toBase64(bytes), String(length)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });

  it('reads only the view it is given', () => {
    const whole = new Uint8Array([1, 2, 3, 4, 5, 6]);
    expect(toBase64(whole.subarray(2, 5))).toBe(Buffer.from([3, 4, 5]).toString('base64'));
  });
});
