export { ApiError, ApiUnreachable } from './api-error';
export * from './change-request-client';
export { SseDecoder, serverSentEvents, type SseEvent } from './server-sent-events';
