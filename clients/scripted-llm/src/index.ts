export * from './script';
export * from './server';
export * from './prompt-cache';
