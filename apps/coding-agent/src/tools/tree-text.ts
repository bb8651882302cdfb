import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext } from './agent-tool';
import { listTreeFiles } from './list-tree-files';
import { ToolFailed } from './tool-errors';
import { isMissing, readablePath, type TreePath } from './tree-paths';

/** Most files a search or find_symbol walks through. */
const MAX_WALKED_FILES = 20_000;

type Loaded =
  { text: string } | { notText: 'a directory' | 'not a regular file' | 'too large' | 'binary'; size: number };

/** The one place that decides what a tool may read as text: a regular file, within the limit, no NUL byte. */
async function loadText(abs: string, maxBytes: number): Promise<Loaded> {
  const info = await stat(abs);
  if (info.isDirectory()) return { notText: 'a directory', size: info.size };
  if (!info.isFile()) return { notText: 'not a regular file', size: info.size };
  if (info.size > maxBytes) return { notText: 'too large', size: info.size };
  const bytes = await readFile(abs);
  if (bytes.includes(0)) return { notText: 'binary', size: info.size };
  return { text: bytes.toString('utf8') };
}

/** A text file a tool reads, or a ToolFailed saying why it cannot (outside the tree, a directory, too large, binary). */
export async function readTreeText(
  ctx: ToolContext,
  tool: string,
  given: string,
): Promise<{ rel: string; text: string }> {
  const { rel, abs } = await readablePath(ctx.root, tool, given);
  const loaded = await loadText(abs, ctx.limits.maxReadBytes);
  if ('text' in loaded) return { rel, text: loaded.text };
  switch (loaded.notText) {
    case 'a directory':
      throw new ToolFailed(tool, `${rel} is a directory; use list_files`);
    case 'too large':
      throw new ToolFailed(
        tool,
        `${rel} is ${loaded.size} bytes, more than the ${ctx.limits.maxReadBytes} a tool reads`,
      );
    case 'binary':
      throw new ToolFailed(tool, `${rel} is a binary file`);
    default:
      throw new ToolFailed(tool, `${rel} is not a regular file`);
  }
}

/**
 * The text files a search reads: the one file `where` names, or the tree's files under it (the root by
 * default), .gitignore honoured and symlinks not followed; binary and over-size files are left out.
 */
export async function* treeTextFiles(
  ctx: ToolContext,
  tool: string,
  opts: { where?: string; only?: (file: string) => boolean } = {},
): AsyncGenerator<{ path: string; text: string }> {
  const start = opts.where ? await readablePath(ctx.root, tool, opts.where) : { rel: '' };
  const isFile = start.rel && (await stat(path.join(ctx.root, start.rel))).isFile();
  const files = isFile
    ? [start.rel]
    : (await listTreeFiles(ctx.root, { dir: start.rel, limit: MAX_WALKED_FILES })).entries
        .filter((e) => !e.symlink)
        .map((e) => e.path);
  for (const file of files) {
    if (opts.only && !opts.only(file)) continue;
    let loaded: Loaded;
    try {
      loaded = await loadText(path.join(ctx.root, file), ctx.limits.maxReadBytes);
    } catch (err) {
      if (isMissing(err)) continue; // gone since the listing (a command removed it): nothing to search
      throw err;
    }
    if ('text' in loaded) yield { path: file, text: loaded.text };
  }
}

/** Writes a file an edit or create leaves, refusing one above the write limit. */
export async function writeTreeText(ctx: ToolContext, tool: string, at: TreePath, content: string): Promise<void> {
  const size = Buffer.byteLength(content, 'utf8');
  if (size > ctx.limits.maxWriteBytes)
    throw new ToolFailed(tool, `${at.rel} would be ${size} bytes, more than the ${ctx.limits.maxWriteBytes} allowed`);
  await mkdir(path.dirname(at.abs), { recursive: true });
  await writeFile(at.abs, content);
}

/** A matching line as search and find_symbol show it: `path:line: text`, trimmed, at most 200 characters. */
export function formatMatch(file: string, lineNo: number, line: string): string {
  return `${file}:${lineNo}: ${(line.length > 200 ? `${line.slice(0, 200)}…` : line).trim()}`;
}
