import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext } from './agent-tool';
import { ToolFailed } from './tool-errors';
import { readablePath, type TreePath } from './tree-paths';

/** A text file a tool may read: inside the tree, not a directory, within the read limit, not binary. */
export async function readTreeText(
  ctx: ToolContext,
  tool: string,
  given: string,
): Promise<{ rel: string; text: string }> {
  const { rel, abs } = await readablePath(ctx.root, tool, given);
  const info = await stat(abs);
  if (info.isDirectory()) throw new ToolFailed(tool, `${rel} is a directory; use list_files`);
  if (info.size > ctx.limits.maxReadBytes)
    throw new ToolFailed(tool, `${rel} is ${info.size} bytes, more than the ${ctx.limits.maxReadBytes} a tool reads`);
  const bytes = await readFile(abs);
  if (bytes.includes(0)) throw new ToolFailed(tool, `${rel} is a binary file`);
  return { rel, text: bytes.toString('utf8') };
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
