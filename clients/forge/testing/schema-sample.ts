/**
 * The smallest value a JSON schema accepts (required properties only, nulls where allowed, first enum value
 * or branch), and a given value completed the same way. The forge doubles answer with these, so every answer has
 * the documented shape however many fields the forge documents; they validate the result against the schema
 * too, so an overlay that breaks the shape is caught.
 */
type Json = Record<string, unknown>;

export interface SchemaDocument {
  components?: { schemas?: Record<string, unknown> };
}

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2026-11-01T00:00:00Z',
  date: '2026-11-01',
  uri: 'https://forge.example/sample',
  'uri-template': 'https://forge.example/sample{/id}',
  url: 'https://forge.example/sample',
  email: 'sample@forge.example',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'forge.example',
};

export function sampleFromSchema(schema: unknown, doc: SchemaDocument, depth = 0): unknown {
  if (depth > 40) throw new Error('schema sample too deep: a required cycle?');
  if (!schema || typeof schema !== 'object') return null;
  const s = schema as Json;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    return sampleFromSchema(doc.components?.schemas?.[name], doc, depth + 1);
  }
  if (s.nullable === true) return null;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum.includes(null) ? null : s.enum[0];
  // Branches first: `type: [null, ...]` beside a oneOf without a null branch still excludes null.
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = s[key] as unknown[] | undefined;
    if (branches?.length) {
      const nullBranch = branches.find((b) => (b as Json).type === 'null');
      return nullBranch ? null : sampleFromSchema(branches[0], doc, depth + 1);
    }
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
  if (types.includes('null')) return null;
  if (Array.isArray(s.allOf)) {
    // Objects merge; of two plain values the first part's stands (it is the stricter one in GitHub's schemas).
    return s.allOf
      .map((part) => sampleFromSchema(part, doc, depth + 1))
      .reduce((acc, next) => (isPlainObject(acc) && isPlainObject(next) ? { ...next, ...acc } : (acc ?? next)));
  }
  const type = types[0] ?? (s.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Json;
      const out: Json = {};
      for (const name of (s.required as string[] | undefined) ?? []) {
        out[name] = sampleFromSchema(props[name] ?? {}, doc, depth + 1);
      }
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'string':
      return FORMAT_SAMPLES[s.format as string] ?? 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
    default:
      return null;
  }
}

/**
 * `value` completed to what `schema` requires: the value's own fields are kept (and completed in turn), the
 * required ones it lacks are sampled. An object given where the schema allows null gets the object's shape.
 */
export function fillFromSchema(schema: unknown, value: unknown, doc: SchemaDocument, depth = 0): unknown {
  if (value === undefined) return sampleFromSchema(schema, doc, depth);
  if (depth > 40) return value;
  if (Array.isArray(value)) {
    const items = objectVariant(schema, doc)?.items;
    return items ? value.map((v) => fillFromSchema(items, v, doc, depth + 1)) : value;
  }
  if (!isPlainObject(value)) return value;
  const variant = objectVariant(schema, doc);
  if (!variant) return value;
  const props = (variant.properties ?? {}) as Json;
  const out: Json = {};
  for (const name of (variant.required as string[] | undefined) ?? []) {
    out[name] = fillFromSchema(props[name] ?? {}, value[name], doc, depth + 1);
  }
  for (const [name, v] of Object.entries(value)) out[name] = fillFromSchema(props[name] ?? {}, v, doc, depth + 1);
  return out;
}

/** The schema's object (or array) form: $refs followed, allOf merged, the first non-null branch of anyOf/oneOf. */
function objectVariant(schema: unknown, doc: SchemaDocument, depth = 0): Json | undefined {
  if (!isPlainObject(schema) || depth > 20) return undefined;
  if (typeof schema.$ref === 'string') {
    return objectVariant(doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')], doc, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = [schema, ...schema.allOf.map((p) => objectVariant(p, doc, depth + 1) ?? {})];
    // A property several parts describe must satisfy all of them.
    const properties: Json = {};
    for (const part of parts) {
      for (const [name, sub] of Object.entries((part.properties ?? {}) as Json)) {
        properties[name] = name in properties ? { allOf: [properties[name], sub] } : sub;
      }
    }
    const items = parts.map((p) => p.items).filter(Boolean);
    return {
      ...(items.length ? { items: items.length === 1 ? items[0] : { allOf: items } } : {}),
      properties,
      required: [...((schema.required as string[]) ?? []), ...parts.flatMap((p) => (p.required as string[]) ?? [])],
    };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      for (const b of branches) {
        const v = objectVariant(b, doc, depth + 1);
        if (v && (v.properties || v.items)) return v;
      }
    }
  }
  return schema.properties || schema.items ? schema : undefined;
}

const isPlainObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
