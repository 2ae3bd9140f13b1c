/**
 * Tool groups in the gateway's dynamic mode (RCP 0.4 groups, SPEC §20.3; docs/behaviour.md, dynamic
 * mode): what `list_groups` answers, how `search_tools`' `group` picks the tools it searches, and the
 * sentence the MCP instructions add. Nothing here exists for a tool set without groups.
 */
import { RcpInvalidArgumentsError, type RcpToolSet } from 'rcp-client';
import { oneLineDescription } from 'rcp-internal';
import { SEARCH_TOOL_NAME, createToolSearch, type RcpToolSearch, type RcpToolSearchOptions } from 'rcp-search';

/** The meta-tool that lists the groups of the served tools. */
export const LIST_GROUPS_NAME = 'list_groups';

/** Most groups one `list_groups` answer lists: each is one short line, and a catalog of more is rare. */
export const LISTED_GROUPS = 100;

/** One group as the model reads it in `list_groups`' answer. */
export interface ListedGroup {
  readonly name: string;
  /** The server's description, as one line (rcp-internal's `oneLineDescription`, as rcp-search's answers); absent when the manifest gives none. */
  readonly description?: string;
  readonly toolCount: number;
}

/** `list_groups`' data: the groups (the first {@link LISTED_GROUPS}), the tools in none, the groups not listed. */
export interface GroupsListing {
  readonly groups: readonly ListedGroup[];
  readonly toolsInNoGroup?: number;
  readonly moreGroups?: number;
}

/**
 * `list_groups`' answer over a tool set: each group's name, its description as one line (the
 * server's text, cut like a found tool's), and how many of the served tools it holds, in the
 * set's order; then how many tools are in no group, and how many groups past the first
 * {@link LISTED_GROUPS} are not listed — each only when not 0.
 *
 * @example
 * ```ts
 * groupsListing(toolSet);
 * // { groups: [{ name: 'invoices', description: 'Invoices and their payments.', toolCount: 2 }], toolsInNoGroup: 1 }
 * ```
 */
export function groupsListing(toolSet: RcpToolSet): GroupsListing {
  const groups = toolSet.groups.slice(0, LISTED_GROUPS).map(({ name, description, names }): ListedGroup => {
    const line = oneLineDescription(description);
    return line === '' ? { name, toolCount: names.length } : { name, description: line, toolCount: names.length };
  });
  const ungrouped = toolsInNoGroup(toolSet);
  const more = toolSet.groups.length - groups.length;
  return { groups, ...(ungrouped > 0 && { toolsInNoGroup: ungrouped }), ...(more > 0 && { moreGroups: more }) };
}

/** How many of the set's tools are in no group. */
function toolsInNoGroup(toolSet: RcpToolSet): number {
  return toolSet.entries.length - toolSet.groups.reduce((count, group) => count + group.names.length, 0);
}

/** The `group` property `search_tools` takes when the served tools have groups. */
export const GROUP_PROPERTY = Object.freeze({
  type: 'string' as const,
  description: `Search only the tools of this group (a name from ${LIST_GROUPS_NAME}); default: every tool`,
});

/**
 * The searches of a tool set's groups: `searchOf(group)` is the search over that group's tools
 * (`toolSet.select(group.names)`), built on its first use with the gateway's search options and
 * kept by this instance. A name matches a group of the set written the same or in another case
 * (group names are unique regardless of case); any other is `RCP_INVALID_ARGUMENTS` at `/group`,
 * pointing at `list_groups`.
 *
 * @example
 * ```ts
 * const groups = groupSearches(toolSet, {});
 * await groups.searchOf('invoices').handleCall({ query: 'pay an invoice' });
 * ```
 */
export function groupSearches(toolSet: RcpToolSet, searchOptions: RcpToolSearchOptions | undefined): { searchOf(group: string): RcpToolSearch } {
  const byName = new Map(toolSet.groups.map((group) => [group.name.toLowerCase(), group]));
  const searches = new Map<string, RcpToolSearch>();
  return {
    searchOf(name) {
      const group = byName.get(name.toLowerCase());
      if (group === undefined) {
        const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
        throw new RcpInvalidArgumentsError(SEARCH_TOOL_NAME, [
          { path: '/group', message: `${shown} is not a group of these tools; ${LIST_GROUPS_NAME} lists their groups` },
        ]);
      }
      let search = searches.get(group.name);
      if (search === undefined) {
        search = createToolSearch(toolSet.select(group.names), searchOptions);
        searches.set(group.name, search);
      }
      return search;
    },
  };
}

/**
 * The sentence a dynamic gateway's MCP instructions add when its tools have groups (`undefined`
 * without): how many groups, and the two ways to use them. Group names and descriptions are not in
 * it (`list_groups` gives them).
 *
 * @example
 * ```ts
 * groupsNotice(toolSet);
 * // 'The 3 tools behind search_tools are in 2 group(s), 1 in none: list_groups lists the groups; search_tools with "group" searches one group\'s tools.'
 * ```
 */
export function groupsNotice(toolSet: RcpToolSet): string | undefined {
  if (toolSet.groups.length === 0) return undefined;
  const ungrouped = toolsInNoGroup(toolSet);
  const none = ungrouped === 0 ? '' : `, ${ungrouped} in none`;
  return (
    `The ${toolSet.entries.length} tools behind ${SEARCH_TOOL_NAME} are in ${toolSet.groups.length} group(s)${none}: ` +
    `${LIST_GROUPS_NAME} lists the groups; ${SEARCH_TOOL_NAME} with "group" searches one group's tools.`
  );
}
