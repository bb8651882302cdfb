import { BatchAnswers } from './git-object-reader';

const ID = 'a'.repeat(40);
/** What `git cat-file --batch` prints for a blob, then for a name it does not have. */
const stream = Buffer.from(`${ID} blob 5\nhello\nnope missing\n${ID} tree 3\n\0\n\n\n`);

describe('the answers of git cat-file --batch, as they arrive', () => {
  it('hands out each batch once all its answers are in, however the output is cut', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const answers = new BatchAnswers();
      answers.push(stream.subarray(0, cut));
      const early = answers.take(2);
      answers.push(stream.subarray(cut));
      const first = early ?? answers.take(2);
      expect(first).toEqual([{ type: 'blob', data: Buffer.from('hello') }, undefined]);
      expect(answers.take(1)).toEqual([{ type: 'tree', data: Buffer.from('\0\n\n') }]);
      expect(answers.pending).toBe(0);
    }
  });

  it('consumes nothing while a batch is incomplete', () => {
    const answers = new BatchAnswers();
    answers.push(stream.subarray(0, 50));
    expect(answers.take(1)).toBeUndefined();
    expect(answers.pending).toBe(50);
  });
});
