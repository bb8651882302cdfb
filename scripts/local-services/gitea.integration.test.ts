/** @farm-gitea (waits for the background build of Gitea; run late) */
/** The throwaway Gitea of the forge tests: built once (cached), started with an admin token, stopped clean. */
import { existsSync } from 'node:fs';
import { createLogger } from '@farm/runtime';
import { ensureGitea, giteaCacheDir, startGitea } from './gitea';
import { freePort } from './proc';

// A cold build (when the test command's background build has not finished) is minutes.
const COLD_BUILD_MS = 30 * 60_000;

test(
  'starts a Gitea whose admin token and new users’ tokens authenticate, and stops it',
  async () => {
    // On the port asked for (gitea-up --port), as a how-to that names it needs.
    const port = await freePort();
    const gitea = await startGitea({ port });
    let stopped = false;
    try {
      expect(gitea.url).toBe(`http://127.0.0.1:${port}`);
      const as = async (token: string) => {
        const res = await fetch(`${gitea.apiUrl}/user`, { headers: { authorization: `token ${token}` } });
        return { status: res.status, login: res.ok ? ((await res.json()) as { login: string }).login : undefined };
      };
      expect(await as(gitea.token)).toEqual({ status: 200, login: gitea.adminUser });
      const reviewer = await gitea.createUser('reviewer');
      expect(await as(reviewer.token)).toEqual({ status: 200, login: 'reviewer' });
      expect((await as('not-a-token')).status).toBe(401);
      const version = (await (await fetch(`${gitea.apiUrl}/version`)).json()) as { version: string };
      expect(version.version).toBe('1.26.0');

      await gitea.stop();
      stopped = true;
      await expect(fetch(`${gitea.url}/api/healthz`)).rejects.toThrow();
    } finally {
      if (!stopped) await gitea.stop();
    }
  },
  COLD_BUILD_MS,
);

test(
  'the build is cached outside the clone: asking again reuses it',
  async () => {
    const build = await ensureGitea(createLogger('gitea-test'));
    expect(build.bin.startsWith(giteaCacheDir())).toBe(true);
    expect(existsSync(`${build.staticRoot}/templates`) && existsSync(`${build.staticRoot}/options`)).toBe(true);
    expect(await ensureGitea(createLogger('gitea-test'))).toEqual(build);
  },
  COLD_BUILD_MS,
);
