/**
 * How the client compares names that a person may have written slightly differently: a
 * resolver registered as `userID` for a manifest's `userId`, a model asking for `list_note`.
 */

/** Lower case, without `_` and `-`: `user_id`, `userID` and `user-id` all become `userid`. */
export function foldName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Shortest folded name the one-edit rule applies to: below it, one edit is a different word. */
const MIN_EDIT_LENGTH = 5;

/** True when `a` becomes `b` by at most one insertion, deletion or substitution. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  // Skip the one differing character of the longer name (insertion) or of both (substitution).
  const rest = short.length === long.length ? i + 1 : i;
  return short.slice(rest) === long.slice(i + 1);
}

/**
 * True when two different names are the same up to case, `_` / `-`, or one edit
 * (`userID`, `user_id`, `usrId` for `userId`). Equal names are not a near miss.
 */
export function isNearMiss(a: string, b: string): boolean {
  if (a === b) return false;
  const foldedA = foldName(a);
  const foldedB = foldName(b);
  if (foldedA === foldedB) return true;
  return Math.min(foldedA.length, foldedB.length) >= MIN_EDIT_LENGTH && withinOneEdit(foldedA, foldedB);
}

/** Who a param may name, when it names the caller: the values an operator knows, not the model. */
const SUBJECTS =
  'user|tenant|account|org|organization|organisation|customer|learner|member|owner|principal|workspace|student|employee|patient|caller|requester|viewer|actor|person|subject';
/** `<subject>` + `id` / `uuid` / `guid`; `uid`; `email` or `emailaddress`, alone or after a subject. */
const IDENTITY = new RegExp(`^(?:(?:${SUBJECTS})(?:id|uuid|guid)|uid|(?:${SUBJECTS})?email(?:address)?)$`);

/**
 * True when a param's name looks like an identity the operator knows (`userId`, `tenant_id`,
 * `AccountId`, `org-uuid`, `uid`, `email`, `customerEmail` ...): a value the model should not choose.
 */
export function looksLikeIdentity(name: string): boolean {
  return IDENTITY.test(foldName(name));
}
