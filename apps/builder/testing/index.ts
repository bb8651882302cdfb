export * from './one-task-build';
