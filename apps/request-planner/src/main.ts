import { connectKafkaFromEnv } from '@farm/bus';
import { createJsonModel } from '@farm/llm';
import { createLogger, loadConfig, runService, z } from '@farm/runtime';
import { startRequestPlanner } from './request-planner';

const schema = z.object({
  /** Without a model endpoint every request becomes one task. */
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().default('not-needed'),
  FARM_PLANNER_MODEL: z.string().default('gpt-4o-mini'),
  FARM_PLANNER_MAX_ITEMS: z.coerce.number().int().min(1).max(50).default(8),
  FARM_LLM_STRUCTURED_OUTPUT: z.enum(['true', 'false']).default('false'),
  FARM_METRICS_PORT: z.coerce.number().int().min(0).default(9464),
});

const log = createLogger('request-planner');
const config = loadConfig(schema);
void runService(log, config.FARM_METRICS_PORT, async () => {
  const bus = await connectKafkaFromEnv('request-planner', log);
  const model = config.OPENAI_BASE_URL
    ? createJsonModel({
        baseURL: config.OPENAI_BASE_URL,
        apiKey: config.OPENAI_API_KEY,
        model: config.FARM_PLANNER_MODEL,
        structuredOutput: config.FARM_LLM_STRUCTURED_OUTPUT === 'true',
        log,
      })
    : undefined;
  const sub = await startRequestPlanner({ bus, log, model, maxItems: config.FARM_PLANNER_MAX_ITEMS });
  return { stop: async () => (await sub.stop(), await bus.close()) };
});
