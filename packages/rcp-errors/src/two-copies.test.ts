/**
 * Two installed copies of rcp-errors in one process: the ESM build, the CJS build (Node's own
 * `require`) and the ESM build copied into a second `node_modules` tree, as a second version
 * would be installed. Each defines its own `RcpError`; `instanceof` must hold across them both
 * ways, for the base class and for a branded subclass defined once per copy (as a package that
 * is itself installed twice defines its subclass twice).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Errors = typeof import('./index');

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const ordinaryHasInstance = (errorClass: object, value: unknown) => Function.prototype[Symbol.hasInstance].call(errorClass, value);

/** The subclass a package built on rcp-errors defines, once per copy of that package. */
function defineHttpError(errors: Errors) {
  return class RcpHttpError extends errors.RcpError<'RCP_HTTP_ERROR'> {
    static {
      errors.brandRcpErrorClass(RcpHttpError, 'rcp-errors-test.RcpHttpError');
    }
    readonly status = 404;
  };
}

let copies: { name: string; errors: Errors }[] = [];
let secondTree: string;

beforeAll(async () => {
  const dist = join(packageDir, 'dist');
  if (!existsSync(join(dist, 'index.js')) || !existsSync(join(dist, 'index.cjs'))) {
    throw new Error('rcp-errors is not built: run `pnpm turbo run build:js --filter rcp-errors` first');
  }
  secondTree = mkdtempSync(join(tmpdir(), 'rcp-errors-second-copy-'));
  const installed = join(secondTree, 'node_modules', 'rcp-errors');
  cpSync(dist, join(installed, 'dist'), { recursive: true });
  cpSync(join(packageDir, 'package.json'), join(installed, 'package.json'));
  copies = [
    { name: 'ESM build', errors: await import(pathToFileURL(join(dist, 'index.js')).href) },
    { name: 'CJS build', errors: createRequire(import.meta.url)(join(dist, 'index.cjs')) },
    { name: 'second install', errors: await import(pathToFileURL(join(installed, 'dist', 'index.js')).href) },
  ];
});

afterAll(() => {
  rmSync(secondTree, { recursive: true, force: true });
});

/** Every ordered pair of distinct copies. */
function pairs() {
  return copies.flatMap((from) => copies.filter((to) => to !== from).map((to) => ({ from, to })));
}

describe('two installed copies of rcp-errors', () => {
  it('are really distinct classes: the prototype chain alone says no', () => {
    for (const { from, to } of pairs()) {
      expect(from.errors.RcpError).not.toBe(to.errors.RcpError);
      expect(ordinaryHasInstance(to.errors.RcpError, new from.errors.RcpError('RCP_TIMEOUT', 'late'))).toBe(false);
    }
  });

  it('instanceof RcpError, isRcpError and isInstance hold both ways', () => {
    for (const { from, to } of pairs()) {
      const error = new from.errors.RcpError('RCP_TIMEOUT', `from the ${from.name}`);
      expect(error instanceof to.errors.RcpError, `${from.name} → ${to.name}`).toBe(true);
      expect(to.errors.RcpError.isInstance(error)).toBe(true);
      expect(to.errors.isRcpError(error, 'RCP_TIMEOUT')).toBe(true);
      expect(to.errors.isRcpError(error, 'RCP_HTTP_ERROR')).toBe(false);
    }
  });

  it('a branded subclass defined in each copy matches its twin both ways, and only its twin', () => {
    const httpErrors = new Map(copies.map((copy) => [copy, defineHttpError(copy.errors)]));
    for (const { from, to } of pairs()) {
      const FromHttpError = httpErrors.get(from) as ReturnType<typeof defineHttpError>;
      const ToHttpError = httpErrors.get(to) as ReturnType<typeof defineHttpError>;
      const error = new FromHttpError('RCP_HTTP_ERROR', 'Not found');
      expect(error instanceof ToHttpError, `${from.name} → ${to.name}`).toBe(true);
      expect(error instanceof to.errors.RcpError).toBe(true);
      expect(ToHttpError.isInstance(error)).toBe(true);
      expect(to.errors.isRcpError(error, 'RCP_HTTP_ERROR')).toBe(true);
      // A base error of the other copy is not the subclass.
      expect(new from.errors.RcpError('RCP_HTTP_ERROR', 'x') instanceof ToHttpError).toBe(false);
      expect(ToHttpError.isInstance(new from.errors.RcpError('RCP_HTTP_ERROR', 'x'))).toBe(false);
    }
  });

  it("an unbranded subclass of one copy never matches the other copy's errors", () => {
    for (const { from, to } of pairs()) {
      class LocalError extends to.errors.RcpError<'RCP_TIMEOUT'> {}
      expect(new from.errors.RcpError('RCP_TIMEOUT', 'late') instanceof LocalError).toBe(false);
      expect(new LocalError('RCP_TIMEOUT', 'late') instanceof from.errors.RcpError).toBe(true);
    }
  });
});
