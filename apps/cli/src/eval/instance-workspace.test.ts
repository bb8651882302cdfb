import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseInstances } from './instances';
import { repoSource } from './instance-workspace';

const instance = (over: Record<string, unknown> = {}) =>
  parseInstances(
    JSON.stringify({
      instance_id: 'acme__lib-1',
      repo: 'acme/lib',
      base_commit: 'abc1234',
      problem_statement: 'p',
      test_patch: 't',
      FAIL_TO_PASS: '["x"]',
      PASS_TO_PASS: '[]',
      ...over,
    }),
  )[0];

test('the repository: repo_path beside the dataset, then repo_url, then a URL or path in repo itself', () => {
  expect(repoSource(instance({ repo_path: 'lib.bundle', repo_url: 'https://x/y.git' }), '/data')).toBe(
    '/data/lib.bundle',
  );
  expect(repoSource(instance({ repo_url: 'https://git.example.com/lib.git' }), '/data')).toBe(
    'https://git.example.com/lib.git',
  );
  expect(repoSource(instance({ repo: 'file:///srv/lib.git' }), '/data')).toBe('file:///srv/lib.git');
  expect(repoSource(instance({ repo: './mirrors/lib' }), '/data')).toBe('/data/mirrors/lib');
});

test('then a local mirror named after the repository in the mirror directories, else GitHub', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'eval-mirrors-'));
  try {
    expect(repoSource(instance(), '/data', [dir])).toBe('https://github.com/acme/lib.git');
    mkdirSync(path.join(dir, 'acme', 'lib.git'), { recursive: true });
    expect(repoSource(instance(), '/data', [dir])).toBe(path.join(dir, 'acme', 'lib.git'));
    writeFileSync(path.join(dir, 'acme__lib.bundle'), '');
    expect(repoSource(instance(), '/data', [dir])).toBe(path.join(dir, 'acme__lib.bundle'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
