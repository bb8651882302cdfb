// Requests checked against the service's OpenAPI document itself (OpenAPI 3.1/3.2 schemas are JSON Schema
// 2020-12, which Ajv reads), so that what the document allows and what the server accepts cannot drift apart.
import { readFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { parse } from 'yaml';

/** Why a value does not match its schema: the first problem, with the input to fix as a dotted path. */
export interface SchemaViolation {
  /** `repo.url`; undefined when the value as a whole is wrong (a body that is no object). */
  field?: string;
  /** The JSON Schema keyword that failed: required, additionalProperties, type, pattern, maxLength, not, anyOf... */
  keyword: string;
  /** Ajv's own wording, for keywords the caller has no better words for. */
  message: string;
  /** The failing keyword's parameters (limit, missingProperty, type...). */
  params: Record<string, unknown>;
  /** The schema holding the failing keyword (its description, pattern...). */
  parentSchema?: Record<string, unknown>;
}

/** A value's violations of one schema of the document, all of them, first the most telling. */
export type SchemaCheck = (value: unknown) => SchemaViolation[];

const DOC_ID = 'https://agent-farm.invalid/openapi.json';

export class OpenApiDocument {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
  private readonly checks = new Map<string, SchemaCheck>();

  constructor(readonly document: Record<string, unknown>) {
    this.ajv.addSchema(document, DOC_ID, undefined, false);
  }

  static load(file: string): OpenApiDocument {
    return new OpenApiDocument(parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
  }

  /** The check of `#/components/schemas/<name>`. */
  schema(name: string): SchemaCheck {
    return this.check(`/components/schemas/${name}`);
  }

  /** The check of the JSON schema at a pointer into the document (compiled once). */
  check(pointer: string): SchemaCheck {
    let check = this.checks.get(pointer);
    if (!check) {
      const validate = this.ajv.compile({ $ref: `${DOC_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}` });
      check = (value) => (validate(value) ? [] : violations(validate));
      this.checks.set(pointer, check);
    }
    return check;
  }

  /**
   * The check of one parameter of an operation (query, header or path; named case-insensitively for
   * headers), given as the text a request carries it in: an integer parameter's digits are read as a number
   * (past the largest double: the largest double), anything else is checked as the string it is.
   */
  parameter(pathTemplate: string, method: string, name: string): ParameterCheck {
    const base = `/paths/${escapeToken(pathTemplate)}`;
    const candidates = [`${base}/parameters`, `${base}/${method.toLowerCase()}/parameters`].flatMap((list) =>
      ((this.at(list) as unknown[] | undefined) ?? []).map((_, i) => this.deref(`${list}/${i}`)),
    );
    const pointer = candidates.find((p) => {
      const given = (this.at(p) as { name?: string; in?: string }) ?? {};
      return given.in === 'header' ? given.name?.toLowerCase() === name.toLowerCase() : given.name === name;
    });
    if (!pointer) throw new Error(`openapi.yaml: ${method} ${pathTemplate} has no parameter ${name}`);
    const schema = (this.at(`${pointer}/schema`) ?? {}) as Record<string, unknown>;
    const check = this.check(`${pointer}/schema`);
    const integer = schema.type === 'integer';
    return {
      schema,
      check: (raw) => {
        const value =
          integer && /^-?[0-9]+$/.test(raw)
            ? Math.sign(Number(raw)) * Math.min(Math.abs(Number(raw)), Number.MAX_VALUE)
            : raw;
        return check(value).map((v) => ({ ...v, field: name }));
      },
    };
  }

  private at(pointer: string): unknown {
    let node: unknown = this.document;
    for (const token of pointer.split('/').slice(1)) {
      node = (node as Record<string, unknown> | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node;
  }

  /** Follows a local $ref at the pointer to what it refers to. */
  private deref(pointer: string): string {
    const ref = (this.at(pointer) as { $ref?: unknown } | undefined)?.$ref;
    return typeof ref === 'string' && ref.startsWith('#') ? this.deref(ref.slice(1)) : pointer;
  }
}

/** One parameter's check and its schema (its bounds and default, for messages). */
export interface ParameterCheck {
  check: (raw: string) => SchemaViolation[];
  schema: Record<string, unknown>;
}

const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

function violations(validate: ValidateFunction): SchemaViolation[] {
  return (
    (validate.errors ?? [])
      // Each failed branch of an anyOf is reported besides the anyOf itself, which says it better.
      .filter((e) => !/\/anyOf\/\d+\//.test(e.schemaPath))
      .map(toViolation)
      // A value of the wrong type makes the other objections to it noise: that one first.
      .sort((a, b) => Number(b.keyword === 'type') - Number(a.keyword === 'type'))
  );
}

function toViolation(e: ErrorObject): SchemaViolation {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') path.push(String(params.missingProperty));
  else if (e.keyword === 'additionalProperties') path.push(String(params.additionalProperty));
  else if (e.keyword === 'not') {
    // `not: {anyOf: [{required: [a, b]}, ...]}` says "not both": the one given second is to blame.
    const both = bothGiven(e.schema, e.data);
    if (both) path.push(both);
  }
  return {
    field: path.length ? path.join('.') : undefined,
    keyword: e.keyword,
    message: e.message ?? 'is not valid',
    params,
    parentSchema: e.parentSchema as Record<string, unknown> | undefined,
  };
}

function bothGiven(not: unknown, data: unknown): string | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const branches = ((not as { anyOf?: unknown[] })?.anyOf ?? [not]) as { required?: string[] }[];
  const given = branches.find((b) => b.required?.length && b.required.every((name) => name in data));
  return given?.required?.at(-1);
}
