import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolFailed } from './tool-errors';

/**
 * Where a tool may touch the checkout: relative paths inside the work tree, never `.git/` (of the repo or a
 * nested one), never through a symlink for writes, and for reads only symlinks that stay inside the tree.
 */
export interface TreePath {
  /** Repository-relative, normalised, with forward slashes ('' for the root). */
  rel: string;
  abs: string;
}

export function normaliseTreePath(tool: string, given: unknown): string {
  if (typeof given !== 'string') throw new ToolFailed(tool, 'path must be a string');
  const p = given.trim().replace(/\\/g, '/');
  if (p.includes('\0')) throw new ToolFailed(tool, 'path contains a NUL byte');
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p))
    throw new ToolFailed(tool, `refused: ${given} is an absolute path; paths are relative to the repository root`);
  if (p.split('/').includes('..')) throw new ToolFailed(tool, `refused: ${given} leaves the repository (..)`);
  const norm = path.posix
    .normalize(p || '.')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  const rel = norm === '.' ? '' : norm;
  if (rel.split('/').some((s) => s.toLowerCase() === '.git'))
    throw new ToolFailed(tool, `refused: ${given} is inside .git/, which the agent may not read or write`);
  return rel;
}

export const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** A path a tool may read: symlinks are followed only when they resolve inside the tree. */
export async function readablePath(root: string, tool: string, given: unknown): Promise<TreePath> {
  const rel = normaliseTreePath(tool, given);
  const abs = path.join(root, rel);
  let real: string;
  try {
    real = await realpath(abs);
  } catch (err) {
    if (isMissing(err)) throw new ToolFailed(tool, `${rel || '.'} does not exist`);
    throw err;
  }
  const realRoot = await realpath(root);
  const inside = path.relative(realRoot, real);
  if (inside.startsWith('..') || path.isAbsolute(inside))
    throw new ToolFailed(tool, `refused: ${rel} is a symlink that leads outside the repository`);
  if (inside.split(path.sep).some((s) => s.toLowerCase() === '.git'))
    throw new ToolFailed(tool, `refused: ${rel} leads into .git/`);
  return { rel, abs };
}

/** A path a tool may write or delete: no component of it may be a symlink (writes never go through one). */
export async function writablePath(root: string, tool: string, given: unknown): Promise<TreePath> {
  const rel = normaliseTreePath(tool, given);
  if (!rel) throw new ToolFailed(tool, 'refused: the repository root is not a file');
  let at = root;
  for (const part of rel.split('/')) {
    at = path.join(at, part);
    try {
      if ((await lstat(at)).isSymbolicLink())
        throw new ToolFailed(
          tool,
          `refused: ${path.relative(root, at)} is a symlink; the agent does not write through symlinks`,
        );
    } catch (err) {
      if (isMissing(err)) break; // the rest does not exist yet: it will be created as plain directories
      throw err;
    }
  }
  return { rel, abs: path.join(root, rel) };
}
