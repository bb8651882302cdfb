// The links of README.md, ARCHITECTURE.md and docs/*.md lead somewhere: files and directories that exist,
// headings that exist (as GitHub slugs them), and every docs page is linked from README.md or docs/README.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { githubSlug, headingAnchors, linkedPaths, linkProblems, pageLinks, type Page } from './docs-links';

const root = path.resolve(__dirname, '..');
const INDEXES = ['README.md', 'docs/README.md'];

function checkoutPages(): Page[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'ARCHITECTURE.md', ...docs].map((p) => ({
    path: p,
    text: readFileSync(path.join(root, p), 'utf8'),
  }));
}

describe('the documentation links', () => {
  it('lead to files, directories and headings that exist, and reach every docs page from an index', () => {
    const pages = checkoutPages();
    const existing = new Set([...linkedPaths(pages)].filter((p) => existsSync(path.join(root, p))));
    const docsPages = pages.map((p) => p.path).filter((p) => p.startsWith('docs/'));
    expect(linkProblems(pages, existing, { indexes: INDEXES, mustBeLinked: docsPages })).toEqual([]);
  });

  it('are there to check: the README links every docs page', () => {
    const links = pageLinks(readFileSync(path.join(root, 'README.md'), 'utf8')).map((l) => l.target);
    const docs = checkoutPages()
      .map((p) => p.path)
      .filter((p) => p.startsWith('docs/'));
    expect(docs.length).toBeGreaterThanOrEqual(9);
    expect(docs.filter((p) => !links.some((l) => l.split('#')[0] === p))).toEqual([]);
  });
});

describe('the link checker', () => {
  const page = (p: string, text: string): Page => ({ path: p, text });

  it('reports a dead file link, a dead anchor and an unlinked page', () => {
    const pages = [
      page('README.md', '# Farm\n\nSee [the API](docs/api.md#routes) and [gone](docs/gone.md).\n'),
      page('docs/api.md', '# API\n\n## Errors\n\nBack to [the top](#api), [nowhere](#routes).\n'),
      page('docs/orphan.md', '# Orphan\n'),
    ];
    const existing = new Set(['README.md', 'docs/api.md', 'docs/orphan.md']);
    const problems = linkProblems(pages, existing, {
      indexes: ['README.md'],
      mustBeLinked: ['docs/api.md', 'docs/orphan.md'],
    });
    expect(problems).toEqual([
      { page: 'README.md', line: 3, target: 'docs/api.md#routes', problem: 'docs/api.md has no heading #routes' },
      { page: 'README.md', line: 3, target: 'docs/gone.md', problem: 'docs/gone.md does not exist' },
      { page: 'docs/api.md', line: 5, target: '#routes', problem: 'docs/api.md has no heading #routes' },
      { page: 'docs/orphan.md', line: 0, target: '', problem: 'not linked from README.md' },
    ]);
  });

  it('resolves links from the linking page, accepts directories, and skips external links and code', () => {
    const pages = [
      page(
        'docs/ops.md',
        [
          '# Ops',
          '[arch](../ARCHITECTURE.md#the-sandbox-in-a-pod), [scripts](../scripts/), [web](https://example.com/x.md)',
          '`[not a link](nowhere.md)` and a link [over two',
          'lines](#ops)',
          '```md',
          '[in a fence](nowhere.md)',
          '# not a heading',
          '```',
        ].join('\n'),
      ),
      page('ARCHITECTURE.md', '# Architecture\n\n## The sandbox in a pod\n'),
    ];
    const existing = new Set(['docs/ops.md', 'ARCHITECTURE.md', 'scripts']);
    expect(linkedPaths(pages)).toEqual(new Set(['ARCHITECTURE.md', 'scripts', 'docs/ops.md']));
    expect(linkProblems(pages, existing)).toEqual([]);
    expect(headingAnchors(pages[0].text)).toEqual(new Set(['ops']));
  });

  it('slugs headings as GitHub does, numbering duplicates', () => {
    expect(githubSlug('The CLI: `farm`')).toBe('the-cli-farm');
    expect(githubSlug('Symbol leases (srm) and retrieval (rag-service)')).toBe(
      'symbol-leases-srm-and-retrieval-rag-service',
    );
    expect(githubSlug('What "done" means: FARM_UNVERIFIED_CHANGES')).toBe('what-done-means-farm_unverified_changes');
    expect(githubSlug('[Linked](x.md) heading')).toBe('linked-heading');
    expect(headingAnchors('# Setup\n\n## Setup\n\n### Setup\n')).toEqual(new Set(['setup', 'setup-1', 'setup-2']));
  });
});
