export * from './test-pglite-store';
