export * from './detached-process-runner';
