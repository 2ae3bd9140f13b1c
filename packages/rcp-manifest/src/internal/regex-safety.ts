/**
 * The patterns a manifest's `match()` / `search()` may use. JavaScript's regex engine
 * backtracks, and a mapping runs synchronously: a pattern like `(a+)+$` on a short hostile
 * string blocks the event loop for seconds, doubling with each character, and no timeout can
 * stop it. So a pattern is accepted at load only when it cannot backtrack exponentially:
 *
 * - at most {@link MAX_PATTERN_LENGTH} characters;
 * - no backreference (`\1`, `\k<name>`) and no lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) — neither
 *   is I-Regexp (RFC 9485) anyway;
 * - star height 1: a repeated group (`(...)*`, `+`, `{n,m}`) holds no quantifier and no `|`
 *   (`(a+)+`, `(a|aa)*` and `(\w*\s?)*` are refused; `(ab)+` and `a+b*` are fine).
 */
export const MAX_PATTERN_LENGTH = 256;

/** Why `pattern` is refused, or undefined when it is safe to run. */
export function unsafePatternReason(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `the pattern is longer than ${MAX_PATTERN_LENGTH} characters`;
  // One entry per open group: whether it holds a quantifier or an alternation.
  const groups: { risky: boolean }[] = [{ risky: false }];
  let index = 0;
  const quantifierAt = (at: number): 'repeat' | 'optional' | undefined => {
    const char = pattern[at];
    if (char === '*' || char === '+') return 'repeat';
    if (char === '?') return 'optional';
    if (char === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(at))) {
      return /^\{(0,)?[01]\}/.test(pattern.slice(at)) ? 'optional' : 'repeat';
    }
    return undefined;
  };
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'backreferences are not supported';
      index += 2;
    } else if (char === '[') {
      // A class: skip to its closing bracket (escapes inside included).
      index += 1;
      if (pattern[index] === '^') index += 1;
      if (pattern[index] === ']') index += 1;
      while (index < pattern.length && pattern[index] !== ']') index += pattern[index] === '\\' ? 2 : 1;
      index += 1;
    } else if (char === '(') {
      if (/^\(\?<?[=!]/.test(pattern.slice(index))) return 'lookahead and lookbehind are not supported';
      groups.push({ risky: false });
      index += /^\(\?:/.test(pattern.slice(index)) ? 3 : /^\(\?<[A-Za-z]/.test(pattern.slice(index)) ? pattern.indexOf('>', index) + 1 : 1;
      continue;
    } else if (char === ')') {
      const group = groups.pop();
      if (group === undefined || groups.length === 0) return undefined; // unbalanced: the regex engine reports it
      index += 1;
      const quantifier = quantifierAt(index);
      if (quantifier === 'repeat' && group.risky) {
        return 'a repeated group holds a quantifier or an alternation (nested repetition can take exponential time)';
      }
      if (group.risky || quantifier !== undefined) groups[groups.length - 1]!.risky = true;
      continue;
    } else if (char === '|') {
      groups[groups.length - 1]!.risky = true;
      index += 1;
      continue;
    } else {
      index += 1;
    }
    // After an atom: a quantifier marks the enclosing group.
    if (quantifierAt(index) !== undefined) groups[groups.length - 1]!.risky = true;
  }
  return undefined;
}
