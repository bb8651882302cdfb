export * from './validate';
export * from './apply';
