// The namespace set-up when the host's mounts change under it: a mount that vanishes between reading the mount
// table and remounting it read-only (another program's container or namespace ending) must not turn the run
// away, and must not leave the filesystem writable either.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { namespaceSetup } from './namespace-setup';

const exec = promisify(execFile);
let dir: string;
beforeEach(() => {
  dir = mkdtempSync('/var/tmp/namespace-setup-test-'); // outside /tmp: the set-up covers /tmp
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the set-up in a user and mount namespace in which `vanishing` is a tmpfs that a `mount` wrapper unmounts
 * (and fails) when the set-up asks to remount it, as if it went away meanwhile; it also fails the first
 * `stubbornFailures` remounts of `stubborn`, which stays mounted.
 */
async function setUpWith(opts: { stubbornFailures: number }): Promise<{ code: number; output: string }> {
  const checkout = join(dir, 'checkout');
  const bin = join(dir, 'bin');
  const vanishing = join(dir, 'vanishing');
  const stubborn = join(dir, 'stubborn');
  for (const d of [checkout, bin, vanishing, stubborn]) mkdirSync(d);
  const realMount = (await exec('sh', ['-c', 'command -v mount'])).stdout.trim();
  writeFileSync(
    join(bin, 'mount'),
    [
      '#!/bin/sh',
      `if [ "$1 $2 $3" = "-o remount,bind,ro ${vanishing}" ]; then umount -l "${vanishing}"; echo "mount: ${vanishing}: not mounted" >&2; exit 32; fi`,
      // the count lives on the stubborn tmpfs itself: writable until it is remounted read-only
      `if [ "$1 $2 $3" = "-o remount,bind,ro ${stubborn}" ] && [ "$(cat ${stubborn}/failures)" -gt 0 ]; then`,
      `  echo $(( $(cat ${stubborn}/failures) - 1 )) > ${stubborn}/failures; echo "mount: ${stubborn}: busy" >&2; exit 32`,
      'fi',
      `exec ${realMount} "$@"`,
    ].join('\n'),
  );
  chmodSync(join(bin, 'mount'), 0o755);
  const setup = namespaceSetup({ network: false, filesystem: true }, [checkout], 16 * 1024 * 1024);
  const command = `echo in > inside; (echo out > ${join(dir, 'outside')}) 2>/dev/null && echo wrote-outside; echo ran`;
  try {
    const { stdout, stderr } = await exec(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '--mount',
        'sh',
        '-c',
        `mount -t tmpfs v "${vanishing}" && mount -t tmpfs s "${stubborn}" && echo ${opts.stubbornFailures} > "${stubborn}/failures" && exec "$@"`,
        'outer',
        ...setup,
        'sh',
        '-c',
        command,
      ],
      { cwd: checkout, env: { PATH: `${bin}:/usr/sbin:/usr/bin:/sbin:/bin` } },
    );
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

describe('the namespace set-up', () => {
  it('goes on past a mount that vanished, and still leaves only the checkout writable', async () => {
    const { code, output } = await setUpWith({ stubbornFailures: 0 });
    expect(output).toContain('ran');
    expect(code).toBe(0);
    expect(existsSync(join(dir, 'checkout', 'inside'))).toBe(true);
    expect(output).not.toContain('wrote-outside');
    expect(existsSync(join(dir, 'outside'))).toBe(false);
  });

  it('tries a mount that failed to go read-only again, and stops the run when it keeps failing', async () => {
    const passing = await setUpWith({ stubbornFailures: 2 });
    expect([passing.code, passing.output]).toEqual([0, 'ran\n']);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const failing = await setUpWith({ stubbornFailures: 3 });
    expect(failing.code).toBe(125);
    expect(failing.output).toContain('busy');
    expect(failing.output).toContain('farm-sandbox: cannot make the filesystem read-only');
    expect(existsSync(join(dir, 'checkout', 'inside'))).toBe(false); // the command never ran
  });
});
