import { readArguments } from 'rcp-manifest';
import { RcpInvalidArgumentsError } from './invalid-arguments-error';

/**
 * A model's tool-call arguments as a value, by rcp-manifest's `readArguments` — the rule `client.call`
 * and `validateArguments` apply (SPEC §11 step 1): JSON text is parsed (blank text is `{}`), `undefined` is `{}`, any
 * other value is returned as it is. Nothing else is checked — the value may still be no object
 * (the tool's own check says so). For an adapter or a tool of its own (a search tool, a bridge)
 * that takes arguments the way model APIs return them.
 *
 * @param tool - The tool's name, for the error.
 * @throws RcpInvalidArgumentsError `RCP_INVALID_ARGUMENTS` with the issue `'' are not valid JSON`
 *   for text that is not JSON (the parse error as `cause`; the message holds no input).
 * @example
 * ```ts
 * import { parseToolArguments } from 'rcp-client';
 *
 * parseToolArguments('search_tools', '{"query":"invoice"}'); // { query: 'invoice' }
 * parseToolArguments('search_tools', ' '); // {}
 * parseToolArguments('search_tools', 'not json'); // throws RCP_INVALID_ARGUMENTS: '' are not valid JSON
 * ```
 */
export function parseToolArguments(tool: string, args: unknown): unknown {
  const read = readArguments(args);
  if (!read.ok) throw new RcpInvalidArgumentsError(tool, read.issues, { cause: read.cause });
  return read.value;
}
