import type { z } from '@farm/runtime';
import { zodToJsonSchema, type PostProcessCallback } from 'zod-to-json-schema';

/**
 * A contract with the model (a tool's arguments, a structured answer) is declared once, in zod: the JSON
 * schema the model is given is derived from the same schema that validates what it sends back.
 */
export type ModelJsonSchema = Record<string, unknown>;

/** A tool the model may call: a name, what it does, and a JSON schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: ModelJsonSchema;
}

function derive(schema: z.ZodTypeAny, postProcess?: PostProcessCallback): ModelJsonSchema {
  // Inline (no $ref) and without $schema: the model gets one self-contained object per tool or answer.
  const { $schema: _dialect, ...json } = zodToJsonSchema(schema, {
    target: 'jsonSchema7',
    $refStrategy: 'none',
    postProcess,
  }) as ModelJsonSchema;
  return json;
}

/** The schema of a tool's arguments; optional arguments stay optional (tools are not called in strict mode). */
export function toolSpec(name: string, description: string, args: z.ZodTypeAny): ToolSpec {
  return { name, description, parameters: derive(args) };
}

/** Keywords that strict structured-output endpoints refuse (or ignore); the zod schema still enforces them. */
const CONSTRAINTS = new Set([
  'default',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);

/** Strict structured outputs accept the common subset: every property required, no defaults or bounds. */
const strictAnswerNode: PostProcessCallback = (node) => {
  if (!node) return node;
  const strict = Object.fromEntries(Object.entries(node).filter(([key]) => !CONSTRAINTS.has(key))) as ModelJsonSchema;
  if (strict.type === 'object' && strict.properties) strict.required = Object.keys(strict.properties);
  return strict as typeof node;
};

/**
 * The schema of a structured answer (`JsonModel.completeJson`): the shape only. The model is asked for every
 * field; the zod schema checks the bounds and may be lenient with an answer that leaves a field out (a default).
 */
export function answerSchema(name: string, schema: z.ZodTypeAny): { name: string; schema: ModelJsonSchema } {
  return { name, schema: derive(schema, strictAnswerNode) };
}

/** Zod's complaints in one line the model can act on: `path: message; ...`. */
export function describeIssues(error: z.ZodError, whole: string): string {
  return error.issues.map((i) => `${i.path.join('.') || whole}: ${i.message}`).join('; ');
}
