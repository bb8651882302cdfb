import { OpenApiDocument } from './openapi-document';

const document = new OpenApiDocument({
  openapi: '3.2.0',
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['name', 'size'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', maxLength: 3 },
          size: {
            anyOf: [
              { type: 'integer', minimum: 0 },
              { type: 'string', pattern: '^[0-9]+$' },
            ],
          },
          part: { $ref: '#/components/schemas/Part' },
          old_name: { $ref: '#/components/schemas/Thing/properties/name' },
        },
        not: { anyOf: [{ required: ['name', 'old_name'] }] },
      },
      Part: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
    },
  },
});
const check = document.schema('Thing');
const first = (value: unknown) => {
  const [v] = check(value);
  return v && { field: v.field, keyword: v.keyword };
};

describe('requests checked against the OpenAPI document', () => {
  test('a value the schema allows has no violation', () => {
    expect(check({ name: 'abc', size: '12', part: { id: 'x' } })).toEqual([]);
  });

  test('each violation names the field to fix as a dotted path', () => {
    expect(first({ size: 1 })).toEqual({ field: 'name', keyword: 'required' });
    expect(first({ name: 'a', size: 1, colour: 'red' })).toEqual({ field: 'colour', keyword: 'additionalProperties' });
    expect(first({ name: 'abcd', size: 1 })).toEqual({ field: 'name', keyword: 'maxLength' });
    expect(first({ name: 'a', size: 1, part: {} })).toEqual({ field: 'part.id', keyword: 'required' });
    expect(first([])).toEqual({ field: undefined, keyword: 'type' });
  });

  test('a failed anyOf is one violation, and "not both" names the second of the two', () => {
    expect(check({ name: 'a', size: -1 }).map((v) => [v.field, v.keyword])).toEqual([['size', 'anyOf']]);
    expect(first({ name: 'a', old_name: 'b', size: 1 })).toEqual({ field: 'old_name', keyword: 'not' });
  });
});
