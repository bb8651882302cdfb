export { startRagHttpServer, type RagHttpServer } from './rag-http-server';
export { ragConfigFields, ragConfigSchema, loadRagConfig, type RagConfig } from './config';
export { embedderFromConfig, openSnippetIndex } from './backends';
export { ragMetrics } from './metrics';
