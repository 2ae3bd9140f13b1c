import { RcpBindingError } from '../../binding-error';
import { foldName, isNearMiss, looksLikeIdentity } from './param-names';

/** The discovery rules for params no resolver fills (see SPEC §10, "Binding checks"). */
export interface BindingRules {
  /** The names of the client's resolvers. */
  readonly resolverNames: readonly string[];
  /**
   * Why every identity-looking param must be resolved: `'resolvers'` (the default once the client
   * has a resolver), `'option'` (`requireResolved: true`), or `undefined` when it need not be.
   */
  readonly identityRequired: 'resolvers' | 'option' | undefined;
  /** Names (folded) that `requireResolved` lists: these must be resolved. */
  readonly requiredNames: ReadonlySet<string>;
  /** Params the operator says the model may fill: no near-miss or identity check. */
  readonly modelFilledParams: ReadonlySet<string>;
}

/**
 * The binding rules of one discovery. `requireResolved` left out (`undefined`) means `true` when
 * the client has any resolver and `false` when it has none; a list adds its names to that default.
 */
export function bindingRules(options: {
  readonly resolverNames: readonly string[];
  readonly requireResolved: boolean | readonly string[] | undefined;
  readonly modelFilledParams: ReadonlySet<string>;
}): BindingRules {
  const { resolverNames, requireResolved, modelFilledParams } = options;
  const byDefault = resolverNames.length > 0 ? 'resolvers' : undefined;
  return {
    resolverNames,
    identityRequired: requireResolved === true ? 'option' : requireResolved === false ? undefined : byDefault,
    requiredNames: new Set(Array.isArray(requireResolved) ? requireResolved.map(foldName) : []),
    modelFilledParams,
  };
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
 * resolver's name nearly matches it, `RCP_UNBOUND_PARAM` when it must be resolved (identity-looking
 * on a client with resolvers, or covered by `requireResolved`); returns a warning when its name
 * looks like an identity the model should not choose.
 */
export function checkUnboundParam(site: ParamSite, rules: BindingRules): string | undefined {
  const { tool, param, path } = site;
  if (rules.modelFilledParams.has(param)) return undefined;
  const where = `param "${param}" of tool "${tool}" (${path})`;
  const resolver = rules.resolverNames.find((name) => isNearMiss(name, param));
  if (resolver !== undefined) {
    throw new RcpBindingError(
      'RCP_RESOLVER_MISMATCH',
      `Resolver "${resolver}" nearly matches ${where} but does not fill it, so the model would. ` + `Register the resolver as "${param}", or ${ESCAPE_HATCH}`,
      { tool, param, path, resolver },
    );
  }
  const identity = looksLikeIdentity(param);
  const reason = rules.requiredNames.has(foldName(param))
    ? '"requireResolved" lists it'
    : identity && rules.identityRequired === 'option'
      ? 'its name looks like an identity and "requireResolved" is true'
      : identity && rules.identityRequired === 'resolvers'
        ? 'its name looks like an identity, and a client with resolvers does not let the model choose one'
        : undefined;
  if (reason !== undefined) {
    throw new RcpBindingError(
      'RCP_UNBOUND_PARAM',
      `No resolver fills ${where}, which the client must fill: ${reason}. ` + `Register a resolver named "${param}", or ${ESCAPE_HATCH}`,
      { tool, param, path },
    );
  }
  if (!identity) return undefined;
  return (
    `No resolver fills ${where}: its name looks like an identity, and the model will choose its value. ` +
    `Register a resolver named "${param}", or ${ESCAPE_HATCH}`
  );
}
