import { isRecord } from 'rcp-internal';
import type { DraftTool } from './build-tool';
import { HTML_NOTE, MAX_TOOL_DESCRIPTION, plainText } from './plain-text';
import { MAX_NAME, shortHash, toolNameOf } from './tool-names';

type Json = Record<string, unknown>;

/** The report note of a group description over the limit (said once, with the tools of such groups). */
export const GROUP_CUT_NOTE = `a group description was cut to ${MAX_TOOL_DESCRIPTION.toLocaleString('en-US')} characters`;

/** An RCP 0.4 tool group made from an OpenAPI tag. */
export interface TagGroup {
  readonly name: string;
  readonly description?: string;
}

/** The first tag of an operation (a non-empty string), or undefined. */
export function firstTag(operation: Json): string | undefined {
  const tags = operation['tags'];
  const tag = Array.isArray(tags) ? (tags as unknown[])[0] : undefined;
  return typeof tag === 'string' && tag.trim() !== '' ? tag : undefined;
}

/** The document's tag descriptions by tag name (the first entry of a name wins), each as written. */
function tagDescriptions(document: Json): Map<string, unknown> {
  const descriptions = new Map<string, unknown>();
  const tags = document['tags'];
  if (!Array.isArray(tags)) return descriptions;
  for (const tag of tags as unknown[]) {
    if (isRecord(tag) && typeof tag['name'] === 'string' && !descriptions.has(tag['name'])) descriptions.set(tag['name'], tag['description']);
  }
  return descriptions;
}

/**
 * RCP 0.4 groups from OpenAPI tags (SPEC §20.3): one per tag that is the first tag of an imported
 * operation, in the order of the document's `tags` list, then of first use. A group's name is the
 * tag written as a tool name (a name another tag already took, regardless of case, gets a hash of
 * the tag); its description the tag's, as plain text (HTML read out, Markdown kept) cut at 1,024
 * characters like a tool's. Each draft whose operation has a first tag gets its `group`.
 * `note` hears what was done to descriptions, with the tools concerned.
 */
export function tagGroups(document: Json, drafts: readonly DraftTool[], note: (message: string, tools: readonly string[]) => void): TagGroup[] {
  const descriptions = tagDescriptions(document);
  const used = new Map<string, DraftTool[]>();
  for (const draft of drafts) {
    if (draft.tag === undefined) continue;
    const list = used.get(draft.tag) ?? [];
    list.push(draft);
    used.set(draft.tag, list);
  }
  const listed = [...descriptions.keys()].filter((tag) => used.has(tag));
  const order = [...listed, ...[...used.keys()].filter((tag) => !descriptions.has(tag))];
  const taken = new Set<string>();
  const groups: TagGroup[] = [];
  for (const tag of order) {
    let name = toolNameOf(tag);
    if (taken.has(name.toLowerCase())) name = toolNameOf(`${name.slice(0, MAX_NAME - 7)}_${shortHash(tag)}`);
    if (taken.has(name.toLowerCase())) continue; // two tags that still collide: the later one's tools stay ungrouped
    taken.add(name.toLowerCase());
    const tools = used.get(tag)!;
    for (const draft of tools) draft.tool['group'] = name;
    const source = descriptions.get(tag);
    const plain = typeof source === 'string' ? plainText(source, MAX_TOOL_DESCRIPTION) : undefined;
    const toolNames = tools.map((draft) => String(draft.tool['name']));
    if (plain?.hadMarkup) note(HTML_NOTE, toolNames);
    if (plain?.cut) note(GROUP_CUT_NOTE, toolNames);
    groups.push(plain === undefined || plain.text === '' ? { name } : { name, description: plain.text });
  }
  return groups;
}
