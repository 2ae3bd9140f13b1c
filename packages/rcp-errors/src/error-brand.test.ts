/**
 * The brand behind `instanceof` within one copy, and what it refuses. Two real copies are in
 * `two-copies.test.ts`. The decision on forgery: the brand is an identity marker, not a
 * credential. Nothing that comes from outside the process can carry it (both keys are registry
 * symbols: JSON, `structuredClone` and `postMessage` drop them), a polluted prototype cannot lend
 * it, and a base brand never makes a subclass. Code inside the process that writes the symbol on
 * purpose is recognised, as it could as well construct a real `RcpError`.
 */
import { describe, expect, it } from 'vitest';
import { RcpError, brandRcpErrorClass, isRcpError } from './index';

const INSTANCE_BRANDS = Symbol.for('rcp-sdk.errorBrands');

class BrandedError extends RcpError<'RCP_HTTP_ERROR'> {
  static {
    brandRcpErrorClass(BrandedError, 'rcp-errors-test.BrandedError');
  }
}

class OtherBrandedError extends RcpError<'RCP_HTTP_ERROR'> {
  static {
    brandRcpErrorClass(OtherBrandedError, 'rcp-errors-test.OtherBrandedError');
  }
}

/** Runs `body` with a brand list on `Object.prototype`, then removes it. */
function withPollutedPrototype(body: () => void): void {
  Object.defineProperty(Object.prototype, INSTANCE_BRANDS, { value: ['rcp-errors.RcpError', 'rcp-errors-test.BrandedError'], configurable: true });
  try {
    body();
  } finally {
    delete (Object.prototype as Record<symbol, unknown>)[INSTANCE_BRANDS];
  }
}

describe('the error brand', () => {
  it('stamps each error with the brands of its class chain, hidden from keys and JSON', () => {
    const error = new BrandedError('RCP_HTTP_ERROR', 'Not found');
    expect((error as unknown as Record<symbol, unknown>)[INSTANCE_BRANDS]).toEqual(['rcp-errors-test.BrandedError', 'rcp-errors.RcpError']);
    expect(Object.isFrozen((error as unknown as Record<symbol, unknown>)[INSTANCE_BRANDS])).toBe(true);
    expect(Object.keys(error)).toEqual(['code']);
    expect(JSON.stringify(error)).not.toContain('rcp-errors');
  });

  it('keeps instanceof exact within one copy: a class, its ancestors, never a sibling or a subclass', () => {
    const branded = new BrandedError('RCP_HTTP_ERROR', 'x');
    expect(branded instanceof BrandedError).toBe(true);
    expect(branded instanceof RcpError).toBe(true);
    expect(branded instanceof Error).toBe(true);
    expect(branded instanceof OtherBrandedError).toBe(false);
    expect(new RcpError('RCP_HTTP_ERROR', 'x') instanceof BrandedError).toBe(false);
    for (const value of [null, undefined, 0, 'RCP_TIMEOUT', {}, new Error('x'), () => undefined]) {
      expect(value instanceof RcpError).toBe(false);
    }
  });

  it('leaves a subclass without a brand to the prototype chain', () => {
    class LocalError extends RcpError<'RCP_TIMEOUT'> {}
    const local = new LocalError('RCP_TIMEOUT', 'late');
    expect(local instanceof LocalError).toBe(true);
    expect(local instanceof RcpError).toBe(true);
    expect(new RcpError('RCP_TIMEOUT', 'late') instanceof LocalError).toBe(false);
    // An error that carries every brand there is still is not an unbranded class's instance.
    const foreign = Object.defineProperty(new Error('x'), INSTANCE_BRANDS, { value: ['rcp-errors.RcpError', 'rcp-errors-test.BrandedError'] });
    expect(foreign instanceof LocalError).toBe(false);
  });

  it('isInstance is instanceof of the class it is called on, as a guard', () => {
    const branded = new BrandedError('RCP_HTTP_ERROR', 'x');
    expect(RcpError.isInstance(branded)).toBe(true);
    expect(BrandedError.isInstance(branded)).toBe(true);
    expect(OtherBrandedError.isInstance(branded)).toBe(false);
    expect(BrandedError.isInstance(new RcpError('RCP_HTTP_ERROR', 'x'))).toBe(false);
    expect([branded, new Error('x'), null].filter((value) => RcpError.isInstance(value))).toEqual([branded]);
    const detached = RcpError.isInstance as (value: unknown) => boolean;
    expect(() => detached(branded)).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
  });

  it('brandRcpErrorClass refuses a class that is not an RcpError, a second brand, an empty or an inherited one', () => {
    const refuses = (action: () => void, words: string) => {
      let thrown: unknown;
      try {
        action();
      } catch (error) {
        thrown = error;
      }
      expect(isRcpError(thrown, 'RCP_INVALID_OPTIONS')).toBe(true);
      expect((thrown as Error).message).toContain(words);
    };
    class PlainError extends Error {}
    refuses(() => brandRcpErrorClass(PlainError as never, 'x.PlainError'), 'PlainError does not extend RcpError');
    refuses(() => brandRcpErrorClass(RcpError, 'x.RcpError'), 'RcpError does not extend RcpError');
    refuses(() => brandRcpErrorClass(BrandedError, 'x.Again'), 'BrandedError already has a brand');
    class Unbranded extends BrandedError {}
    refuses(() => brandRcpErrorClass(Unbranded, ''), 'must be a non-empty string');
    refuses(() => brandRcpErrorClass(Unbranded, 'rcp-errors.RcpError'), 'cannot take the brand of RcpError');
    brandRcpErrorClass(Unbranded, 'rcp-errors-test.Unbranded');
    expect(new Unbranded('RCP_HTTP_ERROR', 'x') instanceof BrandedError).toBe(true);
    expect(new BrandedError('RCP_HTTP_ERROR', 'x') instanceof Unbranded).toBe(false);
  });
});

describe('what a forged brand does not do', () => {
  it('string-keyed look-alikes and the old boolean marker are not errors', () => {
    const lookAlike = { name: 'RcpError', code: 'RCP_TIMEOUT', message: 'x', 'rcp-sdk.errorBrands': ['rcp-errors.RcpError'] };
    expect(lookAlike instanceof RcpError).toBe(false);
    expect(isRcpError(lookAlike)).toBe(false);
    const marked = Object.assign(new Error('x'), { code: 'RCP_TIMEOUT' });
    Object.defineProperty(marked, Symbol.for('rcp-sdk.error'), { value: true });
    expect(isRcpError(marked)).toBe(false);
    const notAList = Object.assign(new Error('x'), { code: 'RCP_TIMEOUT' });
    Object.defineProperty(notAList, INSTANCE_BRANDS, { value: 'rcp-errors.RcpError' });
    expect(isRcpError(notAList)).toBe(false);
  });

  it('nothing from outside the process carries it: a JSON or structuredClone copy of a real error is not an RcpError', () => {
    const real = new BrandedError('RCP_HTTP_ERROR', 'Not found');
    const parsed: unknown = JSON.parse(JSON.stringify(real));
    expect(parsed).toMatchObject({ code: 'RCP_HTTP_ERROR' });
    expect(isRcpError(parsed)).toBe(false);
    const cloned: unknown = structuredClone(real);
    expect(cloned instanceof Error).toBe(true);
    expect(cloned instanceof RcpError).toBe(false);
    expect(isRcpError(cloned)).toBe(false);
  });

  it('a brand on a polluted Object.prototype is ignored (own properties only)', () => {
    withPollutedPrototype(() => {
      const plain = Object.assign(new Error('x'), { code: 'RCP_TIMEOUT' });
      expect(plain instanceof RcpError).toBe(false);
      expect(plain instanceof BrandedError).toBe(false);
      expect(isRcpError(plain)).toBe(false);
      expect(isRcpError({ code: 'RCP_TIMEOUT' })).toBe(false);
    });
  });

  it('a base brand never passes for a subclass, and a throwing proxy makes instanceof false, not an exception', () => {
    const base = new RcpError('RCP_HTTP_ERROR', 'x');
    expect(base instanceof BrandedError).toBe(false);
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error('trap');
        },
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(hostile instanceof RcpError).toBe(false);
    expect(isRcpError(hostile)).toBe(false);
  });

  it('code inside the process that writes the symbol on purpose is recognised, and isRcpError still wants a string code', () => {
    const deliberate = Object.defineProperty(new Error('x'), INSTANCE_BRANDS, { value: ['rcp-errors.RcpError'] });
    expect(deliberate instanceof RcpError).toBe(true);
    expect(isRcpError(deliberate)).toBe(false);
    Object.assign(deliberate, { code: 'RCP_TIMEOUT' });
    expect(isRcpError(deliberate, 'RCP_TIMEOUT')).toBe(true);
  });
});
