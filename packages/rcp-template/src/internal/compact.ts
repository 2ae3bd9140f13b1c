/** The shared empty list of compiled structures that have nothing in a list (never modified). */
export const NONE: never[] = Object.freeze([]) as unknown as never[];

/**
 * A list built with `push` copied to its exact length. A pushed-to array keeps spare capacity
 * (17 slots after the first push); compiled templates live as long as their tools, so they
 * keep exact-size copies and the spare capacity is left to the young-generation collector.
 */
export function compact<T>(list: T[]): T[] {
  return list.length === 0 ? NONE : list.slice();
}
