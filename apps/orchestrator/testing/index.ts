export * from './openapi-conformance';
export * from './kubernetes-test-cluster';
export * from './store-in-own-schema';
export * from './api-access';
export * from './message-meta';
