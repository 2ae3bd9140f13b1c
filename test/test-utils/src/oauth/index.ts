/**
 * `rcp-test-utils/oauth`: a real OAuth 2 authorization server (oidc-provider on 127.0.0.1:0) and
 * a loopback RCP API that checks its tokens, for every package's OAuth tests. A subpath of its
 * own, so tests that need no authorization server never load oidc-provider.
 */
export { CLIENT_SECRETS, RESOURCE, SCOPES, startAuthorizationServer } from './authorization-server';
export type { AuthorizationServer, TokenRequestRecord } from './authorization-server';
export { notesManifest, startToolApi } from './tool-api';
export type { ToolApi } from './tool-api';
