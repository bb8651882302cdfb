import type { ChangeRequestDetail } from '@farm/farm-api';
import { formatPlan } from './approval-commands';

test('farm plan: why it waits, then each task with its file, symbols, size and order, then how to decide', () => {
  const detail = {
    request: { id: 'cr1', phase: 'AWAITING_APPROVAL', title: 'Add users', reason: 'plan waits: 2 tasks' },
    tasks: [
      { id: 'cr1-db', goal: 'Add the table', kind: 'REFACTOR', path: 'db/1.sql', dependsOn: [] },
      {
        id: 'cr1-api',
        goal: 'Add the endpoint',
        kind: 'FEATURE',
        path: 'src/api.ts',
        symbols: ['createUser'],
        estimatedChangedLines: 80,
        dependsOn: ['cr1-db'],
      },
    ],
  } as unknown as ChangeRequestDetail;
  expect(formatPlan(detail).split('\n\n')).toEqual([
    'cr1  AWAITING_APPROVAL\ntitle:   Add users\nreason:  plan waits: 2 tasks',
    'cr1-db  REFACTOR\n  goal:    Add the table\n  file:    db/1.sql',
    "cr1-api  FEATURE\n  goal:    Add the endpoint\n  file:    src/api.ts\n  symbols: createUser\n  size:    about 80 changed lines (the planner's estimate)\n  after:   cr1-db",
    'farm approve cr1 [--remove <task>] [--goal <task>=<text>] [--parallelism N]',
    'farm reject cr1 --reason <why>',
  ]);
  // A request that no longer waits shows no way to decide.
  expect(formatPlan({ ...detail, request: { ...detail.request, phase: 'CODING' } })).not.toContain('farm approve');
});
