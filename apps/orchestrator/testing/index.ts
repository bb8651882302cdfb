export * from './openapi-conformance';
