import type { RcpClientTool, RcpDiscoveryWarning } from 'rcp-client';
import { RcpUsageError } from './usage-error';

/**
 * Refuses to serve when a credential is configured and no served tool may receive it (issue 41):
 * every tool that takes the credential goes to an origin the client does not trust with it (a
 * Stripe import served without `--trusted-origin`), or is refused outright, so every call would
 * fail with `RCP_ORIGIN_NOT_ALLOWED`. A usage error naming the fix once per origin:
 * `--trusted-origin https://api.stripe.com`. When some tools may receive it, the gateway serves
 * them and the grouped warning names the others. Tools without auth take no credential and
 * count for neither.
 *
 * @example
 * ```ts
 * refuseUnreachableCredential(served, discovery.warnings, '--token-env STRIPE_KEY', 'rcp-mcp');
 * // RcpUsageError: not serving: the credential (--token-env STRIPE_KEY) may reach none of the 447 tools that take it: …
 * ```
 */
export function refuseUnreachableCredential(tools: readonly RcpClientTool[], warnings: readonly RcpDiscoveryWarning[], flag: string, command: string): void {
  const taking = tools.filter((tool) => tool.auth.type !== 'none');
  if (taking.length === 0) return;
  // The client's verdict per tool, by its warnings' stable causes: the client decides, the command line reads it.
  const untrusted = new Set<string>();
  const refused = new Set<string>();
  for (const { tool, cause } of warnings) {
    if (tool === undefined) continue;
    if (cause === 'untrusted-origin') untrusted.add(tool);
    else if (cause === 'address-refused') refused.add(tool);
  }
  if (taking.some((tool) => !untrusted.has(tool.name) && !refused.has(tool.name))) return;
  const byOrigin = new Map<string, number>();
  for (const tool of taking) if (untrusted.has(tool.name)) byOrigin.set(tool.origin, (byOrigin.get(tool.origin) ?? 0) + 1);
  const fixes = [...byOrigin].map(([origin, count]) => `--trusted-origin ${origin} (${count} ${count === 1 ? 'tool' : 'tools'})`);
  const others = taking.length - [...byOrigin.values()].reduce((sum, count) => sum + count, 0);
  const reasons = [
    ...(fixes.length === 0 ? [] : [`pass ${fixes.join(' and ')} if ${fixes.length === 1 ? 'that origin' : 'those origins'} should receive it`]),
    ...(others === 0
      ? []
      : [`${others} ${others === 1 ? 'tool is' : 'tools are'} refused for ${others === 1 ? 'its' : 'their'} address (see the warnings of rcp lint)`]),
  ];
  throw new RcpUsageError(
    `not serving: the credential (${flag}) may reach none of the ${taking.length} ${taking.length === 1 ? 'tool' : 'tools'} that take it, ` +
      `so every call would fail with RCP_ORIGIN_NOT_ALLOWED: ${reasons.join('; ')}`,
    { command },
  );
}
