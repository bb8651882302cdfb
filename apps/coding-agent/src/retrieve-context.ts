import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { farm } from '@farm/proto';
import {
  EmbeddedIndex,
  buildContext,
  gitBlobId,
  indexDirectory,
  renderContext,
  type Chunk,
  type RagApi,
  type SnippetIndex,
} from '@farm/rag';
import { errorMessage, type Logger } from '@farm/runtime';
import { agentMetrics } from './metrics';
import { openTreeIndex } from './tree-index-cache';

/** A search of the agent's own index is timed here (the rag-service times its own). */
async function timedSearch<T>(ownIndex: boolean, search: () => Promise<T>): Promise<T> {
  if (!ownIndex) return search();
  const end = agentMetrics.snippetSearchSeconds.startTimer();
  try {
    return await search();
  } finally {
    end();
  }
}

export interface RetrievedContext {
  /** Snippets rendered for the prompt, with paths and line ranges. */
  text: string;
  /** Paths shown (in order) and paths of candidates that did not fit the budget. */
  shown: string[];
  omitted: string[];
  usedTokens: number;
}

/**
 * Retrieval for one task: the task's own file first, then the snippets its blob ids name, then what a
 * search for the goal finds, cut to the token budget. With a rag-service (cluster) it asks the service;
 * otherwise it indexes the checkout it already has into an embedded index.
 */
export async function retrieveContext(
  task: farm.v1.ICodingTask,
  repoDir: string,
  opts: {
    rag?: RagApi;
    budgetTokens: number;
    searchLimit?: number;
    log: Logger;
    /** Where indexes of trees are kept for the next task on the same tree (without: indexed per task). */
    indexCacheDir?: string;
  },
): Promise<RetrievedContext> {
  let url = task.repo?.url ?? '';
  let commit = task.repo?.baseCommit ?? '';
  const own = task.path ? [task.path] : [];
  const ownBlobIds = await Promise.all(
    own.map((p) =>
      readFile(path.join(repoDir, p))
        .then(gitBlobId)
        .catch(() => undefined),
    ),
  );
  const blobIds = [...ownBlobIds.filter((b): b is string => !!b), ...(task.blobIds ?? [])];
  const query = [task.goal, ...(task.symbols ?? [])].join('\n');

  let api: Pick<RagApi, 'snippetsByBlobIds' | 'search'>;
  let local: SnippetIndex | undefined;
  if (opts.rag) {
    await opts.rag.indexRepo({ repoUrl: url, commit, ref: task.repo?.baseRef || 'main' });
    api = opts.rag;
  } else {
    const cached =
      opts.indexCacheDir &&
      (await openTreeIndex({ cacheDir: opts.indexCacheDir, repoDir, repo: url, commit, log: opts.log }).catch(
        (err: unknown) => {
          opts.log.warn('index cache unusable; indexing this checkout alone', { error: errorMessage(err) });
          return undefined;
        },
      ));
    if (cached) {
      ({ repo: url, commit } = cached); // the label the tree's chunks are filed under
      api = cached.index; // already saved: nothing to write on close
    } else {
      local = new EmbeddedIndex({ log: opts.log });
      const made = await indexDirectory({ index: local, dir: repoDir, repo: url, commit, log: opts.log });
      agentMetrics.chunksIndexed.inc(made.chunks);
      api = local;
    }
  }
  try {
    const [byBlob, found] = await Promise.all([
      blobIds.length ? api.snippetsByBlobIds(url, commit, blobIds) : Promise.resolve([] as Chunk[]),
      timedSearch(!opts.rag, () => api.search(url, commit, query, opts.searchLimit ?? 20)),
    ]);
    const built = buildContext({ chunks: [...byBlob, ...found], budgetTokens: opts.budgetTokens, mustInclude: own });
    return {
      text: renderContext(built.snippets),
      shown: [...new Set(built.snippets.map((c) => c.path))],
      omitted: [...new Set(built.omitted.map((c) => c.path))],
      usedTokens: built.usedTokens,
    };
  } finally {
    await local?.close();
  }
}
