import { tokenize } from '@farm/rag';

export interface RankableLesson {
  goal: string;
  files: string[];
}

/** Terms of a lesson: its goal's words and its files' path parts (so "greet.js" meets a goal naming greet). */
const lessonTerms = (l: RankableLesson) => new Set(tokenize(`${l.goal}\n${l.files.join('\n')}`));

/**
 * The lessons most similar to a new task's query (its goal, main file, symbols), best first: each shared term
 * counts by its rarity among the candidates (IDF), normalised by the lesson's length so long goals do not win
 * by size. Lessons sharing no term are left out.
 */
export function rankLessons<L extends RankableLesson>(query: string, lessons: L[], limit: number): L[] {
  const wanted = new Set(tokenize(query));
  if (!wanted.size || !lessons.length) return [];
  const terms = lessons.map(lessonTerms);
  const df = new Map<string, number>();
  for (const set of terms) for (const t of set) df.set(t, (df.get(t) ?? 0) + 1);
  const n = lessons.length;
  const scored = lessons.map((lesson, i) => {
    let score = 0;
    for (const t of wanted) if (terms[i].has(t)) score += Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
    return { lesson, score: score / Math.sqrt(Math.max(1, terms[i].size)), i };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, limit)
    .map((s) => s.lesson);
}
