/**
 * General-purpose word groups a task and an API summary use for one meaning. Each group's words
 * are searched as one term (its first word), in the index and in queries alike. They are
 * everyday English, not the vocabulary of one API: a group that only helps one task is not one.
 *
 * @example
 * ```ts
 * import { DEFAULT_SYNONYMS, createToolSearch } from 'rcp-search';
 *
 * const search = createToolSearch(toolSet, { synonyms: [...DEFAULT_SYNONYMS, ['invoice', 'bill']] });
 * ```
 */
export const DEFAULT_SYNONYMS: readonly (readonly string[])[] = Object.freeze(
  [
    ['create', 'add', 'new', 'make', 'register', 'insert'],
    ['delete', 'remove', 'destroy', 'erase', 'drop', 'discard', 'purge'],
    ['list', 'all', 'enumerate', 'browse', 'every'],
    ['get', 'fetch', 'retrieve', 'read', 'show', 'view', 'display', 'see', 'inspect', 'detail'],
    ['update', 'edit', 'change', 'modify', 'alter', 'rename', 'set'],
    ['search', 'find', 'query', 'lookup', 'look'],
    ['send', 'deliver', 'dispatch'],
    ['start', 'begin', 'launch', 'trigger'],
    ['stop', 'halt', 'terminate'],
    ['user', 'person', 'people'],
    ['repository', 'repo'],
    ['organization', 'organisation', 'org'],
    ['invite', 'invitation'],
    ['image', 'picture', 'photo'],
    ['label', 'tag'],
    ['email', 'mail'],
    ['setting', 'config', 'configuration', 'preference', 'option'],
    ['notification', 'alert'],
    ['favorite', 'favourite', 'star', 'bookmark'],
  ].map((group) => Object.freeze(group)),
);

/** Words that carry no meaning for finding a tool. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an the of for to in on at by with from into onto about as and or is are be been being it its ' +
    'this that these those my me our us your you we i he she they them their his her which what who whom how ' +
    'some any please can could would should do does did want need let there here via per so just also api').split(' '),
);
