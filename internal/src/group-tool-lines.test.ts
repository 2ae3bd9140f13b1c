import { describe, expect, it } from 'vitest';
import { groupToolLines, groupToolWarnings } from './index';

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

  it('a param warning under many tools (Stripe: "email" in 7 tools, at different params) is one warning per param and cause', () => {
    const identity = (tool: number, param: number, name: string, paramName = 'email') => ({
      path: `/tools/${tool}/params/${param}`,
      message: `No resolver fills param "${paramName}" of tool "${name}" (/tools/${tool}/params/${param}): its name looks like an identity, and the model will choose its value. Register a resolver named "${paramName}", or list it in "modelFilledParams" if the model may choose it`,
    });
    const warnings = [
      identity(3, 9, 'A'),
      identity(5, 8, 'B'),
      { path: '/tools/6/description', message: 'unknown field' },
      identity(7, 1, 'C', 'customer_email'),
      identity(9, 2, 'D'),
    ];
    expect(groupToolWarnings(warnings)).toEqual([
      {
        path: '/tools/3/params/9 …/tools/9/params/2',
        message:
          'No resolver fills param "email" of 3 tools (A, B, D): its name looks like an identity, and the model will choose its value. Register a resolver named "email", or list it in "modelFilledParams" if the model may choose it',
      },
      warnings[2],
      warnings[3],
    ]);
  });

  it('a manifest warning that names no tool, at the same place in many tools, says how many', () => {
    const unused = (tool: number, param: number) => ({
      path: `/tools/${tool}/params/${param}`,
      message: 'param "expand" is declared but not used in url, queryParams, headers or body',
    });
    expect(groupToolWarnings([unused(0, 3), unused(4, 1), unused(9, 0)])).toEqual([
      { path: '/tools/0/params/3 …/tools/9/params/0', message: 'param "expand" is declared but not used in url, queryParams, headers or body (3 tools)' },
    ]);
    expect(groupToolLines(['/tools/0/x: unknown field "x" is ignored', '/tools/1/y: unknown field "x" is ignored'])).toEqual([
      '/tools/0/x: unknown field "x" is ignored',
      '/tools/1/y: unknown field "x" is ignored',
    ]);
  });
});
