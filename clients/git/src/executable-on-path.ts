import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Where a search path that is not set leads, as for `execvp` (glibc's default). */
const DEFAULT_SEARCH_PATH = ['/bin', '/usr/bin'].join(path.delimiter);

/**
 * The file `command` names on the search path `searchPath` (PATH's value), as a spawn would find it: the first
 * regular file by that name that this process may execute; undefined if there is none. Looks at the
 * directories only, so it costs no process (a `git --version` would cost one in every process that asks).
 */
export function executableOnPath(command: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? DEFAULT_SEARCH_PATH).split(path.delimiter)) {
    const file = path.join(dir, command); // an empty entry is the current directory, as for execvp
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK); // the kernel's own answer (owner, groups, ACLs, read-only mounts)
    return statSync(file).isFile(); // a directory is "executable" (searchable) too
  } catch {
    return false; // missing or not executable: the next directory may have it
  }
}
