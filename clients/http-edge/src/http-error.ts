import { FarmError } from '@farm/runtime';

export interface HttpErrorOptions {
  /** The input to fix (`repo.url`, a query parameter, a header) when one is to blame. */
  field?: string;
  /** More members of the `error` object, for services whose clients rebuild typed errors from them. */
  extra?: Record<string, unknown>;
  /** Headers of the answer (Allow on a 405, WWW-Authenticate on a 401). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * A request refused or not served, as every service of the farm answers it: the status and
 * `{"error": {"message", "field"?, ...extra}}`. Retrying helps only for 5xx and 429.
 */
export class HttpError extends FarmError {
  readonly status: number;
  readonly field?: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, {
      retryable: status >= 500 || status === 429,
      details: { status, field: options.field },
      cause: options.cause,
    });
    this.status = status;
    this.field = options.field;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  toBody(): { error: { message: string; field?: string } & Record<string, unknown> } {
    return { error: { message: this.message, ...(this.field ? { field: this.field } : {}), ...this.extra } };
  }
}

export const badRequest = (message: string, field?: string) => new HttpError(400, message, { field });
export const notFound = (message: string) => new HttpError(404, message);

/** No route has this path. */
export class RouteNotFound extends HttpError {
  constructor(readonly path: string) {
    super(404, `no such resource: ${path}`);
  }
}

/** A route has this path, but not for this method; `allow` lists the methods it has. */
export class MethodNotAllowed extends HttpError {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly allow: string[],
  ) {
    super(405, `${method} is not allowed on ${path}; use ${allow.join(', ')}`, {
      headers: { allow: allow.join(', ') },
    });
  }
}

/** The body is over the route's limit (413). */
export class BodyTooLarge extends HttpError {
  constructor(readonly limit: number) {
    super(413, `the body is larger than ${limit} bytes`);
  }
}

/** The body does not say it is JSON (415). */
export class UnsupportedMediaType extends HttpError {
  constructor(contentType: string | undefined) {
    super(415, `the body must be JSON (content-type: application/json), not ${contentType ?? 'untyped'}`);
  }
}

/** The body is empty or not JSON; `reason` is what the parser said. */
export class BodyNotJson extends HttpError {
  constructor(readonly reason: string) {
    super(400, reason ? `the body is not valid JSON: ${reason}` : 'the body is empty; expected a JSON object');
  }
}

/** The auth hook refused the request: 401 (who are you?) or 403 (not you). */
export class AccessDenied extends HttpError {
  constructor(status: 401 | 403, message: string, headers?: Record<string, string>) {
    super(status, message, { headers });
  }
}
