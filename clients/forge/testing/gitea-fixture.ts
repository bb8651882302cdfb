/**
 * What tests do to a real Gitea (scripts/local-services/gitea.ts) as its users would: repositories (pushed
 * over git smart-HTTP, the token in a header and never in the URL), labels, issues, webhooks, collaborators,
 * reviews. Everything through the public API, as the acting user's token.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface GiteaAccount {
  /** The API root, e.g. http://127.0.0.1:40123/api/v1. */
  apiUrl: string;
  token: string;
}

export interface FixtureRepo {
  fullName: string;
  /** http(s) clone URL, without credentials. */
  cloneUrl: string;
  defaultBranch: string;
}

/**
 * The webhook events the farm needs, one for each box an operator ticks under "Custom Events" (the API's
 * `issues` / `pull_request` alone would mean every issue / PR event): Issues, Issue Labeled, Issue Comment,
 * Pull Request, Pull Request Synchronized, Pull Request Comment, Pull Request Reviewed.
 */
export const FARM_WEBHOOK_EVENTS = [
  'issues_only',
  'issue_label',
  'issue_comment',
  'pull_request_only',
  'pull_request_sync',
  'pull_request_comment',
  'pull_request_review',
] as const;

export class GiteaFixtureError extends Error {
  override name = 'GiteaFixtureError';
}

/** One API call as `as`; answers the parsed JSON (undefined for an empty body). */
export async function giteaApi<T = unknown>(
  as: GiteaAccount,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(as.apiUrl.replace(/\/+$/, '') + path, {
    method,
    headers: {
      authorization: `token ${as.token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new GiteaFixtureError(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A repository of the token's user; `autoInit` gives it a README on `main`, else it is empty (push to it). */
export async function createRepo(
  as: GiteaAccount,
  name: string,
  opts: { autoInit?: boolean } = {},
): Promise<FixtureRepo> {
  const repo = await giteaApi<{ full_name: string; clone_url: string; default_branch: string }>(
    as,
    'POST',
    '/user/repos',
    { name, auto_init: opts.autoInit ?? false, default_branch: 'main', private: false },
  );
  return { fullName: repo.full_name, cloneUrl: repo.clone_url, defaultBranch: repo.default_branch };
}

/**
 * `git push` of `refspecs` from the local repository `dir`, the token sent as an http.extraHeader; returns once
 * the API shows the pushed branches.
 */
export async function pushDir(as: GiteaAccount, dir: string, repo: FixtureRepo, refspecs: string[]): Promise<void> {
  await execFileAsync(
    'git',
    ['-c', `http.extraHeader=Authorization: token ${as.token}`, 'push', repo.cloneUrl, ...refspecs],
    { cwd: dir, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
  ).catch((err: Error & { stderr?: string }) => {
    // git's own message; the header (the token) is not part of it.
    throw new GiteaFixtureError(`git push to ${repo.cloneUrl} failed: ${err.stderr ?? err.message}`);
  });
  // Gitea records pushed branches from a queue after the push returns; the API (a PR from it) 404s till then.
  const branches = refspecs.map((r) =>
    r
      .replace(/^\+/, '')
      .split(':')
      .pop()!
      .replace(/^refs\/heads\//, ''),
  );
  const deadline = Date.now() + 30_000;
  for (const branch of branches) {
    for (;;) {
      const res = await fetch(`${as.apiUrl}/repos/${repo.fullName}/branches/${encodeURIComponent(branch)}`, {
        headers: { authorization: `token ${as.token}` },
      });
      await res.body?.cancel();
      if (res.ok) break;
      if (Date.now() > deadline)
        throw new GiteaFixtureError(`${repo.fullName} did not show branch ${branch} after the push`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Gives `user` write access (a reviewer whose REQUEST_CHANGES counts). */
export async function addCollaborator(as: GiteaAccount, repo: FixtureRepo, user: string): Promise<void> {
  await giteaApi(as, 'PUT', `/repos/${repo.fullName}/collaborators/${encodeURIComponent(user)}`, {
    permission: 'write',
  });
}

export async function createLabel(
  as: GiteaAccount,
  repo: FixtureRepo,
  name: string,
  color = '#00aabb',
): Promise<number> {
  return (await giteaApi<{ id: number }>(as, 'POST', `/repos/${repo.fullName}/labels`, { name, color })).id;
}

/** The ids of the repository's labels of these names (Gitea's issue routes take ids). */
export async function labelIds(as: GiteaAccount, repo: FixtureRepo, names: string[]): Promise<number[]> {
  const labels = await giteaApi<{ id: number; name: string }[]>(as, 'GET', `/repos/${repo.fullName}/labels`);
  return names.map((n) => {
    const found = labels.find((l) => l.name === n);
    if (!found) throw new GiteaFixtureError(`${repo.fullName} has no label ${n}`);
    return found.id;
  });
}

export async function createIssue(
  as: GiteaAccount,
  repo: FixtureRepo,
  issue: { title: string; body?: string; labels?: string[] },
): Promise<number> {
  const labels = issue.labels?.length ? await labelIds(as, repo, issue.labels) : undefined;
  const created = await giteaApi<{ number: number }>(as, 'POST', `/repos/${repo.fullName}/issues`, {
    title: issue.title,
    body: issue.body ?? '',
    labels,
  });
  return created.number;
}

/** Adds labels to an issue (Gitea delivers `issues` with action `label_updated`). */
export async function labelIssue(as: GiteaAccount, repo: FixtureRepo, number: number, labels: string[]): Promise<void> {
  await giteaApi(as, 'POST', `/repos/${repo.fullName}/issues/${number}/labels`, {
    labels: await labelIds(as, repo, labels),
  });
}

export async function commentOn(as: GiteaAccount, repo: FixtureRepo, number: number, body: string): Promise<number> {
  return (await giteaApi<{ id: number }>(as, 'POST', `/repos/${repo.fullName}/issues/${number}/comments`, { body })).id;
}

/** A repository webhook of type gitea, JSON, signed with `secret`, for the farm's events. */
export async function registerWebhook(
  as: GiteaAccount,
  repo: FixtureRepo,
  hook: { url: string; secret: string; events?: readonly string[] },
): Promise<number> {
  const created = await giteaApi<{ id: number }>(as, 'POST', `/repos/${repo.fullName}/hooks`, {
    type: 'gitea',
    active: true,
    events: hook.events ?? FARM_WEBHOOK_EVENTS,
    config: { url: hook.url, content_type: 'json', secret: hook.secret },
  });
  return created.id;
}

/** A submitted review, as the reviewer: `new_position` is the line in the new file. */
export async function submitReview(
  as: GiteaAccount,
  repo: FixtureRepo,
  pull: number,
  review: {
    event: 'APPROVED' | 'REQUEST_CHANGES' | 'COMMENT';
    body: string;
    comments?: { path: string; body: string; new_position?: number; old_position?: number }[];
  },
): Promise<number> {
  const created = await giteaApi<{ id: number; state: string }>(
    as,
    'POST',
    `/repos/${repo.fullName}/pulls/${pull}/reviews`,
    review,
  );
  if (created.state === 'PENDING')
    throw new GiteaFixtureError(`the review on ${repo.fullName}#${pull} stayed PENDING (event ${review.event})`);
  return created.id;
}
