// What a repository's checks can read of the git credentials: the checkout is shared with the pod's sandbox
// runner (and on one machine the checks read it too), so neither the agent's clone (both git clients) nor the
// build's (the git command line with gitCliAuth) may leave the token anywhere in it, .git/config included.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  cloneAtCommit,
  configureGitCredentials,
  gitCliAuth,
  seedBareRepo,
  startGitHttpServer,
  type GitHttpServer,
} from './index';

const exec = promisify(execFile);
const TOKEN = `ghp_checkout_${process.pid}_secret`;
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

let tmp: string;
let server: GitHttpServer;
let url: string;
let commit: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-git-credentials-'));
  server = await startGitHttpServer({
    root: path.join(tmp, 'srv'),
    auth: { username: 'x-access-token', password: TOKEN }, // a private repository
  });
  configureGitCredentials({ FARM_GIT_TOKEN: TOKEN, FARM_GIT_USERNAME: 'x-access-token' });
  commit = await seedBareRepo({ server, name: 'private.git', files: { 'README.md': '# private\n' }, message: 'init' });
  url = server.repoUrl('private.git');
});
afterAll(async () => {
  configureGitCredentials({ FARM_GIT_USERNAME: 'x-access-token' });
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Every file under `dir` (.git included) that holds the token, its basic-auth form, or a URL with user info. */
async function filesWithCredentials(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = (await readFile(file)).toString('latin1');
    if (text.includes(TOKEN) || text.includes(BASIC) || /https?:\/\/[^/\s@]+@/.test(text))
      found.push(path.relative(dir, file));
  }
  return found;
}

describe('a checkout made with the farm’s git credentials', () => {
  it.each(['git-cli', 'isomorphic-git'] as const)('holds none of them when the agent clones with %s', async (via) => {
    const dir = path.join(tmp, `agent-${via}`);
    await cloneAtCommit({ url, ref: 'main', commit, dir, via });
    expect(await filesWithCredentials(dir)).toEqual([]);
    const config = await readFile(path.join(dir, '.git', 'config'), 'utf8');
    expect(config).toContain(`url = ${url}`); // the bare URL: the token is sent per request, never stored
    expect(config).not.toMatch(/extraheader|credential|insteadof/i);
  });

  it('holds none of them when the build clones with the git command line', async () => {
    const dir = path.join(tmp, 'build');
    const auth = gitCliAuth(url);
    expect(auth.env.GIT_CONFIG_VALUE_0).toBe(`Authorization: Basic ${BASIC}`); // sent, in the process's env only
    await exec('git', ['clone', '--quiet', '--no-checkout', auth.url, dir], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...auth.env },
    });
    expect(await filesWithCredentials(dir)).toEqual([]);
  });
});
