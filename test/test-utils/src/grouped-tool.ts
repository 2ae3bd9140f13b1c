/**
 * A one-line GET tool for RCP 0.4 group tests (SPEC §20.3): `/<name>` on the manifest's origin, described by its
 * name, in `group` when one is given.
 *
 * @example
 * ```ts
 * const manifest = { rcpVersion: '0.4', groups: [{ name: 'invoices' }], tools: [groupedTool('list_invoices', 'invoices'), groupedTool('ping')] };
 * ```
 */
export function groupedTool(name: string, group?: string): Record<string, string> {
  return { name, description: `The ${name} tool.`, method: 'GET', url: `/${name}`, ...(group !== undefined && { group }) };
}
