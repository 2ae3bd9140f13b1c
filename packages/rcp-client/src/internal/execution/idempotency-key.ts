/**
 * The idempotency key of a write (SPEC §20.1, §19): which calls carry one, in which header, and
 * what it is. A tool that declares `idempotency` (RCP 0.4) gets a key on every write, in its
 * header; an approved write of any tool gets one in `Idempotency-Key`. The key of an approved call
 * is derived from the approval (keyed by the client's approval secret: the same approval, the same
 * key, in any process that holds the secret), otherwise random per call; either way the same on
 * every retry of the call. Only a tool that declares `idempotency` has its writes retried.
 */
import { toolEffects } from 'rcp-manifest';
import type { CompiledTool } from '../discovery/tool-registry';
import type { SendRequest } from '../send/send';

/** The IETF httpapi draft's header: where an approved write's key goes when the tool names none. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** What a call's key is made of: the header, and whether the tool declared it (its writes may then be retried). */
export interface IdempotencyPlan {
  readonly header: string;
  readonly declared: boolean;
}

/** The header a call's key goes in, or `undefined` when the call takes none. */
export function idempotencyPlanOf(compiled: CompiledTool, approved: boolean): IdempotencyPlan | undefined {
  // A read carries no key (a key is for a request that changes something): the one rule of what reads, rcp-manifest's.
  if (toolEffects(compiled.source).readOnly) return undefined;
  const declared = compiled.source.idempotency?.header;
  if (declared !== undefined) return { header: declared, declared: true };
  return approved ? { header: IDEMPOTENCY_KEY_HEADER, declared: false } : undefined;
}

/** A random key for a call no approval covers: 122 random bits, as the draft suggests (a UUID). */
export function randomIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** The request with the key in `header`, as a Structured Fields String (`"<key>"`, RFC 8941). */
export function withIdempotencyKey(request: SendRequest, header: string, key: string): SendRequest {
  return { ...request, headers: { ...request.headers, [header]: `"${key}"` } };
}
