import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { OpenApiSlice } from './openapi-slice';
import { fillFromSchema } from './schema-sample';

const doc = JSON.parse(readFileSync(join(__dirname, 'github', 'rest-operations.json'), 'utf8'));
const slice = new OpenApiSlice(doc);
const key = 'GET /repos/{owner}/{repo}/pulls/{pull_number}';

describe("the GitHub double's checks", () => {
  it('completes a partial answer to the documented one, and catches a value of the wrong type', () => {
    const pull = fillFromSchema(slice.responseSchema(key, 200), { number: 7, user: { login: 'ann' } }, doc) as {
      number: number;
      user: { login: string; id: number };
    };
    expect(slice.checkResponse(key, 200, pull)).toEqual([]);
    expect(pull).toMatchObject({ number: 7, user: { login: 'ann' } });
    expect(slice.checkResponse(key, 200, { ...pull, number: 'seven' })).toEqual([
      `${key} 200 answer: /number must be integer`,
    ]);
    expect(slice.checkResponse(key, 418, pull)).toEqual([`${key}: 418 is not a documented answer`]);
  });

  it('checks path and query parameters against their documented types', () => {
    const ok = slice.checkRequest(
      'GET',
      '/repos/acme/shop/pulls',
      new URLSearchParams('state=open&per_page=100'),
      undefined,
    );
    expect(ok).toMatchObject({
      problems: [],
      match: { key: 'GET /repos/{owner}/{repo}/pulls', query: { per_page: 100 } },
    });
    const bad = slice.checkRequest('GET', '/repos/acme/shop/pulls/seven', new URLSearchParams(), undefined);
    expect(bad.problems).toEqual([`${key}: parameter pull_number=seven: data/v must be integer`]);
    const state = slice.checkRequest('GET', '/repos/acme/shop/pulls', new URLSearchParams('state=opened'), undefined);
    expect(state.problems).toEqual([
      'GET /repos/{owner}/{repo}/pulls: parameter state=opened: data/v must be equal to one of the allowed values',
    ]);
  });
});
