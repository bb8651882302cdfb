import nodeModule from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * Where the farm's processes keep V8's compile cache (Node >= 22.1): a bundle's code is compiled once per
 * machine, not at each start. Undefined when Node's own settings decide: NODE_COMPILE_CACHE (Node enabled
 * the cache there before any code ran) or NODE_DISABLE_COMPILE_CACHE.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv, tmpdir: string): string | undefined {
  if (env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  return path.join(tmpdir, 'farm-compile-cache');
}

type EnableCompileCache = (dir?: string) => { status: number; message?: string; directory?: string };

/**
 * Turns the compile cache on for the modules this process loads from now on; every bundle's wrapper calls it
 * before it imports the entry. Best effort: on a Node without it, or with a directory it cannot write, the
 * process starts all the same, uncached (Node reports that in the status, which a start has no use for).
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const dir = compileCacheDir(env, os.tmpdir());
  const enable = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (!dir || !enable) return;
  try {
    enable(dir);
  } catch (err) {
    // Never a reason not to start; said on stderr only when asked for (NODE_DEBUG=farm-compile-cache).
    if (env.NODE_DEBUG?.includes('farm-compile-cache')) process.stderr.write(`compile cache off: ${String(err)}\n`);
  }
}
