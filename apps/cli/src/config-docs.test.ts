import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configVariables } from './config-schemas';

/** The variables named in the first column of the configuration table in docs/configuration.md. */
function documentedVariables(): Set<string> {
  const page = readFileSync(path.join(__dirname, '../../../docs/configuration.md'), 'utf8');
  const table = page.slice(page.indexOf('| variable | read by |'));
  const names = table
    .slice(0, table.indexOf('\n\n'))
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  return new Set(names);
}

describe('the configuration table of docs/configuration.md', () => {
  it('documents every variable a configuration schema reads', () => {
    const documented = documentedVariables();
    expect([...configVariables()].filter((v) => !documented.has(v)).sort()).toEqual([]);
  });

  it('names no variable that no schema reads', () => {
    const read = configVariables();
    expect([...documentedVariables()].filter((v) => !read.has(v)).sort()).toEqual([]);
  });
});
