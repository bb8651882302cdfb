/**
 * The links between the project's Markdown pages (README.md, ARCHITECTURE.md, docs/*.md): every relative link
 * names a file or directory that exists, every `#anchor` a heading of its target as GitHub slugs it, and every
 * page that must be reachable is linked from an index. Pure: the pages and the paths that exist are given;
 * docs-links.test.ts reads them from the checkout.
 */
import path from 'node:path';

/** A Markdown page: its path from the repository root (`docs/api.md`) and its text. */
export interface Page {
  path: string;
  text: string;
}

export interface Link {
  /** 1-based line of the page where the link starts. */
  line: number;
  /** As written: `api.md#access-control`, `#the-sandbox`, `https://...`. */
  target: string;
}

export interface LinkProblem {
  page: string;
  line: number;
  target: string;
  problem: string;
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped except `-` and `_`, each space a `-`. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link in a heading: its text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The text with fenced code blocks and inline code spans blanked (newlines kept, so offsets keep their lines). */
export function withoutCode(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  let fence: string | undefined;
  const lines = text.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) {
      fence = marker;
      return blank(line);
    }
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return blank(line);
    }
    return line;
  });
  // a code span may wrap lines, never cross a blank line
  return lines.join('\n').replace(/(`+)(?:[^\n]|\n(?!\s*\n))*?[^`]\1(?!`)/g, blank);
}

/** The anchors of a page's headings (outside code), duplicates numbered as GitHub does: `x`, `x-1`, `x-2`. */
export function headingAnchors(text: string): Set<string> {
  const written = text.split('\n');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  withoutCode(text)
    .split('\n')
    .forEach((line, i) => {
      if (!/^\s{0,3}#{1,6}\s/.test(line)) return;
      const slug = githubSlug(/^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(written[i])![1]);
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
    });
  return anchors;
}

/** The inline links and images of a page, outside code: `[text](target)`, `![alt](target "title")`. */
export function pageLinks(text: string): Link[] {
  const plain = withoutCode(text);
  const links: Link[] = [];
  for (const m of plain.matchAll(/\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const line = plain.slice(0, m.index).split('\n').length;
    links.push({ line, target: m[1] });
  }
  return links;
}

const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Where a relative link of `page` leads, from the repository root, and its anchor. */
export function resolveLink(page: string, target: string): { path: string; anchor?: string } {
  const hash = target.indexOf('#');
  const file = decodeURI(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
  return { path: resolved.replace(/\/$/, ''), anchor };
}

/** The relative link targets of these pages, from the repository root: what the caller checks on disk. */
export function linkedPaths(pages: Page[]): Set<string> {
  const paths = new Set<string>();
  for (const page of pages)
    for (const link of pageLinks(page.text))
      if (!external(link.target)) paths.add(resolveLink(page.path, link.target).path);
  return paths;
}

/**
 * Every problem of these pages' links: a target that is not in `existing` (files and directories, from the
 * repository root), an anchor that is no heading of its Markdown target (which must be one of `pages`), and a
 * page of `mustBeLinked` that no page of `indexes` links to (a directory link counts for its README.md).
 */
export function linkProblems(
  pages: Page[],
  existing: ReadonlySet<string>,
  options: { indexes?: string[]; mustBeLinked?: string[] } = {},
): LinkProblem[] {
  const anchors = new Map(pages.map((p) => [p.path, headingAnchors(p.text)]));
  const problems: LinkProblem[] = [];
  const linkedFromIndexes = new Set<string>();
  for (const page of pages) {
    for (const { line, target } of pageLinks(page.text)) {
      if (external(target)) continue;
      const at = { page: page.path, line, target };
      const { path: to, anchor } = resolveLink(page.path, target);
      if (options.indexes?.includes(page.path)) linkedFromIndexes.add(to).add(`${to}/README.md`);
      if (!existing.has(to)) {
        problems.push({ ...at, problem: `${to} does not exist` });
        continue;
      }
      if (anchor === undefined || !to.endsWith('.md')) continue;
      const headings = anchors.get(to);
      if (!headings) problems.push({ ...at, problem: `${to} is not a checked page, so #${anchor} cannot be checked` });
      else if (!headings.has(anchor)) problems.push({ ...at, problem: `${to} has no heading #${anchor}` });
    }
  }
  for (const page of options.mustBeLinked ?? [])
    if (!linkedFromIndexes.has(page))
      problems.push({ page, line: 0, target: '', problem: `not linked from ${options.indexes?.join(' or ')}` });
  return problems;
}
