import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { extractSymbols, languageOf } from '@farm/rag';
import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';
import { listTreeFiles } from './list-tree-files';
import { formatMatch } from './tree-text';

export const findSymbol = defineTool(
  'find_symbol',
  'Find where a function, class, method, type or variable is defined (TypeScript/JavaScript and Python) and the lines that refer to it.',
  z
    .object({
      name: z
        .string()
        .regex(/^[A-Za-z_$][\w$]*$/, 'a plain identifier')
        .describe('the symbol name, e.g. multiply or Client'),
    })
    .strict(),
  async ({ name }, ctx) => {
    const { entries } = await listTreeFiles(ctx.root, { limit: 20_000 });
    const definitions: string[] = [];
    const references: string[] = [];
    let truncated = false;
    const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    // One read per file; a file that does not contain the name neither defines nor uses it.
    for (const e of entries) {
      if (e.symlink) continue;
      const abs = path.join(ctx.root, e.path);
      const info = await stat(abs).catch(() => undefined);
      if (!info?.isFile() || info.size > ctx.limits.maxReadBytes) continue;
      const bytes = await readFile(abs);
      if (bytes.includes(0)) continue;
      const text = bytes.toString('utf8');
      if (!text.includes(name)) continue;
      const defLines = new Set<number>();
      if (languageOf(e.path) !== 'other') {
        for (const def of extractSymbols(e.path, text)) {
          if (def.name !== name) continue;
          const owner = def.container ? ` in ${def.container}` : '';
          definitions.push(`${e.path}:${def.startLine}-${def.endLine}: ${def.kind} ${def.name}${owner}`);
          for (let l = def.startLine; l <= def.endLine; l++) defLines.add(l);
        }
      }
      const lines = text.split('\n');
      for (let i = 0; i < lines.length && !truncated; i++) {
        if (defLines.has(i + 1) || !word.test(lines[i])) continue;
        if (references.length >= ctx.limits.maxSearchResults) truncated = true;
        else references.push(formatMatch(e.path, i + 1, lines[i]));
      }
    }
    const parts = [
      definitions.length ? `DEFINITIONS:\n${definitions.join('\n')}` : `no definition of ${name} found`,
      references.length
        ? `REFERENCES:\n${references.join('\n')}${truncated ? '\n[... more references not shown ...]' : ''}`
        : 'no references outside the definitions',
    ];
    return { output: parts.join('\n\n') };
  },
);
