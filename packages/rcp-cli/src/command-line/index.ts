/**
 * The command-line vocabulary every `rcp` command and the `rcp-mcp` bin share — one parser whose
 * errors point at `--help`, one meaning of `--ctx` / `--resolve` / `--model-filled`, the
 * credential and network flags, manifest files as local sources, and failures worded with the
 * flags. Internal to rcp-cli: the command line is this package's, and no other package's API.
 */
export { RcpUsageError, isRcpUsageError, usageLine } from './usage-error';
export { parseCommandLine } from './parse-command-line';
export type { CommandLineOptions, ParsedCommandLine } from './parse-command-line';
export { BINDING_HELP, BINDING_OPTIONS, bindingsOf, checkBindingNames, refuseUnboundIdentity, unboundIdentityParams } from './bindings';
export type { BindingFlag, CommandLineBindings } from './bindings';
export { CREDENTIAL_OPTIONS, NETWORK_HELP, NETWORK_OPTIONS, credentialsOf, networkOf } from './credential-flags';
export { refuseUnreachableCredential } from './credential-reach';
export { commandLineMessage, describeFailure, namingTheFlags } from './error-message';
export type { CommandLineMessageContext } from './error-message';
export { isManifestUrl, openManifestSource, readManifestFile } from './manifest-source';
