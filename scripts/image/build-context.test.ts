import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildContextFingerprint } from './build-context';

describe('what an image build reads from the checkout', () => {
  let root: string;
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'farm-build-context-test-'));
    write('.dockerignore', '**/node_modules\n.cache\n**/*.test.ts\n');
    write('Dockerfile', 'FROM node:24-slim\n');
    write('apps/a/src/main.ts', 'export {};\n');
    write('apps/a/src/main.test.ts', 'test\n');
    write('apps/a/node_modules/x/index.js', 'x\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('changes with a file of the context and with the Dockerfile, not with what .dockerignore leaves out', () => {
    const first = buildContextFingerprint(root);
    write('apps/a/node_modules/x/index.js', 'y\n');
    write('apps/a/src/main.test.ts', 'another test\n');
    write('.cache/log', 'z\n');
    expect(buildContextFingerprint(root)).toBe(first);
    write('apps/a/src/main.ts', 'export const a = 1;\n');
    const second = buildContextFingerprint(root);
    expect(second).not.toBe(first);
    write('Dockerfile', 'FROM node:24-slim AS x\n');
    expect(buildContextFingerprint(root)).not.toBe(second);
  });

  it('changes when a file is only touched (a stat, no read: the build itself then finds it unchanged)', () => {
    const first = buildContextFingerprint(root);
    utimesSync(path.join(root, 'apps/a/src/main.ts'), new Date(), new Date(Date.now() + 5000));
    expect(buildContextFingerprint(root)).not.toBe(first);
  });
});
