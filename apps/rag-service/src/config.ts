import os from 'node:os';
import path from 'node:path';
import { componentTokenConfigSchema } from '@farm/access';
import { loadConfig, z } from '@farm/runtime';

// An empty variable (`QDRANT_URL=` in a compose file) means "not set", not "invalid".
const unset = (v: unknown) => (v === '' ? undefined : v);
const optionalUrl = (what: string) =>
  z.preprocess(
    unset,
    z
      .string()
      .regex(/^https?:\/\/[^/\s]+/, { message: `${what} must be an http(s) URL` })
      .optional(),
  );

/** The rag-service's settings (without the cross-field rule, for composing). */
export const ragConfigFields = componentTokenConfigSchema.extend({
  RAG_PORT: z.coerce.number().int().min(0).max(65535).default(8470),
  RAG_HOST: z.string().default('0.0.0.0'),
  /** Set: Qdrant (the cluster backend). Unset: the embedded index, persisted to RAG_INDEX_FILE. */
  QDRANT_URL: optionalUrl('QDRANT_URL (e.g. http://qdrant:6333)'),
  QDRANT_API_KEY: z.preprocess(unset, z.string().optional()),
  RAG_QDRANT_COLLECTION: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,255}$/, { message: 'RAG_QDRANT_COLLECTION: letters, digits, _ and - only' })
    .default('farm_snippets'),
  RAG_QDRANT_BATCH_SIZE: z.coerce.number().int().positive().max(10_000).default(64),
  RAG_INDEX_FILE: z.string().default('.farm/rag/index.json'),
  RAG_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024),
  /** Embeddings are on when this and OPENAI_BASE_URL are set. */
  FARM_EMBEDDINGS_MODEL: z.preprocess(unset, z.string().optional()),
  FARM_EMBEDDINGS_DIMENSIONS: z.preprocess(unset, z.coerce.number().int().positive().optional()),
  OPENAI_BASE_URL: optionalUrl('OPENAI_BASE_URL (an OpenAI-compatible API, e.g. https://api.openai.com/v1)'),
  OPENAI_API_KEY: z.string().min(1).default('not-needed'),
  FARM_WORK_DIR: z.string().default(path.join(os.tmpdir(), 'farm-rag')),
  /** /metrics and /healthz are always on RAG_PORT; set this to serve them on a port of their own as well. */
  FARM_METRICS_PORT: z.preprocess(unset, z.coerce.number().int().min(0).max(65535).optional()),
});

export const ragConfigSchema = ragConfigFields.superRefine((c, ctx) => {
  if (c.FARM_EMBEDDINGS_MODEL && !c.OPENAI_BASE_URL) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['OPENAI_BASE_URL'],
      message: 'FARM_EMBEDDINGS_MODEL is set, so OPENAI_BASE_URL must name the embeddings endpoint',
    });
  }
});

export type RagConfig = z.infer<typeof ragConfigSchema>;
export const loadRagConfig = (env: NodeJS.ProcessEnv = process.env): RagConfig => loadConfig(ragConfigSchema, env);
