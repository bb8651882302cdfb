// docs/scripted-model.md's complete example is the demo's own script, which the demo's integration test runs
// to DONE: what the page shows works as written.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateModelScript } from '@farm/scripted-llm';
import { DEMO_SCRIPT } from './demo';

const page = readFileSync(path.join(__dirname, '../../../docs/scripted-model.md'), 'utf8');

test("the documented example is a valid script, the same as farm demo's", () => {
  const blocks = [...page.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1]);
  expect(blocks).toHaveLength(1);
  const example = validateModelScript(JSON.parse(blocks[0]), 'docs/scripted-model.md');
  expect(example).toEqual(JSON.parse(JSON.stringify(DEMO_SCRIPT)));
});
