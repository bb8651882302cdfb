export * from './qdrant-http-double';
