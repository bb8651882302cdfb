import { rankLessons } from './rank-lessons';

const lessons = [
  { goal: 'Add retry to the HTTP client', files: ['src/http/client.ts'] },
  { goal: 'Fix the date parser for ISO weeks', files: ['src/dates/parse.ts'] },
  { goal: 'Add multiply(a, b) to calc.py', files: ['calc.py'] },
  { goal: 'Add subtract(a, b) to calc.py', files: ['calc.py'] },
];

describe('ranking lessons for a new task', () => {
  test('the lessons sharing the rarest words with the goal come first; unrelated ones are left out', () => {
    expect(rankLessons('Add divide(a, b) to calc.py', lessons, 3).map((l) => l.goal)).toEqual([
      'Add multiply(a, b) to calc.py',
      'Add subtract(a, b) to calc.py',
      'Add retry to the HTTP client',
    ]);
    expect(rankLessons('Make the HTTP client retry on 503', lessons, 1).map((l) => l.goal)).toEqual([
      'Add retry to the HTTP client',
    ]);
  });

  test('a goal that shares nothing gets no lessons, and the limit holds', () => {
    expect(rankLessons('Translate the README', lessons, 3)).toEqual([]);
    expect(rankLessons('calc', lessons, 1)).toHaveLength(1);
  });
});
