import { isObviouslyOneTask, skipsPlannerModel } from './single-task';

const cr = (title: string, description = '') => ({ changeRequestId: 'cr', title, description });

test('a short one-sentence request is obviously one task', () => {
  expect(isObviouslyOneTask(cr('Fix the typo in the README'))).toBe(true);
  expect(isObviouslyOneTask(cr('Rename fetchJson to getJson', 'Rename fetchJson to getJson.'))).toBe(true);
});

test('two sentences, a list, a second paragraph or a long text go to the planner model', () => {
  expect(isObviouslyOneTask(cr('Add retry', 'Retry failed calls. Then document the option.'))).toBe(false);
  expect(isObviouslyOneTask(cr('Clean up', '- drop the old client\n- rename the config'))).toBe(false);
  expect(isObviouslyOneTask(cr('Fix the parser', 'It fails on empty input\n\nAlso on BOMs'))).toBe(false);
  expect(isObviouslyOneTask(cr(`Make ${'the parser faster '.repeat(12)}`))).toBe(false);
  expect(isObviouslyOneTask(cr(''))).toBe(false);
});

test('only FARM_PLAN_SINGLE_TASK=auto skips the model', () => {
  expect(skipsPlannerModel(cr('Fix the typo in the README'), 'auto')).toBe(true);
  expect(skipsPlannerModel(cr('Fix the typo in the README'), 'never')).toBe(false);
});
