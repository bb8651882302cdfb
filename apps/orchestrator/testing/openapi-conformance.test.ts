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

  test('checks a Server-Sent Event against the itemSchema: its id, its type and its data as JSON', () => {
    const transition = {
      changeRequestId: 'a',
      fromPhase: 'RECEIVED',
      toPhase: 'PLANNING',
      sequence: 2,
      reason: '',
      atMs: 1,
      taskId: '',
      taskStatus: 'COMMIT_STATUS_UNSPECIFIED',
      branchName: '',
      taskState: '',
    };
    const path = '/v1/change-requests/{id}/events';
    const event = { id: '2', event: 'transition', data: JSON.stringify(transition) };
    expect(() => doc.checkSseEvent(path, event)).not.toThrow();
    expect(() => doc.checkSseEvent(path, { ...event, event: 'message' })).toThrow(/const/);
    expect(() => doc.checkSseEvent(path, { ...event, id: undefined })).toThrow(/id/);
    expect(() => doc.checkSseEvent(path, { ...event, data: '{"sequence": 2' })).toThrow(/not JSON/);
    expect(() => doc.checkSseEvent(path, { ...event, data: JSON.stringify({ ...transition, toPhase: 'X' }) })).toThrow(
      /allowed values/,
    );
  });

  test('tells whether the document allows a request body', () => {
    const body = { title: 'x', repo: { url: 'https://git.example.com/app.git' } };
    expect(doc.requestBodyErrors('/v1/change-requests', 'post', body)).toBeUndefined();
    expect(doc.requestBodyErrors('/v1/change-requests', 'post', { ...body, title: '' })).toMatch(/title/);
  });
});
