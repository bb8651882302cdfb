import path from 'node:path';
import { OpenApiDocument } from '@farm/http-edge';

/** The HTTP API's contract: the server validates requests against it, the tests check answers against it. */
export const OPENAPI_FILE = path.join(__dirname, '..', 'openapi.yaml');

let loaded: OpenApiDocument | undefined;

/** openapi.yaml, read and compiled on first use. */
export function apiDocument(): OpenApiDocument {
  loaded ??= OpenApiDocument.load(OPENAPI_FILE);
  return loaded;
}
