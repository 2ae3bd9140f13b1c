import { describe, expect, it } from 'vitest';
import { groupToolLines } from './index';

describe('groupToolLines (issue 41: warnings a person reads)', () => {
  const untrusted = (index: number, name: string) =>
    `/tools/${index}: Tool "${name}" would send a credential to https://api.example.com, which is not a trusted origin (add it to the client's "trustedOrigins" option if it should be); executing it will fail with RCP_ORIGIN_NOT_ALLOWED`;

  it('447 tools with one cause and origin are one line, naming the count and the first three', () => {
    const lines = Array.from({ length: 447 }, (_, index) => untrusted(index, `Op${index}`));
    expect(groupToolLines(lines)).toEqual([
      `/tools/0 …/tools/446: 447 tools (Op0, Op1, Op2, …) would send a credential to https://api.example.com, which is not a trusted origin (add it to the client's "trustedOrigins" option if it should be); executing them will fail with RCP_ORIGIN_NOT_ALLOWED`,
    ]);
  });

  it('keeps other lines, a tool alone and the order of first appearance; another origin is another group', () => {
    const other = '/tools/5: Tool "Other" would send a credential to https://files.example.com, which is not a trusted origin; executing it will fail';
    expect(groupToolLines(['/description: unknown field', untrusted(0, 'A'), other, untrusted(1, 'B')])).toEqual([
      '/description: unknown field',
      `/tools/0 …/tools/1: 2 tools (A, B) would send a credential to https://api.example.com, which is not a trusted origin (add it to the client's "trustedOrigins" option if it should be); executing them will fail with RCP_ORIGIN_NOT_ALLOWED`,
      other,
    ]);
  });
});
