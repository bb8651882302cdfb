// Test support: checks the HTTP API's answers against apps/orchestrator/openapi.yaml, so the document and the
// server cannot drift apart. Not exported from the package (ajv and yaml are dev dependencies).
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { parse } from 'yaml';
import { OPENAPI_FILE } from '../src/api-document';

export { OPENAPI_FILE };
const DOC_ID = 'https://agent-farm.invalid/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
  /** OpenAPI 3.2: the schema of each item of a sequential media type (an event of text/event-stream). */
  itemSchema?: Json;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}

export interface ObservedResponse {
  method: string;
  /** Path with query, as requested. */
  url: string;
  status: number;
  headers: { get(name: string): string | null };
  /** The body text; ignored for text/event-stream. */
  body: string;
}

export class OpenApiConformance {
  private readonly doc: Json;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ReturnType<Ajv2020['compile']>>();
  private readonly seen = new Set<string>();

  constructor(file = OPENAPI_FILE) {
    this.doc = parse(readFileSync(file, 'utf8')) as Json;
    this.ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s));
    this.ajv.addSchema(this.doc, DOC_ID, undefined, false);
  }

  /** Throws, saying what differs, unless the document allows this answer. */
  check(r: ObservedResponse): void {
    const pathname = new URL(r.url, 'http://x').pathname;
    const where = `${r.method} ${pathname} -> ${r.status}`;
    const template = this.templateFor(pathname);
    const operations = template ? this.pathItem(template) : undefined;
    let responsePointer: string;
    if (!template || !operations) {
      responsePointer = this.rulePointer('x-unknown-path-response');
      this.expect(r.status === 404, `${where}: a path the document does not list must answer 404`);
      this.seen.add('unknown-path 404');
    } else if (!operations[r.method.toLowerCase()]) {
      responsePointer = this.rulePointer('x-unlisted-method-response');
      this.expect(r.status === 405, `${where}: a method the document does not list for ${template} must answer 405`);
      const listed = METHODS.filter((m) => operations[m]).map((m) => m.toUpperCase());
      const allow = (r.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean);
      this.expect(
        JSON.stringify([...allow].sort()) === JSON.stringify([...listed].sort()),
        `${where}: Allow is "${allow.join(', ')}", the document lists ${listed.join(', ')}`,
      );
      this.seen.add('unlisted-method 405');
    } else {
      const base = `/paths/${esc(template)}/${r.method.toLowerCase()}/responses`;
      const responses = this.at(base) as Json;
      this.expect(
        responses[String(r.status)] !== undefined,
        `${where}: status not documented (${Object.keys(responses).join(', ')})`,
      );
      responsePointer = this.deref(`${base}/${r.status}`);
      this.seen.add(`${r.method.toUpperCase()} ${template} ${r.status}`);
    }
    const response = this.at(responsePointer) as ResponseObject;
    const contentType = (r.headers.get('content-type') ?? '').split(';')[0].trim();
    if (!response.content) {
      this.expect(!r.body, `${where}: the document describes no body, got ${r.body.slice(0, 100)}`);
      return;
    }
    this.expect(
      response.content[contentType] !== undefined,
      `${where}: content-type ${contentType} is not documented (${Object.keys(response.content).join(', ')})`,
    );
    if (contentType === 'text/event-stream') return; // events are checked one by one with checkEvent
    let body: unknown;
    try {
      body = JSON.parse(r.body);
    } catch {
      throw new Error(`${where}: the body is not JSON: ${r.body.slice(0, 200)}`);
    }
    this.validate(`${responsePointer}/content/${esc(contentType)}/schema`, body, where);
  }

  /**
   * Checks one Server-Sent Event (as a parser yields it: id, event, data) against the stream's itemSchema,
   * and its data against the schema of its content (contentSchema, which JSON Schema leaves unchecked).
   */
  checkSseEvent(pathTemplate: string, event: { id?: string; event: string; data: string }): void {
    const where = `event of ${pathTemplate}`;
    this.validate(this.eventPointer(pathTemplate), event, where);
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      throw new Error(`${where}: the data is not JSON: ${event.data.slice(0, 200)}`);
    }
    this.checkEvent(pathTemplate, data);
  }

  /** Checks the data of one Server-Sent Event, parsed, against the contentSchema of the stream's events. */
  checkEvent(pathTemplate: string, data: unknown): void {
    this.validate(`${this.eventPointer(pathTemplate)}/properties/data/contentSchema`, data, `event of ${pathTemplate}`);
  }

  /** Errors of a request body the operation's schema refuses; none when the document allows it. */
  requestBodyErrors(pathTemplate: string, method: string, body: unknown): string | undefined {
    const pointer = this.deref(`/paths/${esc(pathTemplate)}/${method.toLowerCase()}/requestBody`);
    const validate = this.validator(`${pointer}/content/application~1json/schema`);
    return validate(body) ? undefined : this.ajv.errorsText(validate.errors);
  }

  /**
   * Documented answers (operation and status) the tests never received. Left out: 500, and the 503 of a database
   * that is down (the shared `Unavailable` response), which the farm-up test with PostgreSQL halted receives.
   */
  unexercised(): string[] {
    const all: string[] = ['unknown-path 404', 'unlisted-method 405'];
    for (const [template, item] of Object.entries(this.doc.paths as Record<string, Json>)) {
      for (const m of METHODS.filter((x) => item[x])) {
        for (const [status, response] of Object.entries((item[m] as Json).responses as Record<string, Json>)) {
          const shared = response.$ref === '#/components/responses/Unavailable';
          if (status !== '500' && !shared) all.push(`${m.toUpperCase()} ${template} ${status}`);
        }
      }
    }
    return all.filter((k) => !this.seen.has(k));
  }

  private eventPointer(pathTemplate: string): string {
    return this.deref(`/paths/${esc(pathTemplate)}/get/responses/200/content/text~1event-stream/itemSchema`);
  }

  private validator(pointer: string) {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private validate(pointer: string, value: unknown, where: string): void {
    const validate = this.validator(pointer);
    if (!validate(value)) {
      throw new Error(
        `${where}: body does not match the document: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 500)}`,
      );
    }
  }

  /** The most specific documented path template matching a concrete path. */
  private templateFor(pathname: string): string | undefined {
    const templates = Object.keys(this.doc.paths as Json).sort(
      (a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0),
    );
    return templates.find((t) =>
      new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`).test(pathname),
    );
  }

  private pathItem(template: string): Json | undefined {
    return (this.doc.paths as Record<string, Json>)[template];
  }

  private rulePointer(rule: string): string {
    return this.deref(`/${esc(rule)}`);
  }

  /** Follows a local $ref at the pointer, returning the pointer of what it refers to. */
  private deref(pointer: string): string {
    const node = this.at(pointer) as Json;
    const ref = node.$ref;
    return typeof ref === 'string' && ref.startsWith('#') ? this.deref(ref.slice(1)) : pointer;
  }

  private at(pointer: string): unknown {
    let node: unknown = this.doc;
    for (const token of pointer.split('/').slice(1)) {
      node = (node as Json)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (node === undefined) throw new Error(`the OpenAPI document has nothing at ${pointer}`);
    return node;
  }

  private expect(ok: boolean, message: string): void {
    if (!ok) throw new Error(message);
  }
}

const esc = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** A fetch that checks every answer against the document before handing it on. */
export function conformingFetch(conformance: OpenApiConformance, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const res = await base(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const streaming = (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
    conformance.check({
      method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
      url,
      status: res.status,
      headers: res.headers,
      body: streaming ? '' : await res.clone().text(),
    });
    return res;
  };
}
