import { cloneAtCommit } from '@farm/git';
import { LocalRag } from '@farm/rag';
import { createLogger, loadConfigOrExit, runService } from '@farm/runtime';
import { embedderFromConfig, openSnippetIndex } from './backends';
import { ragConfigSchema } from './config';
import { startRagHttpServer } from './rag-http-server';

const log = createLogger('rag-service');
const config = loadConfigOrExit(ragConfigSchema);

void runService(log, config.FARM_METRICS_PORT, async () => {
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
