import type { RcpDeclaredEffects, RcpHttpMethod } from './manifest-schema';

/**
 * What a tool does, as approval policy and hosts see it (SPEC §18.1): each of the MCP
 * annotation set, from the method and the manifest's claim together.
 *
 * @example
 * ```ts
 * import type { RcpToolEffects } from 'rcp-manifest';
 * const effects: RcpToolEffects = { readOnly: false, destructive: true, idempotent: true, openWorld: true };
 * ```
 */
export interface RcpToolEffects {
  /** The call changes nothing: a GET / HEAD / OPTIONS that the manifest does not say otherwise of. */
  readonly readOnly: boolean;
  /** The call may destroy or overwrite data: a DELETE, or declared so. */
  readonly destructive: boolean;
  /** Repeating the call has no further effect: a read, PUT or DELETE that the manifest does not say otherwise of. */
  readonly idempotent: boolean;
  /** The call reaches entities outside the API: true unless declared false. */
  readonly openWorld: boolean;
}

const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * A tool's effective effects. The method gives the defaults (GET reads; DELETE destroys; reads,
 * PUT and DELETE are idempotent); a declared effect is the server's claim and can only add
 * caution: `readOnly` holds when both the method and the claim allow it, `destructive` when
 * either says so, `idempotent` when both allow it. So a POST declared read-only is still a write
 * to the `'writes'` approval policy (an operator who trusts the claim reads `declared` in a
 * policy function), and a GET declared destructive needs approval. `openWorld` has no method
 * default: true unless declared false.
 *
 * @example
 * ```ts
 * import { toolEffects } from 'rcp-manifest';
 * toolEffects({ method: 'DELETE' }); // { readOnly: false, destructive: true, idempotent: true, openWorld: true }
 * toolEffects({ method: 'GET', effects: { destructive: true } }); // { readOnly: false, destructive: true, idempotent: true, openWorld: true }
 * toolEffects({ method: 'POST', effects: { readOnly: true } }).readOnly; // false: a claim never trusts more
 * ```
 */
export function toolEffects(tool: { readonly method: RcpHttpMethod; readonly effects?: RcpDeclaredEffects }): RcpToolEffects {
  const declared = tool.effects ?? {};
  const destructive = tool.method === 'DELETE' || declared.destructive === true;
  const readOnly = READ_METHODS.has(tool.method) && declared.readOnly !== false && !destructive;
  return Object.freeze({
    readOnly,
    destructive,
    idempotent: IDEMPOTENT_METHODS.has(tool.method) && declared.idempotent !== false,
    openWorld: declared.openWorld !== false,
  });
}
