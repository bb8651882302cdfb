// What `docker build .` sends as its context, computed from .dockerignore with Docker's own matching rules (no
// Docker engine runs here): the image must hold every app's sources and none of the test support.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import dockerignore from '@balena/dockerignore';
import { FARM_ENTRIES } from '@farm/runtime';

const root = path.resolve(__dirname, '../..');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);
const rules = readFileSync(path.join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const context = dockerignore({ ignorecase: false }).add(rules).filter(files);

describe('the image build context', () => {
  it('holds no test support: no testing/ folder, no test file', () => {
    expect(context.filter((f) => f.split('/').includes('testing'))).toEqual([]);
    expect(context.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
    // The check can fail: the repository does have such files.
    expect(files.some((f) => f.split('/').includes('testing'))).toBe(true);
  });

  it('holds every app entry point, the contracts and the lockfile', () => {
    for (const app of ['orchestrator', 'request-planner', 'code-planner', 'srm', 'rag-service']) {
      expect(context).toContain(`apps/${app}/src/main.ts`);
    }
    expect(context).toEqual(
      expect.arrayContaining(['apps/coding-agent/src/job.ts', 'apps/coding-agent/src/worker.ts', 'pnpm-lock.yaml']),
    );
    expect(context.some((f) => f.startsWith('proto/gen/'))).toBe(true);
  });

  it('holds what the image builds its bundles from: every entry the farm starts, and the build script', () => {
    expect(context).toEqual(expect.arrayContaining([...Object.values(FARM_ENTRIES), 'scripts/build-entries.ts']));
  });

  it('never ships what is built or kept on a machine (node_modules, caches, farm state)', () => {
    expect(context.filter((f) => /(^|\/)(node_modules|\.cache|\.farm)\//.test(f))).toEqual([]);
  });
});
