import type { RepoState } from '@farm/git';
import { discardedByChecks } from './discarded-by-checks';

const BASE = 'b'.repeat(40);
const MOVED = 'c'.repeat(40);
const state = (over: Partial<RepoState> = {}): RepoState => ({
  head: BASE,
  refs: new Map([
    ['refs/heads/main', BASE],
    ['refs/remotes/origin/main', BASE],
  ]),
  config: 'config-1',
  hooks: new Map([['pre-commit.sample', 'h1']]),
  ...over,
});

test('a checkout the checks left alone: nothing to say', () => {
  expect(discardedByChecks(state(), state())).toEqual([]);
});

test('commits, refs, config and hooks a check changed: one note each, naming what is not delivered', () => {
  const after = state({
    head: MOVED,
    refs: new Map([
      ['refs/heads/main', MOVED],
      ['refs/tags/x', MOVED],
      ['refs/heads/agt/t1', MOVED],
    ]),
    config: 'config-2',
    hooks: new Map([
      ['pre-commit.sample', 'h1'],
      ['pre-push', 'h2'],
    ]),
  });
  expect(discardedByChecks(state(), after, { count: 2, reachesBase: true })).toEqual([
    `a check moved HEAD from ${BASE.slice(0, 12)} to ${MOVED.slice(0, 12)} (2 commits); they are not delivered`,
    'a check created refs: refs/heads/agt/t1, refs/tags/x; they are not pushed',
    'a check moved refs: refs/heads/main; they are not pushed',
    'a check deleted refs: refs/remotes/origin/main (in the checkout only)',
    'a check changed .git/config; the commit and the push do not read it',
    'a check changed .git/hooks (pre-push); no hook runs on the commit or the push',
  ]);
});

test('HEAD moved to a history of its own, or to nothing; a long list of refs is cut', () => {
  expect(discardedByChecks(state(), state({ head: MOVED }), { count: 1, reachesBase: false })).toEqual([
    `a check moved HEAD from ${BASE.slice(0, 12)} to ${MOVED.slice(0, 12)} (1 commit, not all on top of the base); they are not delivered`,
  ]);
  expect(discardedByChecks(state(), state({ head: undefined }))).toEqual([
    `a check moved HEAD from ${BASE.slice(0, 12)} to no commit; that is not delivered`,
  ]);
  const many = state();
  for (let i = 0; i < 12; i++) many.refs.set(`refs/tags/t${String(i).padStart(2, '0')}`, MOVED);
  expect(discardedByChecks(state(), many)).toEqual([
    'a check created refs: refs/tags/t00, refs/tags/t01, refs/tags/t02, refs/tags/t03, refs/tags/t04, refs/tags/t05, refs/tags/t06, refs/tags/t07, refs/tags/t08, refs/tags/t09 and 2 more; they are not pushed',
  ]);
});
