/**
 * What a built entry loads when it starts: the code of its entry chunk and of every chunk those import
 * statically, by package (a dynamically imported chunk is loaded only when the code that imports it runs).
 * Read from the build's `dist/metafile.json`; the start-up bench prints it, a test holds the entries to it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { DIST_DIR, FARM_ROOT, bundlePath, type FarmEntry } from '@farm/runtime';

export function readMetafile(root = FARM_ROOT): Metafile {
  return JSON.parse(readFileSync(path.join(root, DIST_DIR, 'metafile.json'), 'utf8')) as Metafile;
}

/**
 * Bytes of code an entry loads at start, by package: its node_modules package name, else the farm's folder
 * (`apps/coding-agent`, `clients/bus`). An entry's wrapper and the real entry it imports after the freshness
 * check both count; the real entry's own dynamic imports do not.
 */
export function startLoadByPackage(meta: Metafile, entry: FarmEntry): Map<string, number> {
  const wrapper = bundlePath(entry);
  const output = meta.outputs[wrapper];
  if (!output) throw new Error(`the build's metafile has no output ${wrapper}`);
  const starts = [wrapper, ...output.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path)];
  const seen = new Set<string>();
  const bytes = new Map<string, number>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[out]?.inputs ?? {})) {
      const name = packageOf(input);
      bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
    }
    for (const i of meta.outputs[out]?.imports ?? []) {
      if (i.kind === 'import-statement' && !i.external) visit(i.path);
      // A package the bundle imports from node_modules as it is (PGlite): loaded, its size not in the metafile.
      else if (i.kind === 'import-statement' && i.path.includes('node_modules/')) bytes.set(packageOf(i.path), 0);
    }
  };
  starts.forEach(visit);
  return bytes;
}

/** `node_modules/.pnpm/pg@8/node_modules/pg/lib/x.js` → `pg`; `clients/bus/src/x.ts` → `clients/bus`. */
export function packageOf(input: string): string {
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(input);
  return m ? m[1] : input.split('/').slice(0, 2).join('/');
}
