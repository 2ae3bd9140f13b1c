/**
 * The words of a name or a sentence, lower-cased: split on every character that is not a letter or
 * a digit, on camelCase and PascalCase humps (`listPullRequests` → list, pull, requests;
 * `HTTPServer` → http, server) and between letters and digits (`v2Users` → v, 2, users).
 * Used for tool names, param names, namespaces, descriptions and queries alike, so a query word
 * meets the same word wherever it is written.
 *
 * @example
 * ```ts
 * splitWords('repos/list-for-authenticated_user'); // ['repos', 'list', 'for', 'authenticated', 'user']
 * splitWords('createIssueComment');                // ['create', 'issue', 'comment']
 * ```
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const run of text.split(/[^\p{L}\p{N}]+/u)) {
    if (run === '') continue;
    const parts = run
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .replace(/(\p{L})(\p{N})/gu, '$1 $2')
      .replace(/(\p{N})(\p{L})/gu, '$1 $2')
      .split(' ');
    for (const part of parts) if (part !== '') words.push(part.toLowerCase());
  }
  return words;
}
