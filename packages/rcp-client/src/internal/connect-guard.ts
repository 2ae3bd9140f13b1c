/**
 * The connect-time address check where the platform gives the client no say over connections
 * (browsers, edge runtimes): none. Selected by the package's `#connect-guard` import for every
 * condition but `node`. The literal-host check of the private-network boundary still applies.
 */
import type { AddressCheck, ConnectGuard } from './connect-guard-types';

export type { ConnectGuard, AddressCheck };

/**
 * No guard on this platform.
 *
 * @example
 * ```ts
 * createConnectGuard(() => undefined); // undefined
 * ```
 */
export function createConnectGuard(_check: AddressCheck): ConnectGuard | undefined {
  return undefined;
}
