import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import git from 'isomorphic-git';
import { extractSymbols, languageOf } from '@farm/rag';
import type { farm } from '@farm/proto';
import { CloneCache, cacheKey, type CloneCacheOptions, type CloneKey } from './clone-cache';

/** Finds the files defining each symbol in the repo at a commit (from the repo index). */
export type SymbolLocator = (repo: farm.v1.IRepoRef, symbols: string[]) => Promise<Map<string, string[]>>;

/** Commits whose definitions are kept in memory. */
const KEPT_DEFINITIONS = 8;

/** The files defining each symbol (TypeScript/JavaScript and Python declarations) in a checkout. */
async function definitionsIn(dir: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const file of await git.listFiles({ fs, dir })) {
    if (languageOf(file) === 'other') continue;
    const text = await readFile(path.join(dir, file), 'utf8').catch(() => '');
    for (const def of extractSymbols(file, text)) {
      found.set(def.name, [...new Set([...(found.get(def.name) ?? []), file])]);
    }
  }
  return found;
}

/**
 * Finds the files that define each symbol (TypeScript/JavaScript and Python declarations) in a shallow
 * clone of the repo at the plan's base commit, kept under `workRoot/clones` for the next request on that commit.
 */
export function cloneAndLocateSymbols(
  workRoot = path.join(os.tmpdir(), 'farm-code-planner'),
  cache: Omit<CloneCacheOptions, 'root'> = {},
): SymbolLocator {
  const clones = new CloneCache({ ...cache, root: path.join(workRoot, 'clones') });
  // Every definition of a commit, found once: a commit's files never change (newest last, a few kept).
  const definitions = new Map<string, Promise<Map<string, string[]>>>();
  const definitionsAt = (key: CloneKey) => {
    const id = cacheKey(key);
    let found = definitions.get(id);
    if (!found) {
      found = clones.use(key, definitionsIn);
      found.catch(() => definitions.delete(id)); // a failed clone is tried again by the next request
      definitions.set(id, found);
      for (const old of [...definitions.keys()].slice(0, Math.max(0, definitions.size - KEPT_DEFINITIONS))) {
        definitions.delete(old);
      }
    }
    return found;
  };
  return async (repo, symbols) => {
    const key = { url: repo.url ?? '', ref: repo.baseRef || 'main', commit: repo.baseCommit ?? '' };
    const all = await definitionsAt(key);
    return new Map(symbols.flatMap((s) => (all.has(s) ? [[s, all.get(s)!] as const] : [])));
  };
}
