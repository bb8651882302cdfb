// The one admission rule for a change request, whichever way it arrived (HTTP, Kafka protobuf, Kafka JSON,
// `farm submit` over Kafka): the HTTP API's validator applied to the message's proto3 JSON form.
import { farm } from '@farm/proto';
import { FarmError } from '@farm/runtime';
import { ApiError } from './api-error';
import { parseChangeRequestInput, type ChangeRequestInput } from './change-request-input';

/** What the farm does with a change request message. */
export type Admission =
  | { kind: 'accepted'; changeRequest: farm.v1.ChangeRequest }
  /** Recorded as FAILED under its id, with the reason: its id answers why. */
  | { kind: 'refused'; changeRequestId: string; reason: string; field?: string }
  /** Not even an id to record it under: only the dead-letter topic can say why. */
  | { kind: 'unaddressable'; reason: string };

/** A change request whose id cannot name a request (absent or malformed): dead-lettered with the reason. */
export class UnaddressableRequest extends FarmError {
  constructor(message: string) {
    super(message, { retryable: false });
  }
}

/**
 * Admits one ChangeRequest message: `accepted` with the normalised request (defaults filled in) that planners
 * work on, `refused` with the validator's reason, or `unaddressable` when it has no usable id.
 */
export function admitChangeRequest(message: farm.v1.IChangeRequest): Admission {
  const json = farm.v1.ChangeRequest.toObject(farm.v1.ChangeRequest.fromObject(message), {
    longs: String,
  }) as Record<string, unknown>;
  const id = typeof json.changeRequestId === 'string' ? json.changeRequestId : '';
  let input: ChangeRequestInput;
  try {
    input = parseChangeRequestInput(withoutDefaults(json));
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (!id || err.field === 'changeRequestId') {
      return { kind: 'unaddressable', reason: id ? err.message : 'change request has no changeRequestId' };
    }
    return { kind: 'refused', changeRequestId: id, reason: err.message, field: err.field };
  }
  if (!input.changeRequestId) return { kind: 'unaddressable', reason: 'change request has no changeRequestId' };
  return {
    kind: 'accepted',
    changeRequest: farm.v1.ChangeRequest.fromObject({
      changeRequestId: input.changeRequestId,
      title: input.title,
      description: input.description,
      requestedBy: input.requestedBy,
      checkCommand: input.checkCommand,
      repo: input.repo,
      createdAtMs: input.createdAtMs ?? 0,
      integrationBranch: input.integrationBranch ?? '',
      requireApproval: !!input.requireApproval,
    }),
  };
}

/** proto3 JSON leaves default values out (an empty string; the int64 zero); so does the validator's "not given". */
function withoutDefaults(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === '' || v === null || v === undefined || (k === 'createdAtMs' && Number(v) === 0)) continue;
    out[k] =
      v !== null && typeof v === 'object' && !Array.isArray(v) ? withoutDefaults(v as Record<string, unknown>) : v;
  }
  return out;
}
