// The documentation site: its sidebar is the index's tables, its checks find what makes a link dead in the site, and
// `vitepress build` with this configuration fails on a dead link (a small site built for real, in a temp dir).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from './docs-links';
import { sidebarFromIndex, siteProblems, siteRoute } from './docs-site';

const root = path.resolve(__dirname, '..');

describe('the site', () => {
  it('gives each page its address: README.md is its directory', () => {
    expect(siteRoute('README.md')).toBe('/');
    expect(siteRoute('docs/README.md')).toBe('/docs/');
    expect(siteRoute('docs/api.md')).toBe('/docs/api');
    expect(siteRoute('ARCHITECTURE.md')).toBe('/ARCHITECTURE');
  });

  it("makes the sidebar of the index's tables, one group per section", () => {
    const index = [
      '# Docs',
      '',
      '## Start here',
      '',
      '| page | what |',
      '|---|---|',
      '| [Getting started](getting-started.md) | the demo |',
      '| [The `farm` CLI](cli.md#top) | commands |',
      '',
      '## By question',
      '',
      '- [Not a table row](api.md)',
      '',
      '## Reference',
      '',
      '| page | what |',
      '|---|---|',
      '| [Architecture](../ARCHITECTURE.md) | design |',
    ].join('\n');
    expect(sidebarFromIndex(index, 'docs/README.md')).toEqual([
      {
        text: 'Overview',
        items: [
          { text: 'agent-farm', link: '/' },
          { text: 'Documentation index', link: '/docs/' },
        ],
      },
      {
        text: 'Start here',
        items: [
          { text: 'Getting started', link: '/docs/getting-started' },
          { text: 'The farm CLI', link: '/docs/cli' },
        ],
      },
      { text: 'Reference', items: [{ text: 'Architecture', link: '/ARCHITECTURE' }] },
    ]);
  });

  it('finds dead files and headings, directory links, raw HTML and pages outside the sidebar', () => {
    const pages: Page[] = [
      {
        path: 'README.md',
        text: '# Farm\n\nSee [docs](docs/README.md) and [the code](apps/) and [x](docs/a.md#nowhere).\n',
      },
      { path: 'docs/README.md', text: '# Docs\n\n## Pages\n\n| page | what |\n|---|---|\n| [A](a.md) | a |\n' },
      { path: 'docs/a.md', text: '# A\n\n[gone](gone.yaml), `<ok>` in code, but <sha> is not; {{ x }}\n' },
      { path: 'docs/b.md', text: '# B\n' },
    ];
    const existing = new Set(['README.md', 'docs/README.md', 'docs/a.md', 'docs/b.md', 'apps']);
    const sidebar = sidebarFromIndex(pages[1].text, 'docs/README.md');
    const problems = siteProblems(pages, existing, (p) => p === 'apps', sidebar).map(
      (p) => `${p.page}:${p.line} ${p.target} ${p.problem.split(':')[0]}`,
    );
    expect(problems).toEqual([
      'README.md:3 docs/a.md#nowhere docs/a.md has no heading #nowhere',
      'docs/a.md:3 gone.yaml docs/gone.yaml does not exist',
      'README.md:3 apps/ apps is a directory',
      'docs/a.md:3 <sha> raw HTML, which GitHub drops or renders and the site shows as text',
      'docs/a.md:3 {{ Vue would read {{ as an expression',
      'docs/b.md:0  not in the sidebar',
    ]);
  });
});

describe('vitepress build with the site configuration', () => {
  const vitepress = path.join(root, 'node_modules/vitepress/bin/vitepress.js');
  let dir: string;
  beforeAll(() => {
    // Inside the checkout: VitePress's server bundle resolves vue from the site's own directory upwards.
    mkdirSync(path.join(root, '.cache'), { recursive: true });
    dir = mkdtempSync(path.join(root, '.cache/docs-site-test-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write('README.md', '# Tiny\n\nThe [documentation](docs/README.md), [a table](docs/table.md#the-table).\n');
    write('docs/README.md', '# Docs\n\n## Pages\n\n| page | what |\n|---|---|\n| [A table](table.md) | one |\n');
    write('docs/table.md', '# A table\n\n## The table\n\nBack [home](../README.md); [the data](../data/x.yaml).\n');
    write('data/x.yaml', 'x: 1\n');
    write(
      'docs/.vitepress/config.mts',
      `import { docsSite } from ${JSON.stringify(path.join(root, 'scripts/docs-site.ts'))};\n` +
        `export default docsSite(${JSON.stringify(dir)});\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const build = () => {
    const run = spawnSync(process.execPath, [vitepress, 'build', path.join(dir, 'docs')], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 120_000,
    });
    return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
  };
  const page = (text: string) =>
    writeFileSync(path.join(dir, 'docs/table.md'), `# A table\n\n## The table\n\n${text}\n`);

  it('fails on a link to a page that does not exist (VitePress)', () => {
    page('See [the missing page](missing.md).');
    const dead = build();
    expect(dead.output).toMatch(/dead link \S*missing/i);
    expect(dead.status).not.toBe(0);
  }, 120_000);

  it('fails on a heading that does not exist, after building the pages and copying the linked files', () => {
    page('Back [home](../README.md#tiny); [the data](../data/x.yaml); [no such heading](#the-tables).');
    const dead = build();
    const out = path.join(dir, '.cache/docs-site');
    expect(readFileSync(path.join(out, 'docs/table.html'), 'utf8')).toContain('id="the-table"');
    expect(readFileSync(path.join(out, 'data/x.yaml'), 'utf8')).toBe('x: 1\n'); // a linked file, copied
    expect(dead.output).toContain('docs/table.md:5: #the-tables: docs/table.md has no heading #the-tables');
    expect(dead.status).not.toBe(0);
  }, 120_000);
});
