export * from './http-error';
export * from './json-body';
export * from './http-edge';
export * from './openapi-document';
