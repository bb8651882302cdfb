import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { BodyNotJson, BodyTooLarge, HttpError, UnsupportedMediaType } from './http-error';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface JsonBodyOptions {
  /** Bytes; 1 MiB when not given. */
  limit?: number;
  /** An empty body (no bytes) is undefined rather than a 400. */
  optional?: boolean;
  /** The content-type must say JSON (415 when it does not); true unless a service's clients never said so. */
  requireJsonType?: boolean;
}

const isJsonContentType = (header: string | undefined) =>
  /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(header ?? '');

/**
 * Reads a JSON body of at most `limit` bytes (raw-body checks the declared length up front and stops
 * reading at the limit). An optional body is checked for its content-type only when there is one.
 */
export async function readJsonBody(req: IncomingMessage, options: JsonBodyOptions = {}): Promise<unknown> {
  const limit = options.limit ?? MAX_BODY_BYTES;
  const requireJsonType = options.requireJsonType ?? true;
  const contentType = req.headers['content-type'];
  if (requireJsonType && !options.optional && !isJsonContentType(contentType)) {
    throw new UnsupportedMediaType(contentType);
  }
  const raw = await readRawBody(req, limit);
  if (raw.length === 0 && options.optional) return undefined;
  if (requireJsonType && !isJsonContentType(contentType)) throw new UnsupportedMediaType(contentType);
  const text = raw.toString('utf8');
  if (!text.trim()) throw new BodyNotJson('');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BodyNotJson((err as Error).message);
  }
}

/** The body's bytes, at most `limit` (413 beyond): for what must see them as sent (a webhook's signature). */
export async function readRawBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  try {
    return await getRawBody(req, { limit, length: req.headers['content-length'] });
  } catch (err) {
    const type = (err as { type?: unknown }).type;
    if (type === 'entity.too.large') throw new BodyTooLarge(limit);
    throw new HttpError(400, `the body could not be read: ${(err as Error).message}`, { cause: err });
  }
}
