import { compileRequest } from 'rcp-template';
import { isRecord } from 'rcp-internal';
import { invalidOptions } from './invalid-options';

type Json = Record<string, unknown>;

/** A server's URL with each of its variables at its default (an empty string without one). */
function serverVariablesApplied(server: Json): string {
  let url = String(server['url'] ?? '');
  const variables = isRecord(server['variables']) ? server['variables'] : {};
  for (const [name, variable] of Object.entries(variables)) {
    const value = isRecord(variable) && variable['default'] !== undefined ? String(variable['default']) : '';
    url = url.replaceAll(`{${name}}`, value);
  }
  return url;
}

/** Where tools go: the base URL without a trailing slash, and its origin (undefined for a relative base). */
export interface Base {
  readonly url: string;
  readonly origin: string | undefined;
}

/** Stands for the manifest's origin when the base is relative (only compared, never contacted). */
export const RELATIVE_ORIGIN = 'https://manifest-origin.invalid';

/**
 * The base URL read with the URL parser: an absolute http(s) URL without user info, query or
 * fragment, or a path on the manifest's origin (then tools are relative); else RCP_INVALID_OPTIONS.
 * The message never repeats the URL (it may hold a password).
 */
export function baseOf(document: Json, option: string | undefined): Base {
  let text: string;
  let source: string;
  if (option !== undefined) {
    text = option;
    source = 'Option "baseUrl"';
  } else if (document['swagger'] === '2.0') {
    const schemes = Array.isArray(document['schemes']) ? (document['schemes'] as string[]) : [];
    const scheme = schemes.includes('https') ? 'https' : schemes.includes('http') ? 'http' : 'https';
    const host = typeof document['host'] === 'string' ? document['host'] : undefined;
    const basePath = typeof document['basePath'] === 'string' ? document['basePath'] : '';
    text = host === undefined ? basePath : `${scheme}://${host}${basePath}`;
    source = 'The document\'s "host" and "basePath"';
  } else {
    const servers = Array.isArray(document['servers']) ? document['servers'] : [];
    text = isRecord(servers[0]) ? serverVariablesApplied(servers[0]) : '';
    source = "The document's servers[0].url";
  }
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text);
  if (!absolute && text !== '' && !text.startsWith('/')) text = `/${text}`;
  let parsed: URL;
  try {
    parsed = new URL(text, RELATIVE_ORIGIN);
  } catch (error) {
    throw invalidOptions(`${source} is not a URL (pass the "baseUrl" option)`, error);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalidOptions(`${source} is not an http(s) URL (pass the "baseUrl" option)`);
  if (parsed.username !== '' || parsed.password !== '') throw invalidOptions(`${source} holds user info (a URL's "user:password@")`);
  if (parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(text)) throw invalidOptions(`${source} has a query or a fragment`);
  if (!absolute && parsed.origin !== RELATIVE_ORIGIN) throw invalidOptions(`${source} starts with "//" (another host)`);
  const path = parsed.pathname.replace(/\/+$/, '');
  return absolute ? { url: `${parsed.origin}${path}`, origin: parsed.origin } : { url: path, origin: undefined };
}

/**
 * Why the document's path cannot follow the base URL, or undefined. A path must start with `/`
 * (`.evil.example/x` or `:8443/x` after `https://api.example.com` would change the host or the
 * port) and has no `.` or `..` segment (it would leave the base path).
 */
export function pathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'the path does not start with "/" (it would change the host or port of the base URL)';
  if (path.split(/[/?]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) return 'the path has a "." or ".." segment (it would leave the base path)';
  return undefined;
}

/** The origin a tool URL goes to by the template rules (rcp-template); undefined when it does not compile (rcp-manifest then says why). */
export function toolOrigin(url: string): string | undefined {
  try {
    return compileRequest({ method: 'GET', url }, { baseUrl: RELATIVE_ORIGIN }).origin;
  } catch {
    return undefined;
  }
}
