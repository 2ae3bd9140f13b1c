import { isRcpError, type RcpClientTool, type RcpError } from 'rcp-client';

/**
 * Client text that names a client option, in the command line's words: a refusal by the
 * private-network boundary names `--allow-private-network`, an untrusted origin
 * `--trusted-origin <that origin>` — the flags that lift them; an identity param no resolver fills
 * names `--ctx` and `--model-filled`; the tool-count warning names `--only` and `--dynamic`.
 *
 * @example
 * ```ts
 * namingTheFlags(warning.message); // '… unless --allow-private-network allows it'
 * ```
 */
export function namingTheFlags(message: string): string {
  return (
    message
      .replace(`unless the client's "allowPrivateNetwork" allows it`, 'unless --allow-private-network allows it')
      // The fix names the origin (issue 41): one line per origin says exactly what to pass.
      .replace(
        /to (\S+), which is not a trusted origin \(add it to the client's "trustedOrigins" option if it should be\)/g,
        'to $1, which is not a trusted origin (pass --trusted-origin $1 if it should be)',
      )
      // An identity param no resolver fills (a discovery warning): the binding flags fill it.
      .replace(
        /Register a resolver named "([^"]*)", or list it in "modelFilledParams" if the model may choose it/g,
        'Give its value with --ctx $1=VALUE, or pass --model-filled $1 if the model may choose it',
      )
      // rcp-mcp's tool-count warning suggests its `dynamic` option by this phrase.
      .replace(`the gateway's "dynamic" option`, '--dynamic')
      .replace('select fewer (createToolSet(..., { only }), or a stage)', 'select fewer (--only a,b)')
  );
}

/**
 * What the command line knows about the failed command, for {@link commandLineMessage}.
 *
 * @example
 * ```ts
 * const context: CommandLineMessageContext = { credentials: values['token-env'] !== undefined, tool };
 * ```
 */
export interface CommandLineMessageContext {
  /** Whether `--token-env` or `--oauth-env` was given. */
  readonly credentials: boolean;
  /** The tool that was being called, when there was one. */
  readonly tool?: RcpClientTool;
}

/**
 * One failure as the person at the command line reads it: its code (for an RCP error) and a
 * message that names the command line's flags instead of the client's options (a missing
 * credential names `--token-env` / `--oauth-env`; a binding problem `--ctx` / `--model-filled`;
 * the private-network boundary `--allow-private-network`), and for an HTTP error the server's
 * own reason (its body excerpt, bounded, the call's credential and resolver values already
 * redacted by the client). Server text is untrusted: show it through `terminalText` (or a
 * page's escaping). What a model reads (`toModelResult`) is unchanged.
 *
 * @example
 * ```ts
 * describeFailure(error, { credentials: false });
 * // { code: 'RCP_MISSING_CREDENTIALS', message: 'Tool "list_notes" needs a credential (header "Authorization"): give it with --token-env NAME …' }
 * ```
 */
export function describeFailure(error: unknown, context: CommandLineMessageContext): { code: string | undefined; message: string } {
  if (!isRcpError(error)) return { code: undefined, message: error instanceof Error ? error.message : String(error) };
  return { code: error.code, message: reasonOf(error, context) };
}

function reasonOf(error: RcpError, context: CommandLineMessageContext): string {
  if (isRcpError(error, 'RCP_HTTP_ERROR')) {
    return error.bodyExcerpt === '' ? error.message : `${error.message} — the server said: ${error.bodyExcerpt}`;
  }
  if (isRcpError(error, 'RCP_MISSING_CREDENTIALS') && context.credentials) {
    // The provider's own failure (rcp-oauth's token error: the token endpoint's status and OAuth
    // code) is the reason the person needs; the client keeps it as the cause. An RCP error's
    // message is written to be shown; any other cause (an application's provider) is not shown.
    const cause = error.cause;
    return isRcpError(cause) ? `${namingTheFlags(error.message)}: ${cause.message}` : namingTheFlags(error.message);
  }
  if (isRcpError(error, 'RCP_MISSING_CREDENTIALS')) {
    const tool = context.tool;
    const what =
      tool === undefined
        ? 'The tool needs a credential'
        : `Tool "${tool.name}" needs a credential${'name' in tool.auth ? ` (${tool.auth.type} "${tool.auth.name}")` : ''}`;
    return `${what}: give it with --token-env NAME (the environment variable that holds it) or --oauth-env PREFIX (OAuth 2 client credentials)`;
  }
  if (isRcpError(error, 'RCP_RESOLVER_MISMATCH')) {
    return (
      `"${error.resolver}" (--ctx / --resolve) nearly matches param "${error.param}" of tool "${error.tool}" (${error.path}) but does not fill it, ` +
      `so the model would: use the param's exact name (--ctx ${error.param}=VALUE), or pass --model-filled ${error.param} if the model may choose it`
    );
  }
  if (isRcpError(error, 'RCP_UNBOUND_PARAM')) {
    return (
      `nothing fills param "${error.param}" of tool "${error.tool}" (${error.path}): give it with --ctx ${error.param}=VALUE, ` +
      `or pass --model-filled ${error.param} if the model may choose it`
    );
  }
  if (isRcpError(error, 'RCP_UNRESOLVED') && typeof error.param === 'string') {
    return `${error.message} (give its value with --ctx ${error.param}=VALUE)`;
  }
  return namingTheFlags(error.message);
}

/**
 * {@link describeFailure} as one line: `<code>: <message>` (the message alone for an error
 * that is not an RCP error).
 *
 * @example
 * ```ts
 * process.stderr.write(`rcp: ${terminalText(commandLineMessage(error, { credentials: false }))}\n`);
 * // rcp: RCP_HTTP_ERROR: Request failed with status 404 Not Found: GET http://127.0.0.1:8080/notes/n-9 — the server said: {"error":"no such note"}
 * ```
 */
export function commandLineMessage(error: unknown, context: CommandLineMessageContext): string {
  const { code, message } = describeFailure(error, context);
  return code === undefined ? message : `${code}: ${message}`;
}
