import type { Logger } from '@farm/runtime';
import type { Chunk } from './chunker';
import { indexRepo, type CheckoutFn, type IndexResult } from './index-repo';
import { repoKey, type ScoredChunk, type SnippetIndex } from './snippet-index';

export interface IndexRequest {
  repoUrl: string;
  commit: string;
  /** Branch or tag the commit is reachable from. */
  ref: string;
}

/** What the agents and planners ask of retrieval; served in-process (`LocalRag`) or over HTTP (`RagClient`). */
export interface RagApi {
  indexRepo(req: IndexRequest): Promise<IndexResult>;
  snippetsByBlobIds(repo: string, commit: string, blobIds: string[]): Promise<Chunk[]>;
  search(repo: string, commit: string, query: string, limit?: number): Promise<ScoredChunk[]>;
}

export const DEFAULT_SEARCH_LIMIT = 10;

/** RagApi over an index in this process; what the rag-service serves, and usable directly on one machine. */
export class LocalRag implements RagApi {
  // Concurrent requests for one commit (every task of a bundle asks) share one clone and one indexing run.
  private readonly inflight = new Map<string, Promise<IndexResult>>();

  constructor(
    private readonly opts: {
      index: SnippetIndex;
      checkout: CheckoutFn;
      workDir?: string;
      maxFileBytes?: number;
      log?: Logger;
    },
  ) {}

  indexRepo(req: IndexRequest): Promise<IndexResult> {
    const key = `${repoKey(req.repoUrl)}\0${req.commit.toLowerCase()}`;
    let run = this.inflight.get(key);
    if (!run) {
      run = indexRepo({ ...this.opts, repoUrl: req.repoUrl, commit: req.commit, ref: req.ref }).finally(() =>
        this.inflight.delete(key),
      );
      this.inflight.set(key, run);
    }
    return run;
  }

  snippetsByBlobIds(repo: string, commit: string, blobIds: string[]): Promise<Chunk[]> {
    return this.opts.index.snippetsByBlobIds(repo, commit, blobIds);
  }

  search(repo: string, commit: string, query: string, limit = DEFAULT_SEARCH_LIMIT): Promise<ScoredChunk[]> {
    return this.opts.index.search(repo, commit, query, limit);
  }
}
