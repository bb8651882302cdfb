/**
 * What every TaskCommits must do; run against PostgreSQL, PGlite and the HTTP client over the real service.
 */
import { randomUUID } from 'node:crypto';
import { InvalidLeaseRequest } from '../src/errors';
import type { TaskCommits } from '../src/task-commits';

const SHA = 'c0ffee1234567890c0ffee1234567890c0ffee12';
const OTHER = 'c0ffee1234567890c0ffee1234567890c0ffee13';

export function describeTaskCommitsContract(
  name: string,
  open: () => Promise<{ commits: TaskCommits; close(): Promise<void> }>,
): void {
  describe(name, () => {
    let commits: TaskCommits;
    let close: () => Promise<void>;
    beforeAll(async () => ({ commits, close } = await open()));
    afterAll(() => close());

    // Each scenario has a change request of its own, so they share the database without cleaning it.
    let cr: string;
    beforeEach(() => {
      cr = `cr-${randomUUID()}`;
    });

    test('a recorded commit is found for its task and change request, with the dispatch that made it', async () => {
      await commits.recordCommit({ taskId: `${cr}-a`, changeRequestId: cr, commitSha: SHA, dispatch: 2 });
      expect(await commits.findCommit({ taskId: `${cr}-a`, changeRequestId: cr, commitSha: SHA })).toEqual({
        taskId: `${cr}-a`,
        changeRequestId: cr,
        commitSha: SHA,
        dispatch: 2,
      });
      // The commit id in either case is the same commit.
      expect(
        await commits.findCommit({ taskId: `${cr}-a`, changeRequestId: cr, commitSha: SHA.toUpperCase() }),
      ).toMatchObject({ commitSha: SHA, dispatch: 2 });
    });

    test('nothing is found for another commit, another task or another change request', async () => {
      await commits.recordCommit({ taskId: `${cr}-a`, changeRequestId: cr, commitSha: SHA, dispatch: 1 });
      for (const query of [
        { taskId: `${cr}-a`, changeRequestId: cr, commitSha: OTHER },
        { taskId: `${cr}-b`, changeRequestId: cr, commitSha: SHA },
        { taskId: `${cr}-a`, changeRequestId: `${cr}-other`, commitSha: SHA },
      ]) {
        expect(await commits.findCommit(query)).toBeUndefined();
      }
    });

    test('recording again changes nothing: the first dispatch that made the commit stays', async () => {
      const record = { taskId: `${cr}-a`, changeRequestId: cr, commitSha: SHA, dispatch: 1 };
      await commits.recordCommit(record);
      await commits.recordCommit({ ...record, dispatch: 3 });
      expect(await commits.findCommit(record)).toMatchObject({ dispatch: 1 });
    });

    test('a malformed record or query is refused with every problem named', async () => {
      const bad = await commits.recordCommit({ taskId: ' ', changeRequestId: cr, commitSha: 'abc', dispatch: -1 }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(bad).toBeInstanceOf(InvalidLeaseRequest);
      expect(bad!.message).toMatch(/taskId/);
      expect(bad!.message).toMatch(/commitSha/);
      expect(bad!.message).toMatch(/dispatch/);
      await expect(commits.findCommit({ taskId: `${cr}-a`, changeRequestId: cr, commitSha: 'zz' })).rejects.toThrow(
        InvalidLeaseRequest,
      );
    });
  });
}
