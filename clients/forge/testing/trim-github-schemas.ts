/**
 * Writes the small slices of GitHub's published API descriptions the GitHub test double validates against:
 * the REST operations GitHubForge calls (from @octokit/openapi, 13 MB) and the webhook payloads
 * GitHubWebhooks parses (from @octokit/openapi-webhooks). Each slice is self-contained: parameters, request
 * bodies and responses are inlined, and only the component schemas they reach are kept, under their names.
 *
 * Run after upgrading either package, and commit the output:
 *   npx tsx clients/forge/testing/trim-github-schemas.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import * as prettier from 'prettier';

/** The REST operations the adapter sends (method and documented path). */
export const GITHUB_REST_OPERATIONS = [
  'GET /repos/{owner}/{repo}',
  'GET /repos/{owner}/{repo}/pulls',
  'POST /repos/{owner}/{repo}/pulls',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}',
  'PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
  'GET /repos/{owner}/{repo}/issues',
  'GET /repos/{owner}/{repo}/issues/{issue_number}',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'POST /repos/{owner}/{repo}/statuses/{sha}',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments',
  'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
] as const;

/** The webhook payloads the reader parses (keys of the webhooks document: `<event>-<action>`). */
export const GITHUB_WEBHOOKS = [
  'issues-labeled',
  'issues-opened',
  'issue-comment-created',
  'pull-request-review-submitted',
  'pull-request-review-comment-created',
] as const;

type Json = Record<string, unknown>;

/** Follows `#/a/b` inside `doc`. */
function at(doc: Json, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/**
 * Inlines every non-schema $ref (parameters, responses, request bodies, headers), keeps schema $refs, and drops
 * what validation does not read (prose, examples; a `properties` map keeps its keys, whatever they are named).
 */
function inline(doc: Json, node: unknown, isPropertyMap = false): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(doc, n));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#/components/schemas/')) return inline(doc, at(doc, ref));
  return Object.fromEntries(
    Object.entries(node as Json)
      .filter(([k, v]) => isPropertyMap || !(DOC_ONLY.has(k) && (k !== 'description' || typeof v === 'string')))
      .map(([k, v]) => [k, inline(doc, v, !isPropertyMap && k === 'properties')]),
  );
}
const DOC_ONLY = new Set(['description', 'summary', 'example', 'examples', 'externalDocs', 'x-github', 'title']);

/** The named component schemas `node` reaches, transitively. */
function reachableSchemas(doc: Json, node: unknown, out: Record<string, unknown> = {}): Record<string, unknown> {
  if (Array.isArray(node)) node.forEach((n) => reachableSchemas(doc, n, out));
  else if (node && typeof node === 'object') {
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!(name in out)) {
        out[name] = at(doc, ref);
        reachableSchemas(doc, out[name], out);
      }
    }
    Object.values(node as Json).forEach((v) => reachableSchemas(doc, v, out));
  }
  return out;
}

function trimRest(doc: Json): Json {
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const operations: Json = {};
  for (const key of GITHUB_REST_OPERATIONS) {
    const [method, path] = key.split(' ') as [string, string];
    const op = paths[path]?.[method.toLowerCase()] as Json | undefined;
    if (!op) throw new Error(`GitHub's description has no ${key}`);
    operations[key] = inline(doc, {
      operationId: op.operationId,
      parameters: op.parameters ?? [],
      requestBody: op.requestBody,
      responses: op.responses,
    });
  }
  return {
    source: '@octokit/openapi generated/api.github.com.json',
    openapi: doc.openapi,
    operations,
    components: { schemas: inline(doc, reachableSchemas(doc, operations)) },
  };
}

function trimWebhooks(doc: Json): Json {
  const hooks = doc.webhooks as Record<string, { post: Json }>;
  const payloads: Json = {};
  for (const key of GITHUB_WEBHOOKS) {
    const post = hooks[key]?.post;
    if (!post) throw new Error(`GitHub's webhook description has no ${key}`);
    payloads[key] = (inline(doc, post.requestBody) as { content: Record<string, { schema: unknown }> }).content[
      'application/json'
    ]!.schema;
  }
  return {
    source: '@octokit/openapi-webhooks generated/api.github.com.json',
    openapi: doc.openapi,
    payloads,
    components: { schemas: inline(doc, reachableSchemas(doc, payloads)) },
  };
}

async function main(): Promise<void> {
  const out = join(__dirname, 'github');
  const read = (pkg: string) => JSON.parse(readFileSync(require.resolve(pkg), 'utf8')) as Json;
  const rest = trimRest(read('@octokit/openapi/generated/api.github.com.json'));
  const webhooks = trimWebhooks(read('@octokit/openapi-webhooks/generated/api.github.com.json'));
  for (const [file, value] of [
    ['rest-operations.json', rest],
    ['webhook-payloads.json', webhooks],
  ] as const) {
    const path = join(out, file);
    const options = { ...(await prettier.resolveConfig(path)), parser: 'json' };
    writeFileSync(path, await prettier.format(JSON.stringify(value), options));
  }
}

if (require.main === module) void main();
