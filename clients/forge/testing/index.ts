export * from './gitea-fixture';
