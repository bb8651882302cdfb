import { ForgeApiError, type PullRequest } from './forge';

/**
 * The one rule every adapter opens a pull request by: update the open one for the branch if there is one, else
 * create it; when the create is refused with `conflictStatus` (another delivery opened it between the look-up
 * and the create: GitHub 422, GitLab and Gitea 409), update that one instead. Never a second pull request.
 */
export async function openOrUpdate(steps: {
  find: () => Promise<PullRequest | undefined>;
  create: () => Promise<PullRequest>;
  update: (existing: PullRequest) => Promise<PullRequest>;
  conflictStatus: number;
}): Promise<{ pull: PullRequest; created: boolean }> {
  const existing = await steps.find();
  if (existing) return { pull: await steps.update(existing), created: false };
  try {
    return { pull: await steps.create(), created: true };
  } catch (err) {
    if (!(err instanceof ForgeApiError && err.status === steps.conflictStatus)) throw err;
    const raced = await steps.find();
    if (!raced) throw err;
    return { pull: await steps.update(raced), created: false };
  }
}
