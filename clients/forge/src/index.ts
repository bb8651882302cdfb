export * from './forge';
export * from './forge-http';
export * from './forge-config';
export * from './forge-remote-url';
export * from './webhook-signature';
export * from './github';
export * from './github-webhooks';
