/**
 * rcp-template loaded twice in one process: its ESM build (which imports rcp-errors' ESM build)
 * and its CJS build through Node's own `require` (which requires rcp-errors' CJS build), so two
 * `RcpError` and two `RcpTemplateError` classes. An error thrown by one copy is `instanceof`
 * both classes of the other, both ways.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

type Template = typeof import('./index');

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const ordinaryHasInstance = (errorClass: object, value: unknown) => Function.prototype[Symbol.hasInstance].call(errorClass, value);

let esm: Template;
let cjs: Template;

beforeAll(async () => {
  if (!existsSync(join(dist, 'index.js')) || !existsSync(join(dist, 'index.cjs'))) {
    throw new Error('rcp-template is not built: run `pnpm turbo run build:js --filter rcp-template...` first');
  }
  esm = await import(pathToFileURL(join(dist, 'index.js')).href);
  cjs = createRequire(import.meta.url)(join(dist, 'index.cjs'));
});

/** The error `compileRequest` throws for a space inside a token. */
function syntaxErrorFrom(template: Template): unknown {
  try {
    template.compileRequest({ method: 'GET', url: 'https://api.example.com/users/{{ id }}' });
  } catch (error) {
    return error;
  }
  throw new Error('compileRequest accepted a malformed template');
}

describe('two installed copies of rcp-template', () => {
  it('define distinct classes that the prototype chain alone cannot match', () => {
    expect(esm.RcpTemplateError).not.toBe(cjs.RcpTemplateError);
    expect(esm.RcpError).not.toBe(cjs.RcpError);
    expect(ordinaryHasInstance(cjs.RcpTemplateError, syntaxErrorFrom(esm))).toBe(false);
  });

  it('match each other’s errors with instanceof, isInstance and isRcpError, both ways', () => {
    for (const [from, to] of [
      [esm, cjs],
      [cjs, esm],
    ] as const) {
      const error = syntaxErrorFrom(from);
      expect(error instanceof from.RcpTemplateError).toBe(true);
      expect(error instanceof to.RcpTemplateError).toBe(true);
      expect(error instanceof to.RcpError).toBe(true);
      expect(to.RcpTemplateError.isInstance(error)).toBe(true);
      expect(to.isRcpError(error, 'RCP_TEMPLATE_SYNTAX')).toBe(true);
      expect(error).toMatchObject({ code: 'RCP_TEMPLATE_SYNTAX', offset: 32 });
    }
  });

  it("never take the other copy's base RcpError for an RcpTemplateError", () => {
    expect(new esm.RcpError('RCP_TEMPLATE_SYNTAX', 'x') instanceof cjs.RcpTemplateError).toBe(false);
    expect(new cjs.RcpError('RCP_TEMPLATE_SYNTAX', 'x') instanceof esm.RcpTemplateError).toBe(false);
  });
});
