import { commitsSince, readRepoState, type RepoState } from '@farm/git';

/** Names listed in one note before the rest is counted. */
const LISTED = 10;

const short = (sha?: string) => (sha ? sha.slice(0, 12) : 'no commit');
const list = (names: string[]) =>
  names.length > LISTED ? `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more` : names.join(', ');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How far HEAD moved past the base: the commits on the way, and whether they lead back to it. */
export interface HeadMove {
  count: number;
  reachesBase: boolean;
}

/**
 * What the repository's commands changed in the checkout's git data between `before` and `after`, one note
 * each. None of it is delivered (the task's commit is made on the base from the change's paths alone); the
 * notes tell the user what was dropped.
 */
export function discardedByChecks(before: RepoState, after: RepoState, headMove?: HeadMove): string[] {
  const notes: string[] = [];
  if (after.head !== before.head) {
    const commits = headMove?.count
      ? ` (${plural(headMove.count, 'commit')}${headMove.reachesBase ? '' : ', not all on top of the base'}); they are`
      : '; that is';
    notes.push(`a check moved HEAD from ${short(before.head)} to ${short(after.head)}${commits} not delivered`);
  }
  const created = [...after.refs.keys()].filter((r) => !before.refs.has(r)).sort();
  const moved = [...after.refs.keys()]
    .filter((r) => before.refs.has(r) && before.refs.get(r) !== after.refs.get(r))
    .sort();
  const deleted = [...before.refs.keys()].filter((r) => !after.refs.has(r)).sort();
  if (created.length) notes.push(`a check created refs: ${list(created)}; they are not pushed`);
  if (moved.length) notes.push(`a check moved refs: ${list(moved)}; they are not pushed`);
  if (deleted.length) notes.push(`a check deleted refs: ${list(deleted)} (in the checkout only)`);
  if (after.config !== before.config) notes.push('a check changed .git/config; the commit and the push do not read it');
  const hooks = [...new Set([...before.hooks.keys(), ...after.hooks.keys()])]
    .filter((h) => before.hooks.get(h) !== after.hooks.get(h))
    .sort();
  if (hooks.length) notes.push(`a check changed .git/hooks (${list(hooks)}); no hook runs on the commit or the push`);
  return notes;
}

/** discardedByChecks for the checkout at `dir` now, against its state `before` the commands ran on `base`. */
export async function noteDiscardedByChecks(dir: string, base: string, before: RepoState): Promise<string[]> {
  const after = await readRepoState(dir);
  const headMove = after.head && after.head !== before.head ? await commitsSince(dir, base, after.head) : undefined;
  return discardedByChecks(before, after, headMove);
}
