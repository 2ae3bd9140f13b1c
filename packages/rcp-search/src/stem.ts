/**
 * A light English stemmer for search terms: plural and verb endings only (`repositories` →
 * `repository`, `created` / `creating` / `creates` → `creat`). It conflates the inflections a
 * task and an API summary disagree on and leaves derivations alone (`deletion` stays `deletion`);
 * a stem is a search key, never shown. A final `e` goes from every stem of four letters or more,
 * so a short word meets its own -ed and -ing forms (`code` / `coded` / `coding` → `cod`), and a
 * British double l is one after two syllables (`cancelled` / `canceled` / `cancel` → `cancel`).
 * Words of three letters or fewer are kept as they are.
 *
 * @example
 * ```ts
 * stem('repositories'); // 'repository'
 * stem('creating') === stem('created');  // true
 * ```
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('xes') || w.endsWith('ches') || w.endsWith('shes')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  // British spelling doubles a final l (`cancelled`, `labelling`): one l for a stem of two syllables or more, so
  // both spellings and the base meet (`cancel`); `call` and `fill` keep theirs.
  if (w.endsWith('ll') && /[aeiouy][^aeiouy]+[aeiouy]/.test(w.slice(0, -2))) w = w.slice(0, -1);
  return w;
}

/** `stopp` → `stop`, `committ` → `commit`; `ll`, `ss` and `zz` stay. */
function undouble(w: string): string {
  const last = w.at(-1)!;
  return w.length > 3 && last === w.at(-2) && !'lsz'.includes(last) ? w.slice(0, -1) : w;
}
