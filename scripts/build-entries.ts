/**
 * Builds every entry of the farm (FARM_ENTRIES) into one ES module bundle each under `dist/` (shared code in
 * chunks beside them, loaded when first imported: a CLI command loads only what it uses), with source maps,
 * for the Node.js running this; then writes `dist/manifest.json`, the content hash of every input per entry
 * (and its quick form without node_modules, which each start checks).
 *
 *   node --import tsx scripts/build-entries.ts            builds (pnpm build)
 *   node --import tsx scripts/build-entries.ts --check    fails naming the entries whose bundle is stale (pnpm build:check)
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import {
  DIST_DIR,
  FARM_ENTRIES,
  FARM_ROOT,
  LOCKFILE,
  nodeTarget,
  bundlePath,
  contentHash,
  staleEntries,
  writeManifests,
  type BuildManifest,
} from '@farm/runtime';

/**
 * Loaded from node_modules at run time: PGlite finds its wasm and data files beside its own module. The
 * bundle imports it by its path in the install (the image installs the same lockfile at the same place).
 */
const FROM_NODE_MODULES = ['@electric-sql/pglite'];
/** Optional native add-ons that packages try to load and do without (absent here). */
const OPTIONAL_NATIVE = ['pg-native', 'bufferutil', 'utf-8-validate', 'kerberos', 'snappy', 'lz4'];

/**
 * Each chunk starts with this: `require` for the CommonJS packages bundled into ES modules, and the repository
 * root (dist's parent) for the sources' `__dirname` (see sourceDirs).
 */
const BANNER = [
  "import { createRequire as __farmCreateRequire } from 'node:module';",
  "import { fileURLToPath as __farmFileURLToPath } from 'node:url';",
  "import __farmPath from 'node:path';",
  'const require = __farmCreateRequire(import.meta.url);',
  'const __farmRoot = __farmPath.resolve(__farmPath.dirname(__farmFileURLToPath(import.meta.url)), "..");',
  'const __farmSourceDir = (dir) => __farmPath.join(__farmRoot, dir);',
  'const __farmRequireFrom = (dir) => __farmCreateRequire(__farmPath.join(__farmRoot, dir, "_"));',
].join('\n');

/**
 * The farm's sources find files beside them (`__dirname`: the OpenAPI document, the console) and resolve
 * packages from their own folder (`require.resolve`): both are kept relative to the source's folder in the
 * checkout, so a bundle works wherever the repository is (the image's /app is one).
 */
const sourceDirs: Plugin = {
  name: 'farm-source-dirs',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('__dirname') && !text.includes('require.resolve(')) return undefined;
      const dir = JSON.stringify(path.relative(FARM_ROOT, path.dirname(args.path)));
      return {
        loader: 'ts',
        contents: text
          .replace(/\b__dirname\b/g, `__farmSourceDir(${dir})`)
          .replace(/\brequire\.resolve\(/g, `__farmRequireFrom(${dir}).resolve(`),
      };
    });
  },
};

/** FROM_NODE_MODULES: resolved where the importer would find them, imported by that path relative to dist. */
const fromNodeModules: Plugin = {
  name: 'farm-from-node-modules',
  setup(b) {
    const filter = new RegExp(`^(${FROM_NODE_MODULES.map((m) => m.replace(/[/.]/g, '\\$&')).join('|')})(/|$)`);
    b.onResolve({ filter }, async (args) => {
      if (args.pluginData?.skip) return undefined; // the resolve below
      const found = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: { skip: true },
      });
      if (found.errors.length) return { errors: found.errors };
      const rel = path.relative(path.join(FARM_ROOT, DIST_DIR), found.path).split(path.sep).join('/');
      return { path: rel.startsWith('.') ? rel : `./${rel}`, external: true };
    });
  },
};

/**
 * openai v4 picks its automatic fetch shims by the `node` condition: node-fetch and its polyfills. The farm's
 * model client installs the web shims (Node's own fetch) before openai loads (clients/llm/src/client.ts), so
 * the automatic ones are never used: the bundle takes the web ones, which load nothing.
 */
const openaiWebShims: Plugin = {
  name: 'farm-openai-web-shims',
  setup(b) {
    b.onResolve({ filter: /^openai\/_shims\/auto\/runtime$/ }, (args) => {
      const shims = path.dirname(args.importer);
      if (path.basename(shims) !== '_shims') return undefined;
      return { path: path.join(shims, 'auto', 'runtime.js') };
    });
  },
};

/**
 * `require('punycode')` (tough-cookie, under the Kubernetes client's request) is Node's deprecated core module,
 * which prints DEP0040 on Node 21+ to every process that loads it, before its own first line: the userland package
 * of the same name and API (a dependency of the module asking for it) is bundled instead.
 */
const userlandPunycode: Plugin = {
  name: 'farm-userland-punycode',
  setup(b) {
    b.onResolve({ filter: /^punycode$/ }, (args) => {
      try {
        return { path: require.resolve('punycode/', { paths: [args.resolveDir] }) };
      } catch {
        return undefined; // not a dependency there: Node's own, as before
      }
    });
  },
};

/**
 * The farm's modules have no side effects on import (nothing is imported for them alone), so a module none of
 * whose exports an entry uses is left out: an agent does not carry the Kubernetes client a re-export would pull.
 * Not so across chunks: a module another entry uses sits in a chunk every entry whose imports (re-exports
 * included) reach it loads, so what a task process must not load is imported dynamically where it is used
 * (KafkaBus.connect, the stores); scripts/bundle-start-load.ts shows what an entry loads at start.
 */
const workspaceWithoutSideEffects: Plugin = {
  name: 'farm-workspace-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /^(\.|@farm\/)/ }, async (args) => {
      if (args.pluginData?.skip || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const found = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { skip: true },
      });
      if (found.errors.length || found.external) return undefined;
      if (!found.path.endsWith('.ts') || found.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      return { path: found.path, sideEffects: false };
    });
  },
};

/**
 * Each entry is a wrapper that turns on V8's compile cache where Node has one (compile-cache.ts) and checks,
 * in a checkout, that its bundle is fresh before the entry's own module (a chunk of its own, imported after
 * the check) runs.
 */
const freshEntries: Plugin = {
  name: 'farm-fresh-entries',
  setup(b) {
    b.onResolve({ filter: /^farm-entry:/ }, (args) => ({
      path: args.path.slice('farm-entry:'.length),
      namespace: 'farm-entry',
    }));
    b.onLoad({ filter: /.*/, namespace: 'farm-entry' }, (args) => {
      const name = args.path as keyof typeof FARM_ENTRIES;
      return {
        resolveDir: FARM_ROOT,
        loader: 'ts',
        contents: [
          "import { assertBundleFresh } from './clients/runtime/src/farm-entries';",
          "import { enableCompileCache } from './clients/runtime/src/compile-cache';",
          'enableCompileCache();',
          'try {',
          `  assertBundleFresh(${JSON.stringify(name)});`,
          '} catch (err) {',
          `  process.stderr.write(\`${name}: \${(err as Error).message}\\n\`);`,
          '  process.exit(78);',
          '}',
          `await import(${JSON.stringify(`./${FARM_ENTRIES[name]}`)});`,
        ].join('\n'),
      };
    });
  },
};

async function buildAll(): Promise<BuildManifest> {
  const builtAtMs = Date.now(); // before reading any input: a file changed while building counts as changed
  const dist = path.join(FARM_ROOT, DIST_DIR);
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  const names = Object.keys(FARM_ENTRIES) as (keyof typeof FARM_ENTRIES)[];
  const result = await build({
    absWorkingDir: FARM_ROOT,
    entryPoints: names.map((name) => ({ in: `farm-entry:${name}`, out: name })),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: nodeTarget(),
    outdir: DIST_DIR,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    // The packages' CommonJS builds, as tsx and jest run them (some ESM builds read import.meta.url).
    mainFields: ['main', 'module'],
    conditions: ['node', 'require'],
    banner: { js: BANNER },
    external: OPTIONAL_NATIVE,
    plugins: [freshEntries, userlandPunycode, fromNodeModules, openaiWebShims, workspaceWithoutSideEffects, sourceDirs],
    metafile: true,
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
  });
  // For `esbuild --analyze`-style questions (what an entry carries, and why): https://esbuild.github.io/analyze/
  writeFileSync(path.join(dist, 'metafile.json'), JSON.stringify(result.metafile));
  return { builtAtMs, target: nodeTarget(), entries: entriesOf(names, result.metafile) };
}

/** Per entry, every input of its bundle and of the chunks it imports, statically or not, with their hashes. */
function entriesOf(names: string[], meta: Metafile): BuildManifest['entries'] {
  const entries: BuildManifest['entries'] = {};
  for (const name of names) {
    const output = bundlePath(name as keyof typeof FARM_ENTRIES);
    const inputs: Record<string, string> = {};
    const seen = new Set<string>();
    const visit = (out: string) => {
      if (seen.has(out)) return;
      seen.add(out);
      const o = meta.outputs[out];
      if (!o) throw new Error(`the build's metafile has no output ${out}`);
      for (const input of Object.keys(o.inputs)) {
        if (!input.includes(':')) inputs[input] ??= contentHash(path.join(FARM_ROOT, input)); // not a virtual module
      }
      for (const imp of o.imports) if (!imp.external) visit(imp.path);
    };
    visit(output);
    inputs[LOCKFILE] = contentHash(path.join(FARM_ROOT, LOCKFILE)); // what node_modules holds
    entries[name] = { source: FARM_ENTRIES[name as keyof typeof FARM_ENTRIES], output, inputs };
  }
  return entries;
}

async function main(): Promise<void> {
  const names = Object.keys(FARM_ENTRIES);
  if (process.argv.includes('--check')) {
    const stale = staleEntries(FARM_ROOT, names, 'hash');
    if (stale.length) {
      process.stderr.write(`build:check: stale or missing bundles: ${stale.join(', ')}; run \`pnpm build\`\n`);
      process.exit(1);
    }
    process.stdout.write(`build:check: ${names.length} bundles match their sources\n`);
    return;
  }
  const started = Date.now();
  const manifest = await buildAll();
  writeManifests(FARM_ROOT, manifest);
  const files = new Set(Object.values(manifest.entries).flatMap((e) => Object.keys(e.inputs)));
  process.stdout.write(`build: ${names.length} entries from ${files.size} files in ${Date.now() - started} ms\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`build: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
