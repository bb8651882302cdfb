/** The Gitea of the forge tests: built once, cached outside the clone. */
import { existsSync } from 'node:fs';
import { createLogger } from '@farm/runtime';
import { ensureGitea, giteaCacheDir } from './gitea';

// A cold build (when the test command's background build has not finished) is minutes.
const COLD_BUILD_MS = 30 * 60_000;

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
