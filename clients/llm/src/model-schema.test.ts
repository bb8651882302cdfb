import { z } from '@farm/runtime';
import { answerSchema, describeIssues, toolSpec } from './model-schema';

test('a tool spec carries the JSON schema derived from the zod schema that validates its arguments', () => {
  const args = z
    .object({
      path: z.string().describe('a file'),
      limit: z.number().int().positive().optional().describe('most entries'),
      all: z.boolean().optional(),
    })
    .strict();
  expect(toolSpec('read', 'Read a file.', args)).toEqual({
    name: 'read',
    description: 'Read a file.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'a file' },
        limit: { type: 'integer', exclusiveMinimum: 0, description: 'most entries' },
        all: { type: 'boolean' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  });
});

test('an answer schema asks for every field of the shape, nested too; the zod schema keeps bounds and defaults', () => {
  const answer = z.object({
    items: z.array(z.object({ id: z.string().regex(/^[a-z]+$/), tags: z.array(z.string()).default([]) })).min(1),
    notes: z.string().default(''),
  });
  expect(answerSchema('plan', answer)).toEqual({
    name: 'plan',
    schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
            required: ['id', 'tags'],
            additionalProperties: false,
          },
        },
        notes: { type: 'string' },
      },
      required: ['items', 'notes'],
      additionalProperties: false,
    },
  });
  expect(answer.parse({ items: [{ id: 'a' }] })).toEqual({ items: [{ id: 'a', tags: [] }], notes: '' });
  expect(answer.safeParse({ items: [] }).success).toBe(false);
  expect(answer.safeParse({ items: [{ id: 'A' }] }).success).toBe(false);
});

test('validation problems read as path: message, the root named by the caller', () => {
  const parsed = z.object({ a: z.object({ b: z.number() }) }).safeParse({ a: { b: 'x' } });
  expect(parsed.success || describeIssues(parsed.error, 'arguments')).toBe('a.b: Expected number, received string');
  const root = z.string().safeParse(1);
  expect(root.success || describeIssues(root.error, '(root)')).toBe('(root): Expected string, received number');
});
