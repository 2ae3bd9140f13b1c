import { PRIVACY, classifyHost, type AddressClass } from './address-class';

/** The operator's say over the private-network boundary (client options). */
export interface NetworkBoundaryOptions {
  /** `true`: any private or loopback target; a list: these exact origins (link-local ones included). */
  readonly allowPrivateNetwork: boolean | ReadonlySet<string>;
  /** The operator's own classification, consulted first (`undefined`: the built-in one). */
  readonly classifyAddress: ((hostname: string) => AddressClass | undefined) | undefined;
  /** How private the manifest's source is, when declared (`client.load`); otherwise its URL's host decides. */
  readonly manifestClass?: AddressClass;
}

const WHAT: Readonly<Record<AddressClass, string>> = {
  public: 'a public address',
  private: 'a private-network address',
  local: 'a loopback address',
  'link-local': 'a link-local address (where cloud metadata services answer)',
};

/**
 * The private-network boundary for one manifest, after the browsers' Private Network Access
 * rule: a tool may target an address only as private as the manifest's own, or less. A
 * link-local target is refused for every manifest unless the operator lists its origin.
 * Returns, for a target origin, why it is refused, or `undefined`.
 */
export interface NetworkBoundary {
  /** The class of the manifest's own host: all the rule needs to know of the manifest. */
  readonly manifestClass: AddressClass;
  /** Why a tool origin is refused (from its host as written), or undefined. */
  refusal(target: URL): string | undefined;
  /**
   * Why a connection to `address` (what `target`'s host name resolved to) is refused, or
   * undefined: the same rule, on the address actually connected to.
   */
  addressRefusal(target: string, address: string): string | undefined;
}

export function createNetworkBoundary(manifestUrl: URL, options: NetworkBoundaryOptions): NetworkBoundary {
  const classify = (hostname: string): AddressClass => options.classifyAddress?.(hostname) ?? classifyHost(hostname);
  const manifestClass = options.manifestClass ?? classify(manifestUrl.hostname);
  const { allowPrivateNetwork } = options;
  const listedHosts = allowPrivateNetwork instanceof Set ? new Set([...allowPrivateNetwork].map((origin) => new URL(origin).hostname)) : undefined;
  const rule = (what: string, targetClass: AddressClass): string | undefined => {
    if (targetClass === 'link-local') {
      return `${what} is ${WHAT[targetClass]}: refused for every manifest unless the client's "allowPrivateNetwork" lists it`;
    }
    if (PRIVACY[targetClass] <= PRIVACY[manifestClass] || allowPrivateNetwork === true) return undefined;
    return (
      `${what} is ${WHAT[targetClass]}, but the manifest comes from ${WHAT[manifestClass]}: ` +
      `refused (a manifest may only point at addresses as private as its own) unless the client's "allowPrivateNetwork" allows it`
    );
  };
  return {
    manifestClass,
    refusal(target) {
      if (allowPrivateNetwork instanceof Set && allowPrivateNetwork.has(target.origin)) return undefined;
      return rule(target.origin, classify(target.hostname));
    },
    addressRefusal(target, address) {
      if (listedHosts?.has(target)) return undefined;
      const shown = address.includes(':') ? `[${address}]` : address;
      return rule(`${target} (connecting to ${shown})`, classify(shown));
    },
  };
}
