import { PRIVACY, classifyHost, type AddressClass } from './address-class';

/** The operator's say over the private-network boundary (client options). */
export interface NetworkBoundaryOptions {
  /** `true`: any private or loopback target; a list: these exact origins (link-local ones included). */
  readonly allowPrivateNetwork: boolean | ReadonlySet<string>;
  /** The operator's own classification, consulted first (`undefined`: the built-in one). */
  readonly classifyAddress: ((hostname: string) => AddressClass | undefined) | undefined;
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
export function createNetworkBoundary(manifestUrl: URL, options: NetworkBoundaryOptions): (target: URL) => string | undefined {
  const classify = (hostname: string): AddressClass => options.classifyAddress?.(hostname) ?? classifyHost(hostname);
  const manifestClass = classify(manifestUrl.hostname);
  const { allowPrivateNetwork } = options;
  return (target) => {
    if (allowPrivateNetwork instanceof Set && allowPrivateNetwork.has(target.origin)) return undefined;
    const targetClass = classify(target.hostname);
    if (targetClass === 'link-local') {
      return `${target.origin} is ${WHAT[targetClass]}: refused for every manifest unless the client's "allowPrivateNetwork" lists it`;
    }
    if (PRIVACY[targetClass] <= PRIVACY[manifestClass] || allowPrivateNetwork === true) return undefined;
    return (
      `${target.origin} is ${WHAT[targetClass]} and the manifest was fetched from ${WHAT[manifestClass]}: ` +
      `refused (a manifest may only point at addresses as private as its own) unless the client's "allowPrivateNetwork" allows it`
    );
  };
}
