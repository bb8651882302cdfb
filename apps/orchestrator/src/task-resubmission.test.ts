import { resubmission, type FailedTask } from './task-resubmission';

const failed: FailedTask = {
  changeRequestId: 'cr-1',
  taskId: 'cr-1-b',
  status: 'HARD_FAIL',
  goal: 'Make the parser accept tabs\nand keep spaces working',
  notes: 'sandbox refused a check\nmore detail',
  request: {
    title: 'Parser fixes',
    repoUrl: 'https://git.example.com/app.git',
    baseRef: 'develop',
    checkCommand: 'make test',
  },
};

describe('resubmitting a failed task', () => {
  test("becomes a request for the task's goal on the same repository, base and check, linked to the task", () => {
    const plan = resubmission(failed, 'new-id');
    expect(plan).toEqual({
      ok: true,
      input: {
        changeRequestId: 'new-id',
        title: 'Make the parser accept tabs',
        description:
          'Make the parser accept tabs\nand keep spaces working\n\nResubmitted from task cr-1-b of change request cr-1 ("Parser fixes"), which ended HARD_FAIL: sandbox refused a check.',
        requestedBy: 'resubmit of cr-1/cr-1-b',
        checkCommand: 'make test',
        repo: { url: 'https://git.example.com/app.git', baseRef: 'develop', baseCommit: '' },
      },
    });
  });

  test('is refused for a task that did not fail; a long goal makes a title within the limit', () => {
    for (const status of ['SUCCESS', 'PENDING', 'DISPATCHED', 'CANCELLED']) {
      expect(resubmission({ ...failed, status }, 'x')).toEqual({
        ok: false,
        reason: expect.stringContaining(`is ${status}`),
      });
    }
    const long = resubmission({ ...failed, status: 'SOFT_FAIL', goal: '😀'.repeat(600) }, 'x');
    expect(long.ok && [...long.input.title].length).toBe(500);
  });
});
