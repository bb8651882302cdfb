/**
 * Checks requests and answers against a trimmed slice of a forge's OpenAPI description (testing/<forge>/*.json):
 * the operation must be documented, its path and query parameters and JSON body valid, and an answer valid
 * against the documented response. Used by the forge doubles; never by the adapters.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export interface OperationMatch {
  /** `METHOD /documented/{path}`. */
  key: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
}

export class OpenApiSlice {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  /** Parameters arrive as strings: the documented types are coerced before validation. */
  private readonly paramAjv = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
  private readonly routes: Array<{ key: string; method: string; pattern: RegExp; names: string[] }>;
  private readonly compiled = new Map<string, ValidateFunction>();

  private readonly doc: { operations: Record<string, Operation>; components: Json };

  constructor(doc: { operations: Record<string, Operation>; components: Json }) {
    this.doc = typelessNullable(doc) as typeof doc;
    for (const ajv of [this.ajv, this.paramAjv]) {
      addFormats(ajv);
      // GitHub's own formats (`owner/name`); anything else unknown is a warning worth seeing.
      ajv.addFormat('repo.nwo', /^[^/]+\/[^/]+$/);
      ajv.addSchema(this.doc, 'slice', undefined, false);
    }
    this.routes = Object.keys(doc.operations).map((key) => {
      const [method, path] = key.split(' ') as [string, string];
      const names: string[] = [];
      const pattern = new RegExp(
        '^' +
          path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_m, name: string) => {
            names.push(name);
            return '([^/]+)';
          }) +
          '$',
      );
      return { key, method, pattern, names };
    });
  }

  /**
   * The documented operation a request is, with what is wrong with it (empty when valid). Undocumented
   * requests answer `undefined` and one problem.
   */
  checkRequest(
    method: string,
    pathname: string,
    search: URLSearchParams,
    body: unknown,
  ): { match?: OperationMatch; problems: string[] } {
    const route = this.routes.find((r) => r.method === method && r.pattern.test(pathname));
    if (!route) return { problems: [`undocumented request: ${method} ${pathname}`] };
    const op = this.doc.operations[route.key]!;
    const problems: string[] = [];
    const values = route.pattern.exec(pathname)!.slice(1).map(decodeURIComponent);
    const params = Object.fromEntries(route.names.map((n, i) => [n, values[i]!]));
    const query: Record<string, unknown> = {};
    const declared = new Map((op.parameters ?? []).map((p) => [`${p.in}:${p.name}`, p]));
    for (const [name, value] of Object.entries(params)) {
      problems.push(...this.checkParam(route.key, declared.get(`path:${name}`), name, value).problems);
    }
    for (const name of new Set(search.keys())) {
      const p = declared.get(`query:${name}`);
      if (!p) {
        problems.push(`${route.key}: undocumented query parameter ${name}`);
        continue;
      }
      const r = this.checkParam(route.key, p, name, search.get(name)!);
      problems.push(...r.problems);
      query[name] = r.value;
    }
    for (const p of op.parameters ?? []) {
      if (p.in === 'query' && p.required && !search.has(p.name)) problems.push(`${route.key}: missing ${p.name}`);
    }
    const bodySchema = op.requestBody?.content?.['application/json']?.schema;
    if (body !== undefined && !bodySchema) problems.push(`${route.key}: takes no body`);
    if (body === undefined && op.requestBody?.required) problems.push(`${route.key}: body required`);
    if (body !== undefined && bodySchema) {
      const at = ['operations', route.key, 'requestBody', 'content', 'application/json', 'schema'];
      problems.push(...this.errors(`${route.key} body`, at, body));
    }
    return { match: { key: route.key, params, query }, problems };
  }

  /** What is wrong with an answer to `key` (empty when it is a documented answer). */
  checkResponse(key: string, status: number, body: unknown): string[] {
    const response = this.doc.operations[key]?.responses[String(status)];
    if (!response) return [`${key}: ${status} is not a documented answer`];
    if (!response.content?.['application/json']?.schema) return [];
    const at = ['operations', key, 'responses', String(status), 'content', 'application/json', 'schema'];
    return this.errors(`${key} ${status} answer`, at, body);
  }

  /** The documented response schema of `key` for `status`, for sampling. */
  responseSchema(key: string, status: number): unknown {
    return this.doc.operations[key]?.responses[String(status)]?.content?.['application/json']?.schema;
  }

  private checkParam(
    key: string,
    p: Parameter | undefined,
    name: string,
    raw: string,
  ): { value: unknown; problems: string[] } {
    if (!p?.schema) return { value: raw, problems: p ? [] : [`${key}: undocumented parameter ${name}`] };
    const holder = { v: raw };
    const cacheKey = `${key} ${p.in}:${name}`;
    let validate = this.compiled.get(cacheKey);
    if (!validate) {
      validate = this.paramAjv.compile({ type: 'object', properties: { v: p.schema } });
      this.compiled.set(cacheKey, validate);
    }
    return validate(holder)
      ? { value: holder.v, problems: [] }
      : { value: raw, problems: [`${key}: parameter ${name}=${raw}: ${this.paramAjv.errorsText(validate.errors)}`] };
  }

  private errors(what: string, pointer: string[], value: unknown): string[] {
    const ref =
      'slice#/' + pointer.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 8).map((e) => `${what}: ${e.instancePath || '/'} ${e.message}`);
  }
}

/**
 * OpenAPI 3.0's `nullable: true` on a schema without `type` (GitHub has a few: `allOf` or `$ref` and nullable)
 * as JSON Schema says it: `anyOf: [schema, {type: null}]`. Ajv refuses the former.
 */
function typelessNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(typelessNullable);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node as Json).map(([k, v]) => [k, typelessNullable(v)]));
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable;
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}
