import type { V1Job, V1JobCondition } from '@kubernetes/client-node';

/** Complete or Failed with status True; FailureTarget/SuccessCriteriaMet come first while pods still terminate. */
export function terminalCondition(job: V1Job): V1JobCondition | undefined {
  return job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** The status code and message of a failed API call (client-node's HttpError or a network error). */
export function apiError(err: unknown): { code?: number; message: string } {
  const e = err as { statusCode?: number; body?: { message?: string; code?: number }; message?: string };
  const code = e?.statusCode ?? e?.body?.code;
  return { code, message: e?.body?.message ?? e?.message ?? String(err) };
}
