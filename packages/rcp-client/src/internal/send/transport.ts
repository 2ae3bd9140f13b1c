/**
 * The platform transport where the client has no say over connections (browsers, edge
 * runtimes, Deno, Bun): `globalThis.fetch`, with no connect-time address check (the literal-host
 * check of the private-network boundary still applies). Selected by the package's `#transport`
 * import for every condition but `node`.
 */
import { createFetchTransport } from './fetch-transport';
import type { AddressCheck, PlatformTransport, Transport } from './transport-types';

export type { AddressCheck, PlatformTransport, Transport };

/**
 * The platform's transport; `check` is not applied here (nothing can apply it).
 *
 * @example
 * ```ts
 * const transport = createPlatformTransport();
 * ```
 */
export function createPlatformTransport(_check?: AddressCheck): PlatformTransport {
  // The platform's fetch owns its connections: there is nothing of ours to close.
  return Object.assign(createFetchTransport(undefined), { close: async () => {} });
}
