export * from './validate';
export * from './apply';
export * from './edit-blocks';
export * from './locate-text';
