import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FARM_ROOT, bundlePath } from '@farm/runtime';
import { readMetafile, startLoadByPackage } from './bundle-start-load';

// On the bundles the test set-up builds (pnpm build): what a task's process loads before it reads its task.
describe('what a task process loads at start', () => {
  const meta = readMetafile();

  it('an agent loads its model client and git, not the Kafka, PostgreSQL or PGlite clients it may never use', () => {
    const agent = startLoadByPackage(meta, 'agent-job');
    expect([...agent.keys()]).toEqual(expect.arrayContaining(['openai', 'isomorphic-git', 'apps/coding-agent']));
    // openai on Node's own fetch: none of its node-fetch shims.
    for (const unused of ['kafkajs', 'pg', '@electric-sql/pglite', '@kubernetes/client-node', 'node-fetch', 'tr46'])
      expect(agent.has(unused)).toBe(false);
  });

  it('a build loads neither Kafka nor the Kubernetes client of the launchers', () => {
    const build = startLoadByPackage(meta, 'build-job');
    expect(build.has('apps/builder')).toBe(true);
    for (const unused of ['kafkajs', 'pg', '@electric-sql/pglite', '@kubernetes/client-node'])
      expect(build.has(unused)).toBe(false);
  });
});

describe("a task process's compile cache", () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(path.join(os.tmpdir(), 'farm-compile-cache-test-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));
  /** The agent without a task: it loads everything, then exits 64. */
  const startAgent = (env: NodeJS.ProcessEnv) => {
    const inherited = { ...process.env };
    delete inherited.NODE_COMPILE_CACHE; // Node's own settings: it would decide before the farm's code runs
    delete inherited.NODE_DISABLE_COMPILE_CACHE;
    return spawnSync(process.execPath, [bundlePath('agent-job')], {
      cwd: FARM_ROOT,
      env: { ...inherited, FARM_TASK: '', ...env },
      encoding: 'utf8',
    });
  };
  const [major, minor] = process.versions.node.split('.').map(Number);
  const nodeHasCompileCache = major > 22 || (major === 22 && minor >= 1);

  it('keeps the compiled bundle under the temp dir where Node has a compile cache', () => {
    const r = startAgent({ TMPDIR: tmp });
    expect(r.status).toBe(64);
    const cache = path.join(tmp, 'farm-compile-cache');
    if (nodeHasCompileCache) expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(1);
    else expect(existsSync(cache)).toBe(false);
  });

  it('starts all the same when the cache cannot be written', () => {
    writeFileSync(path.join(tmp, 'farm-compile-cache'), 'a file, not a directory');
    const r = startAgent({ TMPDIR: tmp });
    expect(r.status).toBe(64);
    expect(r.stderr).not.toMatch(/compile cache/i);
  });
});
