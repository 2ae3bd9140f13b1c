import { RcpBindingError } from '../binding-error';
import { foldName, isNearMiss, looksLikeIdentity } from './param-names';

/** The discovery rules for params no resolver fills (see SPEC §10, "Binding checks"). */
export interface BindingRules {
  /** The names of the client's resolvers. */
  readonly resolverNames: readonly string[];
  /** `true`: every identity-looking param must be resolved; a list: these names (folded) must be. */
  readonly requireResolved: boolean | readonly string[];
  /** Params the operator says the model may fill: no near-miss or identity check. */
  readonly modelFilledParams: ReadonlySet<string>;
}

/** Where a declared param is, for messages and pointers. */
export interface ParamSite {
  readonly tool: string;
  readonly param: string;
  /** JSON Pointer to the param in the manifest. */
  readonly path: string;
}

const ESCAPE_HATCH = 'list it in "modelFilledParams" if the model may choose it';

/**
 * Checks one declared param that no resolver fills. Throws `RCP_RESOLVER_MISMATCH` when a
 * resolver's name nearly matches it, `RCP_UNBOUND_PARAM` when `requireResolved` covers it;
 * returns a warning when its name looks like an identity the model should not choose.
 */
export function checkUnboundParam(site: ParamSite, rules: BindingRules): string | undefined {
  const { tool, param, path } = site;
  if (rules.modelFilledParams.has(param)) return undefined;
  const where = `param "${param}" of tool "${tool}" (${path})`;
  const resolver = rules.resolverNames.find((name) => isNearMiss(name, param));
  if (resolver !== undefined) {
    throw new RcpBindingError(
      'RCP_RESOLVER_MISMATCH',
      `Resolver "${resolver}" nearly matches ${where} but does not fill it, so the model would. ` +
        `Register the resolver as "${param}", or ${ESCAPE_HATCH}`,
      { tool, param, path, resolver },
    );
  }
  const identity = looksLikeIdentity(param);
  const { requireResolved } = rules;
  const required =
    requireResolved === true
      ? identity
      : requireResolved !== false && requireResolved.some((name) => foldName(name) === foldName(param));
  if (required) {
    throw new RcpBindingError(
      'RCP_UNBOUND_PARAM',
      `No resolver fills ${where}, which "requireResolved" says the client must fill. ` +
        `Register a resolver named "${param}", or ${ESCAPE_HATCH}`,
      { tool, param, path },
    );
  }
  if (!identity) return undefined;
  return (
    `No resolver fills ${where}: its name looks like an identity, and the model will choose its value. ` +
    `Register a resolver named "${param}", or ${ESCAPE_HATCH}`
  );
}
