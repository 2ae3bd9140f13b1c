import { isForbiddenHeaderName } from '../forbidden-headers';
import { HTTP_TOKEN_PATTERN } from '../manifest-patterns';

const HTTP_TOKEN = new RegExp(HTTP_TOKEN_PATTERN);


/** Why `name` cannot be a header name, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  if (name === '') return 'a header name cannot be empty';
  if (name.includes('{{')) return 'header names are never templated (only values may contain {{tokens}})';
  if (!HTTP_TOKEN.test(name)) return "must be an HTTP token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~ only";
  if (isForbiddenHeaderName(name)) {
    return `"${name}" cannot be set by a manifest (the HTTP client controls it)`;
  }
  return undefined;
}
