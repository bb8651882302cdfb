export * from './forge';
export * from './forge-http';
export * from './forge-config';
export * from './gitea';
export * from './gitea-webhooks';
