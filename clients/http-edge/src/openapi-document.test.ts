import { OpenApiDocument } from './openapi-document';

const document = new OpenApiDocument({
  openapi: '3.2.0',
  paths: {
    '/things/{id}': {
      parameters: [{ $ref: '#/components/parameters/Id' }],
      get: {
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 } },
          { name: 'Last-Event-ID', in: 'header', schema: { type: 'string', pattern: '^[0-9]*$' } },
        ],
      },
    },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 3 } } },
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

describe('parameters checked against the OpenAPI document, as the text a request carries them in', () => {
  const verdicts = (name: string, raws: string[]) => {
    const { check } = document.parameter('/things/{id}', 'get', name);
    return raws.map((raw) => [raw, check(raw).map((v) => `${v.field}:${v.keyword}`)[0] ?? 'ok']);
  };

  test('an integer is its digits, in bounds; anything else is refused naming the parameter', () => {
    expect(verdicts('limit', ['5', '500', '0', '501', '-1', '2.5', '', ' 7', '9'.repeat(400)])).toEqual([
      ['5', 'ok'],
      ['500', 'ok'],
      ['0', 'limit:minimum'],
      ['501', 'limit:maximum'],
      ['-1', 'limit:minimum'],
      ['2.5', 'limit:type'],
      ['', 'limit:type'],
      [' 7', 'limit:type'],
      ['9'.repeat(400), 'limit:maximum'],
    ]);
    expect(document.parameter('/things/{id}', 'get', 'limit').schema.default).toBe(50);
  });

  test('headers are found whatever their case; path-level parameters by reference', () => {
    expect(verdicts('last-event-id', ['12', 'x'])).toEqual([
      ['12', 'ok'],
      ['x', 'last-event-id:pattern'],
    ]);
    expect(verdicts('id', ['abc', 'abcd'])).toEqual([
      ['abc', 'ok'],
      ['abcd', 'id:maxLength'],
    ]);
    expect(() => document.parameter('/things/{id}', 'get', 'colour')).toThrow(/no parameter colour/);
  });
});
