export * from './openapi-conformance';
export * from './kubernetes-test-cluster';
