import { DecodeError, errorMessage } from '@farm/runtime';
import type { TopicSpec } from './topics';

export const CONTENT_TYPE_HEADER = 'content-type';
export const PROTOBUF = 'application/x-protobuf';
/** The proto3 JSON mapping, for users submitting with a plain Kafka client. */
export const JSON_CONTENT = 'application/json';

export function encodeMessage<T>(spec: TopicSpec<T>, message: T | Record<string, unknown>): Buffer {
  const typed = spec.type.fromObject(message as object);
  return Buffer.from(spec.type.encode(typed).finish());
}

/**
 * What a message without a content-type header holds: JSON when it starts with `{`, else protobuf. No farm
 * message encodes to a first byte of `{` (0x7b: field 15 with wire type 3, a group, which proto3 never writes),
 * so a JSON object sent by a plain Kafka client (kcat, the console producer) without the header is read as JSON.
 */
function contentTypeOf(value: Buffer, headers: Record<string, string>): string {
  const declared = headers[CONTENT_TYPE_HEADER];
  if (declared !== undefined) return declared.split(';')[0].trim().toLowerCase();
  return value[0] === 0x7b ? JSON_CONTENT : PROTOBUF;
}

/** Decodes by the content-type header (see contentTypeOf) and checks what every message must carry. */
export function decodeMessage<T>(spec: TopicSpec<T>, value: Buffer | null, headers: Record<string, string>): T {
  if (!value || value.length === 0) throw new DecodeError(`empty message on ${spec.name}`);
  const contentType = contentTypeOf(value, headers);
  let message: T;
  if (contentType === JSON_CONTENT) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.toString('utf8'));
    } catch (err) {
      throw new DecodeError(`invalid JSON on ${spec.name}: ${errorMessage(err)}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new DecodeError(`JSON message on ${spec.name} must be an object`);
    }
    try {
      message = spec.type.fromObject(parsed as Record<string, unknown>);
    } catch (err) {
      throw new DecodeError(`JSON message on ${spec.name} does not match its contract: ${errorMessage(err)}`);
    }
  } else if (contentType === PROTOBUF) {
    try {
      message = spec.type.decode(value);
    } catch (err) {
      throw new DecodeError(`not a valid protobuf message for ${spec.name}: ${errorMessage(err)}`);
    }
  } else {
    throw new DecodeError(`unsupported content-type "${contentType}" on ${spec.name}`);
  }
  // Random bytes can decode as protobuf (unknown fields are skipped), so require the id every contract has.
  const id = (message as { changeRequestId?: string }).changeRequestId;
  if (!id) throw new DecodeError(`message on ${spec.name} has no change_request_id`);
  return message;
}

/** The proto3 JSON form of a message (enum names, camelCase fields), for logs, the CLI and --json. */
export function toJson<T>(spec: TopicSpec<T>, message: T): Record<string, unknown> {
  return spec.type.toObject(message, { enums: String, longs: Number, defaults: true, arrays: true });
}
