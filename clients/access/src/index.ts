export * from './principal';
export * from './bearer-token';
export * from './scope-decision';
export * from './static-token';
export * from './access-schema';
export * from './audit-log';
export * from './token-store';
export * from './component-token';
