export * from './multi-task-repo';
