export { startGitProxy, type Intercept } from './git-proxy';
