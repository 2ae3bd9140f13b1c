import { RcpError } from 'rcp-errors';
import type { ResolvedClientOptions } from '../options/resolve-options';
import { createTrustPolicy, type TrustPolicy, type TrustPolicyOptions } from './trust';

/** The trust policy of one manifest, and the operator's `allowOrigin` check on it, failing closed. */
export interface ManifestTrust {
  readonly trustOptions: TrustPolicyOptions;
  readonly policy: TrustPolicy;
  /** The operator's `allowOrigin`, failing closed: a throw is `RCP_ORIGIN_NOT_ALLOWED` with the error as cause. */
  isAllowed(target: string | URL): boolean;
}

/**
 * The trust of the manifest at `url` (a discover call's own `trustedOrigins` replace the
 * client's for this manifest); `RCP_ORIGIN_NOT_ALLOWED` when `allowOrigin` refuses its origin.
 */
export function manifestTrust(options: ResolvedClientOptions, url: URL, trustedOrigins: readonly string[] | undefined): ManifestTrust {
  const trustOptions: TrustPolicyOptions = {
    manifestUrl: url.href,
    trustedOrigins: trustedOrigins ?? options.trustedOrigins,
    ...(options.allowOrigin !== undefined && { allowOrigin: options.allowOrigin }),
  };
  const policy = createTrustPolicy(trustOptions);
  const isAllowed = (target: string | URL): boolean => {
    try {
      return policy.isAllowed(target);
    } catch (error) {
      throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's "allowOrigin" policy threw`, { cause: error });
    }
  };
  if (!isAllowed(url)) {
    throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's "allowOrigin" policy refuses the manifest origin ${url.origin}`);
  }
  return { trustOptions, policy, isAllowed };
}
