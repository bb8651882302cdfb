/**
 * The documentation site: VitePress over the same Markdown files GitHub shows (README.md, ARCHITECTURE.md and
 * docs/), with the same links. docs/.vitepress/config.mts is `docsSite(<the checkout>)`; docs-site.test.ts builds a
 * small tree with it.
 *
 * - The site's source is the repository root, so a relative link means in the site what it means on GitHub:
 *   README.md is the home page, docs/README.md the index (`/docs/`), every other page keeps its path
 *   (`docs/api.md` is `/docs/api.html`). A link to any other file of the repository (`../apps/orchestrator/openapi.yaml`)
 *   is to that file, copied into the site at the same path.
 * - Headings get GitHub's anchors (githubSlug), so `api.md#access-control` lands on the same heading in both.
 * - The sidebar and the top menu are docs/README.md's tables: each `##` section with a table is a group, each row's
 *   first link a page.
 * - The build fails on a dead link: VitePress's own check (a page that does not exist), and siteProblems (a file that
 *   does not exist, a heading that does not exist, a link to a directory, a page missing from the sidebar).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { DefaultTheme, UserConfig } from 'vitepress';
import { githubSlug, linkedPaths, linkProblems, pageLinks, resolveLink, withoutCode, type Page } from './docs-links';

/** The index page whose tables make the sidebar, and the pages beside docs/ that the site holds. */
export const INDEX_PAGE = 'docs/README.md';
const ROOT_PAGES = ['README.md', 'ARCHITECTURE.md'];

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** The site's pages, from the repository root: README.md, ARCHITECTURE.md and every .md under docs/. */
export function sitePagePaths(root: string): string[] {
  const under = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((e) => !e.name.startsWith('.'))
      .flatMap((e) => {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) return under(rel);
        return e.name.endsWith('.md') ? [rel] : [];
      });
  return [...ROOT_PAGES.filter((p) => existsSync(path.join(root, p))), ...under('docs')].sort();
}

/** A page's address in the site: `README.md` → `/`, `docs/README.md` → `/docs/`, `docs/api.md` → `/docs/api`. */
export function siteRoute(page: string): string {
  const dir = path.posix.dirname(page);
  const name = path.posix.basename(page, '.md');
  const prefix = dir === '.' ? '/' : `/${dir}/`;
  return name === 'README' || name === 'index' ? prefix : `${prefix}${name}`;
}

/**
 * The sidebar: one group per `##` section of the index that has a table, one item per row (its first link), in
 * the index's order, after the home page and the index itself.
 */
export function sidebarFromIndex(indexText: string, indexPath = INDEX_PAGE): DefaultTheme.SidebarItem[] {
  const groups: DefaultTheme.SidebarItem[] = [
    {
      text: 'Overview',
      items: [
        { text: 'agent-farm', link: siteRoute('README.md') },
        { text: 'Documentation index', link: siteRoute(indexPath) },
      ],
    },
  ];
  let group: DefaultTheme.SidebarItem | undefined;
  for (const line of indexText.split('\n')) {
    const heading = /^##\s+(.*?)\s*$/.exec(line);
    if (heading) {
      group = { text: heading[1], items: [] };
      continue;
    }
    const row = /^\|\s*\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)/.exec(line);
    if (!row || !group) continue;
    if (!group.items!.length) groups.push(group);
    const to = resolveLink(indexPath, row[2]).path;
    group.items!.push({ text: row[1].replace(/`/g, ''), link: siteRoute(to) });
  }
  return groups;
}

/** The routes a sidebar leads to. */
function sidebarRoutes(items: DefaultTheme.SidebarItem[]): Set<string> {
  const routes = new Set<string>();
  for (const item of items) {
    if (item.link) routes.add(item.link);
    if (item.items) for (const r of sidebarRoutes(item.items)) routes.add(r);
  }
  return routes;
}

export interface SiteProblem {
  page: string;
  line: number;
  target: string;
  problem: string;
}

/**
 * What makes the site's links dead beyond the pages VitePress checks itself: a file or heading that does not exist
 * (as docs-links checks them), a link to a directory (the site has no listing of one), and a page the sidebar
 * does not lead to. `isDirectory` says which existing paths are directories.
 */
export function siteProblems(
  pages: Page[],
  existing: ReadonlySet<string>,
  isDirectory: (p: string) => boolean,
  sidebar: DefaultTheme.SidebarItem[],
): SiteProblem[] {
  const problems: SiteProblem[] = linkProblems(pages, existing);
  const pagePaths = new Set(pages.map((p) => p.path));
  for (const page of pages)
    for (const { line, target } of pageLinks(page.text)) {
      if (external(target) || target.startsWith('#')) continue;
      const to = resolveLink(page.path, target).path;
      if (!pagePaths.has(to) && existing.has(to) && isDirectory(to))
        problems.push({ page: page.path, line, target, problem: `${to} is a directory: link a file in it` });
    }
  for (const page of pages)
    withoutCode(page.text)
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(/<\/?[A-Za-z][^>\s]*>?|<!--|\{\{/g))
          problems.push({
            page: page.path,
            line: i + 1,
            target: m[0],
            problem:
              m[0] === '{{'
                ? 'Vue would read {{ as an expression: put it in a code span'
                : 'raw HTML, which GitHub drops or renders and the site shows as text: put it in a code span or write &lt;',
          });
      });
  const routes = sidebarRoutes(sidebar);
  for (const page of pages)
    if (!routes.has(siteRoute(page.path)))
      problems.push({
        page: page.path,
        line: 0,
        target: '',
        problem: `not in the sidebar: add it to a table of ${INDEX_PAGE}`,
      });
  return problems;
}

interface MarkdownToken {
  type: string;
  attrGet(name: string): string | null;
  attrSet(name: string, value: string): void;
  children: MarkdownToken[] | null;
}
interface MarkdownState {
  tokens: MarkdownToken[];
  env: { realPath?: string; path?: string };
}
interface MarkdownIt {
  core: { ruler: { push(name: string, rule: (state: MarkdownState) => void): void } };
}

/**
 * Links as GitHub resolves them: to a page of the site, README.md becomes the directory's index; to any other
 * file, a plain link to the copy of that file (target=_self: VitePress leaves it as written, its router does not
 * take it for a page).
 */
function repositoryLinks(root: string, pagePaths: ReadonlySet<string>) {
  return (md: MarkdownIt) => {
    md.core.ruler.push('farm_repository_links', (state) => {
      const file = state.env.realPath ?? state.env.path;
      if (!file) return;
      const page = path.relative(root, file).split(path.sep).join('/');
      for (const block of state.tokens)
        for (const token of block.children ?? []) {
          if (token.type !== 'link_open') continue;
          const href = token.attrGet('href');
          if (!href || external(href) || href.startsWith('#') || href.startsWith('/')) continue;
          const to = resolveLink(page, href).path;
          // (a link to nothing is left to the checks: VitePress's for a page, siteProblems for a file)
          if (!pagePaths.has(to)) {
            if (existsSync(path.join(root, to))) token.attrSet('target', '_self');
          } else if (path.posix.basename(to) === 'README.md')
            token.attrSet('href', href.replace(/(^|\/)README\.md(?=#|$)/, '$1index.md'));
        }
    });
  };
}

/** The VitePress configuration of the site whose Markdown lives in the checkout at `root`. */
export function docsSite(root: string): UserConfig<DefaultTheme.Config> {
  const pagePaths = sitePagePaths(root);
  const pageSet = new Set(pagePaths);
  const sidebar = sidebarFromIndex(readFileSync(path.join(root, INDEX_PAGE), 'utf8'));
  const keep = new Set([...ROOT_PAGES, 'docs']);
  const rewrites = Object.fromEntries(
    pagePaths
      .filter((p) => path.posix.basename(p) === 'README.md')
      .map((p) => [p, p.replace(/README\.md$/, 'index.md')]),
  );
  return {
    title: 'agent-farm',
    description: 'An event-driven farm of coding agents on Kafka, PostgreSQL and Kubernetes',
    srcDir: root,
    // Everything at the top of the checkout but the site's pages (dot directories are never read).
    srcExclude: readdirSync(root, { withFileTypes: true })
      .filter((e) => !e.name.startsWith('.') && !keep.has(e.name))
      .map((e) => (e.isDirectory() ? `${e.name}/**` : e.name)),
    rewrites,
    outDir: path.join(root, '.cache/docs-site'),
    cacheDir: path.join(root, '.cache/docs-site-cache'),
    lastUpdated: false,
    // http://localhost:3000 and the like are the reader's own services, not pages of the site.
    ignoreDeadLinks: 'localhostLinks',
    markdown: {
      // GitHub Markdown, nothing more: raw HTML is shown as text (GitHub would drop an unknown tag, and Vue would
      // take it for a component; siteProblems names it), and `{...}` after text is text, not attributes.
      html: false,
      attrs: { disable: true },
      anchor: { slugify: githubSlug },
      config: (md) => repositoryLinks(root, pageSet)(md as unknown as MarkdownIt),
    },
    themeConfig: {
      nav: [
        { text: 'Index', link: siteRoute(INDEX_PAGE) },
        ...sidebar.slice(1).map((group) => ({
          text: group.text!,
          items: group.items!.map((item) => ({ text: item.text!, link: item.link! })),
        })),
      ],
      sidebar,
      outline: { level: [2, 3] },
      search: { provider: 'local' },
    },
    buildEnd(siteConfig) {
      const pages = pagePaths.map((p) => ({ path: p, text: readFileSync(path.join(root, p), 'utf8') }));
      const existing = new Set([...linkedPaths(pages)].filter((p) => existsSync(path.join(root, p))));
      const isDirectory = (p: string) => statSync(path.join(root, p)).isDirectory();
      // The repository's files the pages link to, at the same paths in the site.
      for (const file of existing) {
        if (pageSet.has(file) || isDirectory(file)) continue;
        mkdirSync(path.dirname(path.join(siteConfig.outDir, file)), { recursive: true });
        copyFileSync(path.join(root, file), path.join(siteConfig.outDir, file));
      }
      const problems = siteProblems(pages, existing, isDirectory, sidebar);
      if (problems.length)
        throw new Error(
          `${problems.length} dead link(s) or unreachable page(s):\n` +
            problems
              .map((p) => `  ${p.page}${p.line ? `:${p.line}` : ''}: ${p.target ? `${p.target}: ` : ''}${p.problem}`)
              .join('\n'),
        );
    },
  };
}
