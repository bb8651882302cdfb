import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leadingProgram, visiblePath, whyNotRunnable } from './runnable';

describe('the program a check starts with', () => {
  it('is the first word after assignments, when it can be told without running anything', () => {
    expect(leadingProgram('pytest -q')).toBe('pytest');
    expect(leadingProgram('CI=1 NODE_ENV=test npx jest && echo done')).toBe('npx');
    expect(leadingProgram('cd sub && make test')).toBe('cd');
    expect(leadingProgram('./run-tests.sh')).toBeUndefined(); // the repository's own: the model may make it
    expect(leadingProgram('$RUNNER test')).toBeUndefined();
    expect(leadingProgram('(cd sub && make)')).toBeUndefined();
    expect(leadingProgram('echo "unterminated')).toBeUndefined();
  });

  it('hides PATH directories under /tmp when the run gets a private /tmp', () => {
    expect(visiblePath('/tmp/tools/bin:/usr/bin:/tmp:/opt/tmp/bin', true)).toBe('/usr/bin:/opt/tmp/bin');
    expect(visiblePath('/tmp/tools/bin:/usr/bin', false)).toBe('/tmp/tools/bin:/usr/bin');
  });
});

describe('whether a check can run in the sandbox', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'runnable-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lets installed programs, builtins and keywords through', async () => {
    for (const command of ['git status', 'cd . && true', 'if true; then :; fi', 'export A=1; env'])
      expect(await whyNotRunnable(command, '/usr/bin:/bin', true)).toBeUndefined();
  });

  it('names a program that is not installed, one that is not executable, and one the private /tmp hides', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'mytool'), '#!/bin/sh\necho hi\n');
    chmodSync(join(bin, 'mytool'), 0o755);
    writeFileSync(join(bin, 'plainfile'), 'not a program');
    const path = `${bin}:/usr/bin:/bin`;
    expect(await whyNotRunnable('no-such-tool-here --check', path, true)).toMatch(
      /^`no-such-tool-here` is not a program the checks can run: it is not an executable on the PATH/,
    );
    expect(await whyNotRunnable('plainfile', path, false)).toMatch(/not an executable on the PATH/);
    expect(await whyNotRunnable('mytool', path, false)).toBeUndefined();
    expect(await whyNotRunnable('mytool', path, true)).toMatch(/in a PATH directory under \/tmp/);
  });
});
