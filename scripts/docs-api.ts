/**
 * docs/http-api-reference.md, generated from the HTTP API's contract (apps/orchestrator/openapi.yaml) and the
 * scope table the server enforces (apps/orchestrator/src/api-scopes.ts): every operation with its parameters,
 * request body, answers and scope, then every schema and shared answer. docs-api.test.ts fails while the checked-in
 * page differs from what this writes.
 *
 *   node --import tsx scripts/docs-api.ts           writes the page
 *   node --import tsx scripts/docs-api.ts --check   exits 1 when the page is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROUTE_SCOPES } from '../apps/orchestrator/src/api-scopes';
import { githubSlug } from './docs-links';

export const OPENAPI_PATH = 'apps/orchestrator/openapi.yaml';
export const REFERENCE_PATH = 'docs/http-api-reference.md';
export const REGENERATE = 'node --import tsx scripts/docs-api.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** A JSON Schema (or OpenAPI object) as the YAML holds it: anything, read with care. */
type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const asNode = (v: unknown): Node => (isNode(v) ? v : {});
const text = (v: unknown): string => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');

/**
 * Text for a Markdown table cell or paragraph: whitespace folded, `|` escaped, and `<` outside code spans written as
 * `&lt;` (GitHub would drop `<id>` as an unknown HTML tag).
 */
export function cell(value: string): string {
  return value
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;')))
    .join('')
    .replace(/\|/g, '\\|');
}

/** The name a local `$ref` points at (`#/components/schemas/Error` → Error), or undefined. */
const refName = (ref: unknown) => (typeof ref === 'string' ? ref.split('/').pop() : undefined);

/** GitHub's anchor of a schema's heading (its name, lowercased). */
const schemaLink = (name: string) => `[${name}](#${name.toLowerCase()})`;

/** Follows a local `$ref` (`#/components/...`) to what it names. */
function resolve(doc: Node, node: Node): Node {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  let at: unknown = doc;
  for (const key of ref.slice(2).split('/')) at = asNode(at)[decodeURIComponent(key)];
  return resolve(doc, asNode(at));
}

/**
 * A schema's type in a few words: `string`, `integer or null`, `array of` [Lesson](#lesson), `one of: a, b`;
 * `same as` a field of the schema `within` (the .proto spelling of a field).
 */
export function typeOf(schema: Node, within?: string): string {
  const ref = typeof schema.$ref === 'string' ? schema.$ref : '';
  const [, target, , field] = /^#\/components\/schemas\/([^/]+)(\/properties\/([^/]+))?$/.exec(ref) ?? [];
  if (target && field) return target === within ? `same as \`${field}\`` : `same as ${schemaLink(target)} \`${field}\``;
  if (target) return schemaLink(target);
  if ('const' in schema) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map((v) => `\`${String(v) || '""'}\``).join(', ')}`;
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(schema[key]))
      return (schema[key] as unknown[])
        .map((alt) => {
          const limits = limitsOf(asNode(alt));
          return `${typeOf(asNode(alt), within)}${limits.length ? ` (${limits.join('; ')})` : ''}`;
        })
        .join(' or ');
  const types = Array.isArray(schema.type) ? schema.type.map(String) : schema.type ? [String(schema.type)] : [];
  const named = types.map((t) => {
    if (t === 'array') return `array of ${schema.items ? typeOf(asNode(schema.items), within) : 'anything'}`;
    if (t === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
    return t;
  });
  return named.length ? named.join(' or ') : 'any';
}

/** The limits a schema sets, as a short phrase: `1-500`, `at most 128 characters`, `default 50`, the pattern. */
export function limitsOf(schema: Node): string[] {
  const out: string[] = [];
  const { minimum, maximum, minLength, maxLength, minItems, maxItems, pattern } = schema;
  if (minimum !== undefined && maximum !== undefined) out.push(`${String(minimum)} to ${String(maximum)}`);
  else if (minimum !== undefined) out.push(`at least ${String(minimum)}`);
  else if (maximum !== undefined) out.push(`at most ${String(maximum)}`);
  if (minLength === 1) out.push('not empty');
  else if (minLength !== undefined) out.push(`at least ${String(minLength)} characters`);
  if (maxLength !== undefined) out.push(`at most ${String(maxLength)} characters`);
  if (minItems !== undefined) out.push(`at least ${String(minItems)} items`);
  if (maxItems !== undefined) out.push(`at most ${String(maxItems)} items`);
  if ('default' in schema) out.push(`default \`${JSON.stringify(schema.default)}\``);
  if (typeof pattern === 'string') out.push(`pattern \`${pattern}\``);
  return out;
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A field's or parameter's description, then its limits as a sentence. */
function about(schema: Node, description = schema.description): string {
  const limits = limitsOf(schema).join('; ');
  return [text(description), limits && `${sentence(limits)}.`].filter(Boolean).join(' ');
}

interface Field {
  name: string;
  type: string;
  required: boolean;
  about: string;
}

/**
 * The fields of an object schema, nested inline objects (and arrays of them) flattened to dotted names
 * (`checks[].name`); a field that names another schema links to it instead.
 */
export function fieldsOf(schema: Node, within?: string, prefix = ''): Field[] {
  const props = asNode(schema.properties);
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields: Field[] = [];
  for (const [name, raw] of Object.entries(props)) {
    const prop = asNode(raw);
    fields.push({ name: prefix + name, type: typeOf(prop, within), required: required.has(name), about: about(prop) });
    if (prop.$ref) continue;
    if (isNode(prop.properties)) fields.push(...fieldsOf(prop, within, `${prefix}${name}.`));
    const items = asNode(prop.items);
    if (prop.type === 'array' && !items.$ref && isNode(items.properties))
      fields.push(...fieldsOf(items, within, `${prefix}${name}[].`));
  }
  return fields;
}

function fieldTable(fields: Field[]): string[] {
  if (!fields.length) return [];
  return [
    '| field | type | required | about |',
    '|---|---|---|---|',
    ...fields.map((f) => `| \`${f.name}\` | ${cell(f.type)} | ${f.required ? 'yes' : ''} | ${cell(f.about)} |`),
  ];
}

/** What a schema's object rules add: no other fields, not two names of one field. */
function objectRules(schema: Node): string[] {
  const rules: string[] = [];
  if (schema.additionalProperties === false) rules.push('No other field.');
  const not = asNode(schema.not);
  const pairs = [
    ...(Array.isArray(not.anyOf) ? not.anyOf : [not]).map((n) => asNode(n).required).filter(Array.isArray),
  ] as unknown[][];
  if (pairs.length)
    rules.push(`Not both of: ${pairs.map((p) => p.map((f) => `\`${String(f)}\``).join(' and ')).join('; ')}.`);
  return rules;
}

/** A body's schema in a line: its name linked, or its type and (inline objects) its fields below. */
function bodyLines(content: Node): string[] {
  const lines: string[] = [];
  for (const [mediaType, raw] of Object.entries(content)) {
    const media = asNode(raw);
    const schema = asNode(media.schema ?? media.itemSchema);
    const what = media.itemSchema ? 'a stream of' : '';
    const inline = !schema.$ref && (isNode(schema.properties) || schema.type === 'object');
    lines.push(`\`${mediaType}\`: ${[what, typeOf(schema)].filter(Boolean).join(' ')}`);
    if (inline) {
      if (text(schema.description)) lines.push('', cell(text(schema.description)));
      const fields = fieldsOf(schema);
      if (fields.length) lines.push('', ...fieldTable(fields));
    }
    if (media.example !== undefined) lines.push('', `Example: \`${JSON.stringify(media.example)}\``);
  }
  return lines;
}

/** The scope an operation asks for: its `x-scope`, else the server's scope table (admin for a route it lacks). */
function scopeOf(op: Node, method: string, route: string): string {
  if (typeof op['x-scope'] === 'string') return op['x-scope'];
  return ROUTE_SCOPES[`${method.toUpperCase()} ${route.replace(/\{([^}]+)\}/g, ':$1')}`] ?? 'admin';
}

/** The reference page for an OpenAPI document (parsed). */
export function apiReference(doc: Node): string {
  const info = asNode(doc.info);
  const paths = asNode(doc.paths);
  const components = asNode(doc.components);
  const out: string[] = [
    '# HTTP API reference',
    '',
    `_Generated from ${OPENAPI_PATH} by scripts/docs-api.ts: do not edit this page, edit the document and run \`${REGENERATE}\`._`,
    '',
    `Every operation of the orchestrator's HTTP API (${text(info.title)} ${text(info.version)}, OpenAPI` +
      ` ${text(doc.openapi)}), generated from [openapi.yaml](../${OPENAPI_PATH}), and the scope each asks for, from` +
      ` [api-scopes.ts](../apps/orchestrator/src/api-scopes.ts). How to use it, with examples, is` +
      ` [The HTTP API](api.md#the-http-api); tokens and scopes are [Access control](api.md#access-control).`,
    '',
    cell(text(info.description)),
    '',
    `Served at ${(Array.isArray(doc.servers) ? doc.servers : []).map((s) => `\`${text(asNode(s).url)}\``).join(', ')}` +
      " by default (`farm up`; in a cluster, the orchestrator's Service on `FARM_METRICS_PORT`).",
    '',
    '## Operations',
    '',
    '| method and path | what it does | scope |',
    '|---|---|---|',
  ];
  const operations: { method: string; route: string; op: Node; shared: Node[] }[] = [];
  for (const [route, rawItem] of Object.entries(paths)) {
    const item = asNode(rawItem);
    const shared = (Array.isArray(item.parameters) ? item.parameters : []).map((p) => asNode(p));
    for (const method of METHODS)
      if (isNode(item[method])) operations.push({ method, route, op: item[method], shared });
  }
  const heading = (method: string, route: string) => `\`${method.toUpperCase()} ${route}\``;
  const anchor = (method: string, route: string) => githubSlug(heading(method, route));
  for (const { method, route, op } of operations)
    out.push(
      `| [${heading(method, route)}](#${anchor(method, route)}) | ${cell(text(op.summary))} | ${scopeOf(op, method, route)} |`,
    );

  for (const { method, route, op, shared } of operations) {
    out.push('', `## ${heading(method, route)}`, '', `**${cell(text(op.summary))}**`);
    const facts = [`operation \`${text(op.operationId)}\``];
    const scope = scopeOf(op, method, route);
    const open = Array.isArray(op.security) && op.security.length === 0;
    facts.push(open ? 'no bearer token' : `scope \`${scope}\``);
    out.push('', `${facts.join(', ')}.`);
    if (text(op.description)) out.push('', cell(text(op.description)));

    const params = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : []).map((p) => asNode(p))].map((p) =>
      resolve(doc, p),
    );
    if (params.length) {
      out.push('', '**Parameters**', '', '| name | in | type | required | about |', '|---|---|---|---|---|');
      for (const p of params) {
        const schema = asNode(p.schema);
        out.push(
          `| \`${text(p.name)}\` | ${text(p.in)} | ${cell(typeOf(schema))} | ${p.required ? 'yes' : ''} | ${cell(about(schema, p.description))} |`,
        );
      }
    }
    if (isNode(op.requestBody)) {
      const body = resolve(doc, op.requestBody);
      out.push(
        '',
        `**Request body** (${body.required ? 'required' : 'optional'})`,
        '',
        ...bodyLines(asNode(body.content)),
      );
    }
    out.push('', '**Answers**', '', '| status | meaning | body |', '|---|---|---|');
    const responses = Object.entries(asNode(op.responses)).sort(([a], [b]) => a.localeCompare(b));
    for (const [status, raw] of responses) {
      const shared = refName(asNode(raw).$ref);
      const response = resolve(doc, asNode(raw));
      const bodies = Object.entries(asNode(response.content)).map(([mediaType, m]) => {
        const media = asNode(m);
        const schema = asNode(media.schema ?? media.itemSchema);
        const inline = !schema.$ref && isNode(schema.properties);
        const fields = inline
          ? ` with ${Object.keys(asNode(schema.properties))
              .map((f) => `\`${f}\``)
              .join(', ')}`
          : '';
        return `\`${mediaType}\`: ${media.itemSchema ? 'a stream of ' : ''}${typeOf(schema)}${fields}`;
      });
      const headers = Object.keys(asNode(response.headers));
      const meaning = [
        text(response.description),
        headers.length ? `Headers: ${headers.map((h) => `\`${h}\``).join(', ')}.` : '',
        shared ? `(${shared})` : '',
      ]
        .filter(Boolean)
        .join(' ');
      out.push(`| ${status} | ${cell(meaning)} | ${cell(bodies.join('; '))} |`);
    }
    // Inline answer objects: their fields, so every field of every answer is listed.
    for (const [status, raw] of responses) {
      for (const [, m] of Object.entries(asNode(resolve(doc, asNode(raw)).content))) {
        const schema = asNode(asNode(m).schema);
        if (schema.$ref || !isNode(schema.properties)) continue;
        out.push('', `The ${status} answer's fields:`, '', ...fieldTable(fieldsOf(schema)));
      }
    }
  }

  out.push('', '## Errors and shared answers', '');
  out.push(
    'Every error answer is an [Error](#error): `{"error": {"message", "field"?}}`, `field` naming the input to' +
      ' fix when one is to blame. These answers are shared by the operations above; the document also sets the' +
      ' answer for a path it does not list' +
      ` (${refName(asNode(doc['x-unknown-path-response']).$ref) ?? 'none'}) and for a listed path with another` +
      ` method (${refName(asNode(doc['x-unlisted-method-response']).$ref) ?? 'none'}).`,
    '',
    '| answer | meaning | headers |',
    '|---|---|---|',
  );
  for (const [name, raw] of Object.entries(asNode(components.responses))) {
    const r = asNode(raw);
    const headers = Object.keys(asNode(r.headers)).map((h) => `\`${h}\``);
    out.push(`| ${name} | ${cell(text(r.description))} | ${headers.join(', ')} |`);
  }

  const scheme = Object.entries(asNode(components.securitySchemes));
  if (scheme.length) {
    out.push('', '## Authentication', '');
    for (const [name, raw] of scheme) {
      const s = asNode(raw);
      out.push(`\`${name}\`: ${text(s.type)} ${text(s.scheme)}. ${cell(text(s.description))}`);
    }
  }

  out.push('', '## Schemas');
  for (const [name, raw] of Object.entries(asNode(components.schemas))) {
    const schema = asNode(raw);
    out.push('', `### ${name}`, '');
    if (text(schema.description)) out.push(cell(text(schema.description)), '');
    const fields = fieldsOf(schema, name);
    if (fields.length) out.push(...fieldTable(fields));
    else
      out.push(
        `${cell(sentence(typeOf(schema, name)))}.${limitsOf(schema).length ? ` ${cell(about(schema, ''))}` : ''}`,
      );
    const rules = objectRules(schema);
    if (rules.length) out.push('', rules.join(' '));
  }
  return `${out.join('\n')}\n`;
}

/** The page as generated from the checkout at `root`. */
export function generatedReference(root: string): string {
  return apiReference(parse(readFileSync(path.join(root, OPENAPI_PATH), 'utf8')) as Node);
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  const page = generatedReference(root);
  const file = path.join(root, REFERENCE_PATH);
  if (process.argv.includes('--check')) {
    if (readFileSync(file, 'utf8') !== page) {
      process.stderr.write(`${REFERENCE_PATH} differs from ${OPENAPI_PATH}: run \`${REGENERATE}\` and commit it\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(file, page);
    process.stdout.write(`wrote ${REFERENCE_PATH}\n`);
  }
}
