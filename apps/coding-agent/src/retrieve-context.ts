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
import type { Logger } from '@farm/runtime';

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
  opts: { rag?: RagApi; budgetTokens: number; searchLimit?: number; log: Logger },
): Promise<RetrievedContext> {
  const url = task.repo?.url ?? '';
  const commit = task.repo?.baseCommit ?? '';
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
    local = new EmbeddedIndex({ log: opts.log });
    await indexDirectory({ index: local, dir: repoDir, repo: url, commit, log: opts.log });
    api = local;
  }
  try {
    const [byBlob, found] = await Promise.all([
      blobIds.length ? api.snippetsByBlobIds(url, commit, blobIds) : Promise.resolve([] as Chunk[]),
      api.search(url, commit, query, opts.searchLimit ?? 20),
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
