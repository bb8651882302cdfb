// The documentation site (`pnpm docs:build`): see scripts/docs-site.ts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { docsSite } from '../../scripts/docs-site';

export default defineConfig(docsSite(fileURLToPath(new URL('../..', import.meta.url))));
