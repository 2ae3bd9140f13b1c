import { isForbiddenHeaderName } from '../forbidden-headers';
import { HTTP_TOKEN_PROBLEM, isHttpToken } from 'rcp-internal';

/** Why `name` cannot be a header name, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  if (name === '') return 'a header name cannot be empty';
  if (name.includes('{{')) return 'header names are never templated (only values may contain {{tokens}})';
  if (!isHttpToken(name)) return HTTP_TOKEN_PROBLEM;
  if (isForbiddenHeaderName(name)) {
    return `"${name}" cannot be set by a manifest (the HTTP client controls it)`;
  }
  return undefined;
}
