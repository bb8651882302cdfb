import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import git from 'isomorphic-git';
import { extractSymbols, languageOf } from '@farm/rag';
import type { farm } from '@farm/proto';
import { CloneCache, type CloneCacheOptions } from './clone-cache';

/** Finds the files defining each symbol in the repo at a commit (from the repo index). */
export type SymbolLocator = (repo: farm.v1.IRepoRef, symbols: string[]) => Promise<Map<string, string[]>>;

/**
 * Finds the files that define each symbol (TypeScript/JavaScript and Python declarations) in a shallow
 * clone of the repo at the plan's base commit, kept under `workRoot/clones` for the next request on that commit.
 */
export function cloneAndLocateSymbols(
  workRoot = path.join(os.tmpdir(), 'farm-code-planner'),
  cache: Omit<CloneCacheOptions, 'root'> = {},
): SymbolLocator {
  const clones = new CloneCache({ ...cache, root: path.join(workRoot, 'clones') });
  return async (repo, symbols) => {
    const wanted = new Set(symbols);
    const key = { url: repo.url ?? '', ref: repo.baseRef || 'main', commit: repo.baseCommit ?? '' };
    return clones.use(key, async (dir) => {
      const found = new Map<string, string[]>();
      for (const file of await git.listFiles({ fs, dir })) {
        if (languageOf(file) === 'other') continue;
        const text = await readFile(path.join(dir, file), 'utf8').catch(() => '');
        for (const def of extractSymbols(file, text)) {
          if (!wanted.has(def.name)) continue;
          found.set(def.name, [...new Set([...(found.get(def.name) ?? []), file])]);
        }
      }
      return found;
    });
  };
}
