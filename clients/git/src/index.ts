export * from './git-http-server';
export * from './repo-ops';
export * from './credentials';
export * from './trailers';
export * from './native-git';
export * from './git-server-process';
