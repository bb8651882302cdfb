import { HttpError } from '@farm/http-edge';

/**
 * A request the HTTP API refused or could not serve, with the HTTP status and, when one field is to blame,
 * its name (`repo.url`). The edge renders it as `{"error": {"message", "field"}}` (@farm/farm-api's client
 * raises its own ApiError from such an answer). Retrying helps only for 5xx and 429.
 */
export class ApiError extends HttpError {
  constructor(status: number, message: string, field?: string) {
    super(status, message, { field });
  }
}

export const badRequest = (message: string, field?: string) => new ApiError(400, message, field);
export const notFound = (message: string) => new ApiError(404, message);
