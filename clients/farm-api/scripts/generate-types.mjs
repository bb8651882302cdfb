// Generates src/openapi-types.generated.ts (the paths, operations and schemas of the orchestrator's HTTP API)
// from apps/orchestrator/openapi.yaml with openapi-typescript. With --check it fails if the committed file
// differs (the document changed and the types were not generated again).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const document = join(root, '..', '..', 'apps', 'orchestrator', 'openapi.yaml');
const target = join(root, 'src', 'openapi-types.generated.ts');

// A default in a request body leaves the field optional (the server fills it in).
const ast = await openapiTS(pathToFileURL(document), { defaultNonNullable: false });
const header = '// Generated from apps/orchestrator/openapi.yaml by scripts/generate-types.mjs: do not edit.\n\n';
const code = await format(header + astToString(ast), { ...(await resolveConfig(target)), filepath: target });
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== code) {
    console.error(`${target} is stale: run "pnpm --filter @farm/farm-api generate" and commit the result`);
    process.exit(1);
  }
  console.log('the API types are up to date');
} else {
  writeFileSync(target, code);
}
