export * from './errors';
export * from './client';
export * from './tool-model';
export * from './model-schema';
export * from './server-answers';
export * from './endpoint-probe';
export * from './model-prices';
