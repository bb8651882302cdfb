import { readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { treeOfCommit } from '@farm/git';
import { EmbeddedIndex, indexDirectory } from '@farm/rag';
import type { Logger } from '@farm/runtime';
import { agentMetrics } from './metrics';

/** An embedded index of a checkout, and the (repo, commit) its chunks are filed under. */
export interface TreeIndex {
  index: EmbeddedIndex;
  repo: string;
  commit: string;
  /** False when an index of the same tree was found on disk and nothing was indexed. */
  built: boolean;
}

/** Index files kept (the most recently used); each holds one tree's chunks. */
const KEPT_TREES = 16;

/**
 * The embedded index of the checkout at `commit`, kept in `cacheDir` by the commit's git tree: the tasks of a
 * request (and their re-dispatches, and any commit with the same tree) start from the same tree, and index it
 * once on a machine instead of once per task. The chunks keep the (repo, commit) of the first indexing; a
 * commit with the same tree is the same content, so lookups use that label.
 */
export async function openTreeIndex(opts: {
  cacheDir: string;
  repoDir: string;
  repo: string;
  commit: string;
  log: Logger;
}): Promise<TreeIndex> {
  const tree = await treeOfCommit(opts.repoDir, opts.commit);
  const file = path.join(opts.cacheDir, `${tree}.json`);
  const index = await EmbeddedIndex.open({ file, log: opts.log });
  const [label] = index.indexedCommits();
  if (label) {
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined); // its last use, for pruning
    return { index, ...label, built: false };
  }
  const made = await indexDirectory({ index, dir: opts.repoDir, repo: opts.repo, commit: opts.commit, log: opts.log }); // saves
  agentMetrics.chunksIndexed.inc(made.chunks);
  await pruneTreeIndexes(opts.cacheDir, KEPT_TREES);
  return { index, repo: opts.repo, commit: opts.commit, built: true };
}

/** Removes all but the `keep` most recently used index files. */
export async function pruneTreeIndexes(cacheDir: string, keep: number): Promise<void> {
  const files = (await readdir(cacheDir).catch(() => [] as string[])).filter((f) => /^[0-9a-f]{40,64}\.json$/.test(f));
  const dated = await Promise.all(
    files.map(async (f) => ({ f, at: (await stat(path.join(cacheDir, f)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  for (const { f } of dated.sort((a, b) => b.at - a.at).slice(keep)) {
    await rm(path.join(cacheDir, f), { force: true });
  }
}
