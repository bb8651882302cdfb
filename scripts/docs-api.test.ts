// docs/http-api-reference.md is what scripts/docs-api.ts makes of apps/orchestrator/openapi.yaml now.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROUTE_SCOPES } from '../apps/orchestrator/src/api-scopes';
import { apiReference, cell, generatedReference, OPENAPI_PATH, REFERENCE_PATH, REGENERATE, typeOf } from './docs-api';

const root = path.resolve(__dirname, '..');

describe('the HTTP API reference page', () => {
  it('is what openapi.yaml and the scope table make of it now', () => {
    const stale = readFileSync(path.join(root, REFERENCE_PATH), 'utf8') !== generatedReference(root);
    expect(
      stale ? `${REFERENCE_PATH} differs from ${OPENAPI_PATH}: run \`${REGENERATE}\` and commit it` : 'fresh',
    ).toBe('fresh');
  });

  it('has every operation of the document, with the scope the server asks for', () => {
    const doc = parse(readFileSync(path.join(root, OPENAPI_PATH), 'utf8')) as { paths: Record<string, object> };
    const page = generatedReference(root);
    const operations = Object.entries(doc.paths).flatMap(([route, item]) =>
      Object.keys(item)
        .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
        .map((method) => ({ method: method.toUpperCase(), route })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(15);
    for (const { method, route } of operations) {
      expect(page).toContain(`\n## \`${method} ${route}\`\n`);
      const scope = ROUTE_SCOPES[`${method} ${route.replace(/\{([^}]+)\}/g, ':$1')}`];
      if (scope) expect(page).toContain(`| ${scope} |`);
    }
  });
});

describe('the generator', () => {
  const doc = {
    openapi: '3.2.0',
    info: { title: 'T', version: '1', description: 'About.' },
    paths: {
      '/v1/things/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        post: {
          operationId: 'makeThing',
          summary: 'Make a thing',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          responses: {
            '201': {
              description: 'Made.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            '400': { $ref: '#/components/responses/Bad' },
          },
        },
      },
    },
    components: {
      responses: {
        Bad: {
          description: 'Not <so> good | at all.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
      schemas: {
        Thing: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: { type: 'string', maxLength: 10, description: 'The `<name>`.' },
            size: { type: ['integer', 'null'], minimum: 1, maximum: 5, default: 2 },
            parts: {
              type: 'array',
              items: { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
            },
          },
        },
      },
    },
  };

  it('writes each operation with its parameters, body, answers and scope, then the schemas', () => {
    const page = apiReference(doc);
    expect(page).toContain('| [`POST /v1/things/{id}`](#post-v1thingsid) | Make a thing | admin |');
    expect(page).toContain('| `id` | path | string | yes |  |');
    expect(page).toContain('`application/json`: [Thing](#thing)');
    expect(page).toContain('| 400 | Not &lt;so> good \\| at all. (Bad) | `application/json`: object |');
    expect(page).toContain('| `name` | string | yes | The `<name>`. At most 10 characters. |');
    expect(page).toContain('| `size` | integer or null |  | 1 to 5; default `2`. |');
    expect(page).toContain('| `parts[].at` | string (date-time) |  |  |');
    expect(page).toContain('### Thing');
  });

  it('writes types and text for Markdown tables', () => {
    expect(typeOf({ type: 'array', items: { $ref: '#/components/schemas/Lesson' } })).toBe(
      'array of [Lesson](#lesson)',
    );
    expect(typeOf({ enum: ['', 'A'] })).toBe('one of: `""`, `A`');
    expect(typeOf({ $ref: '#/components/schemas/X/properties/y' }, 'X')).toBe('same as `y`');
    expect(cell('a <b> `<c>` | d\n e')).toBe('a &lt;b> `<c>` \\| d e');
  });
});
