import { OpenApiConformance } from './openapi-conformance';

const json = (type = 'application/json') => ({ get: (h: string) => (h === 'content-type' ? type : null) });
const answer = (method: string, url: string, status: number, body: unknown, type?: string) => ({
  method,
  url,
  status,
  headers: json(type),
  body: JSON.stringify(body),
});

describe('the OpenAPI conformance check used by the API tests', () => {
  const doc = new OpenApiConformance();

  test('accepts what the document describes', () => {
    expect(() =>
      doc.check(answer('POST', '/v1/change-requests', 202, { changeRequestId: 'a', created: true })),
    ).not.toThrow();
    expect(() => doc.check(answer('GET', '/v1/change-requests/a', 404, { error: { message: 'no' } }))).not.toThrow();
  });

  test('refuses a missing field, an extra field, an undocumented status and a wrong content type', () => {
    expect(() => doc.check(answer('POST', '/v1/change-requests', 202, { changeRequestId: 'a' }))).toThrow(/created/);
    expect(() =>
      doc.check(answer('POST', '/v1/change-requests', 202, { changeRequestId: 'a', created: true, extra: 1 })),
    ).toThrow(/additional/);
    expect(() => doc.check(answer('GET', '/v1/change-requests', 404, { error: { message: 'x' } }))).toThrow(
      /not documented/,
    );
    expect(() =>
      doc.check(answer('GET', '/v1/change-requests/a', 404, { error: { message: 'x' } }, 'text/html')),
    ).toThrow(/content-type/);
  });

  test('refuses an event that is not a whole PhaseTransition', () => {
    expect(() => doc.checkEvent('/v1/change-requests/{id}/events', { changeRequestId: 'a', sequence: 1 })).toThrow(
      /toPhase/,
    );
  });
});
