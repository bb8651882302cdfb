export * from './openapi-conformance';
export * from './kubernetes-api-double';
