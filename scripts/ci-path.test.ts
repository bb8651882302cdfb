// .ci/run's PATH: pnpm, pnpx and corepack fail as on a fresh machine, and a tool that the test command installs
// after the PATH was made (apt's chromium into /usr/bin on a new machine) is found by the tests all the same.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ci-path-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function executable(file: string, body: string): void {
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

/** Runs `script` in bash on the PATH .ci/run makes from `pathDirs`. */
function onCiPath(pathDirs: string[], script: string): string {
  const shims = path.join(dir, 'shims');
  mkdirSync(shims);
  return execFileSync(
    '/bin/bash',
    ['--norc', '--noprofile', '-c', `set -e; . .ci/path.sh; PATH=$(ci_shadow_pnpm "${shims}"); export PATH; ${script}`],
    { cwd: root, env: { PATH: [...pathDirs, '/usr/bin', '/bin'].join(':') }, encoding: 'utf8' },
  );
}

describe(".ci/run's PATH", () => {
  it('finds a tool installed into a directory that also holds corepack, after the PATH was made', () => {
    // A machine's /usr/bin: corepack and a working pnpm live there; chromium arrives later, from apt.
    const usrBin = path.join(dir, 'usr-bin');
    mkdirSync(usrBin);
    executable(path.join(usrBin, 'corepack'), 'echo corepack-works');
    executable(path.join(usrBin, 'pnpm'), 'echo 9.15.9');
    const out = onCiPath(
      [usrBin],
      [
        `printf '#!/bin/sh\\necho chromium-runs\\n' > "${usrBin}/chromium"`,
        `chmod +x "${usrBin}/chromium"`,
        'chromium',
        'if pnpm --version; then echo pnpm-ran; fi',
        'if corepack --version; then echo corepack-ran; fi',
        'if pnpx --version; then echo pnpx-ran; fi',
      ].join('; '),
    );
    expect(out.split('\n')).toContain('chromium-runs');
    expect(out).not.toMatch(/pnpm-ran|corepack-ran|pnpx-ran|9\.15\.9|corepack-works/);
  });

  it('keeps every other directory of the PATH in its order, after the shims', () => {
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    mkdirSync(a);
    mkdirSync(b);
    executable(path.join(a, 'tool'), 'echo from-a');
    executable(path.join(b, 'tool'), 'echo from-b');
    executable(path.join(b, 'pnpm'), 'echo 9.15.9');
    const out = onCiPath([a, b], 'tool; echo "$PATH"').trim().split('\n');
    expect(out[0]).toBe('from-a');
    expect(out[1]).toBe([path.join(dir, 'shims'), a, b, '/usr/bin', '/bin'].join(':'));
  });
});
