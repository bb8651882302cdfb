import { extractSymbols, languageOf } from '@farm/rag';
import { z } from '@farm/runtime';
import { defineTool } from './agent-tool';
import { formatMatch, treeTextFiles } from './tree-text';

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
    const definitions: string[] = [];
    const references: string[] = [];
    let truncated = false;
    const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    // One read per file; a file that does not contain the name neither defines nor uses it.
    for await (const { path: file, text } of treeTextFiles(ctx, 'find_symbol')) {
      if (!text.includes(name)) continue;
      const defLines = new Set<number>();
      if (languageOf(file) !== 'other') {
        for (const def of extractSymbols(file, text)) {
          if (def.name !== name) continue;
          const owner = def.container ? ` in ${def.container}` : '';
          definitions.push(`${file}:${def.startLine}-${def.endLine}: ${def.kind} ${def.name}${owner}`);
          for (let l = def.startLine; l <= def.endLine; l++) defLines.add(l);
        }
      }
      const lines = text.split('\n');
      for (let i = 0; i < lines.length && !truncated; i++) {
        if (defLines.has(i + 1) || !word.test(lines[i])) continue;
        if (references.length >= ctx.limits.maxSearchResults) truncated = true;
        else references.push(formatMatch(file, i + 1, lines[i]));
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
