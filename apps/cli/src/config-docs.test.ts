import { readFileSync } from 'node:fs';
import path from 'node:path';
import { configVariables } from './config-schemas';

/** The variables named in the first column of the README's configuration table. */
function documentedVariables(): Set<string> {
  const readme = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'));
  const table = section.slice(0, section.indexOf('\n## ', 3));
  const names = table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  return new Set(names);
}

describe('the README configuration table', () => {
  it('documents every variable a configuration schema reads', () => {
    const documented = documentedVariables();
    expect([...configVariables()].filter((v) => !documented.has(v)).sort()).toEqual([]);
  });

  it('names no variable that no schema reads', () => {
    const read = configVariables();
    expect([...documentedVariables()].filter((v) => !read.has(v)).sort()).toEqual([]);
  });
});
