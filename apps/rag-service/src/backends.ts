import { createEmbedder, type Embedder } from '@farm/llm';
import { EmbeddedIndex, QdrantIndex, type SnippetIndex } from '@farm/rag';
import type { Logger } from '@farm/runtime';
import type { RagConfig } from './config';

/** Dense embeddings when a model and endpoint are configured; BM25 alone otherwise. */
export function embedderFromConfig(config: RagConfig, log: Logger): Embedder | undefined {
  if (!config.FARM_EMBEDDINGS_MODEL || !config.OPENAI_BASE_URL) return undefined;
  return createEmbedder({
    baseURL: config.OPENAI_BASE_URL,
    apiKey: config.OPENAI_API_KEY,
    model: config.FARM_EMBEDDINGS_MODEL,
    dimensions: config.FARM_EMBEDDINGS_DIMENSIONS,
    log,
  });
}

/** Qdrant when QDRANT_URL is set (a cluster), else the embedded index persisted to a file (one machine). */
export async function openSnippetIndex(
  config: RagConfig,
  embedder: Embedder | undefined,
  log: Logger,
): Promise<SnippetIndex> {
  if (config.QDRANT_URL) {
    log.info('snippet index: qdrant', {
      url: config.QDRANT_URL,
      collection: config.RAG_QDRANT_COLLECTION,
      dense: !!embedder,
    });
    return new QdrantIndex({
      url: config.QDRANT_URL,
      apiKey: config.QDRANT_API_KEY,
      collection: config.RAG_QDRANT_COLLECTION,
      batchSize: config.RAG_QDRANT_BATCH_SIZE,
      embedder,
      log,
    });
  }
  log.info('snippet index: embedded', { file: config.RAG_INDEX_FILE, dense: !!embedder });
  return EmbeddedIndex.open({ file: config.RAG_INDEX_FILE, embedder, log });
}
