import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from './api-error';

export const MAX_BODY_BYTES = 1024 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export const sendError = (res: ServerResponse, err: ApiError, headers?: Record<string, string>) =>
  sendJson(res, err.status, err.toBody(), headers);

const isJsonContentType = (header: string | undefined) =>
  /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(header ?? '');

/**
 * Reads a JSON body of at most `limit` bytes. `optional` lets an empty body through as undefined;
 * otherwise the body must be JSON and say so in its content-type (415 when it does not).
 */
export async function readJsonBody(
  req: IncomingMessage,
  options: { limit?: number; optional?: boolean } = {},
): Promise<unknown> {
  const limit = options.limit ?? MAX_BODY_BYTES;
  const tooLarge = () => new ApiError(413, `the body is larger than ${limit} bytes`);
  const unsupported = () =>
    new ApiError(
      415,
      `the body must be JSON (content-type: application/json), not ${req.headers['content-type'] ?? 'untyped'}`,
    );
  if (!options.optional && !isJsonContentType(req.headers['content-type'])) throw unsupported();
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(); // the server drains the rest after answering
    chunks.push(chunk);
  }
  if (size === 0 && options.optional) return undefined;
  if (!isJsonContentType(req.headers['content-type'])) throw unsupported();
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) throw badRequest('the body is empty; expected a JSON object');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest(`the body is not valid JSON: ${(err as Error).message}`);
  }
}
