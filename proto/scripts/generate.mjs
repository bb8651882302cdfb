// Generates proto/gen/farm.{js,d.ts} from proto/farm/v1/*.proto with protobufjs' static code generator.
// With --check it generates into a temp dir and fails if the committed code differs (stale).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const protoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const outDir = check ? mkdtempSync(join(tmpdir(), 'farm-proto-')) : join(protoDir, 'gen');
mkdirSync(outDir, { recursive: true });
const files = readdirSync(join(protoDir, 'farm/v1'))
  .filter((f) => f.endsWith('.proto'))
  .sort()
  .map((f) => join(protoDir, 'farm/v1', f));
const bin = (name) => join(protoDir, '..', 'node_modules', '.bin', name);
const js = join(outDir, 'farm.js');
execFileSync(
  bin('pbjs'),
  ['-t', 'static-module', '-w', 'commonjs', '--force-number', '--no-beautify', '-p', protoDir, '-o', js, ...files],
  { cwd: protoDir, stdio: 'inherit' },
);
execFileSync(bin('pbts'), ['-o', join(outDir, 'farm.d.ts'), js], { cwd: protoDir, stdio: 'inherit' });
// pbjs writes a path-dependent header; keep output identical wherever it is generated.
for (const f of ['farm.js', 'farm.d.ts']) {
  const p = join(outDir, f);
  writeFileSync(p, readFileSync(p, 'utf8').replace(/\r\n/g, '\n'));
}
if (check) {
  const stale = ['farm.js', 'farm.d.ts'].filter(
    (f) => readFileSync(join(outDir, f), 'utf8') !== readFileSync(join(protoDir, 'gen', f), 'utf8'),
  );
  if (stale.length) {
    console.error(`proto/gen is stale (${stale.join(', ')}): run "pnpm proto:gen" and commit the result`);
    process.exit(1);
  }
  console.log('proto/gen is up to date');
}
