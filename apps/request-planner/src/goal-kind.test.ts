import { farm } from '@farm/proto';
import { kindOfGoal } from './goal-kind';

const K = farm.v1.TaskKind;

test.each([
  ['Document the retry option in the README', K.DOCS],
  ['Fix the typo in the README', K.DOCS],
  ['docs: explain FARM_TOKEN', K.DOCS],
  ['Add tests for parse_date', K.TEST],
  ['test(api): cover the 404 answer', K.TEST],
  ['Rename fetchJson to getJson', K.REFACTOR],
  ['refactor: split the router', K.REFACTOR],
  ['Fix crash when the config file is empty', K.FIX],
  ['fix(parser)!: reject trailing commas', K.FIX],
  ['Parsing fails on trailing commas', K.FIX],
  ['Add multiply(a, b) to calc.py', K.FEATURE],
  ['feat: retry failed calls with backoff', K.FEATURE],
  ['Support YAML configuration\n\nFix the README afterwards', K.FEATURE], // the first line decides
])('%j is %s', (title, kind) => {
  expect(farm.v1.TaskKind[kindOfGoal(title)]).toBe(farm.v1.TaskKind[kind]);
});
