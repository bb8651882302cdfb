export * from './logger';
export * from './errors';
export * from './config';
export * from './metrics';
export * from './service';
export * from './retry';
export * from './process-identity';
export * from './background-work';
