import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  CloneFailed,
  cloneAtCommit,
  commitAll,
  configureGitCredentials,
  gitCliAuth,
  pushBranch,
  redactUrl,
  seedBareRepo,
  splitCredentials,
  startGitHttpServer,
  type GitHttpServer,
} from './index';

const exec = promisify(execFile);
const TOKEN = 's3cr3t-t0ken';
const noCredentials = { FARM_GIT_USERNAME: 'x-access-token' };

describe('git credentials', () => {
  let tmp: string;
  let server: GitHttpServer;
  let url: string;
  let commit: string;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'farm-git-auth-'));
    server = await startGitHttpServer({ root: path.join(tmp, 'git'), auth: { username: 'bot', password: TOKEN } });
    const repo = await server.createBareRepo('private.git');
    url = repo;
    configureGitCredentials({ FARM_GIT_USERNAME: 'bot', FARM_GIT_TOKEN: TOKEN });
    commit = await seedBareRepo({ url, files: { 'a.txt': 'a\n' }, message: 'init' });
  });
  afterAll(async () => {
    configureGitCredentials(noCredentials);
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('a private remote is refused without credentials, with a message that names it', async () => {
    configureGitCredentials(noCredentials);
    const err = await cloneAtCommit({ url, ref: 'main', commit, dir: path.join(tmp, 'anon') }).catch((e) => e);
    expect(err).toBeInstanceOf(CloneFailed);
    expect(err.message).toContain(url);
  });

  it('a token from the environment clones and pushes, and is never written into the clone', async () => {
    configureGitCredentials({ FARM_GIT_USERNAME: 'bot', FARM_GIT_TOKEN: TOKEN });
    const dir = path.join(tmp, 'env');
    await cloneAtCommit({ url, ref: 'main', commit, dir });
    await writeFile(path.join(dir, 'b.txt'), 'b\n');
    await commitAll({ dir, message: 'b', author: { name: 't', email: 't@x' }, branch: 'agt/t1' });
    await pushBranch({ dir, url, branch: 'agt/t1' });
    expect(await readFile(path.join(dir, '.git', 'config'), 'utf8')).not.toContain(TOKEN);
  });

  it('a credentials file matches by host and the longest path; credentials in a URL are taken out of it', async () => {
    const file = path.join(tmp, 'credentials');
    const host = new URL(url).host;
    await writeFile(file, `# farm\nhttp://someone:wrong@${host}\nhttp://bot:${TOKEN}@${host}/private.git\n`);
    configureGitCredentials({ FARM_GIT_USERNAME: 'x-access-token', FARM_GIT_CREDENTIALS_FILE: file });
    expect(splitCredentials(url).auth).toEqual({ username: 'bot', password: TOKEN });
    expect(splitCredentials(`http://${host}/other.git`).auth).toEqual({ username: 'someone', password: 'wrong' });
    const dir = path.join(tmp, 'file');
    await cloneAtCommit({ url, ref: 'main', commit, dir });

    configureGitCredentials(noCredentials);
    const inUrl = url.replace('://', `://bot:${TOKEN}@`);
    const dir2 = path.join(tmp, 'in-url');
    await cloneAtCommit({ url: inUrl, ref: 'main', commit, dir: dir2 });
    expect(await readFile(path.join(dir2, '.git', 'config'), 'utf8')).not.toContain(TOKEN);
    expect(redactUrl(inUrl)).toBe(url);
  });

  it('the git command line gets the credentials through its environment, not its config', async () => {
    configureGitCredentials({ FARM_GIT_USERNAME: 'bot', FARM_GIT_TOKEN: TOKEN });
    const { url: bare, env } = gitCliAuth(url);
    const dir = path.join(tmp, 'cli');
    await exec('git', ['clone', '--quiet', bare, dir], { env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0' } });
    expect(await readFile(path.join(dir, '.git', 'config'), 'utf8')).not.toContain(TOKEN);
    const anonymous = await exec('git', ['clone', '--quiet', bare, path.join(tmp, 'cli2')], {
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    }).catch((e) => e);
    expect(anonymous.code).toBe(128);
    expect(String(anonymous.stderr)).toMatch(/Authentication|could not read Username|401/);
  });
});
