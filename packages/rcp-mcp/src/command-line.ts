/**
 * `rcp-mcp/command-line`: the vocabulary the `rcp` and `rcp-mcp` command lines share — one
 * parser whose errors point at `--help`, one meaning of `--ctx` / `--resolve` /
 * `--model-filled`, the credential and network flags, manifest files as local sources, and
 * failures worded with the flags.
 */
export { RcpUsageError, isRcpUsageError, usageLine } from './command-line/usage-error';
export { parseCommandLine } from './command-line/parse-command-line';
export type { CommandLineOptions, ParsedCommandLine } from './command-line/parse-command-line';
export { BINDING_HELP, BINDING_OPTIONS, bindingsOf, checkBindingNames, refuseUnboundIdentity, unboundIdentityParams } from './command-line/bindings';
export type { BindingFlag, CommandLineBindings } from './command-line/bindings';
export { CREDENTIAL_OPTIONS, NETWORK_HELP, NETWORK_OPTIONS, credentialsOf, networkOf } from './command-line/credential-flags';
export { commandLineMessage, describeFailure, namingTheFlags } from './command-line/error-message';
export type { CommandLineMessageContext } from './command-line/error-message';
export { isManifestUrl, openManifestSource, readManifestFile } from './command-line/manifest-source';
