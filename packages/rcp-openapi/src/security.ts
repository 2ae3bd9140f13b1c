import type { RcpAuth } from 'rcp-manifest';
import { isHttpToken, isRecord } from 'rcp-internal';
import { oauthAuthOf } from './oauth-hint';
import { operationsOf } from './operations';

type Json = Record<string, unknown>;

/**
 * What a security requirement list becomes: an RCP auth (with a lossy step, if one), or why the
 * operation is skipped; with several alternatives, which one was kept and which were dropped
 * (one report note per document, not a lossy step per tool).
 */
export interface SecurityChoice {
  readonly auth?: RcpAuth;
  readonly skip?: string;
  readonly lossy?: string;
  readonly note?: string;
}

/** True when the document defines the scheme (an own entry: `__proto__` is a name like any other). */
export function isDefinedScheme(schemes: Json, name: string): boolean {
  return Object.hasOwn(schemes, name) && isRecord(schemes[name]);
}

/**
 * One document warning per security scheme that a requirement names and the document does not
 * define (`security: [{ apiKey: [] }]` without `components.securitySchemes.apiKey`), with how many
 * operations name it. Every operation counts, imported or not: the mistake is the document's.
 */
export function undefinedSchemeWarnings(document: Json, schemes: Json, swagger: boolean): string[] {
  const where = swagger ? 'securityDefinitions' : 'components.securitySchemes';
  const named = (requirements: unknown): Set<string> =>
    new Set(Array.isArray(requirements) ? requirements.filter(isRecord).flatMap((requirement) => Object.keys(requirement)) : []);
  const operations = new Map<string, number>();
  for (const name of named(document['security'])) if (!isDefinedScheme(schemes, name)) operations.set(name, 0);
  for (const { operation } of operationsOf(document['paths'])) {
    const requirements = 'security' in operation ? operation['security'] : document['security'];
    for (const name of named(requirements)) if (!isDefinedScheme(schemes, name)) operations.set(name, (operations.get(name) ?? 0) + 1);
  }
  return [...operations].map(
    ([name, count]) =>
      `the security scheme "${name.slice(0, 80)}" is not defined in ${where}, ${count === 0 ? "but the document's security names it" : `but ${count} operation(s) name it`} (an operation with no other way to authenticate is skipped)`,
  );
}

/** One alternative of a requirement list as RCP reads it: what it is called in the report, and its auth or why RCP cannot use it. */
interface Alternative {
  readonly label: string;
  readonly auth?: RcpAuth;
  readonly lost?: string;
  readonly reason?: string;
  /** 0: one credential sent as it is (an API key, a token); 1: HTTP Basic, a user and a password encoded as one. */
  readonly rank: number;
}

/** A scheme name for the report: quoted, at most 80 characters. */
const quoted = (name: string): string => `"${name.slice(0, 80)}"`;

/** One requirement (an object naming the schemes it needs at once) as an {@link Alternative}. */
function alternativeOf(requirement: Json, schemes: Json): Alternative {
  const names = Object.keys(requirement);
  if (names.length === 0) return { label: 'no auth (an empty requirement)', auth: { type: 'none' }, rank: 0 };
  const missing = names.find((name) => !isDefinedScheme(schemes, name));
  if (missing !== undefined) return { label: quoted(missing), reason: `the security scheme ${quoted(missing)} is not defined`, rank: 0 };
  if (names.length > 1) return { label: names.map(quoted).join(' + '), reason: 'security that needs several schemes at once', rank: 0 };
  const name = names[0]!;
  const scheme = schemes[name] as Json;
  const type = scheme['type'];
  if (type === 'apiKey') {
    const key = String(scheme['name'] ?? '');
    const where = scheme['in'];
    const label = `${quoted(name)} (apiKey in ${String(where).slice(0, 20)})`;
    if (where === 'header' && isHttpToken(key)) return { label, auth: { type: 'header', name: key }, rank: 0 };
    if (where === 'query' && isHttpToken(key)) return { label, auth: { type: 'query', name: key }, rank: 0 };
    return { label, reason: where === 'cookie' ? 'cookie auth' : 'an apiKey RCP cannot place', rank: 0 };
  }
  if (type === 'http' || type === 'basic') {
    const kind = String(scheme['scheme'] ?? (type === 'basic' ? 'basic' : '')).toLowerCase();
    const label = `${quoted(name)} (http ${kind.slice(0, 20)})`;
    if (kind === 'bearer') return { label, auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' }, rank: 0 };
    if (kind === 'basic') return { label, auth: { type: 'header', name: 'Authorization', scheme: 'Basic' }, rank: 1 };
    return { label, reason: `http auth "${kind.slice(0, 40)}"`, rank: 0 };
  }
  if (type === 'oauth2' || type === 'openIdConnect') {
    const { auth, lost } = oauthAuthOf(scheme, requirement[name]);
    return { label: `${quoted(name)} (${type})`, auth, ...(lost !== undefined && { lost }), rank: 0 };
  }
  return { label: quoted(name), reason: `security scheme type "${String(type).slice(0, 40)}"`, rank: 0 };
}

/** Why an alternative was not the one kept. */
function whyDropped(alternative: Alternative, kept: Alternative): string {
  if (alternative.reason !== undefined) return alternative.reason;
  if (alternative.rank > kept.rank) return 'it takes a user and a password encoded as one credential, the kept one takes a key as it is';
  return 'a later alternative';
}

/**
 * The RCP auth of a security requirement list. *Decision:* of the alternatives RCP can express,
 * the first that one operator credential satisfies as it is (an apiKey, a bearer token, an OAuth
 * access token) is kept before HTTP Basic, whose credential is a user and a password encoded
 * together: Stripe offers Basic and Bearer for the same secret key, and a key sent as
 * `Basic sk_…` is refused. Otherwise the document's order decides. With several alternatives,
 * `note` says which was kept and which were dropped, and why.
 */
export function authOf(requirements: unknown, schemes: Json): SecurityChoice {
  if (!Array.isArray(requirements) || requirements.length === 0) return { auth: { type: 'none' } };
  const alternatives = requirements.filter(isRecord).map((requirement) => alternativeOf(requirement, schemes));
  let kept: Alternative | undefined;
  for (const alternative of alternatives) if (alternative.auth !== undefined && (kept === undefined || alternative.rank < kept.rank)) kept = alternative;
  if (kept === undefined) return { skip: alternatives.find((alternative) => alternative.reason !== undefined)?.reason ?? 'security RCP cannot express' };
  const dropped = alternatives
    .filter((alternative) => alternative !== kept)
    .map((alternative) => `dropped ${alternative.label}: ${whyDropped(alternative, kept)}`);
  const note = dropped.length === 0 ? undefined : `of ${alternatives.length} security alternatives, ${kept.label} was kept; ${dropped.join('; ')}`;
  return { auth: kept.auth!, ...(kept.lost !== undefined && { lossy: kept.lost }), ...(note !== undefined && { note }) };
}

export function sameAuth(a: RcpAuth, b: RcpAuth): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
