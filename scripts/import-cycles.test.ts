// The cycle check of `pnpm lint` finds the cycles eslint's import-x/no-cycle lets through (type imports,
// re-exports), passes an acyclic project, and finds none in this repository.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findCycles, importCycles } from './import-cycles';

let dir: string;

/** A project of these files (path → text) with a tsconfig including them all. */
function project(files: Record<string, string>): string {
  dir = mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
  const all: Record<string, string> = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'commonjs', moduleResolution: 'node', strict: true },
    }),
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return path.join(dir, 'tsconfig.json');
}

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the import cycle check', () => {
  it('finds a cycle made only of type imports', () => {
    const tsconfig = project({
      'src/a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
      'src/b.ts': "import { type A } from './a';\nexport interface B { a?: A }\n",
    });
    expect(importCycles(tsconfig)).toEqual([
      { path: ['src/a.ts', 'src/b.ts', 'src/a.ts'], modules: ['src/a.ts', 'src/b.ts'] },
    ]);
  });

  it('finds a cycle through re-exports, type-only ones included', () => {
    const tsconfig = project({
      'src/index.ts': "export * from './a';\nexport type { B } from './b';\n",
      'src/a.ts': "export { helper } from './c';\nexport const a = 1;\n",
      'src/b.ts': 'export type B = number;\n',
      'src/c.ts': "export type { B } from './index';\nexport const helper = 2;\n",
    });
    expect(importCycles(tsconfig)).toEqual([
      {
        path: ['src/a.ts', 'src/c.ts', 'src/index.ts', 'src/a.ts'],
        modules: ['src/a.ts', 'src/c.ts', 'src/index.ts'],
      },
    ]);
  });

  it('passes a project whose imports form no cycle', () => {
    const tsconfig = project({
      'src/index.ts': "export * from './a';\nexport type { B } from './b';\n",
      'src/a.ts': "import type { B } from './b';\nimport { c } from './c';\nexport const a: B = c;\n",
      'src/b.ts': "import { c } from './c';\nexport type B = typeof c;\n",
      'src/c.ts': 'export const c = 1;\n',
    });
    expect(importCycles(tsconfig)).toEqual([]);
  });

  it('names every module of a knot of cycles, and a module importing itself', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['a', 'c'])],
      ['c', new Set(['b'])],
      ['d', new Set(['d'])],
      ['e', new Set(['a'])],
    ]);
    expect(findCycles(graph)).toEqual([
      { path: ['a', 'b', 'a'], modules: ['a', 'b', 'c'] },
      { path: ['d', 'd'], modules: ['d'] },
    ]);
  });

  it('finds none in this repository', () => {
    expect(importCycles(path.join(__dirname, '..', 'tsconfig.json'))).toEqual([]);
  });
});
