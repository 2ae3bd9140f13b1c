import { blankUnsafeText } from 'rcp-errors';
import { toolEffects, toolParams, type RcpAuth, type RcpManifest, type RcpParam, type RcpTool, type RcpValue } from 'rcp-manifest';
import type { RcpClientTool } from './client-tool';
import { findCompiledTool } from './internal/discovery/tool-registry';

// Control characters (and line/paragraph separators, bidi controls) would let a manifest forge extra lines.
const clean = blankUnsafeText;

/**
 * One auth in words, as `describeManifest` prints it: `none`, `query "api_key"`, `header
 * "Authorization" (scheme: Bearer)`, and for a header auth with an OAuth hint (RCP 0.3) what a
 * login needs — `…, OAuth 2 (scopes notes.read notes.write; issuer https://login.example.com;
 * grants client_credentials)`. Control characters in manifest text are blanked.
 *
 * @example
 * ```ts
 * import { describeAuth } from 'rcp-client';
 * describeAuth({ type: 'header', name: 'Authorization', scheme: 'Bearer', oauth: { scopes: ['notes.read'] } });
 * // 'header "Authorization" (scheme: Bearer), OAuth 2 (scopes notes.read)'
 * ```
 */
export function describeAuth(auth: RcpAuth): string {
  if (auth.type === 'query') return `query "${clean(auth.name)}"`;
  if (auth.type !== 'header') return 'none';
  const header = auth.scheme ? `header "${auth.name}" (scheme: ${auth.scheme})` : `header "${auth.name}"`;
  return auth.oauth === undefined ? header : `${header}, OAuth 2${describeOAuthHint(auth.oauth)}`;
}

/** What a login needs, by the manifest's hint (RCP 0.3): read by people, never fetched. */
function describeOAuthHint(hint: NonNullable<Extract<RcpAuth, { type: 'header' }>['oauth']>): string {
  const parts: string[] = [];
  if (hint.scopes !== undefined && hint.scopes.length > 0) parts.push(`scopes ${hint.scopes.map(clean).join(' ')}`);
  if (hint.issuer !== undefined) parts.push(`issuer ${clean(hint.issuer)}`);
  if (hint.grantTypes !== undefined && hint.grantTypes.length > 0) parts.push(`grants ${hint.grantTypes.map(clean).join(', ')}`);
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}

/**
 * A tool's effects when its manifest declares them (RCP 0.3): the effective ones, and each claim
 * that was not taken because it would trust more than the method allows.
 */
function describeEffects(source: RcpTool): string {
  const declared = source.effects;
  if (declared === undefined) return '';
  const effects = toolEffects(source);
  const parts = [effects.readOnly ? 'read-only' : 'writes'];
  if (effects.destructive) parts.push('destructive');
  if (effects.idempotent) parts.push('idempotent');
  if (!effects.openWorld) parts.push('closed world');
  const refused: string[] = [];
  if (declared.readOnly === true && !effects.readOnly) refused.push('read-only');
  if (declared.destructive === false && effects.destructive) refused.push('not destructive');
  if (declared.idempotent === true && !effects.idempotent) refused.push('idempotent');
  const note = refused.length === 0 ? '' : ` (claims ${refused.join(', ')}: not taken for a ${source.method})`;
  return `, effects: ${parts.join(', ')}${note}`;
}

/** A param's value details, one short phrase each (RCP 0.2): `one of "a", "b"`, `≥ 1`, `items: string` … */
function describeDetails(schema: RcpParam | RcpValue | undefined): string {
  if (schema === undefined) return '';
  const parts: string[] = [];
  const show = (value: unknown) => clean(JSON.stringify(value) ?? '');
  if (schema.enum !== undefined) parts.push(`one of ${schema.enum.map(show).join(', ')}`);
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) parts.push(`at least ${schema.minLength} characters`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern !== undefined) parts.push(`pattern ${show(schema.pattern)}`);
  if (schema.format !== undefined) parts.push(`format ${clean(schema.format)}`);
  if (schema.items !== undefined) parts.push(`items: ${schema.items.type}${describeDetails(schema.items).replace(/^, /, ' ')}`);
  if (schema.properties !== undefined) {
    const required = 'requiredProperties' in schema ? (schema.requiredProperties ?? []) : Array.isArray(schema.required) ? schema.required : [];
    const names = Object.keys(schema.properties).map((name) => `${clean(name)}${required.includes(name) ? ' (required)' : ''}`);
    parts.push(`properties: ${names.join(', ')}`);
  }
  if (schema.default !== undefined) parts.push(`default ${show(schema.default)}`);
  return parts.length === 0 ? '' : `, ${parts.join(', ')}`;
}

/** One tool's lines (its own, then each param's), appended to `lines`; `client` is its discovered tool, when given. */
function describeTool(source: RcpTool, client: RcpClientTool | undefined, lines: string[]): void {
  const ownAuth = source.auth === undefined ? '' : `, auth: ${describeAuth(source.auth)}`;
  const form = source.bodyEncoding === 'form' ? ', form body' : '';
  lines.push(`- ${clean(source.name)} (${source.method}${form}${describeEffects(source)}${ownAuth}) — ${clean(source.description)}`);
  // What RCP 0.3 says of the results: the media passed on, and how the next page is asked for.
  if (source.responseMediaTypes !== undefined) lines.push(`    [media: ${source.responseMediaTypes.map(clean).join(', ')}]`);
  if (source.pagination !== undefined) {
    const { nextCursor, param, hasMore } = source.pagination;
    const more = hasMore === undefined ? '' : `; more while ${clean(hasMore)} is true`;
    lines.push(`    [pages: the cursor at ${clean(nextCursor)} goes in ${clean(param)}${more}]`);
  }
  // A discovered tool already carries its params (defaults applied, resolver marks).
  const params = client?.params ?? toolParams(source);
  for (const param of params) {
    const declared = source.params?.find((entry) => entry.name === param.name);
    const flags = `${param.type}, ${param.required ? 'required' : 'optional'}${describeDetails(declared)}`;
    const mark =
      'resolved' in param && param.resolved
        ? ' [resolved by client, hidden from model]'
        : declared?.filledBy === 'client'
          ? // RCP 0.4 (SPEC §20.2): the API says the client fills it — a task for the operator, not an alarm.
            ' [the API expects the client to fill it: no resolver does yet, so the model chooses it]'
          : 'looksLikeIdentity' in param && param.looksLikeIdentity
            ? ' [warning: looks like an identity, but no resolver fills it — the model chooses it]'
            : '';
    const description = param.description ? ` — ${clean(param.description)}` : '';
    lines.push(`    ${param.name}: ${flags}${mark}${description}`);
  }
}

/**
 * Prints what a server asks for, to review before wiring it into a live agent: the manifest's
 * version and auth (with what an OAuth login needs, when the manifest hints it), each tool (its
 * declared effects, and its own auth when it overrides the manifest's; the media types it
 * answers with and how its next page is asked for, RCP 0.3) — under its group when the manifest
 * has groups (RCP 0.4: a `group <name> (N tool(s)) — <description>` line before each group's
 * tools, then `in no group (N tool(s))` before the others) — and each
 * param with its type, whether it is required, whether a resolver of your client fills it
 * (hidden from the model) or, when none does, whether its name looks like an identity the
 * model should not choose (`userId`, `tenant_id` ...), and its description. Pass the `tools` of the same `discover` call
 * to see the resolver marks; without them (or with copies, or tools of another discovery) every
 * param is shown as model-filled. Lines are joined with
 * `\n`, with no trailing newline; a param with no description ends after its flags.
 *
 * @example
 * ```ts
 * import { createRcpClient, describeManifest } from 'rcp-client';
 *
 * const client = createRcpClient({ resolvers: { userId: (ctx) => ctx.currentUserId } });
 * const { manifest, tools } = await client.discover('https://example.com/rcp/manifest');
 * console.log(describeManifest(manifest, tools));
 * // RCP manifest v0.1 — auth: header "Authorization" (scheme: Bearer)
 * // 1 tool(s):
 * // - get_profile (GET) — Get the current user's profile.
 * //     userId: string, required [resolved by client, hidden from model] — the user's id
 * ```
 */
export function describeManifest(manifest: RcpManifest, tools: readonly RcpClientTool[] = []): string {
  // Discovered tools, by the manifest tool they were compiled from (copies and tools of other
  // manifests match nothing).
  const bySource = new Map<unknown, RcpClientTool>();
  for (const tool of tools) {
    const compiled = findCompiledTool(tool);
    if (compiled !== undefined) bySource.set(compiled.source, tool);
  }
  const lines = [`RCP manifest v${clean(manifest.rcpVersion)} — auth: ${describeAuth(manifest.auth ?? { type: 'none' })}`];
  const groups = manifest.groups ?? [];
  if (groups.length === 0) {
    lines.push(`${manifest.tools.length} tool(s):`);
    for (const source of manifest.tools) describeTool(source, bySource.get(source), lines);
    return lines.join('\n');
  }
  // RCP 0.4 (SPEC §20.3): each group's tools under it, in the manifest's order of groups; then the tools in none.
  lines.push(`${manifest.tools.length} tool(s) in ${groups.length} group(s):`);
  for (const group of groups) {
    const members = manifest.tools.filter((source) => source.group === group.name);
    const description = group.description ? ` — ${clean(group.description)}` : '';
    lines.push(`group ${clean(group.name)} (${members.length} tool(s))${description}`);
    for (const source of members) describeTool(source, bySource.get(source), lines);
  }
  const ungrouped = manifest.tools.filter((source) => source.group === undefined);
  if (ungrouped.length > 0) {
    lines.push(`in no group (${ungrouped.length} tool(s))`);
    for (const source of ungrouped) describeTool(source, bySource.get(source), lines);
  }
  return lines.join('\n');
}
