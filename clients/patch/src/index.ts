export * from './validate';
export * from './apply';
export * from './edit-blocks';
