export * from './multi-task-repo';
export * from './farm-up-process';
export * from './local-repo';
