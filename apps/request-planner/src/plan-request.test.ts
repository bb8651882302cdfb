import { farm } from '@farm/proto';
import { planRequest } from './plan-request';

test('a change request becomes a one-item plan carrying its repo, goal and check command', () => {
  const plan = planRequest({
    changeRequestId: 'cr-1',
    title: 'Add multiply',
    description: 'multiply(a, b) returns the product',
    repo: { url: 'http://git/x.git', baseRef: 'main' },
    checkCommand: 'npm test',
  });
  expect(plan.items).toHaveLength(1);
  expect(plan.items![0].goal).toBe('Add multiply\n\nmultiply(a, b) returns the product');
  expect(plan.items![0].kind).toBe(farm.v1.TaskKind.FEATURE);
  expect(plan.repo?.baseRef).toBe('main');
  expect(plan.checkCommand).toBe('npm test');
});
