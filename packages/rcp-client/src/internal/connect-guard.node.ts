/**
 * The connect-time address check on Node (selected by the package's `#connect-guard` import
 * under the `node` condition): an undici `Agent` whose `lookup` resolves a host name once,
 * refuses the connection when any address it resolves to is refused by the private-network
 * boundary, and connects to exactly the addresses it checked — so a rebinding name cannot
 * switch to 127.0.0.1 between the check and the connection. Handed to Node's fetch as
 * `dispatcher`.
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent } from 'undici';
import { ADDRESS_REFUSED, type AddressCheck, type ConnectGuard } from './connect-guard-types';

export type { ConnectGuard, AddressCheck };

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A guard whose connections only reach addresses `check` accepts.
 *
 * @example
 * ```ts
 * const guard = createConnectGuard((host, address) => (address.startsWith('127.') ? `${host}: loopback refused` : undefined));
 * await fetch(url, { dispatcher: guard.dispatcher });
 * ```
 */
export function createConnectGuard(check: AddressCheck): ConnectGuard | undefined {
  const agent = new Agent({
    connect: {
      lookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
        lookup(hostname, { ...options, all: true }, (error, addresses) => {
          if (error) {
            callback(error, '');
            return;
          }
          const resolved = addresses as LookupAddress[];
          const refusal = resolved.map((entry) => check(hostname, entry.address)).find((reason) => reason !== undefined);
          if (refusal !== undefined || resolved.length === 0) {
            const refused: NodeJS.ErrnoException = new Error(refusal ?? 'the host name resolved to no address');
            refused.code = ADDRESS_REFUSED;
            callback(refused, '');
            return;
          }
          if (options.all) callback(null, resolved);
          else callback(null, resolved[0]!.address, resolved[0]!.family);
        });
      },
    },
  });
  return { dispatcher: agent };
}
