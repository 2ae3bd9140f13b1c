/*
 * Error identity that survives two installed copies of the SDK.
 *
 * Two copies of rcp-errors (two versions in one node_modules tree, or the ESM and the CJS build
 * of one version loaded side by side) define two `RcpError` classes, so the ordinary
 * prototype-walking `instanceof` says no to an error from the other copy. Instead, a class that
 * opts in carries a brand (a version-less string, `'rcp-client.RcpHttpError'`), every error is
 * stamped at construction with the brands of its class chain, and `RcpError[Symbol.hasInstance]`
 * answers "does the value carry the brand of the class on the right of `instanceof`?" before it
 * falls back to the prototype walk. Both keys are registry symbols (`Symbol.for`), the same in
 * every copy and every realm, and never string keys, so nothing parsed from JSON, copied by
 * `structuredClone` or received from another process can carry one.
 *
 * Only own properties count, on the value and on the class: a brand inherited through a
 * prototype (a polluted `Object.prototype`) is ignored, and a subclass that declares no brand
 * of its own keeps plain prototype semantics, so another copy's base error never passes
 * `instanceof` a user's subclass.
 */

/** On a class: the class's own brand (a string). */
const CLASS_BRAND = Symbol.for('rcp-sdk.errorBrand');

/** On an error: the frozen list of the brands of its class chain, most derived first. */
const INSTANCE_BRANDS = Symbol.for('rcp-sdk.errorBrands');

const hasOwn = Object.hasOwn;
const includes = Array.prototype.includes;
const ordinaryHasInstance = Function.prototype[Symbol.hasInstance];

/** The class's own brand, if it declares one. */
export function ownBrandOf(errorClass: object): string | undefined {
  if (!hasOwn(errorClass, CLASS_BRAND)) return undefined;
  const brand: unknown = (errorClass as Record<symbol, unknown>)[CLASS_BRAND];
  return typeof brand === 'string' ? brand : undefined;
}

/** Gives `errorClass` its brand: an own, read-only, non-enumerable property. */
export function defineBrand(errorClass: object, brand: string): void {
  Object.defineProperty(errorClass, CLASS_BRAND, { value: brand, enumerable: false, writable: false, configurable: false });
}

/**
 * Stamps `error` with the brands of `errorClass` (the `new.target` of its construction) and of
 * every class it extends. Called by the base constructor only: never stamp an arbitrary object.
 */
export function stampBrands(error: object, errorClass: unknown): void {
  const brands: string[] = [];
  for (let current = errorClass; typeof current === 'function'; current = Object.getPrototypeOf(current)) {
    const brand = ownBrandOf(current);
    if (brand !== undefined) brands.push(brand);
  }
  // Configurable: tooling that copies or re-defines an error's properties keeps working; an
  // error whose stamp was deleted only falls back to the prototype check.
  Object.defineProperty(error, INSTANCE_BRANDS, { value: Object.freeze(brands), enumerable: false, writable: false, configurable: true });
}

/**
 * `value instanceof errorClass` across copies: true when the value carries, as an own property,
 * the class's own brand; otherwise the ordinary prototype walk. A throwing getter or proxy trap
 * on the value makes the brand check false, never an exception.
 */
export function brandedHasInstance(errorClass: object, value: unknown): boolean {
  if (typeof value === 'object' && value !== null) {
    try {
      const brand = ownBrandOf(errorClass);
      if (brand !== undefined && hasOwn(value, INSTANCE_BRANDS)) {
        const carried: unknown = (value as Record<symbol, unknown>)[INSTANCE_BRANDS];
        if (Array.isArray(carried) && includes.call(carried, brand)) return true;
      }
    } catch {
      // fall through to the prototype walk
    }
  }
  return ordinaryHasInstance.call(errorClass, value);
}
