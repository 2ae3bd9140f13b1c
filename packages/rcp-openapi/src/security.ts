import type { RcpAuth } from 'rcp-manifest';
import { isHttpToken, isRecord } from 'rcp-template';
import { oauthAuthOf } from './oauth-hint';
import { operationsOf } from './operations';

type Json = Record<string, unknown>;

/** What a security requirement list becomes: an RCP auth (with a lossy step, if one), or why the operation is skipped. */
export interface SecurityChoice {
  readonly auth?: RcpAuth;
  readonly skip?: string;
  readonly lossy?: string;
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

/** The RCP auth of a security requirement list (the first alternative RCP can express). */
export function authOf(requirements: unknown, schemes: Json): SecurityChoice {
  if (!Array.isArray(requirements) || requirements.length === 0) return { auth: { type: 'none' } };
  let reason: string | undefined;
  for (const requirement of requirements) {
    if (!isRecord(requirement)) continue;
    const names = Object.keys(requirement);
    if (names.length === 0) return { auth: { type: 'none' } };
    const missing = names.find((name) => !isDefinedScheme(schemes, name));
    if (missing !== undefined) {
      reason = `the security scheme "${missing.slice(0, 80)}" is not defined`;
      continue;
    }
    if (names.length > 1) {
      reason = 'security that needs several schemes at once';
      continue;
    }
    const scheme = schemes[names[0]!] as Json;
    const type = scheme['type'];
    const lossy = requirements.length > 1 ? 'the first of several security alternatives RCP can express was kept' : undefined;
    if (type === 'apiKey') {
      const name = String(scheme['name'] ?? '');
      if (scheme['in'] === 'header' && isHttpToken(name)) return { auth: { type: 'header', name }, ...(lossy && { lossy }) };
      if (scheme['in'] === 'query' && isHttpToken(name)) return { auth: { type: 'query', name }, ...(lossy && { lossy }) };
      reason = scheme['in'] === 'cookie' ? 'cookie auth' : 'an apiKey RCP cannot place';
    } else if (type === 'http' || type === 'basic') {
      const kind = String(scheme['scheme'] ?? (type === 'basic' ? 'basic' : '')).toLowerCase();
      if (kind === 'bearer') return { auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' }, ...(lossy && { lossy }) };
      if (kind === 'basic') return { auth: { type: 'header', name: 'Authorization', scheme: 'Basic' }, ...(lossy && { lossy }) };
      reason = `http auth "${kind}"`;
    } else if (type === 'oauth2' || type === 'openIdConnect') {
      const { auth, lost } = oauthAuthOf(scheme, requirement[names[0]!]);
      const steps = [lossy, lost].filter((step) => step !== undefined);
      return { auth, ...(steps.length > 0 && { lossy: steps.join('; ') }) };
    } else reason = `security scheme type "${String(type)}"`;
  }
  return { skip: reason ?? 'security RCP cannot express' };
}

export function sameAuth(a: RcpAuth, b: RcpAuth): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
