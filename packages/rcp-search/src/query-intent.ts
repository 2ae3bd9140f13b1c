import { splitWords } from './split-words';
import { stem } from './stem';
import { DEFAULT_SYNONYMS } from './synonyms';

/**
 * Whether a query asks to see something (a read question) or to do something, read from its
 * words (issue 41: "list the invoices of a customer" put a write first).
 *
 * *Decision:* the first action verb of the query decides: a verb of the `list`, `get` or `search`
 * groups of {@link DEFAULT_SYNONYMS}, or `check`, makes it a read question; a verb of a group that
 * changes something (create, delete, update, send, start …) makes it not one. A query with no
 * action verb is a read question when it has a question word (what, which, how, who, when,
 * where, whether, why): "how much money do I have". The groups are the general vocabulary the
 * search already uses, never words taken from an evaluation's tasks. "how do I create a customer"
 * is not a read question (its first verb is `create`); "what changed" is not one either (a miss
 * that leaves the ranking as it was, never one that demotes a write the query asked for).
 */

/** The groups (by their first word) whose verbs ask to see something. */
const READ_GROUPS: readonly string[] = ['list', 'get', 'search'];
/** Read verbs that are in no group. */
const OTHER_READ_VERBS: readonly string[] = ['check'];
/** The groups whose verbs change something. */
const WRITE_GROUPS: readonly string[] = [
  'create',
  'delete',
  'update',
  'send',
  'start',
  'stop',
  'pause',
  'resume',
  'copy',
  'move',
  'merge',
  'rollback',
  'upload',
  'approve',
  'reject',
  'assign',
  'invite',
  'watch',
  'block',
  'mute',
  'lock',
  'buy',
  'sync',
  'forward',
];
const QUESTION_WORDS: ReadonlySet<string> = new Set(['what', 'which', 'how', 'who', 'whom', 'whose', 'when', 'where', 'whether', 'why']);

/** The stems of every word of the named groups. */
function stemsOf(groups: readonly string[], extra: readonly string[] = []): ReadonlySet<string> {
  const words = DEFAULT_SYNONYMS.filter((group) => groups.includes(group[0]!)).flat();
  return new Set([...words, ...extra].map((word) => stem(word)));
}

const READ_VERBS = stemsOf(READ_GROUPS, OTHER_READ_VERBS);
const WRITE_VERBS = stemsOf(WRITE_GROUPS);

/**
 * A query's intent: a read question (`read: true`), with the term of its read verb as the
 * index's words are processed (`search` for "find"), when it has one.
 */
export interface QueryIntent {
  readonly read: boolean;
  /** The read verb's term (processed as the index's words are), absent for a question without one. */
  readonly verbTerm?: string;
}

const NOT_READ: QueryIntent = Object.freeze({ read: false });

/**
 * The intent of a query (see the file's comment). `processTerm` is the search's own, so the
 * read verb's term is the one a tool name's words become.
 *
 * @example
 * ```ts
 * queryIntent('find open issues', (word) => word); // { read: true, verbTerm: 'find' }
 * queryIntent('open a new issue', (word) => word); // { read: false }
 * ```
 */
export function queryIntent(query: string, processTerm: (word: string) => string | null): QueryIntent {
  let question = false;
  for (const word of splitWords(query)) {
    const stemmed = stem(word);
    if (READ_VERBS.has(stemmed)) {
      const term = processTerm(word);
      return term === null ? { read: true } : { read: true, verbTerm: term };
    }
    if (WRITE_VERBS.has(stemmed)) return NOT_READ;
    if (QUESTION_WORDS.has(word)) question = true;
  }
  return question ? { read: true } : NOT_READ;
}
