export * from './principal';
export * from './kubernetes-authenticator';
export * from './kubernetes-reviews';
export * from './kubernetes-auth-config';
