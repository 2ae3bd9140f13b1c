/**
 * A light English stemmer for search terms: plural and verb endings only (`repositories` →
 * `repository`, `created` / `creating` / `creates` → `creat`). It conflates the inflections a
 * task and an API summary disagree on and leaves derivations alone (`deletion` stays `deletion`);
 * a stem is a search key, never shown. A silent `e` that an -ed or -ing ending took from a
 * three-letter stem is put back, so a short word meets its own forms (`coded` / `coding` →
 * `code`) while `note` stays apart from `not` and `side` from `sid`; and a final `ll` becomes
 * `l` when the part before it has two vowel groups, so British and American spellings meet
 * (`cancelled` / `canceled` → `cancel`; `install` → `instal` on every side; `call` keeps its
 * `ll`). Words of three letters or fewer are kept as they are.
 *
 * @example
 * ```ts
 * stem('repositories'); // 'repository'
 * stem('creating') === stem('created');  // true
 * stem('coded') === stem('code');        // true
 * ```
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('xes') || w.endsWith('ches') || w.endsWith('shes')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = beforeEnding(w.slice(0, -3));
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ed') && w.length > 4) w = beforeEnding(w.slice(0, -2));
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  // British spelling doubles a final l (`cancelled`, `labelling`): one l for a stem of two syllables or more, so
  // both spellings and the base meet (`cancel`); `call` and `fill` keep theirs.
  if (w.endsWith('ll') && /[aeiouy][^aeiouy]+[aeiouy]/.test(w.slice(0, -2))) w = w.slice(0, -1);
  return w;
}

/**
 * What an -ed or -ing ending leaves, as its word's stem: a doubled consonant undone (`stopp` →
 * `stop`), or the silent `e` of a three-letter consonant-vowel-consonant stem put back (`cod` →
 * `code`, `typ` → `type`; not after w, x or y: `fix`, `bow`, `key`).
 */
function beforeEnding(w: string): string {
  const undone = undouble(w);
  if (undone !== w) return undone;
  return /^[^aeiouy][aeiouy][^aeiouwxy]$/.test(w) ? `${w}e` : w;
}

/** `stopp` → `stop`, `committ` → `commit`; `ll`, `ss` and `zz` stay. */
function undouble(w: string): string {
  const last = w.at(-1)!;
  return w.length > 3 && last === w.at(-2) && !'lsz'.includes(last) ? w.slice(0, -1) : w;
}
