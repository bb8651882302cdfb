import { serializeSharedTouches } from './serialize-shared';

test('two items touching the same symbol run one after the other; an unrelated one stays free', () => {
  const out = serializeSharedTouches([
    { itemId: 'mul', dependsOn: [], touches: ['calculator', 'file:src/calculator.js'] },
    { itemId: 'str', dependsOn: [], touches: ['file:src/strings.js'] },
    { itemId: 'div', dependsOn: [], touches: ['calculator'] },
  ]);
  expect(Object.fromEntries(out.map((i) => [i.itemId, i.dependsOn]))).toEqual({ mul: [], str: [], div: ['mul'] });
});

test('the chain follows dependency order, so an added edge never makes a cycle', () => {
  const out = serializeSharedTouches([
    { itemId: 'a', dependsOn: ['b'], touches: ['x'] },
    { itemId: 'b', dependsOn: [], touches: ['x'] },
  ]);
  expect(out.map((i) => [i.itemId, i.dependsOn])).toEqual([
    ['b', []],
    ['a', ['b']],
  ]);
});
