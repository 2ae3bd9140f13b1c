import { safeParseManifest, type RcpAuth, type RcpManifestError } from 'rcp-manifest';
import { isRecord } from 'rcp-internal';

type Json = Record<string, unknown>;

/** OpenAPI 3 flow names (and Swagger 2's `flow` values) → RFC 6749 / 7591 grant type names. */
const GRANT_TYPES: Readonly<Record<string, string>> = {
  authorizationCode: 'authorization_code',
  clientCredentials: 'client_credentials',
  password: 'password',
  implicit: 'implicit',
  accessCode: 'authorization_code',
  application: 'client_credentials',
};

const WELL_KNOWN = '/.well-known/openid-configuration';

/** The grant types an `oauth2` scheme offers (OpenAPI 3 `flows`, Swagger 2 `flow`), in the document's order. */
function grantTypesOf(scheme: Json): string[] {
  const names = isRecord(scheme['flows']) ? Object.keys(scheme['flows']) : typeof scheme['flow'] === 'string' ? [scheme['flow']] : [];
  const grants = names.flatMap((name) => (Object.hasOwn(GRANT_TYPES, name) ? [GRANT_TYPES[name]!] : []));
  return [...new Set(grants)];
}

/**
 * The OAuth hint (RCP 0.3, SPEC §18.2) of an `oauth2` or `openIdConnect` scheme for one
 * requirement: the scopes the operation names, the grant types the scheme offers and, for
 * OpenID Connect, the issuer its discovery URL names. What rcp-manifest refuses (a scope with a
 * space, an issuer that is not https) is left out and said in `lost`; token and authorization
 * URLs are never written into a manifest (a client must not take them from one).
 */
export function oauthAuthOf(scheme: Json, scopes: unknown): { auth: RcpAuth; lost?: string } {
  const hint: { scopes?: string[]; issuer?: string; grantTypes?: string[] } = {};
  const requested = Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : [];
  if (requested.length > 0) hint.scopes = requested;
  const url = scheme['openIdConnectUrl'];
  if (typeof url === 'string' && url.endsWith(WELL_KNOWN) && url.length > WELL_KNOWN.length) hint.issuer = url.slice(0, -WELL_KNOWN.length);
  const grants = grantTypesOf(scheme);
  if (grants.length > 0) hint.grantTypes = grants;
  const auth = { type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: hint } as const;

  // rcp-manifest's own rules decide what a hint may hold.
  const checked = safeParseManifest({ rcpVersion: '0.3', auth, tools: [] });
  if (checked.ok) return { auth: checked.manifest.auth! };
  const refused = new Set((checked.error as RcpManifestError).issues?.map((issue) => issue.path) ?? []);
  const kept = { ...hint };
  const dropped: string[] = [];
  if (hint.scopes !== undefined) {
    kept.scopes = hint.scopes.filter((_scope, index) => !refused.has(`/auth/oauth/scopes/${index}`));
    if (kept.scopes.length < hint.scopes.length) dropped.push(`${hint.scopes.length - kept.scopes.length} scope(s) that are not OAuth scope tokens`);
    if (kept.scopes.length === 0) delete kept.scopes;
  }
  if (refused.has('/auth/oauth/issuer')) {
    delete kept.issuer;
    dropped.push('an OpenID Connect issuer that is not an https URL');
  }
  const retry = safeParseManifest({ rcpVersion: '0.3', auth: { ...auth, oauth: kept }, tools: [] });
  const keptAuth = retry.ok ? retry.manifest.auth! : { type: 'header' as const, name: 'Authorization', scheme: 'Bearer' };
  return { auth: keptAuth, lost: `the OAuth hint leaves out ${dropped.length > 0 ? dropped.join(' and ') : 'what RCP cannot hold'}` };
}

/**
 * One line per OAuth 2 / OpenID Connect scheme a document defines, for the person who sets up
 * the login: where its token and authorization endpoints are. A manifest never carries them.
 */
export function oauthSetupNotes(schemes: Json): string[] {
  const notes: string[] = [];
  for (const name of Object.keys(schemes)) {
    const scheme = schemes[name];
    if (!isRecord(scheme)) continue;
    const label = `security scheme "${name.slice(0, 80)}"`;
    if (scheme['type'] === 'openIdConnect' && typeof scheme['openIdConnectUrl'] === 'string') {
      notes.push(
        `${label} is OpenID Connect (discovery: ${scheme['openIdConnectUrl'].slice(0, 200)}); configure the token endpoint in rcp-oauth, the manifest only hints the issuer and scopes`,
      );
    } else if (scheme['type'] === 'oauth2') {
      const flows = isRecord(scheme['flows']) ? scheme['flows'] : { [String(scheme['flow'] ?? '')]: scheme };
      const urls = Object.values(flows).flatMap((flow) =>
        isRecord(flow)
          ? (['tokenUrl', 'authorizationUrl'] as const).flatMap((key) => (typeof flow[key] === 'string' ? [`${key} ${flow[key].slice(0, 200)}`] : []))
          : [],
      );
      notes.push(
        `${label} is OAuth 2${urls.length > 0 ? ` (${[...new Set(urls)].join(', ')})` : ''}; configure it in rcp-oauth, a manifest never carries token URLs`,
      );
    }
  }
  return notes;
}
