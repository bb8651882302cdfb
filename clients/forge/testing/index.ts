export * from './gitea-fixture';
export * from './github-double';
