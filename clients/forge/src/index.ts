export * from './forge';
export * from './forge-http';
export * from './forge-config';
