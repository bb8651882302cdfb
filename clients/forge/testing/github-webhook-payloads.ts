/**
 * Webhook payloads as GitHub documents them (testing/github/webhook-payloads.json, trimmed from
 * @octokit/openapi-webhooks): a test gives the fields it cares about, the rest of the required shape is
 * filled in, and the result is validated against the documented schema before it is used.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import { fillFromSchema, type SchemaDocument } from './schema-sample';

export type GitHubWebhookKey =
  | 'issues-labeled'
  | 'issues-opened'
  | 'issue-comment-created'
  | 'pull-request-review-submitted'
  | 'pull-request-review-comment-created';

const slice = JSON.parse(readFileSync(join(__dirname, 'github', 'webhook-payloads.json'), 'utf8')) as SchemaDocument & {
  payloads: Record<string, unknown>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(slice, 'webhooks', undefined, false);

/** What is wrong with `payload` as a documented `key` delivery (empty when it is one). */
export function githubWebhookProblems(key: GitHubWebhookKey, payload: unknown): string[] {
  const validate = ajv.getSchema(`webhooks#/payloads/${key}`) ?? ajv.compile({ $ref: `webhooks#/payloads/${key}` });
  if (validate(payload)) return [];
  return (validate.errors ?? []).slice(0, 8).map((e) => `${key}: ${e.instancePath || '/'} ${e.message}`);
}

/** A documented `key` payload carrying `fields`; throws when the result is not one. */
export function githubWebhookPayload(key: GitHubWebhookKey, fields: Record<string, unknown>): unknown {
  const payload = fillFromSchema(slice.payloads[key], fields, slice);
  const problems = githubWebhookProblems(key, payload);
  if (problems.length) throw new Error(`not a documented payload:\n${problems.join('\n')}`);
  return payload;
}
