import { bundlePlan } from './bundle-plan';

test('each plan item becomes a task at the resolved commit, with ids stable across redeliveries', () => {
  const plan = {
    changeRequestId: 'cr-9',
    repo: { url: 'http://git/x.git', baseRef: 'main' },
    checkCommand: 'npm test',
    items: [
      { itemId: 'a', goal: 'first', pathHints: ['src/a.js'], estimatedChangedLines: 120 },
      { itemId: 'b', goal: 'second', dependsOn: ['a'] },
    ],
  };
  const bundle = bundlePlan(plan, 'f'.repeat(40));
  expect(bundle.tasks!.map((t) => [t.id, t.path, t.dependsOn])).toEqual([
    ['cr-9-a', 'src/a.js', []],
    ['cr-9-b', '', ['cr-9-a']],
  ]);
  expect(bundle.tasks!.map((t) => t.estimatedChangedLines)).toEqual([120, undefined]);
  expect(bundle.tasks![1].repo?.baseCommit).toBe('f'.repeat(40));
  expect(bundle.tasks![0].checkCommand).toBe('npm test');
  expect(bundlePlan(plan, 'f'.repeat(40))).toEqual(bundle);
});
