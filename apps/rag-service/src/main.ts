import path from 'node:path';
import { cloneAtCommit } from '@farm/git';
import { LocalRag } from '@farm/rag';
import { createLogger, ensureWritableDir, loadConfigOrExit, runService } from '@farm/runtime';
import { embedderFromConfig, openSnippetIndex } from './backends';
import { ragConfigSchema } from './config';
import { startRagHttpServer } from './rag-http-server';

const log = createLogger('rag-service');
const config = loadConfigOrExit(ragConfigSchema);

void runService(log, config.FARM_METRICS_PORT, async () => {
  // The embedded index is written at shutdown: a place it cannot be written fails now, not then.
  if (!config.QDRANT_URL)
    ensureWritableDir(
      path.dirname(config.RAG_INDEX_FILE),
      'RAG_INDEX_FILE',
      'set QDRANT_URL (the cluster backend), or RAG_INDEX_FILE to a file in a writable directory',
    );
  const index = await openSnippetIndex(config, embedderFromConfig(config, log), log);
  const rag = new LocalRag({
    index,
    checkout: cloneAtCommit,
    workDir: config.FARM_WORK_DIR,
    maxFileBytes: config.RAG_MAX_FILE_BYTES,
    log,
  });
  const server = await startRagHttpServer({
    rag,
    port: config.RAG_PORT,
    host: config.RAG_HOST,
    log,
    componentToken: config.FARM_COMPONENT_TOKEN,
  });
  return {
    stop: async () => {
      await server.close();
      await index.close(); // the embedded index writes its file
    },
  };
});
