export * from './script';
export * from './server';
