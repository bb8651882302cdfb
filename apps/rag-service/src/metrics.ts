import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from '@farm/runtime';

export const ragMetrics = {
  indexChunks: new Counter({
    name: 'farm_rag_index_chunks_total',
    help: 'Chunks written to the snippet index',
    registers: [metricsRegistry],
  }),
  indexSeconds: new Histogram({
    name: 'farm_rag_index_duration_seconds',
    help: 'Duration of index requests, by outcome (indexed, already_indexed, failed)',
    labelNames: ['outcome'],
    buckets: [0.05, 0.25, 1, 5, 15, 60, 180, 600, 1800],
    registers: [metricsRegistry],
  }),
  searchSeconds: new Histogram({
    name: 'farm_rag_search_duration_seconds',
    help: 'Duration of search requests',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metricsRegistry],
  }),
  requests: new Counter({
    name: 'farm_rag_requests_total',
    help: 'HTTP requests, by route and status code',
    labelNames: ['route', 'status'],
    registers: [metricsRegistry],
  }),
};
