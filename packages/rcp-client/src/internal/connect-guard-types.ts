/** Why `hostname`'s resolved `address` may not be connected to, or undefined when it may. */
export type AddressCheck = (hostname: string, address: string) => string | undefined;

/** The `code` of the error a guarded connection fails with when its address is refused. */
export const ADDRESS_REFUSED = 'RCP_ADDRESS_REFUSED';

/** What `send` hands to fetch so every connection goes through the check (`init.dispatcher` on Node). */
export interface ConnectGuard {
  readonly dispatcher: object;
}
